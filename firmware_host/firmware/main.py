"""Runs the Showdown Unit firmware at power-on (copied to the Pico as main.py).

Hold the timer button while plugging the board in to skip the firmware and
stay at the REPL (for mpremote).
"""

import fw_core
import fw_pico

hw = fw_pico.Hardware()
if hw.button.value() == 0:
    print("timer button held: firmware not started")
else:
    fw_core.Firmware(hw).run()
