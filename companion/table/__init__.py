"""A table's game, pure: the game model, players' names and seats, turns and who duels whom,
the deal, the Item Box, the house rules, and the time box a championship table plays in."""
