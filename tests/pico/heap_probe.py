"""The firmware with a heap probe, for the emulated Pico's heap test (MicroPython only).

Run at the REPL of a board started with the timer button held, in place of
main.py: the very firmware (fw_pico's Hardware, fw_core's Firmware) serves the
host, and at the first hello and after each launch ends the probe collects
garbage and notes `gc.mem_free()`. After `DUELS` launches it writes the figures
to `heap.txt`, one per line, lights the Pico's own LED (GP25) to say so, and goes
on serving.
"""

import gc

import fw_core
import fw_pico
import machine

DUELS = 10  # replaced by the test


class Probe(fw_pico.Hardware):
    def __init__(self):
        super().__init__()
        self.fw = None
        self.readings = []
        self.seen_launches = 0
        self.in_session = False
        self.written = False

    def running(self):
        fw = self.fw
        if fw.session and not self.in_session:
            self.in_session = True
            self.note()
        elif fw.launches != self.seen_launches and not fw.motor_on:
            self.seen_launches = fw.launches
            self.note()
        return True

    def note(self):
        if self.written:
            return
        gc.collect()
        self.readings.append(gc.mem_free())
        if len(self.readings) > DUELS:
            with open("heap.txt", "w") as out:
                for free in self.readings:
                    out.write(str(free) + "\n")
            self.written = True
            machine.Pin(25, machine.Pin.OUT, value=1)


fw_pico.motor_off()
hw = Probe()
hw.fw = fw_core.Firmware(hw)
hw.fw.run()
