"""The project's import graph, read with `ast`, and the rules it must keep.

The rules' table is `layers.toml` at the top of the repository: the parts (the packages at
the top) and the arrows allowed between them; inside each part its layers, bottom to top,
and what each stands on; where each library from outside the standard library may be
imported. Every module of the parts is parsed (nothing is imported or run) and every way a
module can name another counts, because a module loaded by name is still a dependency:

* import statements, at module level, inside functions and under `if TYPE_CHECKING:` alike,
  relative ones resolved; the firmware's flat `import fw_core` (and `import protocol`, the
  codec's name on the board) resolved to the module it names here;
* `importlib.import_module("...")` with a literal name, and any string that names a module
  of ours: exactly ("hardware.gpio"), with an attribute ("hardware.gpio.GpioUnit"), or as
  `pkgutil.resolve_name` spells it ("hardware.gpio:GpioUnit");
* a name built at run time on a literal head (`"uno_showdown.window." + part`,
  `f"championship.desk.{name}"`): an import of every module under that head (each judged
  by the rules; a cycle, though, is made of arrows that are all certain, so these inexact
  ones are left out of cycles);
* an attribute chain off an imported package (`import companion` then
  `companion.store.games.Store`): an import of the module the chain reaches;
* the import statements in a literal passed to `exec` or `eval`.

Outside the composition, names the checker cannot read are refused outright: `exec`, `eval`,
`__import__`, `pkgutil.resolve_name`, and `importlib.import_module` with anything but a
literal (rule `DYNAMIC`).

`check(root)` returns each broken rule as one line: where, what, what to fix, the rule and
its reason, so a failing test says what to do and why the rule exists. Parsing is cached by
a file's text, so a scratch copy with one file changed is checked again in a moment.
`python -m tests.import_graph` prints the graph between the parts (see `main`).
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import re
import sys
import tomllib
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

#: The parts, bottom to top, when no table says otherwise (`python -m tests.import_graph`).
PARTS = ("showdown", "firmware_host", "hardware", "companion", "championship", "uno_showdown")
#: The composition: it may import every part, and only it may load modules by computed names.
COMPOSITION = "uno_showdown"
#: The layer everybody imports: the standard library only.
CONTRACT = "showdown.contract"
#: The firmware's package, and the codec it finds as `protocol` on the board. The old layout
#: (one `uno_showdown` package) is read too, for `main`'s graph of an old checkout.
FIRMWARE = "firmware_host.firmware"
CODECS = ("firmware_host.wire.codec", "uno_showdown.core.board.codec")
CODEC = CODECS[0]
#: The command line: parsers and `main`, on top of everything.
COMMAND_LINE = ("uno_showdown.commands", "uno_showdown.__main__")
#: Who may install signal handlers: the composition, which runs the process, and the table's
#: stop signals (they stop the motor before the process ends).
SIGNAL_OWNERS = (COMPOSITION, "hardware.stop_signals")
#: Modules that compile code they write themselves, as `dataclasses` does, and so call `exec`
#: (only `exec`: never `eval`, `import_module` or `resolve_name`): a record's `__init__` is
#: made from its class's field names in the module itself, and its source imports nothing.
CODE_WRITERS = ("showdown.contract.record",)
#: Modules MicroPython has that CPython lacks (the firmware may use them).
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
#: Standard modules a pure layer must not touch: clocks, threads, files, sockets, processes.
IMPURE = frozenset({
    "time", "datetime", "threading", "_thread", "os", "io", "socket", "select", "selectors",
    "subprocess", "signal", "asyncio", "sqlite3", "logging", "pathlib", "shutil", "tempfile",
    "multiprocessing", "concurrent", "queue", "urllib", "http", "ssl", "sched", "ctypes",
})

_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


# --- reading the modules ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Import:
    """One module naming another: what, where, and how it was found."""

    importer: str  # the importing module, dotted
    target: str  # the module imported, dotted (absolute); a name inside a module counts
    line: int
    path: Path  # relative to the root checked, so two copies give the same lines
    typing_only: bool = False  # under `if TYPE_CHECKING:`, or off a name bound there
    how: str = ""  # "" for an import statement; else how the name was read
    exact: bool = True  # False: one of several modules a name built at run time may be

    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def text(self) -> str:
        """`a imports b`, with how the name was read when it is not an import statement."""
        return f"{self.importer} imports {self.target}" + (f" ({self.how})" if self.how else "")


@dataclass(frozen=True, slots=True)
class Fact:
    """What one module's text says about imports, before names are resolved against the
    modules there are (so it can be cached by the text alone).

    kind: "import" and "from" (statements; `names` holds (name, asname) pairs), "call"
    (`import_module` with a literal), "string" (a literal that may name a module), "prefix"
    (the literal head of a name built at run time), "chain" (an attribute chain whose root
    an import binds), "dynamic" (a call that loads what the checker cannot read).
    """

    kind: str
    text: str
    line: int
    typed: bool
    names: tuple[tuple[str, str], ...] = ()
    level: int = 0


def modules(root: Path, tops: Iterable[str] = PARTS) -> Iterator[tuple[str, Path]]:
    """(dotted name, path) of every module of the packages `tops` under `root`."""
    for path in sorted(p for top in tops for p in (root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


@functools.cache
def _facts(text: str) -> tuple[Fact, ...]:
    """The facts of a module's text, sorted by line. Cached by text, so a scratch copy with
    one file changed is read again fast."""
    tree = ast.parse(text)
    bound = _bound_names(tree)
    return tuple(sorted(_walk(tree, bound, False, None), key=lambda f: f.line))


def _bound_names(tree: ast.AST) -> dict[str, str]:
    """The names any import statement of the module binds (in any scope), and what each
    stands for as written: the roots an attribute chain to a module can start from, and
    how a call is spelled without its aliases (`import importlib as il`)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.setdefault(a.asname or a.name.split(".")[0],
                               a.name if a.asname else a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                out.setdefault(a.asname or a.name, f"{node.module or ''}.{a.name}")
    return out


def _walk(tree: ast.AST, bound: Mapping[str, str], typed: bool,
          line: int | None) -> Iterator[Fact]:
    """Every fact under `tree`; `line` overrides the line numbers (a literal given to
    `exec` is reported where `exec` is called)."""
    stack: list[tuple[ast.AST, bool]] = [(tree, typed)]
    while stack:
        node, typed = stack.pop()
        at = line if line is not None else getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            yield Fact("import", "", at, typed, tuple((a.name, a.asname or "")
                                                      for a in node.names))
        elif isinstance(node, ast.ImportFrom):
            yield Fact("from", node.module or "", at, typed,
                       tuple((a.name, a.asname or "") for a in node.names), node.level)
        elif isinstance(node, ast.Call):
            yield from _call_facts(node, bound, typed, at)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _DOTTED.fullmatch(node.value.replace(":", ".", 1)) and (
                    "." in node.value or ":" in node.value):
                yield Fact("string", node.value, at, typed)
        elif isinstance(node, ast.JoinedStr | ast.BinOp):
            head = _literal_head(node)
            if head is not None:
                yield Fact("prefix", head, at, typed)
        elif isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted is not None:
                if dotted.split(".")[0] in bound:
                    yield Fact("chain", dotted, at, typed)
                continue  # the chain is read whole; its inner attributes are not chains
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((child, True) for child in node.body)
            stack.extend((child, typed) for child in node.orelse)
            continue
        stack.extend((child, typed) for child in ast.iter_child_nodes(node))


def _call_facts(node: ast.Call, bound: Mapping[str, str], typed: bool,
                at: int) -> Iterator[Fact]:
    """A call that loads a module: by a literal (an import), or by what the checker cannot
    read (dynamic); a literal given to `exec` or `eval` is read for its imports too. The
    callee is read without the aliases imports give it (`from importlib import
    import_module as load`)."""
    name = _dotted(node.func) or ""
    root, dot, rest = name.partition(".")
    full = bound.get(root, root) + dot + rest
    last = full.rpartition(".")[2]
    first = node.args[0] if node.args else None
    literal = first.value if (isinstance(first, ast.Constant)
                              and isinstance(first.value, str)) else None
    if full == "importlib.import_module":
        if literal is not None:
            yield Fact("call", literal, at, typed)
        else:
            yield Fact("dynamic", f"{name}() with a name built at run time", at, typed)
    elif full == "pkgutil.resolve_name":
        yield Fact("dynamic", f"{name}({literal!r})" if literal else f"{name}()", at, typed)
    elif full in ("exec", "eval", "__import__", "builtins.exec", "builtins.eval",
                  "builtins.__import__", "importlib.__import__"):
        yield Fact("dynamic", f"{name}()", at, typed)
        if literal is not None and last == "__import__":
            yield Fact("call", literal, at, typed)
        elif literal is not None:
            try:
                inner = ast.parse(literal, mode="exec" if last == "exec" else "eval")
            except SyntaxError:
                return
            yield from _walk(inner, {**bound, **_bound_names(inner)}, typed, at)


def _literal_head(node: ast.AST) -> str | None:
    """The literal a name built at run time starts with (`"a.b." + x`, `f"a.b.{x}"`), when
    it is followed by something computed; else None (a constant alone is a "string")."""
    built = False
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        node, built = node.left, True
    if isinstance(node, ast.JoinedStr):
        if len(node.values) < 2 or not isinstance(node.values[0], ast.Constant):
            return None
        head = node.values[0].value
        return head if isinstance(head, str) else None
    if built and isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _dotted(node: ast.AST) -> str | None:
    """`a.b.c` for an attribute chain on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _is_type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`: a body that never runs."""
    name = test.id if isinstance(test, ast.Name) else (
        test.attr if isinstance(test, ast.Attribute) else None)
    return name == "TYPE_CHECKING"


def imports(root: Path, tops: Iterable[str] = PARTS) -> list[Import]:
    """Every import of the parts `tops`, by every reading the module docstring lists."""
    tops = tuple(tops)
    found = list(modules(root, tops))
    known = frozenset(name for name, _ in found)
    out: list[Import] = []
    for name, path in found:
        facts = _facts(path.read_text("utf-8"))
        out.extend(_resolve_facts(name, path.name == "__init__.py", path.relative_to(root),
                                  facts, known, tops))
    return out


def dynamic_loads(root: Path, tops: Iterable[str] = PARTS) -> list[Import]:
    """Every call that loads a module by a name the checker cannot read, or by
    `exec`/`eval`/`pkgutil.resolve_name`: `target` says which call."""
    out = []
    for name, path in modules(root, tops):
        for fact in _facts(path.read_text("utf-8")):
            if fact.kind == "dynamic":
                out.append(Import(name, fact.text, fact.line, path.relative_to(root),
                                  fact.typed, "dynamic"))
    return out


def _resolve_facts(name: str, is_package: bool, path: Path, facts: Iterable[Fact],
                   known: frozenset[str], tops: tuple[str, ...]) -> Iterator[Import]:
    facts = tuple(facts)
    # What each imported name is bound to (a module of ours, and whether only for typing).
    binding: dict[str, tuple[str, bool]] = {}

    def bind(alias: str, module: str, typed: bool) -> None:
        if alias not in binding or binding[alias][1]:
            binding[alias] = (module, typed)

    statements: list[tuple[str, Fact]] = []
    for fact in facts:
        if fact.kind == "import":
            for alias, asname in fact.names:
                target = _flat(name, alias, known)
                statements.append((target, fact))
                if asname:
                    bind(asname, target, fact.typed)
                elif target != alias:  # the firmware's flat name, bound as written
                    bind(alias, target, fact.typed)
                else:
                    bind(alias.split(".")[0], alias.split(".")[0], fact.typed)
        elif fact.kind == "from":
            base = _absolute(name, is_package, fact.text, fact.level)
            for alias, asname in fact.names:
                sub = f"{base}.{alias}" if base else alias
                statements.append((sub if sub in known else base, fact))
                if sub in known:
                    bind(asname or alias, sub, fact.typed)
    for target, fact in statements:
        yield Import(name, target, fact.line, path, fact.typed)
    for fact in facts:
        if fact.kind == "call":
            yield Import(name, fact.text, fact.line, path, fact.typed,
                         f"import_module({fact.text!r})")
        elif fact.kind == "string":
            named = _named_module(fact.text, known, tops)
            if named is not None:
                yield Import(name, named, fact.line, path, fact.typed,
                             f"by the name {fact.text!r}")
        elif fact.kind == "prefix":
            for target in _under_prefix(fact.text, known, tops):
                yield Import(name, target, fact.line, path, fact.typed,
                             f"by a name built on {fact.text!r}", exact=False)
        elif fact.kind == "chain":
            root, _, rest = fact.text.partition(".")
            if root not in binding or not rest:
                continue
            module, typed = binding[root]
            reached = _longest_module(module, rest.split("."), known)
            if reached is not None:
                yield Import(name, reached, fact.line, path, fact.typed or typed,
                             f"through {fact.text}")


def _flat(importer: str, target: str, known: frozenset[str]) -> str:
    """On the board the firmware's modules sit side by side, the codec beside them as
    `protocol`: there a flat `import fw_core` or `import protocol` names the module here."""
    package = importer.rpartition(".")[0]
    if package.rpartition(".")[2] != "firmware":
        return target
    if target == "protocol":
        return next((c for c in CODECS if c in known), target)
    sibling = f"{package}.{target}"
    return sibling if sibling in known else target


def _absolute(module: str, is_package: bool, target: str, level: int) -> str:
    if level == 0:
        return target
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, target] if target else parts)


