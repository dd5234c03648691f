"""The touch toolkit both screens are drawn with: colours and fonts, touch widgets, the view
base class, and the screen's own words."""
