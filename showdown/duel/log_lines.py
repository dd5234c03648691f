"""Reading a duel log's lines: one at a time, none too long, each a JSON object.

The one reader of the log's lines, for the replay (`log_format.decode_line` then judges them)
and for the score keeper, which takes duels back from a log (`companion.store.recover`) and
needs none of the engine to do it: this module imports only the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Protocol

#: The longest duel-log line read: a table's lines are about 200 characters. Past this the
#: input is not a duel log (a binary file, /dev/zero), and reading on would fill the memory.
MAX_LOG_LINE_CHARS = 64 * 1024


class LogLineError(ValueError):
    """A duel-log line that is not a record; the message says what is wrong with it."""


class LogLineTooLong(LogLineError):
    """Line `line` is longer than `MAX_LOG_LINE_CHARS`: the input is not a duel log."""

    def __init__(self, line: int) -> None:
        super().__init__(f"line {line} is longer than {MAX_LOG_LINE_CHARS:,} characters: "
                         "this is not a duel log")
        self.line = line
        self.limit = MAX_LOG_LINE_CHARS


class _Readable(Protocol):
    def readline(self, size: int = -1, /) -> str: ...


def log_lines(stream: _Readable) -> Iterator[str]:
    """The lines of a duel log, one at a time, none longer than `MAX_LOG_LINE_CHARS`
    (`LogLineTooLong`): a log of any length is read in little memory."""
    number = 0
    while line := stream.readline(MAX_LOG_LINE_CHARS + 1):
        number += 1
        if len(line) > MAX_LOG_LINE_CHARS:
            raise LogLineTooLong(number)
        yield line


def parse_log_line(text: str) -> dict[str, Any] | None:
    """One duel-log line as its JSON object; None for a blank line. `LogLineError` when it
    is not a JSON object (not JSON, nested past the parser, a number of 4,300 digits)."""
    if not text.strip():
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogLineError(f"not JSON ({exc.msg})") from exc
    except RecursionError:
        raise LogLineError("not a duel-log record (nested too deeply)") from None
    except ValueError:  # the only other refusal: a number of more than 4,300 digits
        raise LogLineError("not a duel-log record (a number with too many digits)") from None
    if not isinstance(obj, dict):
        raise LogLineError("expected a JSON object")
    return obj
