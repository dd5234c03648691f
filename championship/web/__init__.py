"""The live page: standings on the players' phones and the bar's TV, served read-only."""
