"""`uno-showdown game ...`: the companion's games from a terminal (`points` is in `points.py`).

The same operations the screen offers, for a table that keeps score from a terminal or a
script. Every change goes through `CompanionApp`, so a round printed as saved is on disk, and
bad input (an unknown player, a card the edition lacks, a winner who still has cards, two
winners) is refused with one line and exit status 2 before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion.deck import EDITION_KEYS
from showdown.contract.errors import CompanionError, ConfigError
from showdown.contract.i18n import N_, _
from showdown.contract.record import record
from uno_showdown.commands import game_helpers as table_commands
from uno_showdown.commands.common import add_common_options, text_table
from uno_showdown.commands.companion_open import opened, opened_file, rules_line
from uno_showdown.commands.game_helpers import AddAction, AddArguments

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # the games file's code is imported when a `game` command runs
    from companion.app import CompanionApp
    from companion.scoring import Option, ScoringMethod
    from companion.table.game import Game, HistoryRow, Standing
    from companion.table.records import BoxedGame

#: `register` is given the words after `game` (see `cli`).
REGISTER_TAKES_WORDS = True


def register(sub: argparse._SubParsersAction, words: Sequence[str] = ()) -> None:
    """Add `game` and its actions (new, round, edit, show, list, ...).

    `words` are those after `game` on the command line: when the first is an action, only
    that action's parser is built (a Pi pays, at every start, for the parsers, translated
    help and scoring methods of the others); otherwise (`game --help`, a typo) all are.
    The language is chosen already (`cli.main`)."""

    def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        add_common_options(parser)
        return parser

    def with_game(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        add_common_options(parser)
        parser.add_argument("--game", type=int, metavar="ID",
                            help=_("the game (default: the most recent one)"))
        return parser

    game = sub.add_parser("game")
    games = game.add_subparsers(dest="game_command", metavar="ACTION")
    games.required = True
    actions = {**_ACTIONS, **table_commands.ACTIONS}
    chosen = words[0] if words and words[0] in actions else None
    for name, add in actions.items():
        if chosen is None or name == chosen:
            add(games, common, with_game)


def _add_new(games: argparse._SubParsersAction, common: AddArguments,
             with_game: AddArguments) -> None:
    from companion.scoring import METHODS, OPTIONS  # every method: `new` only

    p = common(games.add_parser("new", help=_("start a game; prints its id")))
    p.add_argument("--edition", required=True,
                   help=_("the deck: {choices}").format(choices=", ".join(EDITION_KEYS)))
    p.add_argument("--method", required=True,
                   help=_("how rounds are scored: {choices}").format(choices="; ".join(
                       f"{m.key} ({_(m.title)})" for m in METHODS.values())))
    p.add_argument("--players", required=True,
                   help=_('players in seating order, e.g. "Ann,Bob,Cid"; teams: "Ann+Cid,Bob+Dan"'))
    p.add_argument("--target", type=int, help=_("points that end the game (default per method)"))
    p.add_argument("--option", action="append", default=[], metavar="OPTION",
                   help=_("a scoring option, as often as needed: {choices}").format(
                       choices="; ".join(_option_help(o) for o in OPTIONS.values())))
    table_commands.add_new_game_arguments(p)
    p.set_defaults(func=cmd_new)


def _add_round(games: argparse._SubParsersAction, common: AddArguments,
               with_game: AddArguments) -> None:
    p = with_game(games.add_parser("round", help=_("record a round")))
    _round_arguments(p)
    table_commands.add_round_arguments(p)
    p.set_defaults(func=cmd_round)


def _add_edit(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = with_game(games.add_parser("edit", help=_("correct a past round")))
    p.add_argument("number", type=int, help=_("the round's number"))
    _round_arguments(p)
    table_commands.add_edit_arguments(p)
    p.set_defaults(func=cmd_edit)


def _add_show(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = with_game(games.add_parser("show", help=_("print the standings")))
    p.add_argument("--rounds", action="store_true", help=_("also print every round"))
    p.set_defaults(func=cmd_show)


def _add_duels(games: argparse._SubParsersAction, common: AddArguments,
               with_game: AddArguments) -> None:
    p = with_game(games.add_parser(
        "duels",
        help=_("list the game's showdown duels, or take missing ones back from the duel log")))
    p.add_argument("--recover-from", metavar="LOG",
                   help=_("the duel log (duels.jsonl): store the duels of this game's players "
                          "that the games file lacks; running it again stores nothing twice"))
    p.set_defaults(func=cmd_duels)


def _add_list(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = common(games.add_parser("list", help=_("list the games kept")))
    p.set_defaults(func=cmd_list)


def _add_undo(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = with_game(games.add_parser("undo", help=_("take back the last round")))
    p.set_defaults(func=cmd_undo)


def _add_redo(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = with_game(games.add_parser("redo", help=_("put back the last undone round")))
    p.set_defaults(func=cmd_redo)


def _add_rename(games: argparse._SubParsersAction, common: AddArguments,
                with_game: AddArguments) -> None:
    p = with_game(games.add_parser("rename", help=_("rename a player")))
    p.add_argument("old", help=_("the player's name now"))
    p.add_argument("new", help=_("the new name"))
    p.set_defaults(func=cmd_rename)


def _add_join(games: argparse._SubParsersAction, common: AddArguments,
              with_game: AddArguments) -> None:
    p = with_game(games.add_parser("join",
                         help=_("add a late joiner, who plays from the next round")))
    p.add_argument("name", help=_("the new player"))
    p.add_argument("--seat", type=int, metavar="N",
                   help=_("seat number, 1 = first (default: last)"))
    p.set_defaults(func=cmd_join)


def _add_export(games: argparse._SubParsersAction, common: AddArguments,
                with_game: AddArguments) -> None:
    p = with_game(games.add_parser("export", help=_("write a game as JSON or CSV")))
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument("--output", metavar="FILE", help=_("file to write (default: standard output)"))
    p.set_defaults(func=cmd_export)


def _add_import(games: argparse._SubParsersAction, common: AddArguments,
                with_game: AddArguments) -> None:
    p = common(games.add_parser("import", help=_("read an exported game as a new game")))
    p.add_argument("file", help=_("a JSON or CSV file written by `game export`"))
    p.set_defaults(func=cmd_import)


#: `game`'s actions in the order `game --help` lists them, each with what adds its parser;
#: the helpers' actions (`game_helpers.ACTIONS`) follow.
_ACTIONS: dict[str, AddAction] = {
    "new": _add_new,
    "round": _add_round,
    "edit": _add_edit,
    "show": _add_show,
    "duels": _add_duels,
    "list": _add_list,
    "undo": _add_undo,
    "redo": _add_redo,
    "rename": _add_rename,
    "join": _add_join,
    "export": _add_export,
    "import": _add_import,
}


def _option_help(option: Option) -> str:
    """An option, what it does, and the methods that take it (when not all do)."""
    from companion.scoring import METHODS

    takers = [m.key for m in METHODS.values() if option.key in m.options]
    if len(takers) == len(METHODS):
        return f"{option.key} ({_(option.title)})"
    return _("{key} ({title}; methods {methods})").format(
        key=option.key, title=_(option.title), methods=", ".join(takers))


def _round_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--winner", action="append", default=[], metavar="NAME",
                   help=_("the player who went out"))
    p.add_argument("--hand", action="append", default=[], metavar='"NAME: CARDS"',
                   help=_('cards left in a hand, e.g. "Bob: r5 gskip"; "Bob: -" for none'))
    p.add_argument("--points", action="append", default=[], metavar='"NAME: N"',
                   help=_('points left in a hand, for tables that count, e.g. "Bob: 25"'))
    p.add_argument("--order", metavar='"NAME,NAME,..."',
                   help=_('the order the players went out, first to last, e.g. "Cid,Ann,Bob" '
                          "(method last; the last player may be left out)"))
    p.add_argument("--out-on", metavar="CARD",
                   help=_("the card the winner went out on: wild+1 or wild+2 "
                          "(option h2o: 20 or 40 off their total)"))


# --- helpers -----------------------------------------------------------------


def _split(entry: str, what: str) -> tuple[str, str]:
    name, sep, rest = entry.partition(":")
    if not sep or not name.strip():
        example = '"Bob: r5 gskip"' if what == "hand" else '"Bob: 25"'
        raise ConfigError(
            _("cannot read {entry!r}: write a name, a colon and the {what}, e.g. {example}").format(
                entry=entry, what=_("cards") if what == "hand" else _("points"), example=example
            )
        )
    return name.strip(), rest.strip()


@record
class _RoundArgs:
    """A round as typed on the command line, before the game model checks it."""

    winner: str | None
    hands: dict[str, str]
    points: dict[str, int]
    order: tuple[str, ...]
    out_on: str | None


def _round_input(args: argparse.Namespace, method: ScoringMethod) -> _RoundArgs:
    from companion.scoring.base import Entry  # loaded with the game already

    if len(args.winner) > 1:
        raise ConfigError(
            _("two winners given ({names}): only one player goes out in a round, "
              "so give --winner once").format(names=", ".join(args.winner))
        )
    order = tuple(n.strip() for n in (args.order or "").split(",") if n.strip())
    if method.entry is Entry.ORDER and not order:
        raise ConfigError(
            _("«{method}» records the order the players went out: give it with "
              '--order "Cid,Ann,Bob"').format(method=_(method.label)))
    if method.entry is not Entry.ORDER and not args.winner:
        raise ConfigError(_("say who went out with --winner NAME"))
    hands: dict[str, str] = {}
    for entry in args.hand:
        name, cards = _split(entry, "hand")
        if name.casefold() in (n.casefold() for n in hands):
            raise ConfigError(
                _("{name}'s hand is given twice: give each player's hand once").format(name=name)
            )
        hands[name] = cards
    points: dict[str, int] = {}
    for entry in args.points:
        name, value = _split(entry, "points")
        try:
            points[name] = int(value)
        except ValueError:
            raise ConfigError(
                _("{value!r} is not a number of points: write e.g. \"{name}: 25\"").format(
                    value=value, name=name
                )
            ) from None
    return _RoundArgs(args.winner[0] if args.winner else None, hands, points, order,
                      args.out_on)


def _parse_hands(hands: dict[str, str]) -> dict[str, list[str]]:
    return {name: text.replace(",", " ").split() for name, text in hands.items()}


def percent_of(total: int, target: int) -> int:
    """How far `total` is toward `target`, in whole per cent, rounded down: 199 of 200 is
    99 %, and 100 % means the target is reached."""
    return max(0, min(100, total * 100 // target))


def _house_rules_line(game: Game) -> str:
    from companion.table.house_rules import HOUSE_RULES, ordered

    return _("House rules: {rules}.").format(
        rules=", ".join(_(HOUSE_RULES[k].title) for k in ordered(game.house_rules)))


def _standings_table(game: Game, standings: Sequence[Standing]) -> str:
    method = game.rules.method
    teams = any(len(e.members) > 1 for e in game.entrants)
    columns = method.columns()
    target = game.rules.target if method.takes_target else None
    to_target = target is not None
    headers = ["#", _("team") if teams else _("player"), *(_(c.header) for c in columns)]
    if to_target:
        headers += [_("to target")]
    headers += [""]
    rows = []
    for s in standings:
        row: list[object] = [s.rank, s.name, *(c.cell(s) for c in columns)]
        if target is not None:
            row += [f"{percent_of(s.total, target)}%"]
        marks = []
        if s.is_dealer:
            marks.append(_("deals"))
        if s.status == "winner":
            marks.append(_("WINNER"))
        elif s.status == "loser":
            marks.append(_("LOSER"))
        row.append(", ".join(marks))
        rows.append(row)
    return text_table(headers, rows, right={0, *range(2, len(headers) - 1)})


def _next_line(game: Game) -> str:
    if game.verdict.over:
        verdict = game.verdict
        if verdict.winners:
            return _("Game over: {names} won.").format(names=", ".join(verdict.winners))
        if verdict.reached:
            return _("{names} reached {points}: this game is over (rule 2.1) with no winner of "
                     "its own; the championship ranks points per deal over the stage.").format(
                         names=", ".join(verdict.reached), points=game.rules.target)
        return _("Game over.")
    return game.rules.method.next_line(game)


def _box_line(boxed: BoxedGame, game_id: int | None, now_us: int) -> str:
    """Where a game in a time box stands: the table's clock, or the game it moved on to."""
    from companion.table.timebox import Phase, clock_text  # a boxed game's only

    box = boxed.box
    if boxed.current_game_id != game_id:
        return _("{label}: the table has moved on to game {id}.").format(
            label=box.label, id=boxed.current_game_id)
    phase = box.phase(now_us)
    left = box.left(now_us)
    clock = "" if left is None else clock_text(left)
    texts = {
        Phase.WAITING: _("{label}: waiting for the clock to start ({time} to play)."),
        Phase.OPEN: _("{label}: {time} left."),
        Phase.PAUSED: _("{label}: the clock is paused with {time} left."),
        Phase.LAST_DEAL: _("{label}: time is up; the deal in progress may still be recorded."),
        Phase.DONE: _("{label}: time is up and this table is done."),
    }
    return texts[phase].format(label=box.label, time=clock)


