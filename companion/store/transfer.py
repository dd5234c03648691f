"""A game as a file: JSON (everything, duels too) and CSV (one row per player per round).

Both formats import back into an equal game: an import is replayed through the game model,
so a hand-edited file with a card the edition lacks or a winner who still has cards is
refused with the same one-sentence errors as typed input.

CSV columns: edition, method, target, options, round, played_at, seat, player, team,
joined_round, winner, hand, hand_value, points. Round 0 rows carry the seating (one per
player, no hand); round n rows carry each participant's hand (empty where the method counts
no hands). Two columns follow only where the game needs them: `place` (each player's place
in a round's finishing order, for playing to the last player) and `out_on` (the card the
winner went out on, under the H2O option). Undone rounds and duels are kept only by JSON.

JSON rounds carry `order` and `out_on` in the same cases. A file is written with the lowest
format version that holds it (2 for those fields, else 1), so an older uno-showdown still
reads every game it could have written.

Version 3 adds what the table's helpers keep: the game's `house_rules` (a list of keys),
its `first_dealer` (a player's name, when the table chose one) and a round's
`showdown_out` (the winner went out on a showdown card and won its duel). In CSV they are
the optional columns `house_rules` (the keys, space-separated, on every row),
`deals_first` (1 on the first dealer's seating row) and `showdown_out` (1 on the winner's
row). The direction of play is the deal in play's, not the game's record, so it is not
exported.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
from collections.abc import Sequence
from typing import Any

from companion.deck.cards import Card, format_cards, parse_card, parse_cards
from companion.deck.editions import get_edition
from companion.scoring import MAX_TARGET, Entry, Rules, RulesError
from companion.table import house_rules as house
from companion.table import spreadsheet
from companion.table.game import (
    MAX_HAND_POINTS,
    MAX_PLAYERS,
    Game,
    Hand,
    Player,
    Round,
    RoundEntry,
    check_roster,
)
from companion.table.records import DuelRow
from showdown.contract.errors import CompanionError, GameError
from showdown.contract.events import Outcome
from showdown.contract.i18n import _
from showdown.contract.record import replace

FORMAT_NAME = "uno-showdown-game"
#: The newest format: version 2 added a round's `order` and `out_on`; version 3 the house
#: rules, the first dealer and a round won on a showdown card.
FORMAT_VERSION = 3
CSV_COLUMNS = ("edition", "method", "target", "options", "round", "played_at", "seat",
               "player", "team", "joined_round", "winner", "hand", "hand_value", "points")


#: The largest file `game import` reads: ten times a 20,000-round game of ten players as CSV,
#: so a file of another kind (a disk image, /dev/zero) is refused before it fills the memory.
MAX_FILE_BYTES = 32 * 1024 * 1024


class TransferError(CompanionError):
    """A file that is not an exported game, or whose contents break the rules."""


def read_export(path: str) -> str:
    """The text of a file to import: UTF-8, at most `MAX_FILE_BYTES`, or one sentence why not.

    A FIFO, a device or a folder is refused before it is opened (opening a FIFO waits
    for a writer for ever); a file is read as a stream up to the cap.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise TransferError(_("{path} is not a file (a pipe, a device or a folder): give "
                                  "the file `game export` wrote").format(path=path[:200]))
        with open(path, "rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise TransferError(_("cannot read {path}: {reason}").format(
            path=path[:200], reason=reason)) from None
    if len(data) > MAX_FILE_BYTES:
        raise TransferError(
            _("{path} is larger than {mib} MiB, so it is not a game written by `game export`: "
              "check the file name").format(path=path, mib=MAX_FILE_BYTES // (1024 * 1024))
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TransferError(
            _("{path} is not a game written by `game export`: it is not UTF-8 text ({reason})"
              ).format(path=path, reason=exc.reason)
        ) from None


def _hand_json(hand: Hand) -> str | int:
    return format_cards(hand.cards) if hand.cards is not None else int(hand.counted or 0)


def _round_json(rnd: Round) -> dict[str, Any]:
    out: dict[str, Any] = {
        "winner": rnd.winner,
        "played_at": rnd.played_at,
        "hands": {name: _hand_json(h) for name, h in rnd.hands.items()},
    }
    if rnd.order:
        out["order"] = list(rnd.order)
    if rnd.out_on is not None:
        out["out_on"] = rnd.out_on.code
    if rnd.showdown_out:
        out["showdown_out"] = True
    return out


def _format_version(game: Game) -> int:
    """The lowest format version that holds everything the game has."""
    played = (*game.rounds, *game.undone)
    if game.house_rules or game.first_dealer or any(r.showdown_out for r in played):
        return 3
    if any(r.order or r.out_on is not None for r in played):
        return 2
    return 1


def _variant_columns(game: Game) -> tuple[str, ...]:
    """The optional CSV columns this game needs."""
    out = []
    if game.rules.method.entry is Entry.ORDER:
        out.append("place")
    if game.rules.h2o:
        out.append("out_on")
    if game.house_rules:
        out.append("house_rules")
    if game.first_dealer:
        out.append("deals_first")
    if any(r.showdown_out for r in game.rounds):
        out.append("showdown_out")
    return tuple(out)


def export_game(game: Game, duels: Sequence[DuelRow] = (), fmt: str = "json") -> str:
    if fmt == "json":
        return json.dumps(_to_json(game, duels), ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return _to_csv(game)
    raise TransferError(_("unknown format {fmt!r}: choose json or csv").format(fmt=fmt))


def _to_json(game: Game, duels: Sequence[DuelRow]) -> dict[str, Any]:
    return {
        "format": FORMAT_NAME,
        "version": _format_version(game),
        "edition": game.edition_key,
        "method": game.rules.method.key,
        "target": game.rules.target,
        "options": list(game.rules.modifiers),
        **({"house_rules": list(house.stored(game.house_rules))} if game.house_rules else {}),
        **({"first_dealer": game.first_dealer} if game.first_dealer else {}),
        "created_at": game.created_at,
        "players": [
            {"name": p.name, "joined_round": p.joined_round, "team": p.team}
            for p in game.players
        ],
        "rounds": [_round_json(r) for r in game.rounds],
        "undone": [_round_json(r) for r in reversed(game.undone)],
        "duels": [
            {
                "after_round": d.after_round, "challenger": d.challenger,
                "opponent": d.opponent, "cards": d.cards, "outcome": d.outcome,
                "winner": d.winner, "loser": d.loser,
                "reaction_us": dict(d.reaction_us), "recorded_at": d.recorded_at,
                "contested": d.contested,
            }
            for d in duels
        ],
    }


def _to_csv(game: Game) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    extra = _variant_columns(game)
    writer.writerow(spreadsheet.row([*CSV_COLUMNS, *extra]))
    common = [game.edition_key, game.rules.method.key,
              "" if game.rules.target is None else game.rules.target,
              " ".join(game.rules.modifiers)]
    seat = {p.name: i for i, p in enumerate(game.players)}
    chosen = " ".join(house.stored(game.house_rules))
    for p in game.players:
        cells = {"place": "", "out_on": "", "house_rules": chosen,
                 "deals_first": int(p.name == game.first_dealer), "showdown_out": ""}
        writer.writerow(spreadsheet.row([
            *common, 0, game.created_at, seat[p.name], p.name,
            "" if p.team is None else p.team, p.joined_round, "", "", "", "",
            *(cells[c] for c in extra)]))
    for index, (rnd, score) in enumerate(zip(game.rounds, game.scores, strict=True)):
        names = rnd.order or tuple(rnd.hands) or tuple(game.seated_in(index))
        for name in names:
            p = game.player(name)
            hand = rnd.hands.get(name)
            cells = {"place": rnd.order.index(name) + 1 if name in rnd.order else "",
                     "out_on": rnd.out_on.code if rnd.out_on is not None
                     and name == rnd.winner else "",
                     "house_rules": chosen, "deals_first": "",
                     "showdown_out": int(rnd.showdown_out) if name == rnd.winner else ""}
            writer.writerow(spreadsheet.row([
                *common, index + 1, rnd.played_at, seat[name], name,
                "" if p.team is None else p.team, p.joined_round,
                int(name == rnd.winner),
                format_cards(hand.cards) if hand is not None and hand.cards is not None else "",
                score.hand_values.get(name, ""),
                score.points.get(game.entrant_of(name).name, 0),
                *(cells[c] for c in extra),
            ]))
    return out.getvalue()


def import_game(text: str, fmt: str | None = None) -> tuple[Game, list[DuelRow]]:
    """Read an exported game (format guessed from the text when None).

    Every field is checked before anything is written: a wrong one raises `TransferError`
    naming the field, and the rounds are replayed through the game model, whose one-sentence
    errors say what the rules refuse. So an import is stored whole or not at all.
    """
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "csv"
    try:
        if fmt == "json":
            return _from_json(json.loads(text))
        if fmt == "csv":
            return _from_csv(text), []
    except TransferError:
        raise
    except CompanionError as exc:
        raise TransferError(
            _("the file holds a game the rules refuse: {reason}").format(reason=exc)
        ) from None
    except (ValueError, LookupError, TypeError, AttributeError, RecursionError, csv.Error
            ) as exc:
        raise TransferError(
            _("the file is not a game exported by uno-showdown ({reason}): "
              "export it again with `game export`").format(reason=exc)
        ) from None
    raise TransferError(_("unknown format {fmt!r}: choose json or csv").format(fmt=fmt))


# -- checking a file's fields: each names the field and what it must be --

#: The most cards one duel sends; far above any unit's launcher, and it fits the file.
MAX_DUEL_CARDS = 999
#: The longest reaction time kept, either way (an early press is negative): about 3 hours.
MAX_REACTION_US = 10**10


def _bad(field: str, value: object, expected: str) -> TransferError:
    return TransferError(
        _("{field} in the file is {value!r}, but it must be {expected}: correct the file or "
          "export the game again").format(field=field, value=value, expected=expected)
    )


def _whole(value: object, field: str, low: int, high: int, *, text: bool = False) -> int:
    """A whole number within [low, high]: an int from JSON, or (`text`, for CSV) its ASCII
    digits. A JSON string is not a number there ("0" for a team, "2" for a duel's cards):
    the file was not written by `game export`."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif text and isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,19}", value.strip()):
        number = int(value)
    if number is None or not low <= number <= high:
        raise _bad(field, value, _("a whole number from {low} to {high}").format(
            low=low, high=high))
    return number


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise _bad(field, value, _("text"))
    return value


def _one_of(value: object, field: str, choices: Sequence[str]) -> str:
    """One of `choices` (ignoring case), spelt as in `choices`."""
    if isinstance(value, str):
        for choice in choices:
            if choice.casefold() == value.strip().casefold():
                return choice
    raise _bad(field, value, _("one of {choices}").format(choices=", ".join(choices)))


def _list(data: dict[str, Any], key: str, *, required: bool = True) -> list[Any]:
    value = data[key] if required else data.get(key, [])
    if not isinstance(value, list):
        raise _bad(key, value, _("a list"))
    return value


def _object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(field, value, _("a list of names and values"))
    return value


def _hand_from(value: object, field: str) -> Hand:
    if isinstance(value, str):
        return Hand(cards=parse_cards(value))
    # the model bounds the points with its own message; here only the type is checked
    if isinstance(value, int) and not isinstance(value, bool):
        return Hand(counted=value)
    raise _bad(field, value, _("cards or a number of points"))


def _replay(
    edition: str, rules: Rules, players: list[Player], created_at: str,
    rounds: list[RoundEntry], house_rules: Sequence[str] = (), first_dealer: str | None = None,
) -> Game:
    """The game the file describes, built the way a live game is: every check a table makes.

    The players pass the roster checks of a live game (names, how many, teams of two, late
    joiners), the house rules the checks of a new game, then the rounds are added through
    the model in order, each checked as a live round is; `Game.add_rounds` does that in time
    linear in the rounds.
    """
    roster = check_roster(rules.method, players, len(rounds))
    key = get_edition(edition).key
    try:
        chosen = house.check(key, rules.method.key, house_rules)
    except RulesError as exc:
        raise GameError(str(exc)) from None
    game = Game(key, rules, roster, created_at=created_at, house_rules=chosen)
    if first_dealer is not None:
        game = replace(game, first_dealer=game.player(first_dealer).name)
    return game.add_rounds(replace(r, winner=r.winner or None) for r in rounds)


def _flag(value: object, field: str) -> bool:
    """A yes/no field: true or false in JSON, 1, 0 or nothing in CSV."""
    if isinstance(value, bool):
        return value
    if value in ("", None, "0"):
        return False
    if value == "1":
        return True
    raise _bad(field, value, _("true or false (1 or 0 in CSV)"))


def _card_from(value: object, field: str) -> Card | None:
    if value is None or value == "":
        return None
    return parse_card(_text(value, field))


def _from_json(data: object) -> tuple[Game, list[DuelRow]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise ValueError("no 'format': 'uno-showdown-game' field")
    _whole(data.get("version"), "version", 1, FORMAT_VERSION)
    target = data.get("target")
    rules = Rules.make(_text(data["method"], "method"), target,
                       [_text(o, f"options[{i}]") for i, o in enumerate(_list(data, "options",
                                                                              required=False))])
    played = [*_list(data, "rounds"), *_list(data, "undone", required=False)]
    players = []
    for i, raw in enumerate(_list(data, "players")):
        p = _object(raw, f"players[{i}]")
        team = p.get("team")
        players.append(Player(
            _text(p["name"], f"players[{i}].name"),
            _whole(p.get("joined_round", 0), f"players[{i}].joined_round", 0, len(played)),
            None if team is None else _whole(team, f"players[{i}].team", 0, MAX_PLAYERS),
        ))
    entries = []
    for i, raw in enumerate(played):
        where = f"rounds[{i}]" if i < len(data["rounds"]) else f"undone[{i - len(data['rounds'])}]"
        r = _object(raw, where)
        hands = {
            _text(n, f"{where}.hands"): _hand_from(h, f"{where}.hands.{n}")
            for n, h in _object(r.get("hands", {}), f"{where}.hands").items()
        }
        order = tuple(_text(n, f"{where}.order[{j}]")
                      for j, n in enumerate(_list(r, "order", required=False)))
        entries.append(RoundEntry(_text(r["winner"], f"{where}.winner"), hands,
                                  _text(r.get("played_at", ""), f"{where}.played_at"),
                                  order, _card_from(r.get("out_on"), f"{where}.out_on"),
                                  _flag(r.get("showdown_out", False), f"{where}.showdown_out")))
    chosen = [_text(k, f"house_rules[{i}]")
              for i, k in enumerate(_list(data, "house_rules", required=False))]
    dealer = data.get("first_dealer")
    game = _replay(_text(data["edition"], "edition"), rules, players,
                   _text(data.get("created_at", ""), "created_at"), entries, chosen,
                   None if dealer is None else _text(dealer, "first_dealer"))
    for _round in data.get("undone", []):
        game = game.undo()
    duels = [_duel_from(raw, f"duels[{i}]", game)
             for i, raw in enumerate(_list(data, "duels", required=False))]
    return game, duels


def _duel_from(raw: object, where: str, game: Game) -> DuelRow:
    """A duel of the file, its names spelt as the game's players."""
    d = _object(raw, where)
    challenger = _one_of(d["challenger"], f"{where}.challenger", game.names)
    opponent = _one_of(d["opponent"], f"{where}.opponent",
                       [n for n in game.names if n != challenger])
    pair = (challenger, opponent)
    outcome = _one_of(d["outcome"], f"{where}.outcome", [o.value for o in Outcome])
    winner, loser = _sides(d, where, Outcome(outcome), pair)
    reactions: dict[str, int | None] = {}
    for name, us in _object(d.get("reaction_us", {}), f"{where}.reaction_us").items():
        key = _one_of(name, f"{where}.reaction_us", pair)
        # Only a press before "go" is negative: the early presser's, in an early press.
        early = outcome == Outcome.EARLY_PRESS.value and key == loser
        reactions[key] = None if us is None else _whole(
            us, f"{where}.reaction_us.{key}", -MAX_REACTION_US if early else 0,
            MAX_REACTION_US)
    return DuelRow(
        0,
        _whole(d["after_round"], f"{where}.after_round", 0,
               len(game.rounds) + len(game.undone)),
        challenger,
        opponent,
        _whole(d["cards"], f"{where}.cards", 1, MAX_DUEL_CARDS),
        outcome,
        winner,
        loser,
        reactions,
        _text(d.get("recorded_at", ""), f"{where}.recorded_at"),
        contested=_flag(d.get("contested", False), f"{where}.contested"),
    )


#: The outcomes with a winner and a loser; every other one has neither.
DECIDED = frozenset({Outcome.FASTER, Outcome.EARLY_PRESS})


def _sides(d: dict[str, Any], where: str, outcome: Outcome,
           pair: tuple[str, str]) -> tuple[str | None, str | None]:
    """A duel's winner and loser as the table records them: the duel's two players, one
    each, for a decided duel; nobody for a tie, a timeout, a launch failed or an abort."""
    winner, loser = d.get("winner"), d.get("loser")
    if outcome not in DECIDED:
        for field, value in (("winner", winner), ("loser", loser)):
            if value is not None:
                raise _bad(f"{where}.{field}", value, _(
                    "null: nobody wins or loses a duel that ended in {outcome}").format(
                        outcome=outcome.value))
        return None, None
    won = _one_of(winner, f"{where}.winner", pair)
    other = [n for n in pair if n != won]
    return won, _one_of(loser, f"{where}.loser", other)


def _from_csv(text: str) -> Game:
    rows = [{k: spreadsheet.text_of(v) if isinstance(v, str) else v for k, v in r.items()}
            for r in csv.DictReader(io.StringIO(text))]  # the `'` before a formula's = taken off
    if not rows or set(CSV_COLUMNS) - set(rows[0]):
        raise ValueError("the header must be " + ",".join(CSV_COLUMNS))

    def cell(line: int, column: str) -> str:
        return _("{column} on line {line}").format(column=column, line=line)

    first = rows[0]
    target = (_whole(first["target"], cell(2, "target"), 1, MAX_TARGET, text=True)
              if first["target"] else None)
    rules = Rules.make(first["method"], target, first["options"].split())
    numbered = list(enumerate(rows, 2))  # line 1 is the header
    for line, r in numbered:
        if any(r[c] is None for c in CSV_COLUMNS):
            raise ValueError(f"line {line} has fewer columns than the header")
    for line, r in numbered:  # one game: every row says the same of it
        for column in ("edition", "method", "target", "options", "house_rules"):
            if (r.get(column) or "") != (first.get(column) or ""):
                raise _bad(cell(line, column), r.get(column), _(
                    "the same as on line 2 ({value})").format(value=first.get(column) or ""))
    rounds = {line: _whole(r["round"], cell(line, "round"), 0, 10**6, text=True)
              for line, r in numbered}
    seating = sorted(
        ((line, r) for line, r in numbered if rounds[line] == 0),
        key=lambda lr: _whole(lr[1]["seat"], cell(lr[0], "seat"), 0, MAX_PLAYERS, text=True),
    )
    if not seating:
        raise ValueError("no seating rows (round 0)")
    played = len({n for n in rounds.values() if n})
    players = [
        Player(r["player"],
               _whole(r["joined_round"], cell(line, "joined_round"), 0, played, text=True),
               _whole(r["team"], cell(line, "team"), 0, MAX_PLAYERS, text=True)
               if r["team"] else None)
        for line, r in seating
    ]
    dealers = [r["player"] for line, r in seating
               if _flag(r.get("deals_first") or "", cell(line, "deals_first"))]
    if len(dealers) > 1:
        raise _bad("deals_first", "1", _("1 on one player's row only"))
    chosen = (first.get("house_rules") or "").split()
    by_round: dict[int, list[tuple[int, dict[str, str]]]] = {}
    for line, r in numbered:
        if rounds[line]:
            by_round.setdefault(rounds[line], []).append((line, r))
    entries = []
    kind = rules.method.entry
    for number in sorted(by_round):
        group = by_round[number]
        winners = [(line, r) for line, r in group if r["winner"] == "1"]
        if len(winners) != 1:
            raise ValueError(f"round {number} must have one row with winner 1")
        line, won = winners[0]
        out_on = _card_from(won.get("out_on"), cell(line, "out_on"))
        showdown_out = _flag(won.get("showdown_out") or "", cell(line, "showdown_out"))
        if kind is Entry.ORDER:
            places = {line: _whole(r.get("place") or "", cell(line, "place"), 1, MAX_PLAYERS,
                                   text=True) for line, r in group}
            order = tuple(r["player"] for line, r in sorted(group, key=lambda lr: places[lr[0]]))
            entries.append(RoundEntry(won["player"], {}, group[0][1]["played_at"], order, out_on,
                                      showdown_out))
            continue
        hands: dict[str, Hand] = {}
        if kind is Entry.HANDS:
            hands = {
                r["player"]: Hand(cards=parse_cards(r["hand"])) if r["hand"]
                else (Hand(cards=()) if r["winner"] == "1" else Hand(
                    counted=_whole(r["hand_value"], cell(line, "hand_value"), 0,
                                   MAX_HAND_POINTS, text=True)))
                for line, r in group
            }
        entries.append(RoundEntry(won["player"], hands, group[0][1]["played_at"], (), out_on,
                                  showdown_out))
    game = _replay(first["edition"], rules, players, seating[0][1]["played_at"], entries,
                   chosen, dealers[0] if dealers else None)
    for index, number in enumerate(sorted(by_round)):  # a hand's value is its cards'
        values = game.scores[index].hand_values
        for line, r in by_round[number]:
            given = (r.get("hand_value") or "").strip()
            if given and r["player"] in values and given != str(values[r["player"]]):
                raise _bad(cell(line, "hand_value"), given, _(
                    "the value of that hand ({value})").format(value=values[r["player"]]))
    return game
