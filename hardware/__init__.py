"""Showdown Unit adapters: GPIO, serial microcontroller, pygame emulator, in-memory fake."""