def _print_standings(app: CompanionApp) -> None:
    game = app.game
    assert game is not None
    print(_standings_table(game, game.standings()))
    print(_next_line(game))


# --- commands ----------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    with opened(args, need_game=False) as app:
        names = [n for n in args.players.split(",") if n.strip()]
        dealer = table_commands.first_dealer(
            [n for entry in names for n in entry.split("+")], args.draw, args.first_dealer)
        game_id = app.new_game(args.edition, args.method, names, args.target, args.option,
                               house_rules=args.house_rule, first_dealer=dealer)
        game = app.game
        assert game is not None
        print(game_id)
        print(
            _("Game {id}: {edition}, {rules}; players {players}; {dealer} deals.").format(
                id=game_id, edition=game.edition.title, rules=rules_line(game),
                players=", ".join(e.name for e in game.entrants), dealer=game.dealer,
            ),
            file=sys.stderr,
        )
        if game.house_rules:
            print(_house_rules_line(game), file=sys.stderr)
        return 0


def cmd_round(args: argparse.Namespace) -> int:
    from companion.scoring.base import Entry  # loaded with the game, not with the parser

    with opened(args, lazy=True) as app:  # one more round: the history stays in the file
        assert app.game is not None
        entered = _round_input(args, app.game.rules.method)
        hands = table_commands.with_last_draw(app.game, entered.winner, entered.hands,
                                              entered.points, args.last_draw)
        showdown, said = table_commands.showdown_said(args.showdown)
        if showdown:
            verdict = app.last_card(entered.order[0] if entered.order else entered.winner,
                                    said)
            if not verdict.won:  # the rules' outcome, not a mistake: nothing to record
                print(_("No round recorded: {reason}.").format(reason=verdict.message()))
                return 1
        summary = app.record_round(entered.winner, _parse_hands(hands), entered.points,
                                   order=entered.order, out_on=entered.out_on,
                                   showdown=showdown, showdown_said=said)
        game = app.game
        assert game is not None
        print(_("Round {n} saved.").format(n=summary.number))
        print(game.rules.method.round_line(game, summary.number - 1))
        if game.rules.method.entry is Entry.HANDS:
            print(_("Hands: {hands}.").format(hands=", ".join(
                f"{n} {v}" for n, v in summary.hand_values.items() if n != summary.winner)))
        _print_standings(app)
        boxed = app.time_box()
        if summary.late and boxed is not None:
            print(_("{label}: that was the deal in progress when the time was up.").format(
                label=boxed.box.label))
        if summary.continued_in is not None and boxed is not None:
            following = app.store.games.load(summary.continued_in)
            print(_("{label} plays on in game {id}; {dealer} deals.").format(
                label=boxed.box.label, id=summary.continued_in, dealer=following.dealer))
        return 0


