"""The results sheet: one self-contained HTML page a bar can print and pin on the wall.

Awards first (what people crowd round the sheet for), then the final, the qualifying
standings with the finalists' cut, the seating of every flight, and the rules the results
were counted by. No scripts, no external files: the styles are inline and use the fonts
every system has, so the page prints the same from any browser; on paper it is A4 with
tables that do not break inside a row and repeat their headings on a new page.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from championship.core.i18n import _
from championship.core.snapshot import Snapshot
from championship.core.standings import Line
from championship.core.text import decimal_text, points_in_games, settings_lines
from showdown.contract.i18n import current_language

STYLE = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #111;
       margin: 0 auto; max-width: 190mm; padding: 8mm 0; font-size: 10.5pt; }
header { border-bottom: 3pt solid #d62828; margin-bottom: 6mm; padding-bottom: 3mm; }
h1 { font-size: 22pt; margin: 0; }
.sub { color: #555; margin-top: 1mm; }
.provisional { display: inline-block; margin-top: 2mm; padding: 1mm 3mm; border: 1pt solid #d62828;
               color: #d62828; font-weight: bold; }
h2 { font-size: 13pt; margin: 7mm 0 2mm; border-bottom: 1pt solid #bbb; padding-bottom: 1mm; }
.awards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 3mm; }
.award { border: 1pt solid #ccc; border-radius: 2mm; padding: 3mm; text-align: center;
         break-inside: avoid; }
.award .title { font-size: 9pt; text-transform: uppercase; letter-spacing: .05em; color: #555; }
.award .who { font-size: 14pt; font-weight: bold; margin: 1.5mm 0; }
.award .what { font-size: 9pt; color: #333; }
.award.first { border: 2pt solid #f0be00; background: #fff8dc; }
.award.luckiest { border-style: dashed; }
table { border-collapse: collapse; width: 100%; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { padding: 1.2mm 2mm; border-bottom: .5pt solid #ddd; text-align: left; }
th { font-size: 8.5pt; text-transform: uppercase; color: #555; border-bottom: 1pt solid #999; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.finalist td { font-weight: bold; }
tr.cut td { border-top: 1.5pt dashed #d62828; }
tr.out td { color: #888; }
.seating { display: grid; grid-template-columns: repeat(3, 1fr); gap: 3mm; }
.table { border: 1pt solid #ccc; border-radius: 2mm; padding: 2mm 3mm; break-inside: avoid; }
.table h3 { font-size: 10pt; margin: 0 0 1mm; }
.table ol { margin: 0; padding-left: 5mm; }
.flight { font-weight: bold; margin: 3mm 0 1.5mm; }
.rules { color: #444; font-size: 9pt; }
.rules p { margin: .8mm 0; }
@media screen { body { padding: 10mm; } }
@media print { body { padding: 0; } }
"""


def _num(value: object) -> str:
    return f'<td class="n">{escape(str(value))}</td>'


def _lines_table(lines: Sequence[Line], cut: int | None) -> str:
    head = (f'<thead><tr><th class="n">#</th><th class="n">{escape(_("No."))}</th>'
            f'<th>{escape(_("Player"))}</th><th class="n">{escape(_("Points"))}</th>'
            f'<th class="n">{escape(_("Games"))}</th><th class="n">{escape(_("Result"))}</th>'
            "</tr></thead>")
    rows = []
    for i, ln in enumerate(lines):
        classes = []
        if cut is not None and ln.rank is not None and ln.rank <= cut:
            classes.append("finalist")
        if cut is not None and i == cut and ln.rank is not None:
            classes.append("cut")
        if ln.rank is None:
            classes.append("out")
        name = escape(ln.name)
        if ln.withdrawn:
            name += f" <em>({escape(_('withdrew'))})</em>"
        rows.append(f'<tr class="{" ".join(classes)}">' + _num("–" if ln.rank is None
                                                                else ln.rank)
                    + _num(ln.number) + f"<td>{name}</td>" + _num(ln.points)
                    + _num(ln.games) + _num(decimal_text(ln.result)) + "</tr>")
    return f"<table>{head}<tbody>{''.join(rows)}</tbody></table>"


def _award(css: str, title: str, line: Line | None, what: str) -> str:
    who = "—" if line is None else f"{escape(line.name)} <small>#{line.number}</small>"
    return (f'<div class="award {css}"><div class="title">{escape(title)}</div>'
            f'<div class="who">{who}</div><div class="what">{escape(what)}</div></div>')


def _award_text(line: Line | None) -> str:
    if line is None:
        return ""
    points, games = points_in_games(line.points, line.games)
    return _("result {result} ({points} {games})").format(
        result=decimal_text(line.result), points=points, games=games)


def _seat(snap: Snapshot, number: int) -> str:
    player = snap.data.player(number)
    name = f"{escape(snap.name_of(number))} <small>#{number}</small>"
    return f"<li><s>{name}</s></li>" if player is not None and player.withdrawn else (
        f"<li>{name}</li>")


