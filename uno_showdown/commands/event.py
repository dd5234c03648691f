"""`uno-showdown event ...`: the organiser's championship from a terminal.

Every subcommand takes `--db PATH` (the games file the tables record into), `--event ID`
(default: the most recent event) and `--lang`. Bad input and anything the event does not
allow now are refused with one line and exit status 2, before anything is written.
`--json` prints exactly the shapes the docs give; a result there is the exact fraction as a
string ("37/3"; "12" when whole), because a JSON number could not hold 37/3.

Only the argument definitions are built at start-up; each command imports what it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from championship.core.i18n import _, ngettext
from championship.core.standings_json import document as standings_document
from championship.core.text import (
    decimal_text,
    fraction_text,
    points_in_games,
    settings_lines,
)
from showdown.contract.errors import CompanionError
from showdown.contract.events import ConfigError
from uno_showdown.commands.common import text_table, whole_number

if TYPE_CHECKING:
    from championship.core.model import HeldDeal
    from championship.core.snapshot import Snapshot
    from championship.core.standings import Line
    from championship.desk.operations import Championship, Seated
    from championship.store.ledger import AgentNote


def _settings_options(p: argparse.ArgumentParser, defaults: bool) -> None:
    """The settings of `event new` (with the seed's defaults) and `event set` (no defaults)."""

    def d(text: str, value: object) -> str:
        return _("{help} (default: {value})").format(help=text, value=value) if defaults else text

    p.add_argument("--table-size", type=whole_number, metavar="N",
                   help=d(_("most players at a table, 2 to 7"), 7))
    p.add_argument("--qualifying-minutes", type=whole_number, metavar="MIN",
                   help=d(_("length of the qualifying when it is one flight"), 60))
    p.add_argument("--flight-minutes", type=whole_number, metavar="MIN",
                   help=d(_("length of each flight when the qualifying is two"), 45))
    p.add_argument("--flight-break-minutes", type=whole_number, metavar="MIN",
                   help=d(_("break between the two flights"), 15))
    p.add_argument("--break-minutes", type=whole_number, metavar="MIN",
                   help=d(_("break after the qualifying, while the results are copied"), 10))
    p.add_argument("--final-minutes", type=whole_number, metavar="MIN",
                   help=d(_("length of the final"), 60))
    p.add_argument("--finalists", type=whole_number, metavar="N",
                   help=d(_("players at the final's table"), 7))
    p.add_argument("--time-up", metavar="RULE",
                   help=d(_("the deal in progress when the time is up: finish (played to its "
                            "end, it counts) or stop (it does not count)"), "finish"))
    p.add_argument("--tie-break", metavar="ORDER",
                   help=d(_("equal results are ranked by points (fewer first), games (more "
                            "first) and the draw's lot, in this order"), "points,games,lot"))
    p.add_argument("--seating", metavar="HOW",
                   help=d(_("full (as few tables as seat a flight) or spread (every table of "
                            "the bar)"), "full"))
    p.add_argument("--deck", "--edition", dest="edition", metavar="DECK",
                   help=d(_("the deck the tables play; rule 2.4.8 plays the classic, so another "
                            "is the director's explicit choice"), "classic"))
    p.add_argument("--luckiest", metavar="HOW",
                   help=d(_("the luckiest award: points (the seed's most qualifying points) or "
                            "result (the highest points ÷ games)"), "points"))
    p.add_argument("--target", type=whole_number, metavar="POINTS",
                   help=d(_("a game at a table ends and starts again when someone reaches "
                            "this"), 500))


SETTING_NAMES = ("tables", "table_size", "qualifying_minutes", "flight_minutes",
                 "flight_break_minutes", "break_minutes", "final_minutes", "finalists",
                 "time_up", "tie_break", "seating", "edition", "target", "luckiest")


def register(sub: argparse._SubParsersAction) -> None:
    """Add `event` to `uno-showdown`."""
    base = argparse.ArgumentParser(add_help=False)
    base.add_argument("--db", metavar="PATH",
                      help=_("the games file the tables record into (default: in your user "
                             "data directory)"))
    base.add_argument("--lang", metavar="LANG",
                      help=_("language of the output: en, ru, uk or hy (default: the "
                             "system's)"))
    common = argparse.ArgumentParser(add_help=False, parents=[base])
    common.add_argument("--event", type=whole_number, metavar="ID",
                        help=_("the event (default: the most recent one)"))
    with_json = argparse.ArgumentParser(add_help=False, parents=[common])
    with_json.add_argument("--json", action="store_true", help=_("print JSON"))

    summary = _("run a championship: registration, draw, clock, standings, final, awards")
    event = sub.add_parser("event", description=summary + ". " + _(
        "The tables record their deals with `uno-showdown game round` or the companion's "
        "screen; docs/championship.md walks through a whole championship."))
    actions = event.add_subparsers(dest="event_command", metavar="ACTION")
    actions.required = True

    p = actions.add_parser("new", parents=[base], help=_("create an event; prints its id"))
    p.add_argument("name", help=_("the event's name"))
    p.add_argument("--tables", type=whole_number, required=True, metavar="N",
                   help=_("the bar's tables for the championship"))
    _settings_options(p, defaults=True)
    p.set_defaults(func=cmd_new)

    p = actions.add_parser("set", parents=[common],
                           help=_("change settings before the championship starts"))
    p.add_argument("--tables", type=whole_number, metavar="N", help=_("the bar's tables"))
    _settings_options(p, defaults=False)
    p.set_defaults(func=cmd_set)

    p = actions.add_parser("list", parents=[base], help=_("list the events"))
    p.set_defaults(func=cmd_list)

    p = actions.add_parser("show", parents=[with_json],
                           help=_("the event: settings, players, seating, clock, tables"))
    p.set_defaults(func=cmd_show)

    p = actions.add_parser("register", parents=[common],
                           help=_("register players; prints each player's number"))
    p.add_argument("names", nargs="+", metavar="NAME", help=_("the players' names"))
    p.set_defaults(func=cmd_register)

    p = actions.add_parser("withdraw", parents=[common],
                           help=_("a player leaves; their table plays on without them"))
    p.add_argument("number", type=whole_number, help=_("the player's number"))
    p.set_defaults(func=cmd_withdraw)

    p = actions.add_parser("draw", parents=[with_json],
                           help=_("draw the seats: flights, tables, seats"))
    p.add_argument("--seed", type=whole_number, metavar="S",
                   help=_("the draw's seed; the same seed gives the same draw (default: "
                          "chosen at random, and printed)"))
    p.set_defaults(func=cmd_draw)

    for name, text, func in (
        ("start", _("start the next stage's clock (flight 1, flight 2, the final)"), cmd_start),
        ("pause", _("pause the running stage's clock"), cmd_pause),
        ("resume", _("resume the paused clock"), cmd_resume),
        ("end", _("call time on the running stage now"), cmd_end),
    ):
        p = actions.add_parser(name, parents=[common], help=text)
        p.set_defaults(func=func)

    p = actions.add_parser("done", parents=[common],
                           help=_("after the time is up: a table has no deal in progress"))
    p.add_argument("--table", type=whole_number, required=True, metavar="N", help=_("the table"))
    p.set_defaults(func=cmd_done)

    p = actions.add_parser("standings", parents=[with_json],
                           help=_("the qualifying standings across all tables"))
    p.add_argument("--csv", metavar="FILE", help=_("also write them as CSV"))
    p.add_argument("--check", action="store_true",
                   help=_("check the standings kept deal by deal against a count of every "
                          "deal (and put them right if they differ)"))
    p.set_defaults(func=cmd_standings)

    p = actions.add_parser("final", parents=[with_json],
                           help=_("seat the finalists at the final's table"))
    p.set_defaults(func=cmd_final)

    p = actions.add_parser("results", parents=[with_json],
                           help=_("places, the luckiest, every player's qualifying line"))
    p.add_argument("--html", metavar="FILE", help=_("also write a printable results sheet"))
    p.add_argument("--csv", metavar="FILE",
                   help=_("also write every line of the final and of qualifying as CSV"))
    p.set_defaults(func=cmd_results)

    p = actions.add_parser("cards", parents=[common],
                           help=_("printable table cards: number, seats, the page's QR code"))
    p.add_argument("--html", metavar="FILE", required=True, help=_("the file to write"))
    p.add_argument("--url", metavar="URL",
                   help=_("the live page's address for the QR code, e.g. "
                          "http://192.168.1.20:8080/"))
    p.set_defaults(func=cmd_cards)

    p = actions.add_parser("deals", parents=[with_json],
                           help=_("a table's deals: counted, void, held for the director"))
    p.add_argument("--table", type=whole_number, required=True, metavar="N", help=_("the table"))
    p.set_defaults(func=cmd_deals)

    for name, text, func in (
        ("void", _("the director's word: a deal no longer counts"), cmd_void),
        ("restore", _("the director's word: a void or held deal counts"), cmd_restore),
    ):
        p = actions.add_parser(name, parents=[common], help=text)
        p.add_argument("--table", type=whole_number, required=True, metavar="N",
                       help=_("the table"))
        p.add_argument("--deal", required=True, metavar="ID",
                       help=_("the deal, as `event deals` names it (e.g. g1:3)"))
        p.add_argument("--why", required=True, metavar="TEXT",
                       help=_("why, for the results sheet's audit"))
        p.add_argument("--by", metavar="NAME",
                       help=_("who decides (default: your login name)"))
        p.set_defaults(func=func)

    p = actions.add_parser("screen", parents=[common], help=_("the director's screen"))
    p.add_argument("--fullscreen", action="store_true", help=_("fill the whole display"))
    p.add_argument("--size", default="800x480", metavar="WxH",
                   help=_("window size (default 800x480)"))
    p.set_defaults(func=cmd_screen)

    p = actions.add_parser(
        "serve", parents=[common],
        help=_("tables on other machines: the broker, each table's credentials, the live page"),
        description=_("Starts the embedded MQTT broker (authentication on, each table may "
                      "write only its own topic), writes each table's credentials file, "
                      "takes the tables' deals into this games file and serves the live "
                      "page, until Ctrl-C. docs/many-tables.md walks through it."))
    p.add_argument("--listen", default="0.0.0.0:1883", metavar="HOST:PORT",
                   help=_("where the embedded broker listens (default 0.0.0.0:1883: the "
                          "tables on the bar's network reach it)"))
    p.add_argument("--broker", metavar="URL",
                   help=_("use an existing broker instead, e.g. mqtt://192.168.1.5:1883 "
                          "(mqtts:// for TLS)"))
    p.add_argument("--advertise", metavar="HOST",
                   help=_("the address the tables reach this computer at (default: its "
                          "name)"))
    p.add_argument("--tls-cert", metavar="FILE",
                   help=_("the embedded broker speaks TLS with this certificate (PEM)"))
    p.add_argument("--tls-key", metavar="FILE", help=_("the certificate's private key (PEM)"))
    p.add_argument("--ca", metavar="FILE",
                   help=_("the certificate the tables trust (default: --tls-cert's, for a "
                          "self-signed one)"))
    p.add_argument("--credentials-dir", metavar="DIR",
                   help=_("where the tables' credentials files go (default: beside the "
                          "games file)"))
    p.add_argument("--qr", action="store_true",
                   help=_("also write each table's credentials as a QR code image"))
    p.add_argument("--web", default="127.0.0.1:8080", metavar="HOST:PORT",
                   help=_("where the live page is served (default 127.0.0.1:8080: this "
                          "computer only; 0.0.0.0:8080 for phones)"))
    p.add_argument("--no-web", action="store_true", help=_("serve no page"))
    p.set_defaults(func=cmd_serve)


# --- helpers -----------------------------------------------------------------


@contextmanager
def _opened(args: argparse.Namespace, create: bool = False) -> Iterator[Championship]:
    """The event for one command; its errors become one-line usage errors. Only `event new`
    (`create`) makes a games file; every other command needs one with an event in it."""
    from championship.desk.operations import Championship

    try:
        champ = Championship.open(args.db, getattr(args, "event", None), lang=args.lang,
                                  create=create)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    except _DAMAGED as exc:
        raise _damaged(args.db, exc) from None
    try:
        yield champ
    except ConfigError:  # the command's own refusal, already one line
        raise
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    except _DAMAGED as exc:
        raise _damaged(str(champ.store.path), exc) from None
    finally:
        champ.close()


#: What a championship's column holding garbage raises when it is read (JSON that is not
#: JSON, or not the shape kept, bytes where text is kept): the file was damaged outside the
#: program, and the command says so in one line instead of a traceback.
_DAMAGED = (ValueError, TypeError, AttributeError, KeyError, IndexError, OverflowError)


def _damaged(db: str | None, exc: Exception) -> ConfigError:
    """One line for records that cannot be read. The same exceptions could come from a
    fault of the program rather than of the file, so the line does not send a director to
    a backup (losing the deals since) without saying so, and `--verbose` logs where."""
    logging.getLogger(__name__).debug("records not read", exc_info=exc)
    reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
    return ConfigError(_("the championship's records in {path} cannot be read ({reason}); "
                         "the file is left as it is. If it was changed outside the program, "
                         "restore a copy of it; if not, report this line as a fault. Or "
                         "choose another with --db").format(path=db or _("the games file"),
                                                            reason=reason))


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def line_json(line: Line) -> dict[str, Any]:
    return {"rank": line.rank, "number": line.number, "name": line.name, "points": line.points,
            "games": line.games, "result": fraction_text(line.result)}


def _settings_values(args: argparse.Namespace) -> dict[str, Any]:
    return {name: getattr(args, name, None) for name in SETTING_NAMES}


def _local_time(at_us: int) -> str:
    from companion.store.wallclock import local_time

    return local_time(at_us)


# --- commands ----------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    from championship.core.settings import make
    from championship.desk.operations import event_name

    try:  # checked before the games file is opened: a refusal leaves nothing behind
        settings = make(**{k: v for k, v in _settings_values(args).items() if v is not None})
        event_name(args.name)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    with _opened(args, create=True) as champ:
        event_id = champ.new_event(args.name, settings)
        print(event_id)
        print(_("Event {id}: {name}.").format(id=event_id, name=" ".join(args.name.split())),
              file=sys.stderr)
        for line in settings_lines(settings):
            print(line, file=sys.stderr)
        return 0


def cmd_set(args: argparse.Namespace) -> int:
    values = _settings_values(args)
    if all(v is None for v in values.values()):
        raise ConfigError(_("give a setting to change, e.g. --tables 4; see `uno-showdown "
                           "event set --help`"))
    with _opened(args) as champ:
        settings = champ.change_settings(**values)
        for line in settings_lines(settings):
            print(line)
        snap = champ.snapshot()
        if snap.event.stale:
            print(_("The seats were drawn before: draw them again with `uno-showdown event "
                    "draw`."), file=sys.stderr)
        return 0


def cmd_list(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        rows = champ.events_list()
        if not rows:
            print(_("No events yet: create one with `uno-showdown event new NAME --tables N`."))
            return 0
        print(text_table(["id", _("event"), _("created"), _("players")],
                         [[i, n, c[:16].replace("T", " "), p] for i, n, c, p in rows],
                         right={0, 3}))
        return 0


def cmd_register(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        added = champ.register(args.names)
        for number, name in added:
            print(f"{number:>4}  {name}")
        if champ.snapshot().event.stale:
            print(_("The seats were drawn before: draw them again with `uno-showdown event "
                    "draw` to seat the new players."), file=sys.stderr)
        return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        for line in champ.withdraw(args.number):
            print(line)
        return 0


def seating_json(snap: Snapshot) -> dict[str, Any]:
    """The seating as `event draw --json` prints it."""
    flights = []
    for plan in snap.plan:
        if plan.key == "final":
            continue
        tables = [{"table": t.table, "game": t.game_id, "players": list(t.seats)}
                  for t in snap.stage_tables(plan.key)]
        flights.append({"flight": int(plan.key.rsplit("-", 1)[1]),
                        "minutes": plan.duration_us // 60_000_000, "tables": tables})
    return {"seed": snap.event.seed, "flights": flights}


def _seating_text(snap: Snapshot, seated: Sequence[Seated] | None = None) -> list[str]:
    lines = []
    for plan in snap.plan:
        if plan.key == "final" and not snap.final_seated:
            continue
        lines.append(_("{stage} ({minutes} min):").format(
            stage=snap.stage_title(plan.key), minutes=plan.duration_us // 60_000_000))
        for t in snap.stage_tables(plan.key):
            names = ", ".join(f"{n} {snap.name_of(n)}" for n in t.seats) or "-"
            lines.append("  " + _("{table} (game {game}): {players}").format(
                table=_("Table {n}").format(n=t.table), game=t.game_id, players=names))
    return lines


def cmd_draw(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        champ.draw(args.seed)
        snap = champ.snapshot()
        if args.json:
            _print_json(seating_json(snap))
            return 0
        print(ngettext("Seats drawn with seed {seed}: one flight.",
                       "Seats drawn with seed {seed}: {n} flights.", snap.flights).format(
            seed=snap.event.seed, n=snap.flights))
        for line in _seating_text(snap):
            print(line)
        return 0


def _clock_line(snap: Snapshot) -> str:
    from championship.core.clock import Status
    from companion.table.timebox import clock_text

    view = snap.clock
    if view.stage is None:
        if view.next_stage is None:
            return _("Not drawn yet.")
        return _("Nothing has started: {stage} is next.").format(
            stage=snap.stage_title(view.next_stage))
    title = snap.stage_title(view.stage)
    if view.status is Status.RUNNING:
        assert view.time_up_at_us is not None and view.left_us is not None
        return _("{stage}: {time} left (time is up at {at}).").format(
            stage=title, time=clock_text(view.left_us), at=_local_time(view.time_up_at_us))
    if view.status is Status.PAUSED:
        return _("{stage}: paused with {time} left.").format(
            stage=title, time=clock_text(view.left_us or 0))
    if snap.over:
        return _("The final is over: see `uno-showdown event results`.")
    line = _("{stage}: time is up.").format(stage=title)
    if view.break_left_us:
        line += " " + _("Break: {time} left.").format(time=clock_text(view.break_left_us))
    return line


def _tables_text(snap: Snapshot, stage: str) -> list[str]:
    from companion.table.timebox import Phase

    states = {
        Phase.WAITING: _("waiting"), Phase.OPEN: _("playing"), Phase.PAUSED: _("paused"),
        Phase.LAST_DEAL: _("finishing the deal in progress"), Phase.DONE: _("done"),
    }
    return ["  " + ngettext("{table}: {state}, {deals} deal, game {game}",
                            "{table}: {state}, {deals} deals, game {game}", t.deals).format(
        table=_("Table {n}").format(n=t.table), state=states[t.phase], deals=t.deals,
        game=t.game_id) for t in snap.stage_tables(stage)]


def _print_clock(champ: Championship, verb: Callable[[], Snapshot], done: str) -> int:
    snap = verb()
    assert snap.clock.stage is not None
    print(done.format(stage=snap.stage_title(snap.clock.stage)))
    print(_clock_line(snap))
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        return _print_clock(champ, champ.start, _("{stage} has started."))


def cmd_pause(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        return _print_clock(champ, champ.pause, _("{stage} is paused."))


def cmd_resume(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        return _print_clock(champ, champ.resume, _("{stage} goes on."))


def cmd_end(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        snap = champ.end()
        assert snap.clock.stage is not None
        print(_("Time is up for {stage}.").format(stage=snap.stage_title(snap.clock.stage)))
        for line in _tables_text(snap, snap.clock.stage):
            print(line)
        return 0


def cmd_done(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        table, changed = champ.done(args.table)
        snap = champ.snapshot()
        title = _("{table} of {stage}").format(table=_("Table {n}").format(n=table.table),
                                                 stage=snap.stage_title(table.stage))
        print((_("{title} is done.") if changed else _("{title} was already done.")).format(
            title=title))
        return 0


def _standings_rows(lines: Sequence[Line], cut: int | None) -> str:
    rows: list[list[object]] = []
    for i, ln in enumerate(lines):
        if cut is not None and i == cut and ln.rank is not None:
            rows.append(["--", "", _("(the final's cut)"), "", "", ""])
        mark = _("withdrew") if ln.withdrawn else ""
        rows.append([ln.rank if ln.rank is not None else "-", ln.number,
                     f"{ln.name} ({mark})" if mark else ln.name, ln.points, ln.games,
                     decimal_text(ln.result)])
    return text_table(["#", _("no."), _("player"), _("points"), _("games"), _("result")], rows,
                      right={0, 1, 3, 4, 5})


def _write(path: str, text: str, what: str) -> None:
    """Write a file the organiser asked for, or refuse in one line; say it on stderr."""
    try:
        Path(path).write_text(text, encoding="utf-8", newline="")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ConfigError(_("cannot write {path}: {reason}").format(
            path=path, reason=reason)) from None
    if what:
        print(what.format(path=path), file=sys.stderr)


def _write_all(files: Sequence[tuple[str, str, str]]) -> None:
    """Write the files a command was asked for (path, text, what to say), all or none: if
    one cannot be written, those this call created are taken away again, and the refusal is
    the one line said."""
    made: list[Path] = []
    try:
        for path, text, _what in files:
            new = not os.path.lexists(path)
            _write(path, text, "")
            if new:
                made.append(Path(path))
    except ConfigError:
        for done in made:
            with contextlib.suppress(OSError):
                done.unlink()
        raise
    for path, _text, what in files:
        print(what.format(path=path), file=sys.stderr)


def lines_csv(stages: Sequence[tuple[str, Sequence[Line]]]) -> str:
    """Standings as CSV (a spreadsheet opens it): one row per player and stage; the result
    as a decimal and as the exact fraction."""
    import csv
    import io

    from companion.table import spreadsheet

    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["stage", "rank", "number", "name", "points", "games", "result", "exact",
                "withdrawn"])
    for stage, lines in stages:
        for ln in lines:  # a name that starts with = + - @ gets a ' (`spreadsheet.cell`)
            w.writerow(spreadsheet.row([
                stage, "" if ln.rank is None else ln.rank, ln.number, ln.name, ln.points,
                ln.games, "" if ln.result is None else decimal_text(ln.result),
                "" if ln.result is None else str(ln.result), "yes" if ln.withdrawn else ""]))
    return out.getvalue()


def cmd_cards(args: argparse.Namespace) -> int:
    from championship.desk.table_cards import table_cards

    with _opened(args) as champ:
        snap = champ.snapshot()
        if args.url is not None:
            _plain_option(args.url, "--url")
        if args.url is not None and not args.url.startswith(("http://", "https://")):
            raise ConfigError(_("--url must be the page's address, e.g. "
                                "http://192.168.1.20:8080/"))
        _write(args.html, table_cards(snap, args.url), _("Table cards written to {path}."))
        return 0


def cmd_standings(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        if args.check:
            same, deals = champ.check_sums()
            if same:
                print(ngettext("The standings kept deal by deal equal a count of the {n} deal.",
                               "The standings kept deal by deal equal a count of all {n} "
                               "deals.", deals).format(n=deals))
                return 0
            champ.resum()
            print(ngettext("The standings kept deal by deal differed from a count of the {n} "
                           "deal: they are summed again from it now.",
                           "The standings kept deal by deal differed from a count of all {n} "
                           "deals: they are summed again from them now.", deals).format(n=deals))
            return 1
        if args.json and not args.csv:
            rows = champ.ordered_standings()  # the order the file keeps, read as it is
            if rows is not None:
                print(standings_document(*rows))
                return 0
        settings, qualifying, _final = champ.standings()
        if args.csv:
            _write(args.csv, lines_csv([("qualifying", qualifying)]),
                   _("Standings written to {path}."))
        if args.json:
            _print_json([line_json(ln) for ln in qualifying])
            return 0
        print(_standings_rows(qualifying, settings.finalists))
        print(_("Lowest result first (points ÷ games); equal results: {order}.").format(
            order=settings.tie_break_text()))
        return 0


def cmd_final(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        seated = champ.seat_final()
        snap = champ.snapshot()
        if args.json:
            _print_json({"game": seated.game_id, "players": list(seated.players)})
            return 0
        print(_("The final is seated at {table} (game {game}): {players}.").format(
            table=_("Table {n}").format(n=seated.table), game=seated.game_id,
            players=", ".join(f"{n} {snap.name_of(n)}" for n in seated.players)))
        return 0


def results_json(snap: Snapshot) -> dict[str, Any]:
    a = snap.awards
    places = [{"place": i, **{k: v for k, v in line_json(ln).items() if k != "rank"}}
              for i, ln in enumerate(a.places, 1)]
    luckiest = None if a.luckiest is None else {
        "number": a.luckiest.number, "name": a.luckiest.name,
        "points": a.luckiest.points, "result": fraction_text(a.luckiest.result),
        "by": a.luckiest_by.value}
    return {"event": snap.event.name, "complete": a.final_over, "places": places,
            "luckiest": luckiest, "final": [line_json(ln) for ln in snap.final],
            "qualifying": [line_json(ln) for ln in snap.qualifying]}


def cmd_results(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        snap = champ.snapshot()
        files = []
        if args.html:
            from championship.desk.sheet import results_sheet

            files.append((args.html, results_sheet(snap), _("Results sheet written to {path}.")))
        if args.csv:
            files.append((args.csv, lines_csv([("final", snap.final),
                                               ("qualifying", snap.qualifying)]),
                          _("Results written to {path}.")))
        _write_all(files)
        if args.json:
            _print_json(results_json(snap))
            return 0
        a = snap.awards
        if not snap.over:
            print(_("Provisional: the final is not over."))
        elif not a.final_over:
            held = [h for h in snap.held if h.stage == "final"]
            print(ngettext("Provisional: {n} deal of the final is held for the director, and "
                           "the awards wait for it: {deals}.",
                           "Provisional: {n} deals of the final are held for the director, "
                           "and the awards wait for them: {deals}.", len(held)).format(
                n=len(held), deals="; ".join(champ.decide_text(h) for h in held)))
        titles = [_("1st place"), _("2nd place"), _("3rd place")]
        for title, ln in zip(titles, a.places, strict=False):
            points, games = points_in_games(ln.points, ln.games)
            print(_("{place}: {number} {name}, {points} {games}, result {result}").format(
                place=title, number=ln.number, name=ln.name, points=points, games=games,
                result=decimal_text(ln.result)))
        if a.luckiest is not None:
            points, games = points_in_games(a.luckiest.points, a.luckiest.games)
            print(_("The luckiest ({reading}): {number} {name}, {points} {games}, result "
                    "{result}").format(
                reading=snap.settings.luckiest_text(), number=a.luckiest.number,
                name=a.luckiest.name, points=points, games=games,
                result=decimal_text(a.luckiest.result)))
        if snap.final:
            print()
            print(_("Final:"))
            print(_standings_rows(snap.final, None))
        print()
        print(_("Qualifying:"))
        print(_standings_rows(snap.qualifying, None))
        return 0


def cmd_show(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        snap = champ.snapshot()
        if args.json:
            data = seating_json(snap)
            data = {"event": snap.event.id, "name": snap.event.name, **data,
                    "players": [{"number": p.number, "name": p.name,
                                 "withdrawn": p.withdrawn} for p in snap.data.players],
                    "now_us": snap.now_us, "ends_at_us": snap.clock.time_up_at_us,
                    "left_us": snap.clock.left_us,
                    "tables": [{"table": n, "state": snap.table_presence(n),
                                **({"heard_us": h.heard_us, "offset_us": h.offset_us,
                                    "waiting": h.waiting} if (h := snap.presence.get(n))
                                   else {})}
                               for n in sorted({t.table for t in snap.tables})],
                    "held": [{"table": h.table, "deal": h.deal_id, "reason": h.reason}
                             for h in snap.held],
                    "audit": [{"deal": a.deal_id, "table": a.table, "action": a.action,
                               "who": a.who, "at_us": a.at_us, "why": a.why}
                              for a in snap.audit]}
            _print_json(data)
            return 0
        print(_("Event {id}: {name}.").format(id=snap.event.id, name=snap.event.name))
        for line in settings_lines(snap.settings):
            print(line)
        players = snap.data.players
        active = [p for p in players if not p.withdrawn]
        print(_("Players: {n} registered, {w} withdrawn.").format(
            n=len(players), w=len(players) - len(active)))
        for p in players:
            mark = "  " + _("(withdrew)") if p.withdrawn else ""
            print(f"{p.number:>4}  {p.name}{mark}")
        if snap.flights:
            print(_("Seats drawn with seed {seed}.").format(seed=snap.event.seed))
            for line in _seating_text(snap):
                print(line)
        print(_clock_line(snap))
        if snap.clock.stage is not None:
            for line in _tables_text(snap, snap.clock.stage):
                print(line)
        from championship.store.ledger import agent_notes

        with champ.events.reading() as conn:
            agents = agent_notes(conn, snap.event.id)
        for line in _presence_lines(snap, champ.decide_text, agents):
            print(line)
        return 0


def _who(args: argparse.Namespace) -> str:
    import getpass

    if args.by:
        return _plain_option(str(args.by), "--by").strip()[:60] or "?"
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "?"


def _event_table(champ: Championship, table: int) -> int:
    """A table of the event (1 to its number of tables), else one line saying which are."""
    tables = champ.snapshot().settings.tables
    if not 1 <= table <= tables:
        raise ConfigError(_("the event has no table {table}: its tables are 1 to {n}").format(
            table=table, n=tables))
    return table


def _plain_option(value: str, option: str) -> str:
    """A free text typed for `option` (`--why`, `--by`): refused in one line when it holds
    a control or invisible character (it reaches the results sheet and terminals), by the
    rule players' names follow (`showdown.contract.text`)."""
    from showdown.contract.text import check_plain

    try:
        return check_plain(value, option)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None


def cmd_void(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        _event_table(champ, args.table)
        _plain_option(args.deal, "--deal")
        ref = champ.void_deal(args.table, args.deal, _plain_option(args.why, "--why"),
                              _who(args))
        print(_("Deal {deal} of table {table} ({stage}) is void: it no longer counts.").format(
            deal=ref.short, table=ref.table, stage=champ.snapshot().stage_title(ref.stage)))
        return 0


def cmd_restore(args: argparse.Namespace) -> int:
    with _opened(args) as champ:
        _event_table(champ, args.table)
        _plain_option(args.deal, "--deal")
        ref = champ.restore_deal(args.table, args.deal, _plain_option(args.why, "--why"),
                                 _who(args))
        said = (_("Deal {deal} of table {table} ({stage}) counts now.") if ref.held else
                _("Deal {deal} of table {table} ({stage}) counts again."))
        print(said.format(deal=ref.short, table=ref.table,
                          stage=champ.snapshot().stage_title(ref.stage)))
        return 0


def cmd_deals(args: argparse.Namespace) -> int:
    from championship.core.presence import held_text
    from championship.desk.operations import deal_list

    with _opened(args) as champ:
        _event_table(champ, args.table)
        book = champ.deal_book(args.table)
        snap = champ.snapshot()
        items = deal_list(book, args.table)
        if args.json:
            _print_json([{"stage": d.stage, "deal": d.short, "id": d.deal_id,
                          "points": {str(k): v for k, v in sorted(d.points.items())},
                          "state": d.state, **({"held": d.held} if d.held else {})}
                         for d in items])
            return 0
        states = {"counts": _("counts"), "void": _("void"), "held": _("held")}
        for d in items:  # each player by number and name, as the standings name them
            points = ", ".join(f"{n} {snap.name_of(n)}: {v}" for n, v in sorted(
                d.points.items()))
            why = f" ({held_text(d.held)})" if d.held else ""
            print(f"{snap.stage_title(d.stage)}  {d.short}  {states[d.state]}{why}  {points}")
        if not items:
            print(_("Table {table} has no deal yet.").format(table=args.table))
        return 0


def _presence_lines(snap: Snapshot, decide: Callable[[HeldDeal], str],
                    agents: Mapping[int, AgentNote] | None = None) -> list[str]:
    """Each table as the director hears it (and the agent that holds it), the broker, and
    the deals held or voided."""
    from championship.core import presence as pr
    from championship.core.messages import STOP_TAKEN
    from championship.desk.operations import short_deal_id
    from companion.store.wallclock import local_time

    lines: list[str] = []
    broker = snap.presence.get(0)
    if broker is not None:
        if broker.linked and snap.now_us - broker.heard_us <= pr.OFFLINE_AFTER_US:
            lines.append(_("The broker: connected."))
        else:
            lines.append(_("The broker: lost since {time}.").format(
                time=_local_time(broker.heard_us)))
    tables = sorted({t.table for t in snap.tables})
    if tables and (snap.presence or snap.held):
        lines.append(_("The tables, as the director hears them:"))
    for table in tables if snap.presence else ():
        heard = snap.presence.get(table)
        state = snap.table_presence(table)
        text = pr.state_text(state)
        if heard is not None:
            if state == pr.OFFLINE:
                text = _("offline since {time}").format(time=_local_time(heard.heard_us))
            text += ", " + _("clock {offset}").format(offset=pr.offset_text(heard.offset_us))
            if pr.clock_off(heard.offset_us):
                text += " " + _("(off: check its clock)")
            if heard.waiting:
                text += ", " + _("waiting to be sent: {n}").format(n=heard.waiting)
        note = (agents or {}).get(table)
        if note is not None:
            text += ", " + _("its agent on {host} since {time}").format(
                host=note.host or "?", time=local_time(note.since_us))
            if note.contest is not None and note.contest_us is not None:
                text += "; " + (_("it took the table over from the agent on {host} at {time}")
                                if note.contest == STOP_TAKEN else
                                _("a second agent, on {host}, was told to stop at {time}")
                                ).format(host=note.contest_host or "?",
                                         time=local_time(note.contest_us))
        lines.append("  " + _("Table {n}").format(n=table) + ": " + text)
    for h in snap.held:
        if snap.stage_closed(h.stage):  # left by an older version: nothing decides it now
            lines.append(_("Held and not counted: table {table}, deal {deal}: {why} (the "
                           "qualifying results are closed).").format(
                table=h.table, deal=short_deal_id(h.deal_id), why=pr.held_text(h.reason)))
        else:
            lines.append(_("Held for the director: {deal}.").format(deal=decide(h)))
    return lines


def cmd_screen(args: argparse.Namespace) -> int:
    from uno_showdown.commands.companion import parse_size

    size = parse_size(args.size)
    from championship.screen.screen import NoDisplayError, run_director

    with _opened(args) as champ:
        try:
            return run_director(champ, fullscreen=args.fullscreen, size=size)
        except NoDisplayError:
            raise ConfigError(_("no display to open the screen on: run it on a desktop, or "
                               "headless under Xvfb: xvfb-run -s \"-screen 0 800x480x24\" "
                               "uno-showdown event screen")) from None


def cmd_serve(args: argparse.Namespace) -> int:
    import signal
    import threading

    from championship.desk.serve import ServeOptions, serve

    def path(value: str | None) -> Path | None:
        return Path(value) if value else None

    for value in (args.tls_cert, args.tls_key, args.ca):
        try:
            found = not value or Path(value).is_file()
        except (OSError, ValueError):  # a name too long, a NUL in it
            found = False
        if not found:
            raise ConfigError(_("there is no file {path}").format(path=value))
    opts = ServeOptions(args.db, args.event, args.lang, listen=args.listen,
                        broker=args.broker, advertise=args.advertise,
                        tls_cert=path(args.tls_cert), tls_key=path(args.tls_key),
                        ca=path(args.ca), credentials_dir=path(args.credentials_dir),
                        qr=args.qr, web=None if args.no_web else args.web,
                        say=lambda text: print(text, flush=True))
    # Ctrl-C and SIGTERM both stop it the same way, cleaning up (the director's sync, the
    # broker, the page's streams).
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_a: stop.set())
    try:
        return serve(opts, stop)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
