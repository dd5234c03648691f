"""The touch toolkit both screens are drawn with: colours and fonts, touch widgets, the view
base class, the shell a screen is built in (its router, tabs, notices, window and loop), and
the screen's own words."""
