"""The contract every part speaks: sides, unit inputs, verdicts, the service's events, the
unit's interface, the errors and the catalogs' lookup. It imports only the standard library,
so every layer may import it."""
