"""Many tables, one championship, through each broker: how fast a deal confirmed at a table
reaches the director's standings and the live page.

For 10 and 50 simulated tables of 7 players, one 1-hour flight is played at accelerated time
(`--speed`, 120x by default: the hour in 30 s): each table records a deal every 3 minutes of
flight time, give or take, in its own games file, through its own `TableAgent` and its own
broker connection. In a bar each table is a machine of its own, so the simulated tables run
ten to a process (not fifty behind one interpreter lock), and the watchers that time the
standings and the page run in the benchmark's own process. The director is `uno-showdown
event serve` in its own process: with the embedded amqtt broker inside it, or with `--broker`
on Debian's mosquitto (a process of its own, when installed). Measured:

* rounds/s: deals taken by the director per second over the run;
* confirmed -> standings: from `record_round` returning at the table to the director's
  standings (the retained standings message) counting that deal, p50 and p99;
* confirmed -> page: the same, to the live page's server-sent event stream;
* the director's CPU time (user + system, over the run, as a share of one core) and its peak
  resident memory (the embedded broker included for amqtt; mosquitto is a separate process);
* one table's CPU time: its companion recording deals and its agent syncing them (and taking
  the director's standings), as a share of one core; what a table's Pi spends on the sync.

The baseline in the same run is the 10-table amqtt row: every row shows its p99 to the page
against it, and against the 1 s target.

    python benchmarks/tables.py [--speed 120] [--tables 10 50] [--brokers amqtt mosquitto]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import multiprocessing.process
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402

from championship.broker.credentials import read_credentials  # noqa: E402
from championship.broker.link import BrokerAddress  # noqa: E402
from championship.core import messages as wire  # noqa: E402
from championship.core.page_state import apply_patch  # noqa: E402
from championship.core.settings import Settings  # noqa: E402
from championship.desk.operations import Championship  # noqa: E402
from championship.desk.table_agent import TableAgent  # noqa: E402
from championship.store.table_file import TableFile  # noqa: E402
from companion.app import CompanionApp  # noqa: E402
from companion.store.games import Store  # noqa: E402

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
FLIGHT_S = 3600.0
DEAL_EVERY_S = 180.0
#: Simulated tables per process (a real table is a machine of its own).
TABLES_PER_PROCESS = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` started (the embedded broker's, for `event serve`)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid:
                    out.append(int(entry.name))
    return out


def family_cpu_s(pid: int) -> float:
    """CPU time of a process and the processes it started."""
    total = 0.0
    for p in [pid, *children(pid)]:
        with contextlib.suppress(OSError):
            total += cpu_s(p)
    return total


def peak_rss_mb(pid: int) -> float:
    """Peak resident memory of a process and those it started, together."""
    total = 0.0
    for p in [pid, *children(pid)]:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1]) / 1024
    return total or float("nan")


def busy_loop() -> None:
    """A core kept busy: the other work a bar's laptop is doing."""
    while True:
        pass