def _audit(snap: Snapshot) -> str:
    """The director's word on the deals: every void and restore (who, when, why), and the
    deals still held for the director. Empty when there is none."""
    from championship.core.presence import held_text
    from championship.desk.operations import short_deal_id

    if not snap.audit and not snap.held:
        return ""
    actions = {"void": _("void"), "restore": _("restored")}
    rows = [f"<tr><td>{escape(_local(a.at_us))}</td>"
            f"<td>{escape(_('Table {n}').format(n=a.table))} · "
            f"{escape(snap.stage_title(a.stage))}</td>"
            f"<td>{escape(short_deal_id(a.deal_id))}</td><td>{escape(actions[a.action])}</td>"
            f"<td>{escape(a.who)}</td><td>{escape(a.why)}</td></tr>" for a in snap.audit]
    rows += [f"<tr><td></td><td>{escape(_('Table {n}').format(n=h.table))} · "
             f"{escape(snap.stage_title(h.stage))}</td>"
             f"<td>{escape(short_deal_id(h.deal_id))}</td><td>{escape(_('held'))}</td>"
             f"<td></td><td>{escape(held_text(h.reason))}</td></tr>" for h in snap.held]
    head = "".join(f"<th>{escape(t)}</th>" for t in (
        _("When"), _("Table"), _("Deal"), _("Decision"), _("By"), _("Why")))
    title = escape(_("Audit: the director's word on deals"))
    return (f"<h2>{title}</h2>"
            f'<table class="audit"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _local(at_us: int) -> str:
    """A moment as the bar's clock shows it (this computer's zone), to the second."""
    from datetime import datetime

    return datetime.fromtimestamp(at_us / 1_000_000).strftime("%Y-%m-%d %H:%M:%S")


def luckiest_text(snap: Snapshot) -> str:
    """The luckiest award's line: which reading the event used (the seed's most qualifying
    points, or the highest result) and the winner's points and result."""
    a = snap.awards
    if a.luckiest is None:
        return snap.settings.luckiest_text()
    points, games = points_in_games(a.luckiest.points, a.luckiest.games)
    return _("{reading}: {points} {games}, result {result}").format(
        reading=snap.settings.luckiest_text(), points=points, games=games,
        result=decimal_text(a.luckiest.result))


def results_sheet(snap: Snapshot) -> str:
    """The whole results sheet for the event as it stands."""
    a = snap.awards
    places = list(a.places) + [None] * (3 - len(a.places))
    titles = [_("1st place"), _("2nd place"), _("3rd place")]
    cards = [_award("first" if i == 0 else "", titles[i], ln, _award_text(ln))
             for i, ln in enumerate(places[:3])]
    cards.append(_award("luckiest", _("The luckiest"), a.luckiest, luckiest_text(snap)))
    parts = [
        "<header>",
        f"<h1>{escape(snap.event.name)}</h1>",
        f'<div class="sub">{escape(_("Results"))} · {escape(snap.event.created_at[:10])}</div>',
    ]
    if not snap.awards.final_over:
        why = (_("Provisional: the final is not over") if not snap.over else
               _("Provisional: a deal of the final is held for the director"))
        parts.append(f'<div class="provisional">{escape(why)}</div>')
    parts.append("</header>")
    parts.append(f"<h2>{escape(_('Awards'))}</h2><div class=\"awards\">{''.join(cards)}</div>")
    if snap.final:
        parts.append(f"<h2>{escape(_('Final'))}</h2>{_lines_table(snap.final, None)}")
    parts.append(f"<h2>{escape(_('Qualifying standings'))}</h2>")
    parts.append(_lines_table(snap.qualifying, snap.settings.finalists))
    parts.append(f'<p class="rules">{escape(_("Result = points ÷ games (deals), lower is better; the best {n} above the dashed line play the final.").format(n=snap.settings.finalists))}</p>')  # noqa: E501
    if snap.flights:
        parts.append(f"<h2>{escape(_('Seating'))}</h2>")
        for plan in snap.plan:
            tables = snap.stage_tables(plan.key)
            if not tables:
                continue
            parts.append(f'<div class="flight">{escape(snap.stage_title(plan.key))} · '
                         f'{escape(_("{minutes} min").format(minutes=plan.duration_us // 60_000_000))}'  # noqa: E501
                         "</div><div class=\"seating\">")
            for t in tables:
                seats = "".join(_seat(snap, n) for n in t.seats)
                parts.append(f'<div class="table"><h3>{escape(_("Table {n}").format(n=t.table))}'
                             f"</h3><ol>{seats}</ol></div>")
            parts.append("</div>")
    parts.append(_audit(snap))
    rules = "".join(f"<p>{escape(line)}</p>" for line in settings_lines(snap.settings))
    parts.append(f"<h2>{escape(_('Rules'))}</h2><div class=\"rules\">{rules}")
    if snap.event.seed is not None:
        parts.append(f"<p>{escape(_('Seat draw seed: {seed}').format(seed=snap.event.seed))}</p>")
    parts.append("</div>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="{current_language()}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(snap.event.name)} — {escape(_('Results'))}</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")
