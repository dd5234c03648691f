"""No words reach a user without going through a catalog: the static twin of the screens' "no
cut label" test. Every string literal the program shows to people must be marked (`_()`,
`N_()`, `ngettext()`, `gettext_()`, or another domain's `_` imported under its own name), so
`make translations` puts it in the catalogs and a table reads its own language.

What is shown to people is found by where a literal goes (a *sink*), read from the code:

* `print(...)` and `sys.stdout.write`/`sys.stderr.write` (and the `write` of the firmware
  install, `write = (out or sys.stdout).write`): what a command prints;
* `help=`, `description=`, `epilog=`, `title=`, `usage=` of any call (argparse's parsers,
  arguments and groups): the `--help` text;
* the message of an error the program shows: `ConfigError` and the companion's
  `CompanionError` (and, found here, every class deriving from either), the duel socket's
  `SocketError`, the firmware install's `InstallError`/`CompileError`, the replay's
  `ReplayError`/`LogError`, the duel engine's `DuelError` (the duel socket and `replay` show
  it), `NoDisplayError`, `SystemExit`, `parser.error(...)`;
* what a table says: `say(...)`, `notice(...)`, `tell(...)`, `_complain(...)`;
* text drawn on a screen: `render(text, ...)` (`TextCache.render`, a pygame font's), a
  button's label (`Button`/`BarButton`, third argument or `label=`), and a status line
  assigned to `status`, `message`, `hint` or `label`;
* what a function that makes a line of text returns (named `*_text`, `status`, `describe`);
* the reply of the duel socket, `{"ok": ...}` / `{"error": ...}`, which `uno-showdown duel`
  prints.

Everything inside a sink's argument is looked at (an f-string, `"..." % x`, `"..." + x`, a
call's arguments, as in `print(one_line(f"..."))`) except what a marker call wraps; a name
that stands for a module-level string constant (`NO_DISPLAY.format(...)`) is followed to it.

A literal is *words* when, once its placeholders (`{name}`, `%s`), `code` in backticks, CLI
flags (`--db`), paths and URLs, file and module names, codes with digits or underscores
(`r5`, `F9`, `t_us`), all-capital tokens (metavars, key names: `NAME`, `SPACE`) and the
program's own name are taken out, at least one word of two or more letters is left. Log
messages (`log.info(...)`) are for developers and are no sink; nor are docstrings, dict keys,
metavars or argument names.

A literal that must stay English (a protocol word, a proper noun) goes in `ALLOWED`, with why.
"""

from __future__ import annotations

import ast
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The modules that show text to people, scanned by `wide_scan` (`python -m
#: tests.test_catalog_coverage` prints what it finds there).
SCANNED = ("uno_showdown", "hardware", "firmware_host/host", "companion", "championship",
           "showdown")

#: The modules held to it by the test: those of issue 36, the emulator window (and its duel
#: bar, unit panel and duel door), the headless table and the duel socket, the commands run,
#: duel, replay, selftest, firmware, emulator, simulate (and the options and simulation they
#: share, the entry point and its shared helpers), the firmware install and the GPIO
#: self-test. The companion's screen and the championship keep their own domains and their
#: own tests; the rest of the wider scan is reported, not held (see `wide_scan`).
HELD = (
    "uno_showdown/window",
    "uno_showdown/headless",
    "hardware/emulated.py",
    "hardware/gpio_selftest.py",
    "showdown/duel/text.py",
    "showdown/duel/log_format.py",
    "showdown/duel/replay.py",
    "showdown/duel/engine.py",
    "showdown/service/loop.py",
    "hardware/pinmap.py",
    "hardware/gpio.py",
    "companion/table/pairing.py",
    "companion/store/duels.py",
    "firmware_host/host",
    *(f"uno_showdown/commands/{name}.py" for name in (
        "run", "duel", "replay", "selftest", "firmware", "emulator", "simulate", "simulation",
        "options", "cli", "common", "companion")),
)

#: (path, text) of literals that stay English in a sink, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {
    # (none yet: add `("path/to/module.py", "the text"): "why it stays English"`)
}

