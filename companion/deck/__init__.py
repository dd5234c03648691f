"""The cards: the compact notation typed everywhere a hand is entered, and the decks a table
plays with (which cards, how many, their worth)."""

#: The keys of the editions (`editions.EDITIONS`, which imports the cards and makes every
#: deck), for a reader that only asks whether a stored key names one (`game list`); a test
#: holds the two equal.
EDITION_KEYS = ("classic", "showdown", "mario-kart", "teams", "h2o")
