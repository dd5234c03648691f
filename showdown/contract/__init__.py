"""The contract every part speaks: sides, unit inputs, verdicts, the service's events, the
unit's interface, the errors, the catalogs' lookup and the silencer of what C libraries
print. It imports only the standard library, so every layer may import it."""