def cmd_edit(args: argparse.Namespace) -> int:
    with opened(args) as app:
        assert app.game is not None
        entered = _round_input(args, app.game.rules.method)
        showdown = table_commands.edited_showdown(app.game, args.number, entered.winner,
                                                  entered.order, args.showdown)
        app.edit_round(args.number, entered.winner, _parse_hands(entered.hands),
                       entered.points, order=entered.order, out_on=entered.out_on,
                       showdown=showdown)
        print(_("Round {n} corrected.").format(n=args.number))
        _print_standings(app)
        return 0


def cmd_show(args: argparse.Namespace) -> int:
    with opened(args) as app:
        game = app.game
        assert game is not None
        print(_("Game {id}: {edition}, {rules}; rounds played: {n}.").format(
            id=game.id, edition=game.edition.title, rules=rules_line(game),
            n=len(game.rounds)))
        if game.house_rules:
            print(_house_rules_line(game))
        boxed = app.time_box()
        if boxed is not None:
            print(_box_line(boxed, game.id, app.clock()))
        print()
        _print_standings(app)
        if args.rounds and game.rounds:
            print()
            names = [e.name for e in game.entrants]
            rows = [
                [h.number, h.dealer,
                 _went_out(h),
                 *(h.cells[n] for n in names)]
                for h in game.history()
            ]
            print(text_table(["#", _("dealer"), _("went out"), *names], rows,
                             right={0, *range(3, 3 + len(names))}))
        # the statistics' code is loaded only for a game that has duels to sum up
        stats = [s for s in app.duel_stats().values() if s.duels] if app.duels() else []
        if stats:
            print()
            print(_("Showdown duels:"))
            contested = any(s.contested for s in stats)
            rows = [
                [s.name, s.duels, s.wins,
                 "-" if s.best_ms is None else f"{s.best_ms:.0f}",
                 "-" if s.median_ms is None else f"{s.median_ms:.0f}",
                 *([s.contested] if contested else [])]
                for s in sorted(stats, key=lambda s: (s.best_ms is None, s.best_ms or 0))
            ]
            headers = [_("player"), _("duels"), _("won"), _("best ms"), _("median ms")]
            print(text_table([*headers, *([_("contested")] if contested else [])], rows,
                             right={1, 2, 3, 4, 5}))
        return 0


