"""The score keeper's controller: what the screen, the `game` commands and the table ask of a
game kept in the games file."""
