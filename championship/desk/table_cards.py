"""Printable table cards: one A6 card per table of every stage seated, to stand on the
table: the table's number big enough to read across the bar, the stage, the seats in order
(seat 1 deals first) and a QR code of the live page, so the players find their standings on
their phones. One self-contained HTML file (no script, no file beside it); it prints four
cards to an A4 sheet."""

from __future__ import annotations

from html import escape

from championship.broker.qr import qr_svg
from championship.core.i18n import _
from championship.core.snapshot import Snapshot
from showdown.contract.i18n import current_language

STYLE = """
@page { size: A4; margin: 8mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; margin: 0; color: #111; }
.sheet { display: grid; grid-template-columns: 1fr 1fr; gap: 6mm; }
.card { border: 1.5pt dashed #888; border-radius: 3mm; padding: 5mm; height: 136mm;
        display: flex; flex-direction: column; break-inside: avoid; }
.event { font-size: 10pt; color: #555; }
.number { font-size: 64pt; font-weight: bold; line-height: 1; margin: 2mm 0; }
.stage { font-size: 13pt; font-weight: bold; color: #d62828; }
ol { font-size: 13pt; margin: 3mm 0; padding-left: 8mm; flex: 1; }
.qr { display: flex; align-items: center; gap: 3mm; font-size: 9pt; color: #333; }
.qr svg { width: 28mm; height: 28mm; }
"""


def table_cards(snap: Snapshot, url: str | None) -> str:
    """Every seated table's card; `url` is the live page's address (no QR code without it)."""
    qr = qr_svg(url) if url else ""
    live, title = escape(_("Standings live:")), escape(_("Table cards"))
    cards = []
    for t in snap.tables:
        seats = "".join(f"<li>{escape(snap.name_of(n))} <small>#{n}</small></li>"
                        for n in t.seats)
        foot = (f'<div class="qr">{qr}<div>{live}<br>'
                f"<b>{escape(url)}</b></div></div>") if url else ""
        cards.append(
            f'<div class="card"><div class="event">{escape(snap.event.name)}</div>'
            f'<div class="number">{escape(_("Table {n}").format(n=t.table))}</div>'
            f'<div class="stage">{escape(snap.stage_title(t.stage))}</div>'
            f"<ol>{seats}</ol>{foot}</div>")
    if not cards:
        cards.append(f"<p>{escape(_('The seats have not been drawn yet.'))}</p>")
    return (f'<!DOCTYPE html>\n<html lang="{current_language()}">\n<head>\n'
            f'<meta charset="utf-8">\n<title>{escape(snap.event.name)} — '
            f"{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f'<div class="sheet">{"".join(cards)}</div>\n</body>\n</html>\n')