def _went_out(row: HistoryRow) -> str:
    """Who went out, and on which card where that counts (H2O, a showdown card won)."""
    if row.out_on is not None:
        return _("{name} on {card}").format(name=row.winner, card=row.out_on)
    if row.showdown_out:
        return _("{name} on a showdown card").format(name=row.winner)
    return row.winner


def cmd_duels(args: argparse.Namespace) -> int:
    from companion.store.recover import iter_lines, read_log

    if args.recover_from:
        try:
            reading = read_log(iter_lines(args.recover_from))
        except (OSError, ValueError) as exc:  # ValueError: not UTF-8, too long, a NUL
            if isinstance(exc, OSError):
                reason = exc.strerror or str(exc)
            elif isinstance(exc, UnicodeDecodeError):
                reason = _("it is not UTF-8 text")
            else:
                reason = str(exc)
            raise ConfigError(_("cannot read {path}: {reason}").format(
                path=args.recover_from[:200], reason=reason)) from None
    with opened(args) as app:
        if args.recover_from:
            done = app.recover_duels(reading)
            assert app.game is not None
            print(_("Game {id}: {taken} duel(s) taken back from {path}; {already} were "
                    "recorded already.").format(id=app.game.id, taken=done.taken,
                                                path=args.recover_from, already=done.already))
            if done.other_players:
                print(_("{n} duel(s) of players not in this game were left out ({where}): "
                        "give their game with --game.").format(
                            n=len(done.other_players), where=", ".join(done.other_players)),
                      file=sys.stderr)
            if done.outside:
                print(_("{n} duel(s) in the log were not played during this game (before it "
                        "began or after it ended) and were left out.").format(n=done.outside),
                      file=sys.stderr)
            if done.without_players:
                print(_("{n} duel(s) in the log do not name their players (an older log) "
                        "and cannot be taken back.").format(n=done.without_players),
                      file=sys.stderr)
            return 0
        duels = app.duels()
        if not duels:
            print(_("No showdown duels in this game yet."))
            return 0
        rows = []
        for d in duels:
            times = ", ".join(f"{n} {'-' if v is None else round(v / 1000)}"
                              for n, v in d.reaction_us.items())
            rows.append([d.id, d.after_round, f"{d.challenger} - {d.opponent}",
                         _(_OUTCOMES[d.outcome]) if d.outcome in _OUTCOMES else d.outcome,
                         d.winner or "-", times,
                         _("contested") if d.contested else ""])
        print(text_table(["#", _("after round"), _("players"), _("outcome"), _("winner"),
                          _("reaction ms"), ""], rows, right={0, 1}))
        return 0


