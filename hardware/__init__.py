"""The Showdown Units the service drives, behind the contract's interface
(`showdown.contract.unit`): GPIO on a Raspberry Pi (gpiozero), a Pico over USB serial
(`serial_unit`), the desktop emulator's unit (`emulated`, with its sound on pygame), an
in-memory fake; pin maps, the self-test, the launcher's safety net and the stop signals of a
process that drives a motor."""
