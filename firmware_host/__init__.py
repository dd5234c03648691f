"""The Pico and the host's side of its wire.

* `wire`: pure: the frame codec (the same module runs on the board as `protocol`), the
  host's copy of the board's clock and the link's sans-I/O session.
* `firmware`: the Pico's own program (MicroPython).
* `host`: the pyserial link, which names can be ports, the firmware's files and their
  installation on a board.
* `virtual`: a virtual board on a pseudo-terminal: the real firmware under CPython.
"""
