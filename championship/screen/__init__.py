"""The director's touch screen: registration, seating, the clock, standings, the final."""
