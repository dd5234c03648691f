"""The project's import graph, read with `ast`, and the rules it must keep.

The layers themselves are in `layers.toml` at the top of the repository: which modules make
each layer, which layers each may import, which adapters may lean on which, and where each
library from outside the standard library may be imported. Every module of the package is
parsed (nothing is imported or run); every import statement counts, at module level, inside
functions and under `if TYPE_CHECKING:` alike, relative ones resolved,
`importlib.import_module("...")` with a literal name too, and any string that is exactly the
name of one of the package's modules (a table of modules to import by name, such as the
commands' or the devices'): a module loaded by name is still a dependency. Only the cycle
between two modules
leaves out imports made for the type checker alone (see `module_cycles`).

`check(root)` returns each broken rule as one line, with the rule's reason, so a failing test
says what to fix and why the rule exists.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import sys
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "uno_showdown"
CODEC = "firmware_host.wire.codec"
FIRMWARE = "firmware_host.firmware"
#: The command line: parsers and `main`, on top of everything.
COMMAND_LINE = ("uno_showdown.commands", "uno_showdown.__main__")
#: Besides the applications, the one module that installs signal handlers: the table's (it
#: stops the motor before the process ends).
SIGNAL_OWNERS = ("hardware.stop_signals",)
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
#: Standard modules a pure core must not touch: clocks, threads, files, sockets, processes.
IMPURE = frozenset({
    "time", "datetime", "threading", "_thread", "os", "io", "socket", "select", "selectors",
    "subprocess", "signal", "asyncio", "sqlite3", "logging", "pathlib", "shutil", "tempfile",
    "multiprocessing", "concurrent", "queue", "urllib", "http", "ssl", "sched", "ctypes",
})


@dataclass(frozen=True, slots=True)
class Layer:
    name: str
    why: str
    modules: tuple[str, ...]
    imports: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Import:
    importer: str  # the importing module, dotted
    target: str  # the module imported, dotted (absolute)
    line: int
    path: Path
    typing_only: bool = False  # under `if TYPE_CHECKING:`

    def where(self) -> str:
        return f"{self.path}:{self.line}"


def modules(root: Path, tops: Iterable[str] = (PACKAGE,)) -> Iterator[tuple[str, Path]]:
    """(dotted name, path) of every module of the packages under `root`."""
    for path in sorted(p for top in tops for p in (root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def imports(root: Path, tops: Iterable[str] = (PACKAGE,)) -> list[Import]:
    """Every import of the package, function-level and type-checking ones included.

    The firmware's modules sit side by side on the board, with the codec copied beside them
    as `protocol`: there a flat `import fw_core` or `import protocol` is resolved to the
    module it names here.
    """
    found = list(modules(root, tops))
    known = {name for name, _ in found}
    out: list[Import] = []
    for name, path in found:
        is_package = path.name == "__init__.py"
        for kind, module, names, level, line, typed in _statements(path.read_text("utf-8")):
            if kind == "import":
                for alias in names:
                    out.append(Import(name, _flat(name, alias, known), line, path, typed))
            elif kind == "from":
                base = _absolute(name, is_package, module, level)
                for alias in names:
                    sub = f"{base}.{alias}" if base else alias
                    out.append(Import(name, sub if sub in known else base, line, path, typed))
            elif kind == "call":  # importlib.import_module("...")
                out.append(Import(name, module or "", line, path, typed))
            elif module in known:  # a module named in a string, to be imported by name
                out.append(Import(name, module, line, path, typed))
    return out


def _flat(importer: str, target: str, known: set[str]) -> str:
    if not within(importer, FIRMWARE):
        return target
    if target == "protocol":
        return CODEC
    sibling = f"{FIRMWARE}.{target}"
    return sibling if sibling in known else target


Statement = tuple[str, "str | None", tuple[str, ...], int, int, bool]


@functools.cache
def _statements(text: str) -> tuple[Statement, ...]:
    """The import statements of a module's text: (kind, module, names, level, line, typing
    only). Cached by text, so a scratch copy with one file changed is read again fast."""
    out: list[Statement] = []
    stack: list[tuple[ast.AST, bool]] = [(ast.parse(text), False)]
    while stack:
        node, typed = stack.pop()
        if isinstance(node, ast.Import):
            out.append(("import", None, tuple(a.name for a in node.names), 0, node.lineno, typed))
        elif isinstance(node, ast.ImportFrom):
            out.append(("from", node.module, tuple(a.name for a in node.names), node.level,
                        node.lineno, typed))
        elif _is_import_module_call(node):
            assert isinstance(node, ast.Call)
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append(("call", arg.value, (), 0, node.lineno, typed))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and node.value.startswith(PACKAGE + ".") and node.value.isidentifier() is False
              and " " not in node.value):
            out.append(("name", node.value, (), 0, node.lineno, typed))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend((child, True) for child in node.body)
            stack.extend((child, typed) for child in node.orelse)
            continue
        stack.extend((child, typed) for child in ast.iter_child_nodes(node))
    return tuple(sorted(out, key=lambda s: s[4]))


def _is_type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`: a body that never runs."""
    name = test.id if isinstance(test, ast.Name) else (
        test.attr if isinstance(test, ast.Attribute) else None)
    return name == "TYPE_CHECKING"


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


