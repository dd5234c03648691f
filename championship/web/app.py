"""The live page: a read-only Starlette app the director serves (uvicorn), for the players'
phones and the bar's TV.

* `/` the page (one HTML file with its style and script; nothing loaded from elsewhere);
* `/state.json` the page's document now (`state.page_state`);
* `/events` server-sent events: the whole document first, then, each time it changes, a
  patch (`page_state.page_patch`: the entries and standings lines that changed), or the
  whole document again to a page that missed a change;
* `/time` the server's wall clock now (µs): the page keeps its own offset to it (the
  half-way point of its shortest round trip, as NTP does) and counts down to the absolute
  deadlines in the document, so every screen shows the same time however old the document.

Nothing on it changes anything: there is no POST, no form, no command. The director's sync
thread hands each new document to `Hub.publish`, which never waits for a browser: every
connected page reads the newest document when it is ready, and a slow one just skips the
ones in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from championship.core.page_state import page_patch

#: Seconds between comments on an idle stream, so proxies and phones keep it open.
KEEPALIVE_S = 15.0
#: The most event streams open at once; the next is told to come back (503, Retry-After).
MAX_STREAMS = 300
#: Seconds a stream lasts; the page then reconnects by itself (a stream held by a client
#: that went away without a word ends here at the latest).
STREAM_S = 600.0


def _dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


class Hub:
    """The newest document and the patch from the one before, and a way to wait for the
    next (in the server's loop).

    A waiting stream holds no lock: each version has its own `asyncio.Event`, set once when
    the next version replaces it, and a stream waits on the event of the version it has.
    A stream cancelled while it waits (its phone hung up) only leaves that event's list of
    waiters, so any number of them closing at once cannot leave anything held. (A
    condition waited on with `asyncio.wait_for` re-acquired its lock wrongly on Python 3.11
    when cancelled: "Lock is not acquired", then every stream and the stop blocked.)"""

    def __init__(self) -> None:
        self.text = "{}"
        self.patch = ""  # from version - 1 to version ("" when there is none)
        self.version = 0
        self._doc: dict[str, Any] = {}
        self._order = threading.Lock()  # publishers' documents are numbered in turn
        self._loop: asyncio.AbstractEventLoop | None = None
        self._next: asyncio.Event | None = None  # set when a newer version (or the end) comes
        self.closed = False  # the server is stopping: every stream ends

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._next = asyncio.Event()

    def publish(self, state: dict[str, Any]) -> None:
        """From any thread: the page's new document (the patch is worked out here, on the
        publisher's thread, not in the server's loop)."""
        with self._order:
            patch = _dumps(page_patch(self._doc, state)) if self._doc else ""
            self._doc = state
            text = _dumps(state)
            loop = self._loop
            if loop is None or loop.is_closed():
                self.text, self.patch, self.version = text, patch, self.version + 1
                return
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._set, text, patch)

    def close(self) -> None:
        """From any thread, before the server stops: every open event stream ends now, so a
        phone still following the page does not hold the server's shutdown until its grace
        runs out (uvicorn then cancels the stream and logs a traceback)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            self.closed = True
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._close)

    def _wake(self) -> None:
        """In the loop: wake every stream waiting now; later ones wait on a fresh event."""
        woken, self._next = self._next, asyncio.Event()
        if woken is not None:
            woken.set()

    def _close(self) -> None:
        self.closed = True
        self._wake()

    def _set(self, text: str, patch: str) -> None:
        self.text, self.patch, self.version = text, patch, self.version + 1
        self._wake()

    async def wait_newer(self, version: int) -> tuple[int, str]:
        """The next version and what a page at `version` needs of it: the patch when it is
        the very next one, else the whole document. TimeoutError after `KEEPALIVE_S` with
        nothing newer."""
        if self.version <= version and not self.closed:
            assert self._next is not None
            async with asyncio.timeout(KEEPALIVE_S):
                await self._next.wait()
        if self.version == version + 1 and self.patch:
            return self.version, self.patch
        return self.version, self.text


def create_app(hub: Hub, lang: str = "en") -> Starlette:
    page = resources.files("championship.web").joinpath("page.html").read_text("utf-8")
    page = page.replace("{{lang}}", lang)

    async def index(_request: Request) -> Response:
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    async def state(_request: Request) -> Response:
        return Response(hub.text, media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    streams = [0]  # event streams open now

    async def events(request: Request) -> Response:
        if streams[0] >= MAX_STREAMS:
            return Response("busy", status_code=503, headers={"Retry-After": "5"})
        streams[0] += 1

        async def stream() -> AsyncIterator[str]:
            try:
                ends = asyncio.get_running_loop().time() + STREAM_S
                version, text = hub.version, hub.text
                yield f"retry: 2000\ndata: {text}\n\n"
                while not await request.is_disconnected():
                    if asyncio.get_running_loop().time() > ends or hub.closed:
                        return  # the page reconnects (`retry`) and starts a fresh stream
                    try:
                        newer, text = await hub.wait_newer(version)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if hub.closed:
                        return
                    if newer > version:
                        version = newer
                        yield f"data: {text}\n\n"
            finally:
                streams[0] -= 1

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    async def now(_request: Request) -> Response:
        return JSONResponse({"now_us": time.time_ns() // 1000},
                            headers={"Cache-Control": "no-store"})

    async def health(_request: Request) -> Response:
        return JSONResponse({"ok": True, "version": hub.version})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        hub.bind(asyncio.get_running_loop())
        yield

    return Starlette(routes=[Route("/", index), Route("/state.json", state),
                             Route("/events", events), Route("/health", health),
                             Route("/time", now)],
                     lifespan=lifespan)
