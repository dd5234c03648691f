"""What the commands typed at a Pi cost to start, counted in instructions under arm64 emulation.

`benchmarks/cli_startup.py` times whole processes; under qemu-user on a shared machine
its wall times drift by a third from one run to the next, so a change of a few per cent
cannot be seen in them. This program counts instead: it runs the Pi's own Python (a Debian
arm64 root, as `make pi-check PI_KEEP=1` leaves one) under qemu-user under valgrind's
cachegrind and prints how many instructions the emulation executed for each command, with
its ratio to `python3 -c pass` counted the same way. The count is the same on every run
(hash seed fixed, each run on a fresh copy of one games file), so two versions of the code
compare exactly.

The rows below the baseline are floors that no code of ours can go under: the console
script pip writes imports `re`; any command that reads the games file imports sqlite3 and
has SQLite read the file's schema. The remaining rows are the commands themselves, run
from this checkout (`PYTHONPATH`), with the root's Python and standard library.

Instructions are not time: wall time under emulation also pays the system calls and page
faults valgrind does not count (the kernel's side of each), and a command that imports many
modules makes many of those: its ratio in wall time has come out higher than its ratio here
(docs/development.md gives both). `make pi-check` measures wall time, in the guide's own
install.

Those are the host's instructions: qemu's own work included, which is mostly translating
each piece of the Pi's machine code the first time it runs. `--count guest` counts what a
real Pi would execute instead: the emulated Cortex-A72's own instructions, through a small
qemu plugin (built here with the host's C compiler, for the plugin interface of qemu 7.2 as
Debian bookworm's qemu-user ships it; the static qemu cannot load plugins). It is the same
from run to run to within a hundredth of a per cent and takes seconds, not minutes. The two
disagree, and docs/development.md says why: qemu translates the interpreter's own start
once per process, so under emulation `python3 -c pass` costs far more than its own
instructions, and every ratio to it comes out smaller than in the guest's count. `--count
both` prints the two side by side.

Run (as any user; valgrind and qemu-user-static on the host, qemu-user and a C compiler
for the guest's count), after `make pi-check PI_KEEP=1`, which keeps its roots where this
program looks first (bookworm's, else trixie's; `make bench` skips this one without them):
    python benchmarks/startup_instructions.py [--count both] \
        [--root /var/cache/uno-showdown-pi-check/trixie-arm64-run]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The CPU qemu emulates (the Raspberry Pi 4's: tools/pi_check.py says why not qemu's
# default) and where `make pi-check PI_KEEP=1` keeps its roots: the check's own.
from tools.pi_check import CACHE, PI_CPU, run_root  # noqa: E402

#: What pip's console script for `uno-showdown` runs (pip writes this, `re` included).
CONSOLE_SCRIPT = """import re
import sys
from uno_showdown.commands.console import run
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(run())
"""

ROUND = ["--winner", "Ann", "--hand", "Bob: r1", "--hand", "Cid: r1"]


def cases(script: str) -> list[tuple[str, list[str]]]:
    games = "import sqlite3, os; sqlite3.connect(os.environ['GAMES']).execute(" \
            "'SELECT count(*) FROM games').fetchall()"
    console = "import re, sys; re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])"
    return [
        ("python3 -c pass", ["-c", "pass"]),
        ("floor: the console script's re", ["-c", console]),
        ("floor: + argparse", ["-c", f"{console}; import argparse"]),
        ("floor: + sqlite3, one query", ["-c", f"{console}; import argparse; {games}"]),
        ("uno-showdown --help", [script, "--help"]),
        ("uno-showdown game list", [script, "game", "list"]),
        ("uno-showdown game show", [script, "game", "show"]),
        ("uno-showdown game round", [script, "game", "round", *ROUND]),
    ]


def seed_games_file(folder: Path) -> Path:
    """A games file with one game of three players and three rounds, made by this checkout
    on the host (the commands counted read it, and `game round` adds to a copy)."""
    env = dict(os.environ, XDG_DATA_HOME=str(folder), PYTHONPATH=str(ROOT), LANG="C.UTF-8")
    run = [sys.executable, "-m", "uno_showdown", "game"]
    subprocess.run([*run, "new", "--edition", "showdown", "--method", "winner",
                    "--players", "Ann,Bob,Cid"], env=env, check=True, capture_output=True)
    for _ in range(3):
        subprocess.run([*run, "round", *ROUND], env=env, check=True, capture_output=True)
    return folder / "uno-showdown" / "games.sqlite3"


#: A qemu TCG plugin (the plugin interface of qemu 7.2, version 1; qemu 9 and later refuse
#: it) that adds up the instructions of each translated block every time the block runs,
#: and prints the total when the program exits: the program itself, not a child it forks,
#: which would print its own. The sum is not atomic: a program with threads running at once
#: would lose counts (the commands counted here run one). Its declarations are written
#: here rather than taken from qemu-plugin.h, which Debian ships in no package.
GUEST_PLUGIN_C = r"""
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
void qemu_plugin_register_vcpu_tb_trans_cb(
    qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_inline(
    struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(
    qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *userdata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;
static uint64_t executed;
static pid_t program;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed,
                                             qemu_plugin_tb_n_insns(tb));
}

static void exited(qemu_plugin_id_t id, void *unused) {
    if (getpid() != program) {
        return;
    }
    char line[64];
    snprintf(line, sizeof line, "guest instructions: %llu\n", (unsigned long long)executed);
    qemu_plugin_outs(line);
}

__attribute__((visibility("default"))) int qemu_plugin_install(
        qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    program = getpid();
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, exited, NULL);
    return 0;
}
"""


def build_guest_plugin(scratch: Path) -> Path:
    """The plugin above, compiled with the host's C compiler into `scratch`."""
    source = scratch / "guest_instructions.c"
    source.write_text(GUEST_PLUGIN_C, encoding="utf-8")
    plugin = scratch / "libguest_instructions.so"
    done = subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(plugin), str(source)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"startup_instructions: the guest count's qemu plugin did not "
                         f"build: {done.stderr.strip()[-500:]}")
    return plugin


