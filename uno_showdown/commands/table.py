"""`uno-showdown table ...`: a table on its own machine, in the director's championship.

`table join` runs the table's agent until Ctrl-C: the table records into its own games file
(`--db`) with the companion's screen or `uno-showdown game round`, and the agent keeps the
director in step. `table status` prints what the file holds: the stages seated here, the
outbox, and the standings last received. The credentials come from a file (never the
command line), which must be readable by its owner only.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import threading
from pathlib import Path
from typing import Any

from championship.core.i18n import _
from showdown.contract.errors import CompanionError
from showdown.contract.events import ConfigError
from uno_showdown.commands.common import whole_number


def register(sub: argparse._SubParsersAction) -> None:
    summary = _("a table on its own machine in a championship served by `event serve`")
    table = sub.add_parser("table", description=summary + ". " + _(
        "docs/many-tables.md walks through it."))
    actions = table.add_subparsers(dest="table_command", metavar="ACTION")
    actions.required = True
    base = argparse.ArgumentParser(add_help=False)
    base.add_argument("--db", metavar="PATH", required=True,
                      help=_("this table's own games file"))
    base.add_argument("--lang", metavar="LANG",
                      help=_("language of the output: en, ru, uk or hy (default: the "
                             "system's)"))

    p = actions.add_parser("join", parents=[base],
                           help=_("join the championship and keep the director in step"))
    p.add_argument("--broker", required=True, metavar="URL",
                   help=_("the director's broker, mqtt://HOST:PORT (mqtts:// for TLS)"))
    p.add_argument("--event", type=whole_number, required=True, metavar="ID", help=_("the event"))
    p.add_argument("--table", type=whole_number, required=True, metavar="N", help=_("this table"))
    p.add_argument("--credentials", required=True, metavar="FILE",
                   help=_("the table's credentials file from `event serve` (mode 600)"))
    p.add_argument("--take-over", action="store_true",
                   help=_("take this table over from another agent connected with the same "
                          "credentials (which then stops, saying so)"))
    p.set_defaults(func=cmd_join)

    p = actions.add_parser("status", parents=[base],
                           help=_("what this table's file holds: stages, outbox, standings"))
    p.set_defaults(func=cmd_status)


def _agent(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Every check, then the hold on the games file (one agent per file), then the agent:
    nothing is written before a refusal. Returns the agent and the hold's descriptor."""
    from championship.broker.credentials import read_credentials
    from championship.broker.link import parse_broker
    from championship.core.errors import ChampionshipError
    from championship.desk.table_agent import TableAgent
    address = parse_broker(args.broker)
    if not 1 <= args.table <= 999:
        raise ChampionshipError(_("a table is numbered from 1 to 999"))
    creds = read_credentials(args.credentials)
    if creds.event != args.event or creds.table != args.table:
        raise ChampionshipError(_("{path} holds the credentials of table {table} of event {event}: "
                           "use that table's file").format(
            path=args.credentials, table=creds.table, event=creds.event))
    from championship.store.table_file import director_file

    if director_file(args.db):
        raise ChampionshipError(_("{path} is the director's games file (it holds the event): "
                                  "give the table a file of its own, e.g. --db table{table}.db"
                                  ).format(path=args.db, table=args.table))
    if address.tls and not creds.ca_pem:
        raise ChampionshipError(_("the broker speaks TLS but {path} holds no certificate: ask the "
                           "director for a file made with --tls-cert").format(
            path=args.credentials))
    from championship.store.table_file import hold

    try:
        held = hold(args.db)
    except OSError as exc:
        raise ChampionshipError(_("cannot open the games file {path}: {reason}; choose another "
                                  "with --db").format(path=args.db,
                                                      reason=exc.strerror or exc)) from None
    if held is None:
        raise ChampionshipError(_("another `uno-showdown table join` is running on {path}: stop "
                                  "it first (one agent per games file)").format(path=args.db))
    try:
        return TableAgent(args.db, address, creds, args.table,
                          say=lambda text: print(text, flush=True),
                          take_over=args.take_over), held
    except BaseException:
        os.close(held)
        raise


def cmd_join(args: argparse.Namespace) -> int:
    import sys

    try:
        agent, held = _agent(args)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_a: stop.set())
    agent.start()
    print(_("Table {table} of event {event}: recording into {path}; the director is at "
            "{url}. Ctrl-C stops.").format(table=args.table, event=args.event,
                                          path=agent.store.path, url=agent.link.address.url),
          flush=True)
    warned = False
    status = 0
    try:
        while not stop.wait(STOP_POLL_S):
            told = agent.stopped
            if told is not None:  # the director: another agent holds the table
                print(stopped_text(args, told), file=sys.stderr, flush=True)
                status = 2
                break
            if agent.link.refused and agent.link.refused_code in NOT_AUTHORISED and not warned:
                print(_("The broker refused this table's credentials ({reason}): ask the "
                        "director for a fresh file.").format(reason=agent.link.refused),
                      flush=True)
                warned = True
    finally:
        agent.stop()
        os.close(held)
    return status


#: How often `table join` looks whether its agent was told to stop.
STOP_POLL_S = 0.5
#: paho's reason codes of a CONNACK that refuses the credentials themselves (bad user name
#: or password, not authorised): only these call for a fresh credentials file.
NOT_AUTHORISED = (4, 5, 134, 135)


