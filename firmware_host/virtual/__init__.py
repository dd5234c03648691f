"""A virtual microcontroller: the real firmware under CPython, simulated pins, a pseudo-terminal."""
