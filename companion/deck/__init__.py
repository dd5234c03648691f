"""The cards: the compact notation typed everywhere a hand is entered, and the decks a table
plays with (which cards, how many, their worth)."""
