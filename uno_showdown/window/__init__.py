"""The table's window on a desktop: the emulated unit, the duel bar, and the score keeper's
screen beside them."""