def _named_module(text: str, known: frozenset[str], tops: tuple[str, ...]) -> str | None:
    """The module of ours a literal names: exactly ("a.b"), as `resolve_name` spells it
    ("a.b:Attr") or with one attribute ("a.b.Attr"). One word ("companion",
    "showdown:left") names a whole part, which a string far more often names as a word or a
    key (a command, a button's id) than as a module to load."""
    if text.split(".")[0].split(":")[0] not in tops:
        return None
    module, colon, _attr = text.partition(":")
    if colon:
        return module if module in known and "." in module else None
    if text in known and "." in text:
        return text
    owner, _, attr = text.rpartition(".")
    return owner if owner in known and "." in owner and attr.isidentifier() else None


def _under_prefix(head: str, known: frozenset[str], tops: tuple[str, ...]) -> list[str]:
    """Every module of ours a name built on `head` can be: `"a.b." + x` any module under
    a.b, `f"a.b{x}"` any whose name starts so, `f"a.b:{x}"` the module a.b."""
    match = _DOTTED.match(head)
    if match is None or match.group().split(".")[0] not in tops:
        return []
    dotted, rest = match.group(), head[match.end():]
    if rest == ".":
        return sorted(m for m in known if m.startswith(dotted + "."))
    if rest == "":
        return sorted(m for m in known if m.startswith(dotted))
    if rest == ":" and dotted in known and "." in dotted:  # one word: see _named_module
        return [dotted]
    return []


