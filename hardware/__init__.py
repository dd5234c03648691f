"""Showdown Unit adapters: GPIO (gpiozero), serial microcontroller, pygame emulator, in-memory fake."""
