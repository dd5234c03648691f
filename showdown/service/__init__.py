"""The table's service: the one loop that owns time (`loop`), the dispatch that hands its
events to listeners without ever waiting on them, and the duel log's writer."""
