"""Duels: the sans-I/O engine that judges a showdown by timestamps, the duel log's format,
the replay that judges a log again, and who sits at which paddle."""