def _ours(module: str) -> bool:
    return _top(module) == PACKAGE


class Table:
    """The layer table: which layer a module is in, and what that layer may import; which
    packages stand alone; where each library may be imported."""

    def __init__(self, path: Path) -> None:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        layers = [Layer(d["name"], d["why"], tuple(d["modules"]), tuple(d["imports"]))
                  for d in data["layer"]]
        self.layers = {layer.name: layer for layer in layers}
        self.order = [layer.name for layer in layers]
        independent = data.get("independent", {})
        self.independent: tuple[str, ...] = tuple(independent.get("packages", ()))
        self.leaning = {tuple(part.strip() for part in e.split("->"))
                        for e in independent.get("except", ())}
        self.libraries: dict[str, tuple[str, ...]] = {
            name: tuple(homes) for name, homes in data.get("libraries", {}).items()}

    def separate_edges(self, importer: str, target: str) -> bool:
        """Whether `importer` leans on another package that should stand alone."""
        for pattern in self.independent:
            base = pattern[:-2] if pattern.endswith(".*") else pattern
            if not (within(importer, base) and within(target, base)):
                continue
            depth = base.count(".") + 2
            mine = ".".join(importer.split(".")[:depth])
            theirs = ".".join(target.split(".")[:depth])
            if mine != theirs and (mine, theirs) not in self.leaning:
                return True
        return False

    def is_home_of(self, importer: str, library: str) -> bool:
        return any(matches(importer, p) for p in self.libraries.get(library, ()))

    def layer_of(self, module: str) -> str | None:
        best: tuple[int, str] | None = None
        for layer in self.layers.values():
            for pattern in layer.modules:
                if pattern.endswith(".*"):
                    base = pattern[:-2]
                    hit = within(module, base)
                    weight = len(base)
                else:
                    hit = fnmatch.fnmatchcase(module, pattern)
                    weight = len(pattern) + 1  # an exact name beats its package's pattern
                if hit and (best is None or weight > best[0]):
                    best = (weight, layer.name)
        return best[1] if best else None

    def may_import(self, importer: str, target: str) -> bool:
        if importer == target:
            return True
        return target in self.layers[importer].imports


def package_of(module: str, packages: set[str]) -> str:
    """The package a module lives in (a package's `__init__` is its own package). A
    `__main__` is an entry point nobody imports, not a part of its package's API: its own."""
    if module in packages or module.endswith(".__main__"):
        return module
    return module.rpartition(".")[0]


def _resolve(target: str, known: set[str]) -> str | None:
    """The module of ours an import names (a name inside a module counts as the module)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def package_cycles(root: Path, found: list[Import] | None = None) -> list[list[str]]:
    """Every cycle between packages (strongly connected sets of two or more), each sorted."""
    mods = dict(modules(root))
    known = set(mods)
    packages = {m for m, p in mods.items() if p.name == "__init__.py"}
    edges: dict[str, set[str]] = {}
    for imp in found if found is not None else imports(root):
        target = _resolve(imp.target, known)
        if target is None:
            continue
        a, b = package_of(imp.importer, packages), package_of(target, packages)
        if a != b:
            edges.setdefault(a, set()).add(b)
    return [sorted(c) for c in _strongly_connected(edges) if len(c) > 1]


def module_cycles(root: Path, found: list[Import] | None = None) -> list[list[str]]:
    """Every cycle between modules through imports made at run time.

    Two modules of one package may name each other's types for the type checker (under
    `if TYPE_CHECKING:`, which never runs); what must not happen is that loading either one
    needs the other, both ways round.
    """
    known = {m for m, _ in modules(root)}
    edges: dict[str, set[str]] = {}
    for imp in found if found is not None else imports(root):
        target = _resolve(imp.target, known)
        if target is None or imp.typing_only or target == imp.importer:
            continue
        edges.setdefault(imp.importer, set()).add(target)
    return [sorted(c) for c in _strongly_connected(edges) if len(c) > 1]


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


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule an import must keep: which importers it governs, which imports break it, why."""

    name: str
    applies: Callable[[str, Table], bool]
    breaks: Callable[[Import, Table], bool]
    reason: str


