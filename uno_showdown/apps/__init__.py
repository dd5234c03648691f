"""What a person runs, composed from everything below: the commands (`commands`), the table's
window (`window`), the score keeper's screen (`screen`, on the touch toolkit `touch` and the
controller `scorekeeper`), the headless table and its duel socket (`headless`), the
organiser's machinery (`championship`) and screen (`director`), and the live page (`web`)."""