def count(root: Path, argv: list[str], seed: Path, scratch: Path, counted: bool = True,
          cpu: str = PI_CPU, plugin: Path | None = None) -> int:
    """Host instructions for the root's python3 running `argv` under qemu-user (`counted`
    False: run it without valgrind, and return 0); with `plugin` (`build_guest_plugin`), the
    emulated CPU's own instructions instead, counted by the plugin in the dynamic
    qemu-aarch64. The programs are the ones `tool` found on this PATH: the child's own PATH
    is the root's."""
    data = Path(tempfile.mkdtemp(dir=scratch))
    (data / "uno-showdown").mkdir()
    games = data / "uno-showdown" / "games.sqlite3"
    shutil.copyfile(seed, games)
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT),
           "XDG_DATA_HOME": str(data), "HOME": str(data), "LANG": "C.UTF-8",
           "COLUMNS": "80", "GAMES": str(games)}
    if plugin is not None:
        emulator = [tool("qemu-aarch64"), "-plugin", str(plugin), "-d", "plugin"]
    else:
        emulator = [tool("qemu-aarch64-static")]
        if counted:
            emulator[:0] = [tool("valgrind"), "--tool=cachegrind", "--cache-sim=no",
                            "--smc-check=all-non-file", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run(
        [*emulator, "-cpu", cpu, "-L", str(root), str(root / "usr" / "bin" / "python3"),
         *argv],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if not counted and done.returncode == 0:
        return 0
    pattern = r"guest instructions: (\d+)" if plugin is not None else r"I\s+refs:\s+([\d,]+)"
    found = re.findall(pattern, done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"{' '.join(argv)} failed under emulation ({done.returncode}): "
                         f"{done.stderr.strip()[-500:]}")
    return int(found[-1].replace(",", ""))  # the last: what the program printed can't follow


def tool(name: str) -> str:
    """`name` as found on this PATH (`main` has made sure it is there)."""
    return shutil.which(name) or name


#: What each count needs on the host, and the Debian packages that bring it.
NEEDS = {"host": (("valgrind", "qemu-aarch64-static"), "valgrind qemu-user-static"),
         "guest": (("qemu-aarch64", "cc"), "qemu-user gcc")}


#: What each count is, for the table's header.
MEANING = {"host": "host: the host's, qemu's work included (valgrind)",
           "guest": "guest: the emulated CPU's own, what a Pi executes (qemu plugin)"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path,
                        help="a Debian arm64 root with python3 (default: the one `make pi-check "
                             f"PI_KEEP=1` keeps in {CACHE}, bookworm's first; without one "
                             "the program says so and skips, as in `make bench`)")
    parser.add_argument("--count", choices=("host", "guest", "both"),
                        help="host: the host's instructions, qemu's translation included "
                             "(valgrind; minutes); guest: the emulated CPU's own, what a Pi "
                             "executes (a qemu plugin; seconds); both (default host)")
    parser.add_argument("--jobs", type=int, default=2, help="counts run at once (default 2)")
    parser.add_argument("--cpu", default=PI_CPU,
                        help=f"the CPU qemu emulates (default {PI_CPU}, the Pi 4's)")
    args = parser.parse_args()
    kinds = ["host", "guest"] if args.count == "both" else [args.count or "host"]
    root = args.root or next((found for suite in ("bookworm", "trixie")
                              if (found := run_root(CACHE, suite)).is_dir()), None)
    # Asked for (a root or a count given), what is missing is an error; in a sweep of every
    # benchmark (`make bench`, no options), a skip that says why.
    asked = args.root is not None or args.count is not None
    status = 2 if asked else 0
    said = "startup_instructions: " if asked else "startup_instructions: skipped: "
    if root is None:
        print(f"{said}no Debian arm64 root in {CACHE} (`make pi-check PI_KEEP=1` as "
              "root keeps one)", file=sys.stderr)
        return status
    for kind in kinds:
        needed, packages = NEEDS[kind]
        missing = [name for name in needed if not shutil.which(name)]
        if missing:
            print(f"{said}{' and '.join(missing)} not found (the {kind} "
                  f"count): apt-get install {packages}", file=sys.stderr)
            return status
    if not (root / "usr" / "bin" / "python3").exists():
        print(f"{said}no usr/bin/python3 in {root}: give the root "
              "`make pi-check PI_KEEP=1` leaves", file=sys.stderr)
        return status
    with tempfile.TemporaryDirectory(prefix="startup-instructions-") as tmp:
        scratch = Path(tmp)
        script = scratch / "uno-showdown"
        script.write_text(CONSOLE_SCRIPT, encoding="utf-8")
        seed = seed_games_file(scratch / "seed")
        runs = cases(str(script))
        plugin = build_guest_plugin(scratch) if "guest" in kinds else None
        if plugin is not None:
            try:
                count(root, ["-c", "pass"], seed, scratch, cpu=args.cpu, plugin=plugin)
            except SystemExit as refused:
                print(f"{said}this qemu-aarch64 does not run the counting plugin, written for "
                      f"qemu's plugin interface 1 (qemu 7.2 to 8.2): {refused}", file=sys.stderr)
                return status
        # once each first, uncounted: the root's Python writes this checkout's .pyc files
        # (with the emulator of the first count: the guest's needs no static qemu)
        for _name, argv in runs:
            count(root, argv, seed, scratch, counted=False, cpu=args.cpu,
                  plugin=plugin if kinds == ["guest"] else None)
        columns = [count_all(root, runs, seed, scratch, args.jobs, args.cpu,
                             plugin if kind == "guest" else None) for kind in kinds]
    print(f"instructions to start under qemu-user as a {args.cpu} (arm64 Python of {root}, "
          f"millions); {'; '.join(MEANING[kind] for kind in kinds)}; x pass: ratio to "
          "`python3 -c pass`")
    print(f"{'command':<36}" + "".join(f" {kind + ' M':>8} {'x pass':>7}" for kind in kinds))
    digits = {"host": 0, "guest": 1}  # the guest's counts are 35 to 60 times smaller
    for row, (name, _argv) in enumerate(runs):
        cells = (f" {counts[row] / 1e6:8.{digits[kind]}f} {counts[row] / counts[0]:7.2f}"
                 for kind, counts in zip(kinds, columns, strict=True))
        print(f"{name:<36}" + "".join(cells))
    return 0


def count_all(root: Path, runs: list[tuple[str, list[str]]], seed: Path, scratch: Path,
              jobs: int, cpu: str, plugin: Path | None) -> list[int]:
    """Each run's count, `jobs` at once (the guest's with `plugin`, else the host's)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(count, root, argv, seed, scratch, cpu=cpu, plugin=plugin)
                   for _n, argv in runs]
        try:
            return [future.result() for future in futures]
        except BaseException:  # a failed count: say so now, not after the queued ones
            pool.shutdown(wait=False, cancel_futures=True)
            raise


if __name__ == "__main__":
    sys.exit(main())