#: How `game duels` names each outcome.
_OUTCOMES = {
    "faster": N_("faster"),
    "early_press": N_("pressed early"),
    "tie": N_("tie"),
    "timeout": N_("nobody pressed"),
}


def cmd_list(args: argparse.Namespace) -> int:
    from companion.store import game_list

    with opened_file(args) as file:
        infos = game_list.infos(file)
        if not infos:
            print(_("No games yet: start one with `uno-showdown game new`."))
            return 0
        unsaid = _read_over(file.path, [i.id for i in infos if i.over is None])
        rows = []
        for info in infos:
            over = unsaid[info.id] if info.over is None else info.over
            state = _("damaged") if over is None else _("over") if over else _("playing")
            rows.append([info.id, info.edition, info.method, ", ".join(info.players),
                         info.rounds, info.last_played[:16].replace("T", " "), state])
        print(text_table(["id", _("edition"), _("method"), _("players"), _("rounds"),
                          _("last played"), ""], rows, right={0, 4}))
        return 0


def _read_over(path: str, game_ids: Sequence[int]) -> dict[int, bool | None]:
    """Whether each game is over, read whole: for the games whose end the file does not keep
    (last written by an older uno-showdown); None for a damaged one, which does not hide
    the others."""
    if not game_ids:
        return {}
    from companion.store.games import Store

    out: dict[int, bool | None] = {}
    with Store(path) as store:
        for game_id in game_ids:
            try:
                out[game_id] = store.games.load(game_id).verdict.over
            except CompanionError:
                out[game_id] = None
    return out