#: Calls that mark a string for a catalog (Babel's keywords, tools/translations.py).
MARKERS = frozenset({"_", "N_", "gettext_", "ngettext", "gettext"})
#: Calls whose every positional argument is shown (by function or method name).
SHOWN_CALLS = frozenset({"print", "say", "notice", "tell", "_complain"})
#: Keyword arguments that are help text, in any call (argparse's).
HELP_KEYWORDS = frozenset({"help", "description", "epilog", "title", "usage"})
#: Errors whose message the program shows; their subclasses (found in the scanned code) too.
SHOWN_ERRORS = frozenset({"ConfigError", "CompanionError", "SocketError", "InstallError",
                          "CompileError", "ReplayError", "LogError", "DuelError",
                          "NoDisplayError", "SystemExit"})
#: Names a shown line of text is assigned to (a screen's status line, a label).
TEXT_TARGETS = frozenset({"status", "message", "hint", "label"})
#: Keys of the duel socket's reply, printed by `uno-showdown duel`.
REPLY_KEYS = frozenset({"ok", "error"})
#: The program's own name, a proper noun in every language.
PROPER = frozenset({"uno-showdown"})
#: Calls whose arguments are keys or bits of syntax, not words (`reply.get("ok")`).
KEY_CALLS = frozenset({"get", "pop", "setdefault", "getattr", "hasattr", "setattr", "startswith",
                       "endswith", "removeprefix", "removesuffix", "split", "rsplit",
                       "partition", "index", "find", "count", "replace", "strip", "encode",
                       "decode", "isinstance"})
#: The commands (`uno-showdown replay: ...` or `replay: ...` opens a line with its name).
COMMAND_PREFIX = re.compile(r"^(uno-showdown )?[a-z-]+: ")

