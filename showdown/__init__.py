"""The Showdown Unit's brain: the fair duel engine and the service loop that owns time."""
