"""The project's import graph, read with `ast`, and the layering rules it must keep.

Every module of every package is parsed (nothing is imported or run); every import
statement counts, at module level and inside functions alike, relative ones resolved.
`check(root)` returns the broken rules as one line each, with the rule's reason, so a
failing test says what to fix and why the rule exists.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("showdown", "hardware", "companion", "firmware_host", "championship")
CONTRACT = "showdown.events"
CODEC = "firmware_host.protocol"
FIRMWARE = "firmware_host.firmware"
#: Modules the MicroPython firmware may use besides the standard library's names.
MICROPYTHON_MODULES = frozenset({
    "machine", "micropython", "rp2", "utime", "uselect", "ustruct", "usys", "uos", "ujson",
    "uasyncio", "uarray", "ucollections", "uctypes", "network", "bluetooth", "esp", "esp32",
    "pyb",
})
#: The standard-library modules MicroPython's ports ship, under CPython's names (its library
#: reference: array, asyncio, binascii, ...). CPython's standard library is far larger:
#: dataclasses, typing, enum or functools pass an import check on CPython and fail on the
#: board at boot, so the firmware may use only these.
MICROPYTHON_STDLIB = frozenset({
    "array", "asyncio", "binascii", "builtins", "cmath", "collections", "errno", "gc",
    "gzip", "hashlib", "heapq", "io", "json", "math", "os", "platform", "random", "re",
    "select", "socket", "ssl", "struct", "sys", "time", "zlib", "_thread",
})
#: The command line: it sits on top and composes everything else.
COMMAND_LINE = ("showdown.cli", "showdown.__main__", "showdown.commands", "showdown.window",
                "showdown.duel_bar", "hardware.commands", "companion.commands",
                "companion.screen_command", "firmware_host.commands", "championship.commands",
                "championship.sync.commands")
#: Besides the command line, the only modules that may install signal handlers: the one the
#: commands that run the table use (it stops the motor first), and the body of the
#: director's `event serve`, which drives no motor and owns its own process.
SIGNAL_OWNERS = ("hardware.stop_signals", "championship.sync.serve")
#: The service's own modules: they see a unit only through its interface.
SERVICE_CORE = ("showdown.service", "showdown.dispatch", "showdown.duel_log", "showdown.replay")
#: Modules a pure core must not touch: clocks, threads, files, sockets, devices, screens.
IMPURE = frozenset({
    "time", "datetime", "threading", "_thread", "os", "io", "socket", "select", "selectors",
    "subprocess", "signal", "asyncio", "sqlite3", "logging", "pathlib", "shutil", "tempfile",
    "multiprocessing", "serial", "pygame", "gpiozero", "platformdirs",
})
PURE_CORES = ("showdown.duel", "showdown.events", CODEC, "companion.scoring", "championship.draw")


@dataclass(frozen=True, slots=True)
class Import:
    importer: str  # the importing module, dotted
    target: str  # the module imported, dotted (absolute)
    line: int
    path: Path

    def where(self) -> str:
        return f"{self.path}:{self.line}"


def modules(root: Path, packages: Iterable[str] = PACKAGES) -> Iterator[tuple[str, Path]]:
    """(dotted name, path) of every module in the packages under `root`."""
    for package in packages:
        base = root / package
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def imports(root: Path, packages: Iterable[str] = PACKAGES) -> list[Import]:
    """Every import in the packages, function-level ones included.

    The firmware's modules sit side by side on the board, with the codec copied beside
    them as `protocol`: there a flat `import fw_core` or `import protocol` is resolved to
    the module it names here.
    """
    known = {name for name, _ in modules(root, packages)}
    out: list[Import] = []
    for name, path in modules(root, packages):
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))

        def flat(target: str, importer: str = name) -> str:
            if not _within(importer, FIRMWARE):
                return target
            if target == "protocol":
                return CODEC
            sibling = f"{FIRMWARE}.{target}"
            return sibling if sibling in known else target

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    out.append(Import(name, flat(alias.name), node.lineno, path))
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(name, is_package, node.module, node.level)
                for alias in node.names:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    out.append(Import(name, sub if sub in known else base, node.lineno, path))
            elif _is_import_module_call(node):
                assert isinstance(node, ast.Call)
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.append(Import(name, arg.value, node.lineno, path))
    return out


def _absolute(module: str, is_package: bool, target: str | None, level: int) -> str:
    if level == 0:
        return target or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, target] if target else parts)


def _is_import_module_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or not node.args:
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "import_module"
            and isinstance(func.value, ast.Name) and func.value.id == "importlib")


def _within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _top(module: str) -> str:
    return module.split(".")[0]


def _stdlib(module: str) -> bool:
    return _top(module) in sys.stdlib_module_names or _top(module) == "__future__"


@dataclass(frozen=True, slots=True)
class Rule:
    """A layering rule: which importers it governs, which imports break it, and why."""

    name: str
    applies: Callable[[str], bool]
    breaks: Callable[[Import], bool]
    reason: str


def _project(target: str) -> bool:
    return _top(target) in PACKAGES


def _firmware_breaks(i: Import) -> bool:
    target = i.target
    if target == CODEC or _within(target, FIRMWARE):
        return False  # the codec, and the firmware's own modules
    if _project(target):
        return True
    return _top(target) not in MICROPYTHON_STDLIB | MICROPYTHON_MODULES


RULES: tuple[Rule, ...] = (
    Rule(
        "the contract imports only the standard library",
        lambda m: m == CONTRACT,
        lambda i: not _stdlib(i.target),
        "everybody imports showdown.events, so it must import nobody: anything else would "
        "tie every layer to that module and make cycles possible",
    ),
    Rule(
        "the duel engine imports only the standard library and the contract",
        lambda m: m == "showdown.duel",
        lambda i: not (_stdlib(i.target) or i.target == CONTRACT),
        "the engine is a sans-I/O state machine: judged on stamps alone, testable and "
        "replayable without a unit, a screen or a file",
    ),
    Rule(
        "pure cores read no clock and do no I/O",
        lambda m: _within(m, *PURE_CORES),
        lambda i: _top(i.target) in IMPURE,
        "a verdict (or a decoded line) must depend on its inputs alone, or replay could "
        "disagree with the table",
    ),
    Rule(
        "hardware imports from showdown only the contract",
        lambda m: _within(m, "hardware"),
        lambda i: _within(i.target, "showdown") and i.target != CONTRACT,
        "adapters sit below the service: they report inputs and raise ConfigError in the "
        "contract's terms, never with the engine's or the command line's types",
    ),
    Rule(
        "companion imports neither hardware nor firmware_host",
        lambda m: _within(m, "companion"),
        lambda i: _within(i.target, "hardware", "firmware_host"),
        "the score keeper knows nothing of pins or ports: it hears the table through the "
        "service's events, whatever unit runs it",
    ),
    Rule(
        "companion imports from showdown only the contract",
        lambda m: _within(m, "companion"),
        lambda i: _within(i.target, "showdown") and i.target != CONTRACT,
        "the score keeper must not depend on the engine's internals or on the command "
        "line (loading it must not load the service or a unit)",
    ),
    Rule(
        "companion does not import championship",
        lambda m: _within(m, "companion"),
        lambda i: _within(i.target, "championship"),
        "the championship uses the score keeper for its games and scoring, never the reverse: "
        "a table keeps score without an event",
    ),
    Rule(
        "championship imports neither hardware nor firmware_host, and from showdown only the "
        "contract",
        lambda m: _within(m, "championship") and not _within(m, *COMMAND_LINE),
        lambda i: (_within(i.target, "hardware", "firmware_host")
                   or (_within(i.target, "showdown") and i.target != CONTRACT)),
        "the organiser's side runs on a laptop without a unit; it hears tables through the "
        "store and the broker, not through the engine",
    ),
    Rule(
        "the firmware imports only the codec",
        lambda m: _within(m, FIRMWARE),
        _firmware_breaks,
        "the firmware runs on MicroPython, where only the codec is copied beside it; "
        "anything else from this project (or from PyPI), and any standard module MicroPython "
        "lacks (dataclasses, typing, ...), is not on the board",
    ),
    Rule(
        "the service sees a unit only through its interface",
        lambda m: _within(m, *SERVICE_CORE),
        lambda i: _within(i.target, "hardware") and i.target != "hardware.base",
        "the loop that owns time drives any unit alike; an adapter is chosen by the command "
        "that runs the table",
    ),
    Rule(
        "only the command line imports the command line",
        lambda m: not _within(m, *COMMAND_LINE),
        lambda i: _within(i.target, "showdown.cli", "showdown.commands", "showdown.window"),
        "the command line sits on top and composes the rest; a layer below it that imports "
        "it would need argparse, pygame and every other part to run",
    ),
    Rule(
        "only the commands install signal handlers",
        lambda m: not _within(m, *COMMAND_LINE, *SIGNAL_OWNERS),
        lambda i: i.target == "signal",
        "one place owns SIGTERM, SIGINT and SIGHUP: the command that runs the process (for the "
        "table, through hardware.stop_signals, which stops the motor first); adapters and "
        "libraries only offer close()",
    ),
)


def check(root: Path, packages: Iterable[str] = PACKAGES,
          rules: Iterable[Rule] = RULES) -> list[str]:
    """Every broken rule, one line each: where, what, the rule, and why it exists."""
    found = []
    for imp in imports(root, packages):
        for rule in rules:
            if rule.applies(imp.importer) and rule.breaks(imp):
                found.append(f"{imp.where()}: {imp.importer} imports {imp.target}: "
                             f"breaks '{rule.name}', because {rule.reason}")
    return found