def join_command(args: argparse.Namespace, *extra: str) -> str:
    """This `table join` as typed again (with `extra` options): a command printed for the
    user runs as printed."""
    import shlex

    words = ["uno-showdown", "table", "join", "--db", args.db, "--broker", args.broker,
             "--event", str(args.event), "--table", str(args.table), "--credentials",
             args.credentials]
    if args.lang:
        words += ["--lang", args.lang]
    return shlex.join([*words, *extra])


def stopped_text(args: argparse.Namespace, told: Any) -> str:
    """Why this agent stops, in one line: who holds the table, since when, from where."""
    from championship.core import messages as wire
    from companion.store.wallclock import local_time

    host = told.host or "?"
    if told.why == wire.STOP_TAKEN:
        return _("Table {table} of event {event} was taken over at {time} by the agent on "
                 "{host}: this one stops.").format(table=args.table, event=args.event,
                                                   time=local_time(told.since_us), host=host)
    return _("Another agent holds table {table} of event {event}, on {host} since {time}: "
             "this one stops. To move the table here, stop that one, or take it over: "
             "`{command}`").format(table=args.table, event=args.event, host=host,
                                   time=local_time(told.since_us),
                                   command=join_command(args, "--take-over"))


def cmd_status(args: argparse.Namespace) -> int:
    from championship.store.table_file import TableFile, agent_running
    from companion.store import wallclock
    from companion.store.games import Store
    from companion.store.wallclock import local_time
    from companion.table.timebox import Phase, clock_text

    try:
        if not _is_file(args.db):  # a status never makes a file (nor its folders)
            raise ConfigError(_("there is no games file at {path}: check --db").format(
                path=args.db))
        running = agent_running(args.db)  # before the store opens the file (see there)
        with Store(args.db) as store:
            row = TableFile.joined(store)
            if row is None:
                raise ConfigError(_("{path} has not joined a championship: run `uno-showdown "
                                   "table join` first").format(path=args.db))
            file = TableFile(store, int(row["event"]), int(row["table"]))
            print(_("Table {table} of event {event}.").format(table=row["table"],
                                                               event=row["event"]))
            now = wallclock.now()
            phases = {Phase.WAITING: _("waiting for the start"), Phase.OPEN: _("playing"),
                      Phase.PAUSED: _("paused"),
                      Phase.LAST_DEAL: _("time is up: finishing the deal in progress"),
                      Phase.DONE: _("done")}
            for box_id, _s, _p in file.stages().values():
                boxed = store.boxes.load(box_id)
                left = boxed.box.left(now)
                state = phases[boxed.box.phase(now)]
                if boxed.box.phase(now) in (Phase.OPEN, Phase.PAUSED) and left is not None:
                    state += ", " + _("{time} left").format(time=clock_text(left))
                print(_("{label}: game {game}, {state}.").format(
                    label=boxed.box.label, game=boxed.current_game_id, state=state))
            link = json.loads(row["link"]) if "link" in row else None
            if link is not None and link.get("stopped"):
                print(_("`uno-showdown table join` stopped at {time}: nothing is sent until "
                        "it runs again.").format(time=local_time(int(link["since"]))))
            elif link is not None and not running:  # killed, or its computer went off
                print(_("`uno-showdown table join` is not running on this file (it ended "
                        "without stopping): nothing is sent until it runs again."))
            elif link is not None and not link["linked"]:
                print(_("The broker was lost at {time}: the table keeps recording and sends "
                        "when it is back.").format(time=local_time(int(link["since"]))))
            elif link is not None:
                print(_("The broker: connected since {time}.").format(
                    time=local_time(int(link["since"]))))
            clock = json.loads(row["clock"]) if "clock" in row else None
            if clock is not None:
                from championship.core.presence import clock_off, offset_text

                offset = int(clock["offset_us"])
                print(_("This computer's clock: {offset} against the director's{warning}."
                        ).format(offset=offset_text(offset), warning=_(
                            " (off: the table counts on the director's time)")
                            if clock_off(offset) else ""))
            # What waits in the file: the outbox, and what the table recorded since its
            # agent last looked (a stopped or killed agent queued nothing more).
            print(_("Waiting to be sent: {n}.").format(
                n=file.pending() + (0 if running else file.scan(dry=True))))
            for line in file.refused():
                print(line)
            for line in file.words():
                print(line)
            lines = [ln for ln in _standings(row.get("standings")).get("qualifying", [])
                     if ln.get("rank")]
            if lines:
                print(_("Standings from the director:"))
                for ln in lines[:_standings(row.get("standings")).get("finalists", 7) + 3]:
                    print(f"{ln['rank']:>3}  {ln['number']:>3}  {ln['name']:<16} {ln['shown']}")
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    return 0


def _standings(text: str | None) -> dict[str, Any]:
    """The standings kept in the file, checked as when they arrived (a file written by an
    older agent, or by hand, may hold anything): none when they do not pass."""
    from championship.core import messages as wire

    if not text:
        return {}
    try:
        return wire.decode_standings(text.encode("utf-8", "surrogatepass"))
    except wire.WireError:
        return {}


def _is_file(path: str) -> bool:
    try:
        return Path(path).is_file()
    except (OSError, ValueError):  # a name too long, a NUL in it
        return False
