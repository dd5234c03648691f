"""The link's transport is any pyserial port: a URL (`socket://`, opened with
`serial.serial_for_url`) or a port object made beforehand (`loop://`)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import serial

from firmware_host.host.link import BoardLink, Connected, LinkReport, LinkState, Lost
from firmware_host.wire import codec

OPTIONS = {"heartbeat_s": 0.05, "board_timeout_s": 0.4, "retry_open_s": 0.05}


class SocketBoard:
    """A board that speaks the protocol on a TCP socket: answers the hello in our version,
    every heartbeat and every command (ACK), and counts the commands it heard."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.commands: list[tuple[int, str, tuple[int, ...]]] = []
        self.conn: socket.socket | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        self.conn = conn
        decoder = codec.Decoder()
        with conn:
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                for seq, kind, args in decoder.feed(data):
                    conn.sendall(self._answer(seq, kind, args))

    def _answer(self, seq: int, kind: str, args: tuple[int, ...]) -> bytes:
        if kind == codec.HELLO:
            return codec.encode(0, codec.HELLO, (codec.VERSION, 42, 1_000))
        if kind == codec.HB:
            return codec.encode(0, codec.HB, (2_000, 0))
        if seq:
            self.commands.append((seq, kind, args))
            return codec.encode(0, codec.ACK, (seq, codec.ACK_DONE))
        return b""

    def unplug(self) -> None:
        """The cable pulled: the host's next read fails."""
        if self.conn is not None:
            with contextlib.suppress(OSError):  # already gone
                self.conn.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.unplug()
        self.server.close()


@pytest.fixture
def board() -> Iterator[SocketBoard]:
    found = SocketBoard()
    yield found
    found.close()


def test_a_board_behind_a_pyserial_url_is_spoken_to_and_its_loss_heard(
        board: SocketBoard) -> None:
    heard: list[LinkReport] = []
    lost = threading.Event()

    def listener(event: LinkReport) -> None:
        heard.append(event)
        if isinstance(event, Lost):
            lost.set()

    link = BoardLink(board.url, listener, **OPTIONS).start()
    try:
        assert link.wait_ready(3)
        assert link.command(codec.BEEP, (1,)) == 1
        deadline = time.monotonic() + 3
        while link.pending() and time.monotonic() < deadline:
            lost.wait(0.01)
        assert link.pending() == 0 and board.commands == [(1, codec.BEEP, (1,))]
        board.unplug()
        assert lost.wait(3), heard
        assert isinstance(heard[0], Connected) and heard[0].port == board.url
    finally:
        link.close()


def test_a_port_object_made_beforehand_is_the_one_read_and_written() -> None:
    """`loop://` hands back what is written: the link reads its own hello, which is not a
    board's (too short), so it keeps saying hello, on that very object."""
    port = serial.serial_for_url("loop://", do_not_open=True)
    link = BoardLink(port, lambda e: None, **OPTIONS).start()
    try:
        deadline = time.monotonic() + 3
        while link.session.decoder.frames < 2 and time.monotonic() < deadline:
            threading.Event().wait(0.01)
        assert link.session.decoder.frames >= 2  # the hello, said again and read back
        assert port.is_open and link.state is LinkState.HANDSHAKE
        assert link.command(codec.BEEP, (0,)) is None
    finally:
        link.close()
    assert not port.is_open