def _firmware_breaks(i: Import, _table: Table) -> bool:
    if i.target == CODEC or within(i.target, FIRMWARE):
        return False  # the codec, and the firmware's own modules
    if _ours(i.target):
        return True
    return _top(i.target) not in MICROPYTHON_STDLIB | MICROPYTHON_MODULES


def _foreign_library(i: Import, table: Table) -> bool:
    if _stdlib(i.target) or _ours(i.target) or within(i.importer, FIRMWARE):
        return False
    return not table.is_home_of(i.importer, _top(i.target))


def _leans_on_an_edge(i: Import, table: Table) -> bool:
    return _ours(i.target) and table.separate_edges(i.importer, i.target)


def _goes_up(i: Import, table: Table) -> bool:
    if not _ours(i.target):
        return False
    mine, theirs = table.layer_of(i.importer), table.layer_of(i.target)
    return mine is not None and theirs is not None and not table.may_import(mine, theirs)


RULES: tuple[Rule, ...] = (
    Rule(
        "a layer imports only the layers the table lets it",
        lambda m, t: True,
        _goes_up,
        "each layer stands on the ones below it: an import that goes up (or sideways where "
        "the table says no) ties a lower part to a higher one, and the lower part can no "
        "longer be run, tested or replaced without it",
    ),
    Rule(
        "the contract imports only the standard library",
        lambda m, t: t.layer_of(m) == "contract",
        lambda i, t: not (_stdlib(i.target) or (t.layer_of(i.target) == "contract"
                                                and _ours(i.target))),
        "everybody imports the contract, so it must import nobody: anything else would tie "
        "every layer to that module and make cycles possible",
    ),
    Rule(
        "the core reads no clock and does no I/O",
        lambda m, t: t.layer_of(m) == "core",
        lambda i, t: (_top(i.target) in IMPURE
                      or not (_stdlib(i.target) or _ours(i.target))),
        "a verdict, a decoded frame or a standing must depend on its inputs alone, or replay "
        "and the tests could disagree with the table",
    ),
    Rule(
        "the firmware imports only the codec and what MicroPython has",
        lambda m, t: within(m, FIRMWARE),
        _firmware_breaks,
        "the firmware runs on MicroPython, where only the codec is copied beside it; "
        "anything else from this project (or from PyPI), and any standard module MicroPython "
        "lacks (dataclasses, typing, ...), is not on the board",
    ),
    Rule(
        "only the command line imports the command line",
        lambda m, t: not within(m, *COMMAND_LINE),
        lambda i, t: within(i.target, *COMMAND_LINE),
        "the command line sits on top and composes the rest; a part below it that imports it "
        "would need argparse and every other part to run",
    ),
    Rule(
        "a library is imported only where the table gives it a home",
        lambda m, t: True,
        _foreign_library,
        "each library has one home, so it can be swapped in one place and every part that "
        "must run without it (a core, the score keeper without a screen, the director "
        "without a unit) does",
    ),
    Rule(
        "an adapter does not lean on another",
        lambda m, t: True,
        _leans_on_an_edge,
        "each adapter is one edge of the program (a unit, the Pico's link, the stores, the "
        "broker); the applications compose them, so one can be replaced or tested without "
        "the others",
    ),
    Rule(
        "only the applications install signal handlers",
        lambda m, t: t.layer_of(m) != "apps" and not within(m, *SIGNAL_OWNERS),
        lambda i, t: i.target == "signal",
        "one place owns SIGTERM, SIGINT and SIGHUP: the program that runs the process (for "
        "the table, through hardware.stop_signals, which stops the motor first); "
        "adapters and libraries only offer close()",
    ),
)

