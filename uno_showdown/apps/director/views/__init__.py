"""The director's screen's views, one module each (see `apps.director.screen`)."""
