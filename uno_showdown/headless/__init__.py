"""The table without a screen: a duel always loaded, and who plays it told from a terminal
through a local socket."""
