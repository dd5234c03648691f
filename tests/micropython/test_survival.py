"""On MicroPython too, a frame whose handling raises is skipped, counted and answered."""

from __future__ import annotations

from firmware_host.wire import codec
from tests.micropython.runner import MicroPython


def test_a_failing_frame_does_not_stop_the_loop_on_micropython(micropython: MicroPython) -> None:
    stream = (codec.encode(0, codec.HELLO, (codec.VERSION,)) + codec.encode(0, codec.HB)
              + codec.encode(1, codec.BEEP, (1,)) + codec.encode(2, codec.ARROW, (0,)))
    micropython.run(
        "_sb = bare_board.Board()\n"
        "_real = _sb.fw._command\n"
        "def _failing(seq, kind, args, now):\n"
        "    if kind == 'BP':\n"
        "        raise MemoryError('memory allocation failed')\n"
        "    return _real(seq, kind, args, now)\n"
        "_sb.fw._command = _failing\n"
        f"_sb.send({stream!r})\n"
    )
    out = codec.Decoder().feed(
        bytes.fromhex(micropython.call("bare_board.call(_sb, 'run', [3000])")))
    state = micropython.call("_sb.state()")
    micropython.run("del _sb, _real, _failing")
    assert state["frame_failures"] == 1 and state["arrows"] == [1, 0]  # the next frame ran
    assert (0, codec.NAK, (1, codec.NAK_FAILED)) in out
    assert (0, codec.ACK, (2, codec.ACK_DONE)) in out
    faults = [f[2] for f in out if f[1] == codec.FAULT]
    assert [f[0] for f in faults] == [codec.FAULT_FRAME_FAILED] and faults[0][2] == 1
