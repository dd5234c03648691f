"""Build the gettext catalogs: extract `_()` strings, read and write `.po`, compile `.mo`.

The standard library reads `.mo` files (`gettext`) but ships no compiler, so this module
does what CPython's Tools/i18n/msgfmt.py and pygettext.py do, for the subset we use
(msgid/msgstr and plural forms, no contexts). Run `python -m companion.msgfmt` after
editing a `.po` file; a test checks that every committed `.mo` matches its `.po`.
"""

from __future__ import annotations

import argparse
import ast
import struct
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE = Path(__file__).resolve().parent
#: The modules whose strings belong to the core's catalog (the screen keeps its own domain).
SOURCES = ("app.py", "cards.py", "command_options.py", "commands.py", "deal.py", "duels.py",
           "editions.py", "game.py", "house_rules.py", "i18n.py", "items.py", "names.py",
           "points_command.py",
           *sorted(f"scoring/{p.name}" for p in (PACKAGE / "scoring").glob("*.py")),
           "recover.py", "store.py", "table_commands.py", "timebox.py", "transfer.py",
           "turns.py")
MARKERS = {"_", "N_", "gettext_"}
PLURAL_MARKERS = {"ngettext"}
#: The core's catalog, the screen's, and the championship's (which keeps its catalogs here,
#: beside the companion's, though the companion never uses them).
DOMAINS = (DOMAIN, "companion_screen", "championship")


def extract(paths: Iterable[Path]) -> list[str]:
    """Every string literal passed to `_()`/`N_()` in `paths`, in order of first appearance.

    A `ngettext(singular, plural, n)` call gives one entry keyed `singular NUL plural`, as
    `parse_po` keys a plural entry.
    """
    seen: dict[str, None] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [a.value for a in node.args
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id in MARKERS and node.args and texts[:1] == [
                    getattr(node.args[0], "value", None)]:
                seen.setdefault(texts[0], None)
            elif node.func.id in PLURAL_MARKERS and len(texts) >= 2:
                seen.setdefault(texts[0] + "\0" + texts[1], None)
    return list(seen)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_po(entries: Mapping[str, str], header: str) -> str:
    """A `.po` file: the header entry, then one msgid/msgstr pair per string."""
    lines = ['msgid ""', "msgstr " + _quote(header), ""]
    for msgid, msgstr in entries.items():
        lines += ["msgid " + _quote(msgid), "msgstr " + _quote(msgstr), ""]
    return "\n".join(lines)


def parse_po(text: str) -> dict[str, str]:
    """Read the entries (the header is the entry with an empty msgid).

    A plural entry is keyed and valued as in a `.mo` file: `msgid NUL msgid_plural`,
    and its `msgstr[0]`, `msgstr[1]`, ... joined by NUL, which `gettext.ngettext` reads.
    """
    catalog: dict[str, str] = {}
    parts: dict[str, list[str]] = {}
    section = ""

    def flush() -> None:
        if not parts:
            return
        msgid = "".join(parts.get("msgid", []))
        if "msgid_plural" in parts:
            msgid += "\0" + "".join(parts["msgid_plural"])
            forms = sorted((int(k[7:-1]), v) for k, v in parts.items() if k.startswith("msgstr["))
            msgstr = "\0".join("".join(v) for _, v in forms)
        else:
            msgstr = "".join(parts.get("msgstr", []))
        catalog[msgid] = msgstr
        parts.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not line.startswith('"'):
            keyword, _, line = line.partition(" ")
            if keyword == "msgid" and section.startswith("msgstr"):
                flush()
            section = keyword
            parts.setdefault(section, [])
        if section and line.startswith('"'):
            parts[section].append(ast.literal_eval(line))
    flush()
    return catalog


def compile_mo(catalog: Mapping[str, str]) -> bytes:
    """The GNU `.mo` bytes for `catalog` (untranslated entries left out), as msgfmt writes them."""
    # An untranslated plural entry is all empty forms ("\0"): left out too, as GNU msgfmt does,
    # so gettext falls back to the English text instead of returning "".
    entries = sorted((k, v) for k, v in catalog.items() if v.strip("\0"))
    ids = b""
    strs = b""
    offsets = []
    for msgid, msgstr in entries:
        i, s = msgid.encode("utf-8"), msgstr.encode("utf-8")
        offsets.append((len(ids), len(i), len(strs), len(s)))
        ids += i + b"\0"
        strs += s + b"\0"
    n = len(entries)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return (header + struct.pack(f"{len(koffsets)}i", *koffsets)
            + struct.pack(f"{len(voffsets)}i", *voffsets) + ids + strs)


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="compile the companion's .po files to .mo")
    parser.add_argument("po", nargs="*", type=Path,
                        help="the .po files (default: both catalogs of every language)")
    args = parser.parse_args(argv)
    paths = args.po or [po_path(lang, domain) for domain in DOMAINS for lang in LANGUAGES]
    for path in paths:
        path.with_suffix(".mo").write_bytes(compile_mo(parse_po(path.read_text("utf-8"))))
        print(f"compiled {path.with_suffix('.mo')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
