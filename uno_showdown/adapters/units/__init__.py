"""Showdown Units behind the contract's interface (`contract.unit`): GPIO on a Raspberry Pi,
a Pico over USB serial, the desktop emulator's unit, an in-memory fake; pin maps and the
launcher's safety net; the stop signals of a process that drives a motor."""