def _longest_module(base: str, parts: list[str], known: frozenset[str]) -> str | None:
    """The deepest module `base.parts[0].parts[1]...` reaches, when deeper than `base`."""
    reached = None
    for n in range(1, len(parts) + 1):
        candidate = ".".join([base, *parts[:n]])
        if candidate in known:
            reached = candidate
    return reached


def within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def matches(module: str, pattern: str) -> bool:
    """`pkg.*`: the package and everything in it; anything else: the name, `*` a wildcard."""
    if pattern.endswith(".*"):
        return within(module, pattern[:-2])
    return fnmatch.fnmatchcase(module, pattern)


def _top(module: str) -> str:
    return module.split(".")[0]


def _stdlib(module: str) -> bool:
    return _top(module) in sys.stdlib_module_names or _top(module) == "__future__"


def resolve(target: str, known: Container[str]) -> str | None:
    """The module of ours an import names (a name inside a module counts as the module)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


# --- the table ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Part:
    name: str
    why: str
    imports: tuple[str, ...]  # parts, or single layers of a part


@dataclass(frozen=True, slots=True)
class Layer:
    name: str
    why: str
    modules: tuple[str, ...]
    imports: tuple[str, ...]  # layers, or whole parts
    pure: bool

    @property
    def part(self) -> str:
        return _top(self.name)


class Table:
    """`layers.toml`: the parts and their arrows, the layers and what each stands on, and
    where each library may be imported."""

    def __init__(self, path: Path) -> None:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        self.parts: dict[str, Part] = {
            name: Part(name, d.get("why", ""), tuple(d.get("imports", ())))
            for name, d in data.get("part", {}).items()}
        self.layers: dict[str, Layer] = {}
        self.twice: list[str] = []  # layer names given twice (the table's problems)
        for d in data.get("layer", []):
            if d["name"] in self.layers:
                self.twice.append(d["name"])
            self.layers[d["name"]] = Layer(d["name"], d.get("why", ""), tuple(d["modules"]),
                                           tuple(d.get("imports", ())), bool(d.get("pure")))
        self.order = list(self.layers)
        self.libraries: dict[str, tuple[str, ...]] = {
            name: tuple(homes) for name, homes in data.get("libraries", {}).items()}
        self._layer_of: dict[str, str | None] = {}

    @property
    def tops(self) -> tuple[str, ...]:
        """The packages the table covers, bottom to top."""
        return tuple(self.parts)

    def expand(self, entry: str) -> tuple[str, ...]:
        """The layers an `imports` entry stands for: a layer, or every layer of a part."""
        if entry in self.layers:
            return (entry,)
        return tuple(name for name, layer in self.layers.items() if layer.part == entry)

    @functools.cached_property
    def below(self) -> dict[str, frozenset[str]]:
        """Every layer each layer stands on, directly or through another (the table's order
        keeps this finite: a layer names only layers listed before it)."""
        out: dict[str, frozenset[str]] = {}
        for name in self.order:
            reach: set[str] = set()
            for entry in self.layers[name].imports:
                for layer in self.expand(entry):
                    if layer != name:
                        reach.add(layer)
                        reach |= out.get(layer, frozenset())
            out[name] = frozenset(reach)
        return out

    def layer_of(self, module: str) -> str | None:
        """The layer a module is in: the most specific pattern naming it wins."""
        if module not in self._layer_of:
            claims = self._claims(module)
            self._layer_of[module] = claims[0] if claims else None
        return self._layer_of[module]

    def _claims(self, module: str) -> list[str]:
        """The layers whose most specific pattern names `module`, most specific first; two
        at the same weight mean the table is ambiguous."""
        best: dict[str, int] = {}
        for layer in self.layers.values():
            for pattern in layer.modules:
                if pattern.endswith(".*"):
                    hit, weight = within(module, pattern[:-2]), 2 * len(pattern[:-2])
                else:  # an exact name beats its package's pattern; a wildcard does not
                    hit = fnmatch.fnmatchcase(module, pattern)
                    weight = 2 * len(pattern) + (1 if "*" not in pattern else -1)
                if hit:
                    best[layer.name] = max(best.get(layer.name, -1), weight)
        ranked = sorted(best, key=lambda name: -best[name])
        return [n for n in ranked if best[n] == best[ranked[0]]] if ranked else []

    def stands_on(self, layer: str, other: str) -> bool:
        return other == layer or other in self.below[layer]

    def part_allows(self, part: str, target: str) -> bool:
        """Whether the part may import the module `target` (of ours)."""
        layer = self.layer_of(target)
        if layer is None:  # unlisted (its own rule): judged by its package's name
            arrows = self.parts[part].imports if part in self.parts else ()
            return _top(target) == part or any(within(target, e) for e in arrows)
        return self.part_reaches(part, layer)

    def part_reaches(self, part: str, layer: str) -> bool:
        """Whether the part may import the layer: its own, or one its arrows name."""
        theirs = self.layers[layer].part
        arrows = self.parts[part].imports if part in self.parts else ()
        return theirs == part or any(entry in (theirs, layer) for entry in arrows)

    def is_home_of(self, importer: str, library: str) -> bool:
        return any(matches(importer, p) for p in self.libraries.get(library, ()))

    def problems(self, names: Iterable[str]) -> list[str]:
        """What is wrong with the table itself, given the modules there are: an entry that
        names nothing, a layer standing on one listed after it (or on itself), an arrow the
        parts do not draw, a pure layer on an impure one, a module two layers claim."""
        names = sorted(names)
        out = [f"layer {name} is listed twice" for name in self.twice]
        whys = [(f"part {p.name}", p.why) for p in self.parts.values()]
        whys += [(f"layer {layer.name}", layer.why) for layer in self.layers.values()]
        out += [f"{entry} says no why: its reason is printed with every line it fails"
                for entry, why in whys if not why.strip()]
        seen_parts: list[str] = []
        for part in self.parts.values():
            for entry in part.imports:
                if _top(entry) not in seen_parts or (entry not in self.parts
                                                     and entry not in self.layers):
                    out.append(f"part {part.name} imports {entry!r}: name a part listed "
                               f"before it (or a layer of one)")
            seen_parts.append(part.name)
        index = {name: n for n, name in enumerate(self.order)}
        for n, layer in enumerate(self.layers.values()):
            if layer.part not in self.parts:
                out.append(f"layer {layer.name}: its part {layer.part!r} is not a [part.*]")
                continue
            for pattern in layer.modules:
                if not within(pattern.removesuffix(".*"), layer.part):
                    out.append(f"layer {layer.name} claims {pattern!r}, outside its part")
                if not any(matches(m, pattern) for m in names):
                    out.append(f"layer {layer.name} claims {pattern!r}, which names no module")
            for entry in layer.imports:
                expanded = self.expand(entry)
                if not expanded:
                    out.append(f"layer {layer.name} imports {entry!r}: no such layer or part")
                elif any(index[e] >= n for e in expanded):
                    out.append(f"layer {layer.name} imports {entry!r}, not all of it listed "
                               f"before {layer.name}: a layer stands on layers below it")
            for other in sorted(self.below[layer.name]):
                theirs = self.layers[other]
                if not self.part_reaches(layer.part, other):
                    out.append(f"layer {layer.name} stands on {other}, which part "
                               f"{layer.part} has no arrow to")
                if layer.pure and not (theirs.pure or other == CONTRACT):
                    out.append(f"pure layer {layer.name} stands on {other}, which is not pure")
        for library, homes in self.libraries.items():
            for pattern in homes:
                if not any(matches(m, pattern) for m in names):
                    out.append(f"[libraries] {library} = {pattern!r} names no module")
        for module in names:
            claims = self._claims(module)
            if len(claims) > 1:
                out.append(f"{module} is claimed by {' and '.join(claims)} alike")
        return out


# --- cycles -------------------------------------------------------------------------------


def package_of(module: str, packages: set[str]) -> str:
    """The package a module lives in (a package's `__init__` is its own package). A
    `__main__` is an entry point nobody imports, not a part of its package's API: its own."""
    if module in packages or module.endswith(".__main__"):
        return module
    return module.rpartition(".")[0]


Arrows = dict[tuple[str, str], list[Import]]


def package_cycles(root: Path, found: list[Import],
                   tops: Iterable[str] = PARTS) -> list[tuple[int, list[str], Arrows]]:
    """Every cycle between packages, at every depth: each module is put in its package cut
    to the depth's first N dotted parts (a module directly in a package stays with that
    package, so two modules are never a "package" cycle), every import counting, those for
    the type checker too. Each cycle once, with the imports that make it, at the deepest
    depth it shows: a cycle between two parts that is one between two of their packages is
    said once, between the packages."""
    mods = dict(modules(root, tops))
    packages = {m for m, p in mods.items() if p.name == "__init__.py"}
    home = {m: package_of(m, packages) for m in mods}
    deepest = max((len(p.split(".")) for p in home.values()), default=0)
    out: list[tuple[int, list[str], Arrows]] = []
    said: list[set[Import]] = []
    for depth in range(deepest, 0, -1):
        def group(m: str, depth: int = depth) -> str:
            return ".".join(home[m].split(".")[:depth])
        edges: dict[str, set[str]] = {}
        arrows: Arrows = {}
        for imp in found:
            target = resolve(imp.target, mods)
            if target is None or not imp.exact:
                continue
            a, b = group(imp.importer), group(target)
            if a != b:
                edges.setdefault(a, set()).add(b)
                arrows.setdefault((a, b), []).append(imp)
        for cycle in _strongly_connected(edges):
            inside = {k: v for k, v in arrows.items() if k[0] in cycle and k[1] in cycle}
            made_of = {i for imps in inside.values() for i in imps}
            if len(cycle) < 2 or any(deeper <= made_of for deeper in said):
                continue
            said.append(made_of)
            out.append((depth, sorted(cycle), inside))
    return sorted(out, key=lambda c: (c[0], c[1]))


def module_cycles(root: Path, found: list[Import],
                  tops: Iterable[str] = PARTS) -> list[tuple[list[str], Arrows]]:
    """Every cycle between modules through imports made at run time, with the imports that
    make it.

    Two modules may name each other's types for the type checker (under `if TYPE_CHECKING:`,
    which never runs); what must not happen is that loading either one needs the other,
    both ways round.
    """
    known = {m for m, _ in modules(root, tops)}
    edges: dict[str, set[str]] = {}
    arrows: Arrows = {}
    for imp in found:
        target = resolve(imp.target, known)
        if target is None or imp.typing_only or not imp.exact or target == imp.importer:
            continue
        edges.setdefault(imp.importer, set()).add(target)
        arrows.setdefault((imp.importer, target), []).append(imp)
    out = [(sorted(cycle), {k: v for k, v in arrows.items() if k[0] in cycle and k[1] in cycle})
           for cycle in _strongly_connected(edges) if len(cycle) > 1]
    return sorted(out, key=lambda c: c[0])


def _strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (the graph is small, but recursion limits are not)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[set[str]] = []
    nodes = set(edges) | {b for bs in edges.values() for b in bs}
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                out.append(component)
    return out


# --- the rules ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule an import must keep: which importers it governs, which imports break it, what
    to do about one, and why the rule exists."""

    name: str
    applies: Callable[[str, Table], bool]
    breaks: Callable[[Import, Table], bool]
    fix: Callable[[Import, Table], str]
    reason: str


def _ours(module: str, table: Table) -> bool:
    return _top(module) in table.parts


def _crosses_an_arrow(i: Import, table: Table) -> bool:
    part = _top(i.importer)
    return _ours(i.target, table) and not table.part_allows(part, i.target)


def _arrow_fix(i: Import, table: Table) -> str:
    part = table.parts[_top(i.importer)]
    allowed = ", ".join(part.imports) or "nothing of ours"
    return (f"{part.name} may import {allowed} ({part.name}: {part.why}); move the code to "
            f"a part that may import {_top(i.target)}, or let the composition hand it in")


def _goes_up(i: Import, table: Table) -> bool:
    if not _ours(i.target, table) or _crosses_an_arrow(i, table):
        return False  # an arrow between parts the table does not draw is its own rule
    mine, theirs = table.layer_of(i.importer), table.layer_of(i.target)
    return mine is not None and theirs is not None and not table.stands_on(mine, theirs)


def _layer_fix(i: Import, table: Table) -> str:
    mine, theirs = table.layer_of(i.importer), table.layer_of(i.target)
    assert mine is not None and theirs is not None
    under = ", ".join(n for n in table.order if n in table.below[mine]) or "nothing"
    return (f"{mine} ({table.layers[mine].why}) stands on {under}, not on {theirs}: take "
            f"what is needed down into {mine} or below, or move the importing code up")


def _contract_breaks(i: Import, table: Table) -> bool:
    return not (_stdlib(i.target) or _ours(i.target, table))


def _is_pure(module: str, table: Table) -> bool:
    layer = table.layer_of(module)
    return layer is not None and table.layers[layer].pure


def _pure_breaks(i: Import, table: Table) -> bool:
    if _ours(i.target, table) or i.typing_only:
        return False  # ours: the layer rule's (the table keeps pure on pure); typing: never runs
    return _top(i.target) in IMPURE or not _stdlib(i.target)


def _firmware_breaks(i: Import, table: Table) -> bool:
    if i.target in CODECS or within(i.target, FIRMWARE):
        return False  # the codec, and the firmware's own modules
    if _ours(i.target, table):
        return True
    return _top(i.target) not in MICROPYTHON_STDLIB | MICROPYTHON_MODULES


def _is_firmware(module: str) -> bool:
    return within(module, FIRMWARE)


def _foreign_library(i: Import, table: Table) -> bool:
    if _stdlib(i.target) or _ours(i.target, table) or _is_firmware(i.importer):
        return False
    if table.layer_of(i.importer) == CONTRACT or _is_pure(i.importer, table):
        return False  # their own rules say it, more sharply
    return not table.is_home_of(i.importer, _top(i.target))


def _library_fix(i: Import, table: Table) -> str:
    homes = table.libraries.get(_top(i.target))
    if not homes:
        return f"{_top(i.target)} has no home in [libraries]: give it one, or do without it"
    return f"import {_top(i.target)} only in {', '.join(homes)}, and call that from here"


RULES: tuple[Rule, ...] = (
    Rule(
        "a part imports only the parts its arrows allow",
        lambda m, t: _top(m) in t.parts,
        _crosses_an_arrow,
        _arrow_fix,
        "the parts stand in one order (showdown at the bottom; firmware_host on its contract; "
        "hardware on both; companion on showdown; championship on companion; uno_showdown "
        "composing them all): an arrow the table does not draw ties a part to one it must "
        "run, test and ship without, and makes a cycle between parts possible",
    ),
    Rule(
        "a layer imports only the layers it stands on",
        lambda m, t: True,
        _goes_up,
        _layer_fix,
        "each layer stands on the ones below it: an import that goes up (or sideways where "
        "the table says no) ties a lower layer to a higher one, and the lower one can no "
        "longer be run, tested or replaced without it",
    ),
    Rule(
        "the contract imports only the standard library",
        lambda m, t: t.layer_of(m) == CONTRACT,
        _contract_breaks,
        lambda i, t: f"do without {_top(i.target)} here, or move the code out of the contract",
        "everybody imports the contract, so it must import nobody: anything else would tie "
        "every part to that library",
    ),
    Rule(
        "a pure layer reads no clock and does no I/O",
        lambda m, t: _is_pure(m, t),
        _pure_breaks,
        lambda i, t: (f"pass in what {_top(i.target)} gives (a time, a file's text, a "
                      f"random source) from a layer above"),
        "a verdict, a decoded frame, a score or a standing must depend on its inputs alone, "
        "or replay and the tests could disagree with the table",
    ),
    Rule(
        "the firmware imports only the codec and what MicroPython has",
        lambda m, t: _is_firmware(m),
        _firmware_breaks,
        lambda i, t: (f"do without {i.target}: use the codec (`import protocol`), the "
                      f"firmware's own modules, or a module MicroPython ships"),
        "the firmware runs on MicroPython, where only the codec is copied beside it; "
        "anything else from this project (or from PyPI), and any standard module MicroPython "
        "lacks (dataclasses, typing, ...), is not on the board",
    ),
    Rule(
        "only the command line imports the command line",
        lambda m, t: not within(m, *COMMAND_LINE),
        lambda i, t: within(i.target, *COMMAND_LINE),
        lambda i, t: "take what is needed out of the command line into the module that uses "
                     "it (or one below both)",
        "the command line sits on top and composes the rest; a part below it that imports it "
        "would need argparse and every other part to run",
    ),
    Rule(
        "a library is imported only where the table gives it a home",
        lambda m, t: True,
        _foreign_library,
        _library_fix,
        "each library has one home, so it can be swapped in one place and every part that "
        "must run without it (a pure layer, the score keeper without a screen, the director "
        "without a unit) does",
    ),
    Rule(
        "only the composition and hardware.stop_signals install signal handlers",
        lambda m, t: not within(m, *SIGNAL_OWNERS),
        lambda i, t: _top(i.target) == "signal",
        lambda i, t: "offer a stop() or close() and let the command that runs the process "
                     "install the handler (or use hardware.stop_signals)",
        "one place owns SIGTERM, SIGINT and SIGHUP: the program that runs the process (for "
        "the table through hardware.stop_signals, which stops the motor first); a library "
        "that installs its own replaces the program's, and a motor could keep running",
    ),
)
RULE_NAMES = {r.name for r in RULES}

UNLISTED = ("every module is in the layer table",
            "a module no layer claims could import anything: the table is the one place that "
            "says where a module stands, so a new module must be given a place in it")
DYNAMIC = ("below the composition, a module is loaded only by a name the checker can read",
           "a module loaded by a name built at run time, by exec or eval, or by "
           "pkgutil.resolve_name, is an arrow no checker, type checker or search sees; the "
           "composition, which may import every part anyway, is where a table of names to "
           "load belongs")
CYCLE = ("no two packages import each other",
         "packages that import each other can only be understood, tested and moved together: "
         "a cycle is one package in two folders")
MODULE_CYCLE = ("no two modules import each other",
                "modules that need each other loaded can only be read, tested and changed "
                "together, and one of them sees the other half-built while it loads")
TABLE = ("the layer table is consistent",
         "the rules read the table: an entry that names nothing, a layer standing on one "
         "above it, or an arrow the parts do not draw makes a rule pass without checking "
         "anything, or contradict another")
OTHER_RULES = (UNLISTED, DYNAMIC, CYCLE, MODULE_CYCLE, TABLE)


def _line(where: str, what: str, fix: str, rule: tuple[str, str]) -> str:
    return f"{where}: {what}: breaks '{rule[0]}': {fix}; because {rule[1]}"


def check(root: Path, layers_file: Path | None = None,
          rules: Iterable[Rule] = RULES) -> list[str]:
    """Every broken rule, one line each: where, what, what to fix, the rule and its reason.
    Paths are relative to `root`, so two copies of a tree give the same lines."""
    table = Table(layers_file or root / "layers.toml")
    tops = table.tops
    mods = list(modules(root, tops))
    names = [name for name, _ in mods]
    found = [_line("layers.toml", problem, "correct the table", TABLE)
             for problem in table.problems(names)]
    for name, path in mods:
        if table.layer_of(name) is None:
            found.append(_line(str(path.relative_to(root)), f"{name} is in no layer",
                               "give it a place in a [[layer]] of layers.toml", UNLISTED))
    every = imports(root, tops)
    # One line per import and rule; a name built at run time is one line for all it may be.
    broken: dict[tuple[str, str, int, str, str], tuple[Rule, list[Import]]] = {}
    for imp in every:
        for rule in rules:
            if rule.applies(imp.importer, table) and rule.breaks(imp, table):
                key = (imp.importer, "" if not imp.exact else imp.target, imp.line, imp.how,
                       rule.name)
                broken.setdefault(key, (rule, []))[1].append(imp)
    for rule, imps in broken.values():
        first = imps[0]
        targets = sorted({i.target for i in imps})
        what = first.text() if first.exact else (
            f"{first.importer} imports any of {', '.join(targets)} ({first.how})")
        found.append(_line(first.where(), what, rule.fix(first, table),
                           (rule.name, rule.reason)))
    for call in dynamic_loads(root, tops):
        if call.importer in CODE_WRITERS and call.target == "exec()":
            continue
        if not within(call.importer, COMPOSITION):
            found.append(_line(call.where(), f"{call.importer} calls {call.target}",
                               "import by a literal name (an import statement, or "
                               "importlib.import_module('a.literal.name'))", DYNAMIC))
    for _depth, cycle, arrows in package_cycles(root, every, tops):
        found.append(_line(f"packages {' <-> '.join(cycle)}", _arrows_text(arrows),
                           "drop the arrows against the table's order (usually the fewer)",
                           CYCLE))
    for cycle, arrows in module_cycles(root, every, tops):
        found.append(_line(f"modules {' <-> '.join(cycle)}", _arrows_text(arrows),
                           "move what both need into a third module, or import one of the "
                           "two for the type checker only", MODULE_CYCLE))
    return found


def _arrows_text(arrows: Arrows) -> str:
    """Each arrow of a cycle, fewest imports first: how many imports make it, and the
    first of them."""
    parts = []
    for (a, b), imps in sorted(arrows.items(), key=lambda kv: (len(kv[1]), kv[0])):
        first = min(imps, key=lambda i: (str(i.path), i.line))
        parts.append(f"{a} -> {b} ({len(imps)}; first {first.where()} {first.text()})")
    return "; ".join(parts)


# --- the printed graph --------------------------------------------------------------------


def group_graph(root: Path, tops: Iterable[str], depth: int
                ) -> tuple[dict[str, dict[str, list[Import]]], dict[str, Path]]:
    """Each group of modules (their first `depth` dotted parts) and, for every group it
    imports, the imports that make the arrow; every import counts, the type checker's too."""
    tops = tuple(tops)
    mods = dict(modules(root, tops))

    def group(m: str) -> str:
        return ".".join(m.split(".")[:depth])

    edges: dict[str, dict[str, list[Import]]] = {group(m): {} for m in mods}
    for imp in imports(root, tops):
        target = resolve(imp.target, mods)
        if target is None:
            continue
        a, b = group(imp.importer), group(target)
        if a != b:
            edges[a].setdefault(b, []).append(imp)
    return edges, mods


def main(argv: list[str] | None = None) -> int:
    """Print the import graph of a checkout between groups of modules (the parts, at depth
    1): each group, its lines of code, the groups it imports and how many module pairs make
    each arrow; then every cycle, with the arrows that make it, and the largest modules.
    Runs on any checkout, the old one-package layout too:
    `python -m tests.import_graph --root OLD --depth 2 uno_showdown`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.import_graph",
                                     description=main.__doc__)
    parser.add_argument("tops", nargs="*", default=list(PARTS),
                        help=f"top-level packages (default: {' '.join(PARTS)})")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout (default: this one)")
    parser.add_argument("--depth", type=int, default=1, metavar="N",
                        help="group modules by their first N dotted parts (default 1)")
    parser.add_argument("--largest", type=int, default=5, metavar="N",
                        help="list the N largest modules (default 5)")
    args = parser.parse_args(argv)
    edges, mods = group_graph(args.root, args.tops, args.depth)
    lines = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in mods.items()}
    size: dict[str, int] = {}
    for m, n in lines.items():
        g = ".".join(m.split(".")[: args.depth])
        size[g] = size.get(g, 0) + n
    rank = {top: n for n, top in enumerate(args.tops)}
    order = sorted(edges, key=lambda g: (rank.get(_top(g), len(rank)), g))
    print(f"{args.root}: {len(mods)} modules of {', '.join(args.tops)}, grouped by their "
          f"first {args.depth} dotted part(s); an arrow counts the module pairs that make it "
          f"(of them, those only the type checker reads)")
    for g in order:
        print(f"\n{g} ({size.get(g, 0):,} lines)")
        if not edges[g]:
            print("  -> nothing")
        for b in sorted(edges[g], key=lambda b: (rank.get(_top(b), len(rank)), b)):
            pairs = {(i.importer, resolve(i.target, mods)) for i in edges[g][b]}
            run = {(i.importer, resolve(i.target, mods)) for i in edges[g][b]
                   if not i.typing_only}
            typed = len(pairs - run)
            print(f"  -> {b}: {len(pairs)}" + (f" ({typed} for the type checker only)"
                                              if typed else ""))
    plain = {a: set(bs) for a, bs in edges.items()}
    cycles = [sorted(c) for c in _strongly_connected(plain) if len(c) > 1]
    print(f"\ngroups: {len(edges)}; arrows: {sum(len(v) for v in edges.values())}; "
          f"cycles: {len(cycles)}")
    for cycle in cycles:
        print("  cycle: " + " <-> ".join(cycle))
        for a in cycle:
            for b in sorted(set(edges[a]) & set(cycle)):
                imps = sorted(edges[a][b], key=lambda i: (str(i.path), i.line))
                shown = "; ".join(f"{i.where()} {i.text()}" for i in imps[:3])
                more = f"; and {len(imps) - 3} more" if len(imps) > 3 else ""
                print(f"    {a} -> {b}: {shown}{more}")
    if args.largest:
        print(f"\nthe {args.largest} largest modules:")
        for m, n in sorted(lines.items(), key=lambda kv: -kv[1])[: args.largest]:
            print(f"  {n:5,}  {mods[m].relative_to(args.root)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
