"""MicroPython firmware for the Pico (fw_core runs in the virtual microcontroller too)."""
