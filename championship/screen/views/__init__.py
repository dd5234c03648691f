"""The director's screen's views, one module each (see `championship.screen.screen`)."""
