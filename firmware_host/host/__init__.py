"""The host's end of a Pico unit: the serial link (pyserial), which names can be ports, the
firmware's files and their installation, and a virtual board for a desktop."""