def cmd_undo(args: argparse.Namespace) -> int:
    with opened(args) as app:
        assert app.game is not None
        n = len(app.game.rounds)
        if not app.undo():
            raise ConfigError(_("there is no round to undo"))
        print(_("Round {n} taken back; `game redo` puts it back.").format(n=n))
        _print_standings(app)
        return 0


def cmd_redo(args: argparse.Namespace) -> int:
    with opened(args) as app:
        if not app.redo():
            raise ConfigError(_("there is no undone round to redo"))
        assert app.game is not None
        print(_("Round {n} put back.").format(n=len(app.game.rounds)))
        _print_standings(app)
        return 0


def cmd_rename(args: argparse.Namespace) -> int:
    with opened(args) as app:
        app.rename_player(args.old, args.new)
        print(_("{old} is now {new}.").format(old=args.old, new=args.new))
        return 0


def cmd_join(args: argparse.Namespace) -> int:
    with opened(args) as app:
        app.add_player(args.name, None if args.seat is None else args.seat - 1)
        assert app.game is not None
        print(_("{name} joins from round {n}; seating: {players}.").format(
            name=args.name, n=len(app.game.rounds) + 1, players=", ".join(app.player_names())))
        return 0


def cmd_export(args: argparse.Namespace) -> int:
    with opened(args) as app:
        text = app.export(args.format)
        if args.output:
            try:
                from pathlib import Path  # export's own: "out.csv/" is out.csv, as ever

                Path(args.output).write_text(text, encoding="utf-8")
            except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                raise ConfigError(_("cannot write {path}: {reason}").format(
                    path=args.output[:200], reason=reason)) from None
            print(_("Game {id} written to {path}.").format(id=app.game.id if app.game else "",
                                                          path=args.output), file=sys.stderr)
        else:
            sys.stdout.write(text)
        return 0


def cmd_import(args: argparse.Namespace) -> int:
    from companion.store import transfer

    try:
        text = transfer.read_export(args.file)
    except CompanionError as exc:
        raise ConfigError(str(exc)) from None
    with opened(args, need_game=False) as app:
        fmt = "csv" if args.file.lower().endswith(".csv") else None
        game_id = app.import_game(text, fmt)
        print(game_id)
        assert app.game is not None
        print(_("Imported as game {id} with {n} rounds.").format(
            id=game_id, n=len(app.game.rounds)), file=sys.stderr)
        return 0
