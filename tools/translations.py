"""The gettext catalogs, kept with Babel: which strings each domain has, and the `.mo` files.

Three domains, each with a `.po` per language in the `locale/` folder of the part it belongs to:

* `uno_showdown`: the core's and the commands' words (`showdown.contract.i18n`);
* `companion_screen`: the touch screen's (`companion.touch.i18n`);
* `championship`: the organiser's side (`championship.core.i18n`).

A module's strings belong to the domain whose `_` it imports, so the domains need no list of
files to keep up to date. Babel reads the strings (`extract`) and writes the `.mo` files.

    python -m tools.translations update    # add new strings to every .po, untranslated
    python -m tools.translations compile   # every .po to its .mo (run after editing a .po)

`make translations` runs both; a test checks that every committed `.mo` is what its `.po`
compiles to and that every string is translated.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_python

ROOT = Path(__file__).resolve().parents[1]
#: The top-level packages whose modules may mark strings.
PACKAGES = ("showdown", "firmware_host", "hardware", "companion", "championship", "uno_showdown")
LANGUAGES = ("en", "ru", "uk", "hy")
#: domain -> the module whose `_` marks its strings
DOMAINS = {
    "uno_showdown": "showdown.contract.i18n",
    "companion_screen": "companion.touch.i18n",
    "championship": "championship.core.i18n",
}
#: Babel's keywords: `_`, `N_` and `gettext_` take the message, `ngettext` singular and plural.
KEYWORDS = {"_": None, "N_": None, "gettext_": None, "ngettext": (1, 2)}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def domain_of(path: Path) -> str | None:
    """The domain of a module: the one whose `_` it imports under a marker's name (or
    defines); None for none. A module that shows another domain's words imports them under
    another name (`_ as core_`), and marks none of its own with it."""
    if _module(path) in DOMAINS.values():
        return next(d for d, m in DOMAINS.items() if m == _module(path))
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.ImportFrom) and node.module in DOMAINS.values()
                and any((a.asname or a.name) in KEYWORDS for a in node.names)):
            found.add(node.module)
    if len(found) > 1:
        raise SystemExit(f"{path}: marks strings for two domains ({', '.join(sorted(found))})")
    return next((d for d, m in DOMAINS.items() if m in found), None)


def sources(domain: str) -> list[Path]:
    return [p for top in PACKAGES for p in sorted((ROOT / top).rglob("*.py"))
            if domain_of(p) == domain]


def strings(domain: str) -> list[str | tuple[str, str]]:
    """Every message of `domain` in its sources, in order of first appearance: a string, or
    (singular, plural) for `ngettext`."""
    seen: dict[str | tuple[str, str], None] = {}
    for path in sources(domain):
        with path.open("rb") as fp:
            for _line, _func, message, _comments in extract_python(
                    fp, KEYWORDS, [], {"encoding": "utf-8"}):
                if isinstance(message, tuple):  # (singular, plural, None for the count)
                    if all(isinstance(m, str) for m in message[:2]):
                        seen.setdefault((message[0], message[1]), None)
                elif isinstance(message, str):
                    seen.setdefault(message, None)
    return list(seen)


def locale_dir(domain: str) -> Path:
    """The `locale/` folder of the part whose i18n module defines `domain`."""
    return ROOT / DOMAINS[domain].split(".")[0] / "locale"


def po_path(lang: str, domain: str) -> Path:
    return locale_dir(domain) / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str) -> Catalog:
    with po_path(lang, domain).open("rb") as fp:
        return pofile.read_po(fp, locale=lang, domain=domain)


def compiled(lang: str, domain: str) -> bytes:
    """The `.mo` bytes Babel compiles from the `.po` of `lang` and `domain`.

    An untranslated plural entry (every form empty) is left out, as GNU msgfmt does, so
    gettext falls back to the English text instead of printing nothing; Babel would keep it.
    """
    catalog = read(lang, domain)
    for message in list(catalog)[1:]:
        if isinstance(message.string, tuple) and not any(message.string):
            catalog.delete(message.id)
    out = io.BytesIO()
    mofile.write_mo(out, catalog)
    return out.getvalue()


def messages(mo: bytes) -> dict[object, str]:
    """What gettext reads from `.mo` bytes, without the header (Babel stamps its own date)."""
    import gettext

    return {k: v for k, v in gettext.GNUTranslations(io.BytesIO(mo))._catalog.items()  # type: ignore[attr-defined]
            if k != ""}


def catalogs() -> Iterator[tuple[str, str]]:
    for domain in DOMAINS:
        for lang in LANGUAGES:
            yield lang, domain


def update() -> None:
    """Add every string the sources mark and the `.po` lacks, untranslated (English is the
    source language: its catalog gets the English text)."""
    for lang, domain in catalogs():
        catalog = read(lang, domain)
        added = 0
        for message in strings(domain):
            if message in catalog:
                continue
            english = message if lang == "en" else ("" if isinstance(message, str)
                                                    else ("", ""))
            catalog.add(message, english)
            added += 1
        if added:
            with po_path(lang, domain).open("wb") as fp:
                pofile.write_po(fp, catalog, width=0, omit_header=False)
            print(f"{po_path(lang, domain).relative_to(ROOT)}: {added} new")


def compile_all() -> None:
    for lang, domain in catalogs():
        mo = po_path(lang, domain).with_suffix(".mo")
        mo.write_bytes(compiled(lang, domain))
        print(f"compiled {mo.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.translations",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("update", "compile"))
    args = parser.parse_args(argv)
    update() if args.step == "update" else compile_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
