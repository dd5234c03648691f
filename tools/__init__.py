"""Maintainers' tools for the repository (not installed with the package)."""
