"""The Showdown Unit's brain: the fair duel engine and the service loop that owns time."""

#: The version of uno-showdown, read by the packaging (pyproject.toml) and `--version`.
__version__ = "0.1.0"