UNLISTED = ("every module is in the layer table",
            "a module no layer claims could import anything: the table is the one place that "
            "says where a module stands, so a new module must be given a place in it")
CYCLE = ("no two packages import each other",
         "packages that import each other can only be understood, tested and moved together: "
         "a cycle is one package in two folders")
MODULE_CYCLE = ("no two modules import each other",
                "modules that need each other loaded can only be read, tested and changed "
                "together, and one of them sees the other half-built while it loads")


def check(root: Path, layers_file: Path | None = None,
          rules: Iterable[Rule] = RULES) -> list[str]:
    """Every broken rule, one line each: where, what, the rule, and why it exists."""
    table = Table(layers_file or root / "layers.toml")
    found = []
    for name, path in modules(root):
        if table.layer_of(name) is None:
            found.append(f"{path}: {name} is in no layer: breaks '{UNLISTED[0]}', because "
                         f"{UNLISTED[1]}")
    every = imports(root)
    seen = set()
    for imp in every:
        for rule in rules:
            key = (imp.importer, imp.target, imp.line, rule.name)
            if key in seen or not (rule.applies(imp.importer, table)
                                   and rule.breaks(imp, table)):
                continue
            seen.add(key)
            found.append(f"{imp.where()}: {imp.importer} imports {imp.target}: "
                         f"breaks '{rule.name}', because {rule.reason}")
    for cycle in package_cycles(root, every):
        found.append(f"packages {' <-> '.join(cycle)}: breaks '{CYCLE[0]}', because {CYCLE[1]}")
    for cycle in module_cycles(root, every):
        found.append(f"modules {' <-> '.join(cycle)}: breaks '{MODULE_CYCLE[0]}', because "
                     f"{MODULE_CYCLE[1]}")
    return found


def package_graph(root: Path, tops: Iterable[str] = (PACKAGE,)) -> dict[str, set[str]]:
    """Each package (folder) and the packages its modules import, type-checking imports
    included; a `__main__` counts as an entry point of its own, as in `package_cycles`."""
    mods = dict(modules(root, tops))
    known = set(mods)
    packages = {m for m, p in mods.items() if p.name == "__init__.py"} | {
        m.rpartition(".")[0] for m in mods}
    edges: dict[str, set[str]] = {package_of(m, packages): set() for m in mods}
    for imp in imports(root, tops):
        target = _resolve(imp.target, known)
        if target is None:
            continue
        a, b = package_of(imp.importer, packages), package_of(target, packages)
        if a != b:
            edges[a].add(b)
    return edges


def main(argv: list[str] | None = None) -> int:
    """Print the package graph of a checkout: each package, its lines of code, what it
    imports; then every cycle and the largest modules. Runs on any checkout, the old layout
    too: `python -m tests.import_graph --root DIR showdown hardware companion ...`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.import_graph",
                                     description=main.__doc__)
    parser.add_argument("tops", nargs="*", default=[PACKAGE], help="top-level packages")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--largest", type=int, default=10, metavar="N")
    args = parser.parse_args(argv)
    edges = package_graph(args.root, args.tops)
    mods = dict(modules(args.root, args.tops))
    lines = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in mods.items()}
    packages = {m for m, p in mods.items() if p.name == "__init__.py"} | {
        m.rpartition(".")[0] for m in mods}
    size: dict[str, int] = {}
    for m, n in lines.items():
        size[package_of(m, packages)] = size.get(package_of(m, packages), 0) + n
    for package in sorted(edges):
        shown = ", ".join(sorted(edges[package])) or "-"
        print(f"{package} ({size.get(package, 0):,} lines) -> {shown}")
    cycles = [sorted(c) for c in _strongly_connected(edges) if len(c) > 1]
    print(f"\npackages: {len(edges)}; arrows: {sum(len(v) for v in edges.values())}; "
          f"cycles: {len(cycles)}")
    for cycle in cycles:
        print("  cycle: " + " <-> ".join(cycle))
    print(f"\nthe {args.largest} largest modules:")
    for m, n in sorted(lines.items(), key=lambda kv: -kv[1])[: args.largest]:
        print(f"  {n:5,}  {mods[m].relative_to(args.root)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
