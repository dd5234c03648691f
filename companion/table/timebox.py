"""A time box: the recording gate of a table that plays against the clock.

A bar's timed session, or one stage of a championship at one table, is a box around the
games played there: recording opens when its clock starts, pauses with it, and closes when
the time is up, except for the deal that was in progress then (`grace_rounds`, one by
default), which may still be entered. When a game ends inside the box (someone reached the
target), the table plays on in a new game with the same seats (`play_on`).

Whoever runs the clock (the championship's director, in another process) writes the box to
the games file; every way of recording a round (the screen, `uno-showdown game round`) reads
it inside its own write transaction and asks the pure functions below, so a round is
refused in one sentence when the box is not open, whichever process runs the clock.

Times are wall-clock microseconds since the Unix epoch (`*_us`), not a monotonic clock:
the box is stored and read by several processes, and must outlive a reboot of any of
them. Nothing here reads a clock; `now_us` is passed in.
"""

from __future__ import annotations

from enum import StrEnum

from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _
from showdown.contract.record import record, replace


def clock_text(left_us: int) -> str:
    """Time left as people read a clock: 1:05:09, 45:00, 0:59 (a started second counts)."""
    seconds = -(-max(0, left_us) // 1_000_000)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class TimeBoxError(CompanionError):
    """A change the table's time box does not allow now; the message says why."""


class State(StrEnum):
    """What the clock's owner stored."""

    WAITING = "waiting"  # the clock has not started: nothing may be recorded yet
    OPEN = "open"  # the clock runs until `ends_at_us`
    PAUSED = "paused"  # the clock stands with `left_us` to go; rounds may still be entered
    FINISHED = "finished"  # the table was called done: no more rounds, corrections allowed
    SEALED = "sealed"  # the results were taken: no change at all


class Phase(StrEnum):
    """What the table may do now: the stored state read against the clock."""

    WAITING = "waiting"
    OPEN = "open"
    PAUSED = "paused"
    LAST_DEAL = "last_deal"  # time is up, the deal in progress may still be recorded
    DONE = "done"  # no more rounds


@record
class TimeBox:
    """One table's gate; see the module docstring. `label` names it on the screen."""

    label: str
    state: State = State.WAITING
    ends_at_us: int | None = None  # while open: when the time is up
    left_us: int | None = None  # while waiting or paused: the time still to play
    grace_rounds: int = 1  # deals that may still be recorded once the time is up
    late_rounds: int = 0  # deals recorded after the time was up
    play_on: bool = True  # a game that ends inside the box is followed by a new one
    fixed_players: bool = True  # the seats were given: no late joiners, no renames
    next_box_id: int | None = None  # where this table plays next (another stage)
    id: int | None = None

    # -- reading --

    def time_up(self, now_us: int) -> bool:
        if self.state is State.OPEN:
            return self.ends_at_us is not None and now_us >= self.ends_at_us
        return self.state in (State.FINISHED, State.SEALED)

    def phase(self, now_us: int) -> Phase:
        if self.state in (State.FINISHED, State.SEALED):
            return Phase.DONE
        if self.state is State.WAITING:
            return Phase.WAITING
        if self.state is State.PAUSED:
            return Phase.PAUSED
        if not self.time_up(now_us):
            return Phase.OPEN
        return Phase.LAST_DEAL if self.grace_left(self.late_rounds) else Phase.DONE

    def grace_left(self, late_rounds: int) -> bool:
        """Once the time is up, may one more deal still be recorded after `late_rounds`?
        The one place of the rule: the deal in progress when time was called, `grace_rounds`
        of them (1 when it is played to its end, 0 when play stops at once)."""
        return late_rounds < self.grace_rounds

    def left(self, now_us: int) -> int | None:
        """Microseconds still to play (0 once the time is up); None without a time limit."""
        if self.state is State.OPEN:
            return None if self.ends_at_us is None else max(0, self.ends_at_us - now_us)
        if self.state in (State.WAITING, State.PAUSED):
            return self.left_us
        return 0

    # -- what the table may do (each raises TimeBoxError with the reason) --

    def check_add(self, now_us: int) -> bool:
        """May a new round be recorded now? True if it is the late deal (after time is up)."""
        phase = self.phase(now_us)
        if phase is Phase.WAITING:
            raise TimeBoxError(
                _("{label}: the clock has not started yet, so no round can be recorded; "
                  "wait for the start").format(label=self.label))
        if phase is Phase.DONE:
            raise TimeBoxError(
                _("{label}: time is up and this table is done, so no more rounds can be "
                  "recorded").format(label=self.label))
        return phase is Phase.LAST_DEAL

    def check_reported(self, played_at_us: int | None, late_taken: int) -> bool:
        """May a deal a table recorded on its own machine (at `played_at_us`, on the
        organiser's clock) be taken into this box, the organiser's copy of that table's box?
        `late_taken`: the other deals taken after the time was up so far. The same rule as
        `check_add`, judged by when the deal was recorded, not when it arrived: a table
        offline for a while loses nothing it played in time. Every revision of a deal is
        judged by its own time, whether it is new, a correction, or entered in a round slot
        that was undone before: a slot never turns a deal entered after the time into one
        in time. True if the deal is a late one."""
        if self.state is State.SEALED:
            raise self._sealed()
        end = self.ends_at_us if self.state is not State.WAITING else None
        if end is None or played_at_us is None or played_at_us < end:
            return False
        if not self.grace_left(late_taken):
            raise TimeBoxError(
                _("{label}: the deal was recorded after the time was up and after the deal "
                  "in progress, so it does not count").format(label=self.label))
        return True

    def check_undo(self, now_us: int) -> bool:
        """May the last round be taken back? True if it is a late deal (counted back)."""
        if self.state is State.SEALED:
            raise self._sealed()
        if not self.time_up(now_us):
            return False
        if self.late_rounds > 0 and self.state is not State.FINISHED:
            return True
        raise TimeBoxError(
            _("{label}: time is up, so the rounds played in time stay; correct one with "
              "edit instead").format(label=self.label))

    def check_edit(self) -> None:
        """May a past round be corrected? Until the box is sealed."""
        if self.state is State.SEALED:
            raise self._sealed()

    def check_players(self) -> None:
        """May players join or be renamed? Not when the seats were given."""
        if self.state is State.SEALED:
            raise self._sealed()
        if self.fixed_players:
            raise TimeBoxError(
                _("{label}: the players at this table were seated by the organiser; ask "
                  "them to change the seating").format(label=self.label))

    def check_new_game(self, now_us: int) -> None:
        """May the table leave for a game of its own? Not before the box is done."""
        if self.phase(now_us) is not Phase.DONE:
            raise TimeBoxError(
                _("{label}: this table plays the organiser's games until its time is up; a "
                  "new game starts by itself when one ends").format(label=self.label))

    def moved_on(self, game_id: int) -> TimeBoxError:
        """The table has moved on to another game: a change to an older one is refused."""
        return TimeBoxError(_("{label} now plays game {new}: record its rounds there").format(
            label=self.label, new=game_id))

    def _sealed(self) -> TimeBoxError:
        return TimeBoxError(
            _("{label}: the results of this table were taken and are closed; ask the "
              "organiser to correct them").format(label=self.label))

    # -- changes the clock's owner makes --

    def opened(self, now_us: int, duration_us: int) -> TimeBox:
        return replace(self, state=State.OPEN, ends_at_us=now_us + duration_us, left_us=None)

    def paused(self, now_us: int) -> TimeBox:
        if self.state is not State.OPEN or self.time_up(now_us):
            return self
        return replace(self, state=State.PAUSED, left_us=self.left(now_us), ends_at_us=None)

    def resumed(self, now_us: int) -> TimeBox:
        if self.state is not State.PAUSED:
            return self
        return replace(self, state=State.OPEN, ends_at_us=now_us + (self.left_us or 0),
                       left_us=None)

    def ended(self, now_us: int) -> TimeBox:
        """The time is up now (the organiser's call); already up: unchanged."""
        if self.state is State.PAUSED or (self.state is State.OPEN and not self.time_up(now_us)):
            return replace(self, state=State.OPEN, ends_at_us=now_us, left_us=None)
        return self

    def finished(self) -> TimeBox:
        return self if self.state is State.SEALED else replace(self, state=State.FINISHED)

    def sealed(self) -> TimeBox:
        return replace(self, state=State.SEALED)