@dataclass
class Watch:
    """When each table's deal count was first seen at a place (standings or page)."""

    seen: dict[int, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    doc: dict[str, Any] = field(default_factory=dict)  # the page's document (page only)

    def take(self, deals: dict[str, int]) -> None:
        now = time.monotonic()
        with self.lock:
            for key, count in deals.items():
                table = int(key.rsplit("/", 1)[1])
                times = self.seen.setdefault(table, [])
                while len(times) < count:
                    times.append(now)


def watch_standings(port: int, creds_file: Path, event_id: int, watch: Watch) -> mqtt.Client:
    creds = read_credentials(creds_file)
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=creds.client_id + "-watch",
                         protocol=mqtt.MQTTv311)
    client.username_pw_set(creds.username, creds.secret)

    def on_connect(c: mqtt.Client, *_a: object) -> None:
        c.subscribe(wire.standings_topic(event_id), qos=1)

    def on_message(_c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == wire.standings_topic(event_id):  # amqtt 0.12 also sends others
            watch.take(json.loads(msg.payload)["deals"])

    client.on_connect = on_connect
    client.on_message = on_message
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def watch_page(port: int, watch: Watch, stop: threading.Event) -> threading.Thread:
    def run() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/events")
        resp = conn.getresponse()
        while not stop.is_set():
            line = resp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                state = json.loads(line[6:])
                changed = state["set"] if state.get("patch") else state  # only what changed
                with watch.lock:  # the page's document as the page holds it
                    watch.doc = apply_patch(watch.doc, state) if state.get("patch") else state
                if "deals" in changed:
                    watch.take(changed["deals"])

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def play_tables(conn: Connection, group: list[int], tables: int, speed: float, tmp: str,
                folder: str, mport: int, event_id: int) -> None:
    """A worker process: join the tables of `group`, say "seated", wait for the start
    instant, play their share of the flight and send back when each deal was confirmed."""
    address = BrokerAddress("127.0.0.1", mport, False)
    agents: list[TableAgent] = []
    apps: dict[int, CompanionApp] = {}
    try:
        for n in group:
            agent = TableAgent(f"{tmp}/t{n}.db", address,
                               read_credentials(Path(folder) / f"table-{n}.json"), n)
            agent.start()
            agents.append(agent)
        for agent in agents:
            if not agent.seated.wait(240):
                conn.send(f"table {agent.table} was never seated")
                return
        for agent in agents:
            with Store(agent.store.path) as store:
                gid = TableFile(store, event_id, agent.table).current_game("flight-1")
            apps[agent.table] = CompanionApp.open(agent.store.path, gid)
        conn.send("seated")
        start = conn.recv()
        rng = random.Random(tables)  # every worker draws the same schedule, plays its part
        schedule = sorted(((k + rng.uniform(0.05, 0.95)) * DEAL_EVERY_S / speed, n + 1)
                          for n in range(tables)
                          for k in range(int(FLIGHT_S / DEAL_EVERY_S)))
        mine = random.Random(tables * 1000 + group[0])
        confirmed: dict[int, list[float]] = {}
        for at, n in schedule:
            if n not in apps:
                continue
            delay = start + at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            app = apps[n]
            assert app.game is not None
            names = list(app.game.names)
            winner = mine.choice(names)
            app.record_round(winner, points={p: mine.randint(0, 40) for p in names
                                             if p != winner})
            confirmed.setdefault(n, []).append(time.monotonic())
        conn.send(confirmed)
        with contextlib.suppress(EOFError):
            conn.recv()  # stay connected until the director has been watched taking everything
    finally:
        for app in apps.values():
            app.close()
        for agent in agents:
            agent.stop()


def burst_tables(conn: Connection, group: list[int], deals: int, tmp: str, folder: str,
                 mport: int, event_id: int) -> None:
    """A worker process for the burst: join the tables of `group`, go offline, record
    `deals` deals at each into its own file, then, at the instant the main process sends,
    reconnect them all at once. Sends back what the deals add to each player, by number."""
    address = BrokerAddress("127.0.0.1", mport, False)
    agents: list[TableAgent] = []

    def join(n: int) -> TableAgent:
        agent = TableAgent(f"{tmp}/t{n}.db", address,
                           read_credentials(Path(folder) / f"table-{n}.json"), n)
        agent.start()
        return agent

    try:
        agents = [join(n) for n in group]
        for agent in agents:
            if not agent.seated.wait(60):
                conn.send(f"table {agent.table} was never seated")
                return
        for agent in agents:  # the network goes down
            agent.stop()
        agents = []
        rng = random.Random(group[0])
        sums: dict[int, list[int]] = {}
        for n in group:
            path = f"{tmp}/t{n}.db"
            with Store(path) as store:
                gid = TableFile(store, event_id, n).current_game("flight-1")
            with CompanionApp.open(path, gid) as app:
                for _k in range(deals):
                    assert app.game is not None
                    names = list(app.game.names)
                    winner = rng.choice(names)
                    points = {p: rng.randint(0, 40) for p in names if p != winner}
                    app.record_round(winner, points=points)
                    for name in names:  # the players are P001...: their number is the name's
                        line = sums.setdefault(int(name[1:]), [0, 0])
                        line[0] += points.get(name, 0)
                        line[1] += 1
        conn.send(("offline", sums))
        start = conn.recv()
        delay = start - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        agents = [join(n) for n in group]  # back, all at once
        with contextlib.suppress(EOFError):
            conn.recv()
    finally:
        for agent in agents:
            agent.stop()


def run_one(broker: str, tables: int, speed: float, tmp: Path, *, loaded: bool = False,
            burst: int = 0) -> dict[str, float]:
    """One row: a flight played live (`burst` 0), or every table reconnecting at once with
    `burst` deals recorded offline; with `loaded`, two busy loops run meanwhile."""
    db = str(tmp / "director.db")
    with Championship.open(db) as champ:
        event_id = champ.new_event("Benchmark Cup", Settings(tables=tables))
        champ.register([f"P{i:03d}" for i in range(1, tables * 7 + 1)])
        champ.draw(seed=1)
        champ.start()
    mport, wport = free_port(), free_port()
    folder = tmp / "creds"
    args = [sys.executable, "-m", "uno_showdown.commands.cli", "event", "serve", "--db", db,
            "--web", f"127.0.0.1:{wport}", "--credentials-dir", str(folder)]
    args += (["--listen", f"127.0.0.1:{mport}"] if broker == "amqtt"
             else ["--broker", f"mqtt://127.0.0.1:{mport}"])
    director = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    mosq = None
    workers: list[multiprocessing.process.BaseProcess] = []
    pipes: list[Connection] = []
    client = None
    stop = threading.Event()
    hogs: list[multiprocessing.process.BaseProcess] = []
    try:
        if broker == "mosquitto":
            deadline = time.monotonic() + 30
            while not (folder / "mosquitto.acl").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            conf = folder / "mosquitto.conf"
            lines = [f"listener {mport} 127.0.0.1", "allow_anonymous false",
                     f"password_file {folder / 'mosquitto.passwd'}",
                     f"acl_file {folder / 'mosquitto.acl'}", "persistence false",
                     "max_queued_messages 100000"]
            if os.geteuid() == 0:
                lines.insert(0, "user root")
            conf.write_text("\n".join(lines) + "\n")
            assert MOSQUITTO is not None
            mosq = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        wait_port(mport)
        wait_port(wport)
        deadline = time.monotonic() + 30
        while not (folder / f"table-{tables}.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        # Each table in a bar is its own machine: here the tables run TABLES_PER_PROCESS to a
        # process, so that fifty tables are not fifty tables' threads behind one GIL.
        ctx = multiprocessing.get_context("fork")  # no thread runs yet in this process
        groups = [list(range(1, tables + 1))[i:i + TABLES_PER_PROCESS]
                  for i in range(0, tables, TABLES_PER_PROCESS)]
        for group in groups:
            ours, theirs = ctx.Pipe()
            if burst:
                proc = ctx.Process(target=burst_tables, daemon=True, args=(
                    theirs, group, burst, str(tmp), str(folder), mport, event_id))
            else:
                proc = ctx.Process(target=play_tables, daemon=True, args=(
                    theirs, group, tables, speed, str(tmp), str(folder), mport, event_id))
            proc.start()
            theirs.close()  # the worker's end: a worker that dies is then an end of file here
            workers.append(proc)
            pipes.append(ours)
        expected: dict[int, list[int]] = {}
        for conn in pipes:
            said = conn.recv() if conn.poll(300) else "its worker said nothing for 300 s"
            if burst and isinstance(said, tuple):
                expected.update(said[1])
            elif said != "seated":
                raise RuntimeError(f"a table was never seated: {said}")
        if loaded:
            for _n in range(2):
                loop = ctx.Process(target=busy_loop, daemon=True)
                loop.start()
                hogs.append(loop)
        standings, page = Watch(), Watch()
        client = watch_standings(mport, folder / "table-1.json", event_id, standings)
        watch_page(wport, page, stop)
        cpu0 = family_cpu_s(director.pid)
        tables_cpu0 = sum(cpu_s(w.pid) for w in workers if w.pid is not None)
        start = time.monotonic() + 0.5
        for conn in pipes:
            conn.send(start)
        if burst:
            return drain(page, expected, tables * burst, start, director.pid, cpu0, pipes)
        confirmed: dict[int, list[float]] = {}
        for conn in pipes:
            if not conn.poll(FLIGHT_S / speed * 4 + 60):
                raise RuntimeError("a group of tables did not finish its flight")
            confirmed.update(conn.recv())
        total = sum(len(v) for v in confirmed.values())

        def complete(w: Watch) -> bool:
            with w.lock:
                return sum(len(v) for v in w.seen.values()) >= total

        deadline = time.monotonic() + 60
        while not (complete(standings) and complete(page)) and time.monotonic() < deadline:
            time.sleep(0.05)
        end = time.monotonic()
        tables_cpu = sum(cpu_s(w.pid) for w in workers if w.pid is not None) - tables_cpu0
        for conn in pipes:
            conn.send("done")
        cpu = family_cpu_s(director.pid) - cpu0
        rss = peak_rss_mb(director.pid)

        def latencies(w: Watch) -> list[float]:
            out = []
            for table, times in confirmed.items():
                seen = w.seen.get(table, [])
                out += [seen[i] - t for i, t in enumerate(times) if i < len(seen)]
            return out

        to_standings, to_page = latencies(standings), latencies(page)
        return {"deals": total, "arrived": len(to_page), "rate": total / (end - start),
                "s50": statistics.median(to_standings) if to_standings else float("nan"),
                "s99": percentile(to_standings, 99), "p50": statistics.median(to_page)
                if to_page else float("nan"), "p99": percentile(to_page, 99),
                "cpu": cpu / (end - start), "cpu_deal": cpu / total, "rss": rss,
                "table_cpu": tables_cpu / tables / (end - start)}
    finally:
        for hog in hogs:
            hog.kill()
            hog.join()
        stop.set()
        for conn in pipes:
            conn.close()  # a worker still waiting for "done" hears the end of file and stops
        if client is not None:
            client.loop_stop()
            client.disconnect()
        for worker in workers:
            worker.join(30)
            if worker.is_alive():
                worker.kill()
        director.send_signal(signal.SIGTERM)
        try:
            director.wait(20)
        except subprocess.TimeoutExpired:
            director.kill()
        if mosq is not None:
            mosq.terminate()
            mosq.wait(10)


def drain(page: Watch, expected: dict[int, list[int]], total: int, start: float,
          director: int, cpu0: float, pipes: list[Connection]) -> dict[str, float]:
    """Wait until the page shows every deal of the burst and, for every player, the points
    and games their tables' files add up to; how long that took from the reconnect."""

    def correct() -> bool:
        with page.lock:
            doc = page.doc
            if doc.get("total_deals") != total:
                return False
            shown = {ln["number"]: [ln["points"], ln["games"]]
                     for ln in doc.get("qualifying", []) if ln}
        return all(shown.get(n) == v for n, v in expected.items())

    deadline = start + 120
    first = float("nan")
    while not correct() and time.monotonic() < deadline:
        with page.lock:
            if first != first and page.doc.get("total_deals"):
                first = time.monotonic() - start
        time.sleep(0.01)
    end = time.monotonic()
    ok = correct()
    cpu = family_cpu_s(director) - cpu0
    for conn in pipes:
        conn.send("done")
    return {"deals": total, "drain": end - start, "first": first, "correct": float(ok),
            "cpu": cpu,
            "cpu_deal": cpu / total, "rss": peak_rss_mb(director)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--speed", type=float, default=120.0,
                        help="how many times faster than real time the hour is played")
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--brokers", nargs="+", choices=["amqtt", "mosquitto"],
                        default=["amqtt", "mosquitto"],
                        help="mosquitto is left out when it is not installed")
    parser.add_argument("--machine", nargs="+", choices=["quiet", "loaded"],
                        default=["quiet", "loaded"],
                        help="loaded: two busy loops run beside the director and the tables")
    parser.add_argument("--burst", type=int, default=20, metavar="DEALS",
                        help="deals each of the most tables records offline before they all "
                             "reconnect at once (0: no burst rows)")
    args = parser.parse_args()
    brokers = [b for b in args.brokers if b == "amqtt" or MOSQUITTO]
    rows = []
    bursts = []
    for machine in args.machine:
        loaded = machine == "loaded"
        for tables in args.tables:
            for broker in brokers:
                with tempfile.TemporaryDirectory() as tmp:
                    r = run_one(broker, tables, args.speed, Path(tmp), loaded=loaded)
                rows.append((machine, broker, tables, r))
                print(f"  done: {machine}, {broker}, {tables} tables", file=sys.stderr,
                      flush=True)
        if args.burst:
            for broker in brokers:
                tables = max(args.tables)
                with tempfile.TemporaryDirectory() as tmp:
                    r = run_one(broker, tables, args.speed, Path(tmp), loaded=loaded,
                                burst=args.burst)
                bursts.append((machine, broker, tables, r))
                print(f"  done: {machine}, {broker}, burst of {tables} tables", file=sys.stderr,
                      flush=True)
    base = next((r["p99"] for m, b, t, r in rows if b == "amqtt"), float("nan"))
    cpu_base = {(m, b): r["cpu_deal"] for m, b, t, r in rows if t == min(args.tables)}
    print(f"One 1-hour flight at {args.speed:g}x; a deal every ~3 min per table; "
          f"latencies from the deal confirmed at its table.")
    head = (f"{'machine':<7} {'broker':<10} {'tables':>6} {'deals':>6} {'rounds/s':>9} "
            f"{'p50 stand.':>11} {'p99 stand.':>11} {'p50 page':>9} {'p99 page':>9} "
            f"{'p99/base':>9} {'p99/1 s':>8} {'dir. CPU':>9} {'CPU/deal':>9} "
            f"{'/10 tbl':>8} {'dir. RSS':>9} {'table CPU':>10}")
    print(head)
    print("-" * len(head))
    for machine, broker, tables, r in rows:
        missing = "" if r["arrived"] == r["deals"] else f"  ({r['deals'] - r['arrived']} lost!)"
        flat = r["cpu_deal"] / cpu_base.get((machine, broker), float("nan"))
        print(f"{machine:<7} {broker:<10} {tables:>6} {r['deals']:>6.0f} {r['rate']:>9.1f} "
              f"{r['s50'] * 1000:>9.0f}ms {r['s99'] * 1000:>9.0f}ms {r['p50'] * 1000:>7.0f}ms "
              f"{r['p99'] * 1000:>7.0f}ms {r['p99'] / base:>8.2f}x {r['p99']:>7.2f}x "
              f"{r['cpu'] * 100:>8.0f}% {r['cpu_deal'] * 1000:>7.1f}ms {flat:>7.2f}x "
              f"{r['rss']:>7.0f}MB {r['table_cpu'] * 100:>9.1f}%{missing}")
    print("Baseline: the first amqtt row. dir. CPU: the director's process and the embedded "
          "broker's (amqtt), share of one core; CPU/deal: their CPU time per deal, and /10 tbl "
          "its ratio to the same machine's and broker's row with the fewest tables (flat is "
          "1.00x). dir. RSS: their peak. table CPU: one table's companion and agent, share of "
          "one core. loaded: two busy loops beside everything, on two cores.")
    if bursts:
        print()
        print(f"Burst: every table goes offline, records {args.burst} deals, and all reconnect "
              "at once; first: from the reconnect until the page shows a deal; drained: until "
              "it shows every deal and every player's points and games as the tables' files "
              "add them up.")
        head = (f"{'machine':<7} {'broker':<10} {'tables':>6} {'deals':>6} {'first':>7} "
                f"{'drained':>8} {'/5 s':>6} {'correct':>8} {'CPU/deal':>9} {'dir. RSS':>9}")
        print(head)
        print("-" * len(head))
        for machine, broker, tables, r in bursts:
            print(f"{machine:<7} {broker:<10} {tables:>6} {r['deals']:>6.0f} "
                  f"{r['first']:>6.2f}s {r['drain']:>7.2f}s {r['drain'] / 5:>5.2f}x "
                  f"{'yes' if r['correct'] else 'NO':>8} {r['cpu_deal'] * 1000:>7.1f}ms "
                  f"{r['rss']:>7.0f}MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
