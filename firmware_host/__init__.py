"""The wire between the host and a microcontroller unit: protocol codec, host link, firmware."""
