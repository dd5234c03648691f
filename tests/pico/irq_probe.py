"""Real edges on the firmware's IRQ handlers with the heap locked (MicroPython only).

Run at the REPL of a board started with the timer button held. It builds the
firmware on fw_pico's Hardware, locks the heap, lights the go LED (the test's
runner presses both paddles at one instant, the timer button and the card sensor when it sees
it; the card 25 ms later, past the sensor's 20 ms debounce from boot) and waits,
allocating nothing, until the ring holds three edges and one card; then it
prints what the handlers stored. A handler that allocated would fail in its
interrupt and store nothing.
"""

import time

import fw_core
import fw_pico
import micropython

fw_pico.motor_off()
hw = fw_pico.Hardware()
fw = fw_core.Firmware(hw)
idx = fw._idx
cards = fw._cards
start = time.ticks_ms()
micropython.heap_lock()
hw.go_led.value(1)
while (idx[0] < 3 or cards[0] < 1) and time.ticks_diff(time.ticks_ms(), start) < 5000:
    pass
micropython.heap_unlock()
print("edges", idx[0], "overflow", idx[2], "kinds", fw._ring_k[0], fw._ring_k[1],
      fw._ring_k[2], "cards", cards[0])