_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[sdrifx%]")
_BACKTICKS = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[^\W\d_]{2,}(?:['’-][^\W\d_]+)*")
_PUNCT = "\"'.,:;!?()[]<>«»“”…—–*"


def is_words(text: str) -> bool:
    """Whether `text` holds at least one word for people (see the module's docstring)."""
    from uno_showdown.commands.cli import COMMANDS

    if (prefix := COMMAND_PREFIX.match(text)) and prefix[0].split()[-1][:-1] in COMMANDS:
        text = text[prefix.end():]  # the command's name, as a line's prefix
    text = _BACKTICKS.sub(" ", _PLACEHOLDER.sub(" ", text))
    for token in text.split():
        token = token.strip(_PUNCT)
        if (not token or token.startswith("-") or token.lower() in PROPER
                or any(ch in token for ch in "/\\=_.@#") or any(ch.isdigit() for ch in token)
                or (token.isupper() and len(token) > 1)):
            continue
        if _WORD.fullmatch(token):
            return True
    return False


def literal_text(node: ast.AST) -> str | None:
    """The text of a string literal or f-string (its fields as `{}`), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else "{}" for v in node.values)
    return None


def _name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def shown_errors(paths: list[Path]) -> set[str]:
    """`SHOWN_ERRORS` and every class of `paths` that derives from one, by name."""
    bases: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    n for b in node.bases if (n := _name(b)) is not None)
    shown = set(SHOWN_ERRORS)
    while grown := {c for c, bs in bases.items() if c not in shown and bs & shown}:
        shown |= grown
    return shown


class _Module:
    """The words in sinks of one module that no marker wraps."""

    def __init__(self, path: Path, errors: set[str]) -> None:
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.errors = errors
        self.markers = set(MARKERS)
        self.constants: dict[str, ast.AST] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("i18n"):
                self.markers |= {a.asname or a.name for a in node.names}  # `_ as core_`
        for node in self.tree.body:
            if (isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
                    and isinstance(target := (node.targets[0] if isinstance(node, ast.Assign)
                                              else node.target), ast.Name)):
                self.constants[target.id] = node.value
        self.found: dict[int, tuple[int, str]] = {}  # id(node) -> (line, text)

    def offenders(self) -> list[tuple[int, str]]:
        for sink in self._sinks():
            self._look(sink, followed=set())
        return sorted(self.found.values())

    def _sinks(self) -> Iterator[ast.AST]:
        parser_calls = {id(call) for cls in ast.walk(self.tree)
                        if isinstance(cls, ast.ClassDef) and cls.name.endswith("Parser")
                        for call in ast.walk(cls) if isinstance(call, ast.Call)}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                name = _name(node.func)
                if name in self.markers:
                    continue
                for kw in node.keywords:
                    if kw.arg in HELP_KEYWORDS or (
                            kw.arg == "label" and name in {"Button", "BarButton"}):
                        yield kw.value
                if name in SHOWN_CALLS or name in self.errors:
                    yield from node.args
                elif name in {"error", "exit"} and isinstance(node.func, ast.Attribute) and (
                        "parser" in ast.unparse(node.func.value).lower()
                        or (id(node) in parser_calls and ast.unparse(node.func.value) == "self")):
                    yield from node.args  # argparse's `parser.error(...)`, `self.exit(2, ...)`
                elif name == "write" and _is_output(node.func):
                    yield from node.args
                elif name == "render" and node.args:
                    yield node.args[0]
                elif name in {"Button", "BarButton"} and len(node.args) > 2:
                    yield node.args[2]
            elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name | ast.Attribute):
                pass  # a bare class raised: no message
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(_name(t) in TEXT_TARGETS for t in targets):
                    yield node.value
            elif isinstance(node, ast.FunctionDef) and (
                    node.name.endswith("_text") or node.name in {"status", "describe"}):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Return) and sub.value is not None:
                        yield sub.value
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in REPLY_KEYS:
                        yield value

    def _look(self, node: ast.AST, followed: set[str]) -> None:
        if isinstance(node, ast.Call) and _name(node.func) in self.markers:
            return  # marked: a catalog has it
        if isinstance(node, ast.Subscript):  # `row["key"]`: a key, not words
            self._look(node.value, followed)
            return
        if isinstance(node, ast.Compare | ast.Lambda):
            return
        if isinstance(node, ast.Call) and _name(node.func) in KEY_CALLS:
            if isinstance(node.func, ast.Attribute):
                self._look(node.func.value, followed)
            return
        text = literal_text(node)
        if text is not None:
            if is_words(text):
                self.found[id(node)] = (getattr(node, "lineno", 0), text)
            if isinstance(node, ast.JoinedStr):  # its fields may hold words too
                for value in node.values:
                    if isinstance(value, ast.FormattedValue):
                        self._look(value.value, followed)
            return
        if isinstance(node, ast.Name) and node.id in self.constants \
                and node.id not in followed:
            self._look(self.constants[node.id], followed | {node.id})
            return
        if isinstance(node, ast.Dict):  # the values, not the keys
            for value in node.values:
                self._look(value, followed)
            return
        for child in ast.iter_child_nodes(node):
            self._look(child, followed)


def _is_output(func: ast.AST) -> bool:
    """`sys.stdout.write`, `sys.stderr.write`, `(out or sys.stdout).write` or a bare `write`
    bound to one of them (the firmware install's)."""
    if isinstance(func, ast.Name):
        return True
    assert isinstance(func, ast.Attribute)
    receiver = ast.unparse(func.value)
    return "stdout" in receiver or "stderr" in receiver


def python_files(roots: tuple[str, ...], base: Path = ROOT) -> list[Path]:
    files: list[Path] = []
    for root in roots:
        path = base / root
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return [f for f in files if "locale" not in f.parts]


def offenders(paths: list[Path], base: Path = ROOT) -> list[str]:
    """`path:line: "text"` for each unmarked literal in a sink of `paths`."""
    errors = shown_errors(python_files(SCANNED, base) if base == ROOT else paths)
    found = []
    for path in paths:
        rel = path.relative_to(base).as_posix()
        for line, text in _Module(path, errors).offenders():
            if (rel, text) not in ALLOWED:
                found.append(f'{rel}:{line}: "{text}"')
    return found


def report(found: list[str]) -> str:
    return (f"{len(found)} string(s) shown to people are in no catalog: wrap each in `_()` "
            "(or `N_()` where it is defined and `_()` where shown), then run `make "
            "translations` and translate; a literal that must stay English goes in "
            "ALLOWED with its reason\n" + "\n".join(found))


def test_every_string_shown_is_in_a_catalog() -> None:
    found = offenders(python_files(HELD))
    assert found == [], report(found)


def test_the_held_modules_exist() -> None:
    """Sanity: a moved module would silently leave the test nothing to hold."""
    assert [p for p in HELD if not (ROOT / p).exists()] == []
    assert len(python_files(HELD)) > 20


@pytest.mark.parametrize(("text", "words"), [
    ("Unplanted words here", True), ("cannot open {path}: {why}", True), ("F9", False),
    ("r5", False), ("{name}: {value}", False), ("--db", False), ("duels.jsonl", False),
    ("https://example.org/x", False), ("uno-showdown {}: {}", False), ("LEFT,RIGHT", False),
    ("t_us", False), ("%s: %d", False), ("`uno-showdown duel`", False), ("  ", False),
    ("раунд", True), ("won", True), ("{} at tick {}", True), ("replay: ", False),
    ("replay: line {}: not JSON", True), ("uno-showdown duel: {}", False),
])
def test_what_counts_as_words(text: str, words: bool) -> None:
    assert is_words(text) is words


def test_a_planted_string_is_found(tmp_path: Path) -> None:
    """The test fails on a string planted in a held module, and not on one marked."""
    module = ROOT / "uno_showdown" / "commands" / "replay.py"
    tree = tmp_path / "uno_showdown" / "commands"
    tree.mkdir(parents=True)
    planted = tree / "replay.py"
    shutil.copy(module, planted)
    lines = planted.read_text(encoding="utf-8")
    planted.write_text(lines + '\n\ndef _planted() -> None:\n'
                       '    print("Unplanted words here")\n'
                       '    print(_("Marked words here"))\n'
                       '    raise ConfigError(f"planted {lines} error")\n'
                       '    raise SystemExit(_("marked {x}").format(x=1))\n', encoding="utf-8")
    total = len(planted.read_text(encoding="utf-8").splitlines())
    found = offenders([planted], base=tmp_path)
    assert f'uno_showdown/commands/replay.py:{total - 3}: "Unplanted words here"' in found
    assert f'uno_showdown/commands/replay.py:{total - 1}: "planted {{}} error"' in found
    assert not [f for f in found if "arked" in f]
    assert "wrap each in `_()`" in report(found)


def test_each_kind_of_sink_is_held(tmp_path: Path) -> None:
    source = '''
import argparse, sys
from showdown.contract.i18n import _ as core_
NO_WAY = "there is no way: {why}"
def make(p, say, text, exc):
    p.add_argument("--db", help="the games file", metavar="PATH")
    argparse.ArgumentParser(description=f"A table {text}")
    sys.stderr.write("cannot go on\\n")
    say(one_line(f"a duel for {text}"))
    raise ConfigError(NO_WAY.format(why=exc))
    parser.error("two players please")
    self.status = "waiting for the timer"
    text.render("Press here", 12, (0, 0, 0))
    Button("key", None, "Tap me", None)
    log.warning("developers read this")
    print(core_("marked"), "{name}: {value}", row["a key"], "F9")
    return {"error": "the window did not answer", "see": "not a reply key"}
def verdict_text():
    return "nobody won"
'''
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    texts = [line.split(": ", 1)[1] for line in offenders([path], base=tmp_path)]
    assert texts == ['"there is no way: {why}"', '"the games file"', '"A table {}"',
                     '"cannot go on\n"', '"a duel for {}"', '"two players please"',
                     '"waiting for the timer"', '"Press here"', '"Tap me"',
                     '"the window did not answer"', '"nobody won"']


def wide_scan() -> list[str]:
    return offenders(python_files(SCANNED))


if __name__ == "__main__":  # the wider scan, reported rather than held
    found = wide_scan()
    print("\n".join(found))
    print(f"{len(found)} in {len({f.split(':')[0] for f in found})} files", file=sys.stderr)
