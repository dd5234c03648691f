"""Runs the Showdown Unit firmware at power-on (copied to the Pico as main.py).

The motor pins are driven low before anything else: this runs after every
reset, the watchdog's included, and until then the H-bridge inputs float.
If the firmware's loop ever dies from an exception, the motor is turned off
again before the traceback reaches the REPL, and the armed watchdog resets
the board within its timeout (a loop that hangs is reset the same way).

Hold the timer button while plugging the board in to skip the firmware and
stay at the REPL (for mpremote).
"""

import fw_pico

fw_pico.motor_off()

import fw_core  # noqa: E402 - after the motor is safe

hw = fw_pico.Hardware()
if hw.button.value() == 0:
    print("timer button held: firmware not started")
else:
    try:
        fw_core.Firmware(hw).run()
    finally:
        fw_pico.motor_off()
