"""A game as a file: JSON (everything, duels too) and CSV (one row per player per round).

Both formats import back into an equal game: an import is replayed through the game model,
so a hand-edited file with a card the edition lacks or a winner who still has cards is
refused with the same one-sentence errors as typed input.

CSV columns: edition, method, target, options, round, played_at, seat, player, team,
joined_round, winner, hand, hand_value, points. Round 0 rows carry the seating (one per
player, no hand); round n rows carry each participant's hand. Undone rounds and duels are
kept only by JSON.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.cards import format_cards, parse_cards
from companion.errors import CompanionError
from companion.game import Game, Hand, Player, Round
from companion.i18n import _
from companion.scoring import Method, Rules
from companion.store import DuelRow

FORMAT_NAME = "uno-showdown-game"
FORMAT_VERSION = 1
CSV_COLUMNS = ("edition", "method", "target", "options", "round", "played_at", "seat",
               "player", "team", "joined_round", "winner", "hand", "hand_value", "points")


class TransferError(CompanionError):
    """A file that is not an exported game, or whose contents break the rules."""


def _hand_json(hand: Hand) -> str | int:
    return format_cards(hand.cards) if hand.cards is not None else int(hand.counted or 0)


def _round_json(rnd: Round) -> dict[str, Any]:
    return {
        "winner": rnd.winner,
        "played_at": rnd.played_at,
        "hands": {name: _hand_json(h) for name, h in rnd.hands.items()},
    }


def export_game(game: Game, duels: Sequence[DuelRow] = (), fmt: str = "json") -> str:
    if fmt == "json":
        return json.dumps(_to_json(game, duels), ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        return _to_csv(game)
    raise TransferError(_("unknown format {fmt!r}: choose json or csv").format(fmt=fmt))


def _to_json(game: Game, duels: Sequence[DuelRow]) -> dict[str, Any]:
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "edition": game.edition_key,
        "method": game.rules.method.value,
        "target": game.rules.target,
        "options": list(game.rules.modifiers),
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
            }
            for d in duels
        ],
    }


def _to_csv(game: Game) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    common = [game.edition_key, game.rules.method.value,
              "" if game.rules.target is None else game.rules.target,
              " ".join(game.rules.modifiers)]
    seat = {p.name: i for i, p in enumerate(game.players)}
    for p in game.players:
        writer.writerow([*common, 0, game.created_at, seat[p.name], p.name,
                         "" if p.team is None else p.team, p.joined_round, "", "", "", ""])
    for number, (rnd, score) in enumerate(zip(game.rounds, game.scores, strict=True), 1):
        for name, hand in rnd.hands.items():
            p = game.player(name)
            writer.writerow([
                *common, number, rnd.played_at, seat[name], name,
                "" if p.team is None else p.team, p.joined_round,
                int(name == rnd.winner),
                format_cards(hand.cards) if hand.cards is not None else "",
                score.hand_values[name],
                score.points.get(game.entrant_of(name).name, 0),
            ])
    return out.getvalue()


def import_game(text: str, fmt: str | None = None) -> tuple[Game, list[DuelRow]]:
    """Read an exported game (format guessed from the text when None)."""
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "csv"
    try:
        if fmt == "json":
            return _from_json(json.loads(text))
        if fmt == "csv":
            return _from_csv(text), []
    except CompanionError as exc:
        raise TransferError(
            _("the file holds a game the rules refuse: {reason}").format(reason=exc)
        ) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise TransferError(
            _("the file is not a game exported by uno-showdown ({reason}): "
              "export it again with `game export`").format(reason=exc)
        ) from None
    raise TransferError(_("unknown format {fmt!r}: choose json or csv").format(fmt=fmt))


def _hand_from(value: str | int) -> Hand:
    if isinstance(value, int):
        return Hand(counted=value)
    return Hand(cards=parse_cards(value))


def _replay(
    edition: str, rules: Rules, players: list[Player], created_at: str,
    rounds: list[tuple[str, dict[str, Hand], str]],
) -> Game:
    if rules.method is Method.TEAMS:
        base = Game.new(edition, rules, [p.name for p in players], created_at=created_at)
        base = replace(base, players=tuple(players))
    else:
        base = Game.new(edition, rules, [p.name for p in players if p.joined_round == 0],
                        created_at=created_at)
        base = replace(base, players=tuple(players))
    game = base
    for winner, hands, played_at in rounds:
        game = game.add_round(winner, hands, played_at)
    return game


def _from_json(data: dict[str, Any]) -> tuple[Game, list[DuelRow]]:
    if data.get("format") != FORMAT_NAME:
        raise ValueError("no 'format': 'uno-showdown-game' field")
    rules = Rules.make(data["method"], data.get("target"), data.get("options", []))
    players = [Player(p["name"], int(p.get("joined_round", 0)), p.get("team"))
               for p in data["players"]]
    entries = [
        (r["winner"], {n: _hand_from(h) for n, h in r["hands"].items()}, r.get("played_at", ""))
        for r in [*data["rounds"], *data.get("undone", [])]
    ]
    game = _replay(data["edition"], rules, players, data.get("created_at", ""), entries)
    for _round in data.get("undone", []):
        game = game.undo()
    duels = [
        DuelRow(0, int(d["after_round"]), d["challenger"], d["opponent"], int(d["cards"]),
                d["outcome"], d.get("winner"), d.get("loser"), dict(d["reaction_us"]),
                d.get("recorded_at", ""))
        for d in data.get("duels", [])
    ]
    return game, duels


def _from_csv(text: str) -> Game:
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows or set(CSV_COLUMNS) - set(rows[0]):
        raise ValueError("the header must be " + ",".join(CSV_COLUMNS))
    first = rows[0]
    rules = Rules.make(first["method"], int(first["target"]) if first["target"] else None,
                       first["options"].split())
    seating = sorted((r for r in rows if r["round"] == "0"), key=lambda r: int(r["seat"]))
    players = [Player(r["player"], int(r["joined_round"]),
                      int(r["team"]) if r["team"] != "" else None) for r in seating]
    by_round: dict[int, list[dict[str, str]]] = {}
    for r in rows:
        if r["round"] != "0":
            by_round.setdefault(int(r["round"]), []).append(r)
    entries = []
    for number in sorted(by_round):
        group = by_round[number]
        winner = next(r["player"] for r in group if r["winner"] == "1")
        hands = {
            r["player"]: Hand(cards=parse_cards(r["hand"])) if r["hand"]
            else (Hand(cards=()) if r["winner"] == "1" else Hand(counted=int(r["hand_value"])))
            for r in group
        }
        entries.append((winner, hands, group[0]["played_at"]))
    return _replay(first["edition"], rules, players, seating[0]["played_at"], entries)
