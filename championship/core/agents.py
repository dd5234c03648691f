"""One agent per table, whatever the broker: the director's arbitration between the agents
that speak for one table. Pure: the director passes each heartbeat in with its own time.

A broker cannot be trusted to keep one agent per table: mosquitto lets the newer of two
connections with one client id win, as the MQTT standard says, so two agents of one table
would throw each other off for ever. So every run of `table join` names itself in its
heartbeats (a random token, its computer's name, whether it was asked to take the table
over), each connects with a client id of its own, and the director decides:

* the first agent heard holds the table;
* another agent is told to stop (`STOP_HELD`), unless it asks to take the table over: then
  it holds the table and the one before is told to stop (`STOP_TAKEN`); an agent that was
  taken over is told to stop whatever it asks, so two agents that both ask cannot take the
  table from each other in turn;
* an agent stopped with Ctrl-C (or SIGTERM) says so last, and leaves the table free;
* an agent whose holder is gone (not heard for `GONE_AFTER_US`: killed, or its computer
  off), or that runs on the same games file on the same computer as the holder (the file's
  lock lets one agent run there at a time, so the holder's process ended: a `table join`
  restarted after a crash), takes the table without a word; a copy of that file on another
  computer is a second agent like any other.

An agent's token names one run on one games file. A heartbeat with the holder's token from
another file is not the holder (the token is no secret: a stop tells it to the agent it
stops), so it changes nothing: it neither moves the table to that file nor frees it.

A director that starts again has heard no agent yet, but its file noted the agent that held
each table (`resume`): that holder is taken as just heard, so the table stays its own as if
the director had never stopped, not whichever agent's heartbeat happens to arrive first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from championship.core.messages import STOP_HELD, STOP_TAKEN, Heartbeat, Stop
from championship.core.presence import OFFLINE_AFTER_US

#: A holder not heard for this long is gone: the next agent takes the table.
GONE_AFTER_US = OFFLINE_AFTER_US
#: The token of a holder noted before its token was kept (`TableAgents.resume`): no run
#: draws this one (a token is random hex).
NOTED = "0" * 16


@dataclass(frozen=True, slots=True)
class Holder:
    """The agent that holds a table: its token, computer, games file, since when it holds
    the table and when it was last heard (the director's clock, µs)."""

    agent: str
    host: str
    source: str
    since_us: int
    heard_us: int


@dataclass(frozen=True, slots=True)
class Contest:
    """What the director says of a second agent: `why` (STOP_HELD: refused, STOP_TAKEN: the
    old holder was taken over), the agent told to stop and its computer, and when."""

    why: str
    loser_host: str
    holder_host: str
    at_us: int


@dataclass
class TableAgents:
    """The director's arbitration for one table (see the module docstring)."""

    holder: Holder | None = None
    deposed: dict[str, str] = field(default_factory=dict)  # taken over: agent -> computer
    refused: dict[str, str] = field(default_factory=dict)  # told another holds the table

    def impostor(self, beat: Heartbeat, source: str) -> bool:
        """Whether a heartbeat names the holder's token from another games file: not the
        holder, and not to be heard as the table (see the module docstring)."""
        holder = self.holder
        return holder is not None and beat.agent == holder.agent and source != holder.source

    def resume(self, agent: str | None, host: str, source: str, since_us: int,
               now_us: int) -> None:
        """The holder the director's file noted before it started again, heard as if now
        (see the module docstring). A holder noted without its token (`NOTED`) is taken
        back without a word by its own file on its computer."""
        if self.holder is None:
            self.holder = Holder(agent or NOTED, host, source, since_us, now_us)

    def heard(self, beat: Heartbeat, source: str, now_us: int
              ) -> tuple[Stop | None, Contest | None]:
        """Take one heartbeat: the stop to send (to this agent, or to the holder it takes
        the table from) and what happened that the director should say, once (None:
        nothing new)."""
        agent = beat.agent
        if agent is None:  # an agent of an older version: not arbitrated
            return None, None
        holder = self.holder
        if self.impostor(beat, source):
            return None, None
        if holder is not None and holder.agent == agent:
            self.holder = None if beat.leaving else Holder(agent, beat.host, source,
                                                           holder.since_us, now_us)
            return None, None
        if beat.leaving:  # an agent that was not holding the table: nothing to free
            return None, None
        if holder is not None and agent in self.deposed:  # whatever it asks
            return Stop(agent, STOP_TAKEN, holder.agent, holder.host, holder.since_us), None
        alive = holder is not None and now_us - holder.heard_us <= GONE_AFTER_US
        # The same games file on the same computer is a `table join` started again (the
        # file's lock lets only one run there); a copy of the file on another computer is
        # a second agent like any other.
        same = holder is not None and holder.source == source and holder.host == beat.host
        if holder is not None and alive and not same and not beat.take_over:
            first = agent not in self.refused
            self.refused[agent] = beat.host
            return (Stop(agent, STOP_HELD, holder.agent, holder.host, holder.since_us),
                    Contest(STOP_HELD, beat.host, holder.host, now_us) if first else None)
        self.holder = Holder(agent, beat.host, source, now_us, now_us)
        if holder is None or not alive or same:
            return None, None
        contest = Contest(STOP_TAKEN, holder.host, beat.host, now_us)
        if holder.agent == NOTED:  # its token unknown: told to stop when it is heard again
            return None, contest
        self.deposed[holder.agent] = holder.host  # asked to take over: the old one stops
        return Stop(holder.agent, STOP_TAKEN, agent, beat.host, now_us), contest
