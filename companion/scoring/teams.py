"""UNO Teams (seed 003): partners sit opposite each other; the team whose two players have
both gone out collects the value of every card left with the other teams; first team to the
target (500) wins. The seed's worked example (2 + 4 + 6, three 20s and three 50s) is 222."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.scoring.base import Entrant, RulesError, Seated
from companion.scoring.winner import WinnerCollects
from showdown.contract.i18n import N_, _


class Teams(WinnerCollects):
    key = "teams"
    aliases = ("team",)
    title = N_("teams: the team that went out collects")
    label = N_("Teams")
    summary = N_(
        "partners sit opposite; the team out first collects every card left with the others"
    )
    min_players = 4
    players_step = 2
    edition = "teams"

    def seat(self, names: Sequence[str], check_name: Callable[[str], str]) -> list[
            tuple[str, int | None]]:
        """Teams written `Ann+Cid,Bob+Dan` (seated Ann, Bob, Cid, Dan), or a plain seating
        list where each player's partner sits opposite (`Ann,Bob,Cid,Dan`: Ann with Cid)."""
        if any("+" in n for n in names):
            pairs = [tuple(check_name(p) for p in n.split("+")) for n in names]
            if any(len(p) != 2 for p in pairs):
                raise RulesError(_("write each team as two names joined by +, e.g. Ann+Cid"))
            seated = [p[0] for p in pairs] + [p[1] for p in pairs]
        else:
            seated = [check_name(n) for n in names]
        if len(seated) % 2 or len(seated) < 4:
            raise RulesError(
                _("the teams method needs two or more teams of two: give 4, 6, 8 or 10 players")
            )
        half = len(seated) // 2
        return [(n, i % half) for i, n in enumerate(seated)]

    def entrants(self, players: Sequence[Seated]) -> tuple[Entrant, ...]:
        teams: dict[int, list[str]] = {}
        for p in players:
            teams.setdefault(p.team or 0, []).append(p.name)
        return tuple(Entrant(" & ".join(m), tuple(m)) for _, m in sorted(teams.items()))

    def check_late_joiner(self) -> None:
        raise RulesError(_("a teams game cannot take a late joiner: start a new game "
                           "with the new team"))


METHOD = Teams()
