"""`make pi-check`: follow docs/raspberry-pi.md in a Debian arm64 system under emulation.

Why: the guide is what a maker types on a Pi, and nothing else runs it. This builds a
Debian arm64 root with debootstrap, runs it under qemu-user (binfmt_misc, or proot with
qemu when binfmt_misc cannot be registered), and runs the guide's own commands in it: the
fenced blocks marked `<!-- pi-check: NAME -->` in docs/raspberry-pi.md, read from the doc
(not copied), as a login user `maker` with passwordless sudo as Raspberry Pi Imager makes
one. Around them it checks what a maker would see: GPIO started from `/`, the screen's
missing libraries named, the self-test on mock pins, a headless table on mock pins that
`uno-showdown duel` names the players of (and refuses a user outside the group), the
companion under SDL's dummy driver, the units verified by systemd-analyze in the root.

It prints a table of steps with their times and stops at the first step that fails
(exit status 1). Run as root; it needs debootstrap and qemu-user-static (Debian:
`apt-get install debootstrap qemu-user-static binfmt-support`). The debootstrapped base is
kept in --cache and copied for each run; the repository's committed HEAD is what the root
clones (ADDRESS-OF-THIS-REPOSITORY in the guide).

    python3 -m tools.pi_check --suite bookworm        # or trixie
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "raspberry-pi.md"
MIRROR = "http://deb.debian.org/debian"

#: The CPU qemu-user emulates (QEMU_CPU, read by qemu at every arm64 program it starts): the
#: Raspberry Pi 4's. qemu's own default, `max`, has what no Pi has, pointer authentication
#: among it: trixie builds every arm64 program to sign and check its return addresses (in
#: the instruction space a Pi 4 or 5 runs as no-ops), and qemu computes each signature in
#: software, at every function call: `python3 -c pass` took 0.79 s under `max` against
#: 0.27 s as a Cortex-A72, and the Pi's own start-up could not be told from qemu's.
PI_CPU = "cortex-a72"
#: What a Raspberry Pi OS image has before the guide starts and a minimal Debian lacks.
BASE_PACKAGES = ["sudo", "ca-certificates", "systemd", "udev", "procps"]
REPOSITORY = "/srv/uno-showdown.git"
MAKER = "maker"
#: Where the debootstrapped bases are kept between runs, and the run roots (`run_root`).
CACHE = Path("/var/cache/uno-showdown-pi-check")
MARK = re.compile(r"<!-- pi-check: ([\w-]+) -->\s*\n```[^\n]*\n(.*?)\n```", re.S)


def guide_blocks(text: str) -> dict[str, str]:
    """The guide's marked blocks by name: the commands a maker types, as the doc has them."""
    return {name: body for name, body in MARK.findall(text)}


def run_root(cache: Path, suite: str) -> Path:
    """The root a check of `suite` runs in (and `--keep` leaves), beside its base."""
    return cache / f"{suite}-arm64-run"


class StepFailed(RuntimeError):
    """A step's command failed; the message says what it printed."""


@dataclass
class Report:
    rows: list[tuple[str, float, str]] = field(default_factory=list)

    def print(self, suite: str) -> None:
        width = max((len(name) for name, _t, _r in self.rows), default=4)
        print(f"\npi-check {suite} (arm64 under qemu-user as a "
              f"{os.environ.get('QEMU_CPU', PI_CPU)})")
        print(f"{'step':<{width}}  {'seconds':>8}  result")
        for name, seconds, result in self.rows:
            print(f"{name:<{width}}  {seconds:8.1f}  {result}")
        print(f"{'total':<{width}}  {sum(t for _n, t, _r in self.rows):8.1f}")


class Root:
    """A Debian arm64 root and the way to run its programs."""

    def __init__(self, path: Path, proot: bool) -> None:
        self.path = path
        self.proot = proot
        self._mounts: list[Path] = []

    def argv(self, command: list[str]) -> list[str]:
        if self.proot:
            return ["proot", "-q", "qemu-aarch64-static", "-0", "-r", str(self.path),
                    "-b", "/dev", "-b", "/proc", "-b", "/sys", *command]
        return ["chroot", str(self.path), *command]

    def run(self, script: str, user: str = "root", env: dict[str, str] | None = None,
            timeout: float = 3600, cwd: str | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a bash script in the root as `user` (a fresh login: new groups count)."""
        home = "/root" if user == "root" else f"/home/{user}"
        base = {"HOME": home, "USER": user, "LOGNAME": user, "LANG": "C.UTF-8",
                "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
                "DEBIAN_FRONTEND": "noninteractive", "TERM": "dumb",
                # no systemd runs here: systemctl enables units and starts none, as in any
                # chroot (it cannot tell this one by itself under emulation)
                "SYSTEMD_OFFLINE": "1",
                # every arm64 program started in the root, as the Pi's CPU (`PI_CPU`)
                "QEMU_CPU": os.environ.get("QEMU_CPU", PI_CPU)}
        base.update(env or {})
        prefix = f"cd {shlex.quote(cwd or home)} && " if cwd or user != "root" else ""
        inner = ["env", "-i", *(f"{k}={v}" for k, v in base.items()),
                 "bash", "-e", "-o", "pipefail", "-c", prefix + script]
        if user != "root":
            inner = ["runuser", "-u", user, "--", *inner]
        # A session of its own: a step that times out, or a check that is stopped, ends
        # the step's whole tree (proot's programs included), not only its first program.
        process = subprocess.Popen(self.argv(inner), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = process.communicate(timeout=timeout)
        except BaseException:
            self._end(process)
            raise
        done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        if check and done.returncode != 0:
            # progress lines (git's "Updating files: 42%") would crowd out the reason
            err = "\n".join(line for line in done.stderr.splitlines()
                             if "Updating files:" not in line and "Receiving objects:" not in line)
            raise StepFailed(f"exit {done.returncode}\n{script}\n{done.stdout[-3000:]}\n"
                             f"{err[-6000:]}")
        return done

    def _end(self, process: subprocess.Popen[str]) -> None:
        """End a step's programs: its session (a program that made a group of its own, as
        `timeout` does, included), then whatever else still runs in the root (sudo starts
        a session of its own); the step's first program is reaped."""
        _kill_until_none(lambda: _session_members(process.pid))
        self.stop_processes()
        process.wait()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()

    def mount(self) -> None:
        if self.proot:
            return
        for kind, source, target, opts in (
                ("proc", "proc", "proc", []), ("sysfs", "sys", "sys", []),
                (None, "/dev", "dev", ["--rbind"]),
                # as a booted system's /run: root's, 0755 (a tmpfs is 1777 unless told, and
                # `duel` rightly trusts no socket in a folder under a world-writable one)
                ("tmpfs", "tmpfs", "run", ["-o", "mode=0755"])):
            where = self.path / target
            where.mkdir(exist_ok=True)
            argv = ["mount", *opts, source, str(where)] if kind is None else \
                ["mount", "-t", kind, *opts, source, str(where)]
            subprocess.run(argv, check=True)
            self._mounts.append(where)

    def unmount(self) -> None:
        self.stop_processes()
        for where in reversed(self._mounts):
            subprocess.run(["umount", "-R", "-l", str(where)], check=False)
        self._mounts.clear()
        unmount_under(self.path)

    def stop_processes(self) -> None:
        """Kill whatever still runs inside the root: a stopped check kills its step, and the
        step's own children (sudo, pip) would go on writing into a root whose mounts are
        going down. SIGKILL, no grace: the root is the check's, and a step cut short is
        run again whole (`--start-at`)."""
        if self.proot:  # proot's programs run in the host's root: `_end` ends their session
            return
        inside = os.path.realpath(self.path)
        if inside == "/":  # never the host's own processes, whatever the path resolves to
            return
        if not _kill_until_none(lambda: _processes_in(inside)):
            print(f"pi-check: processes still run in {self.path} after a second of killing "
                  "them", file=sys.stderr)


def _kill_until_none(find: Callable[[], list[int]]) -> bool:
    """SIGKILL the processes `find` names, again until it names none (one may fork
    meanwhile): False if some are still there after a second."""
    for _attempt in range(20):
        found = find()
        for pid in found:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if not found:
            return True
        time.sleep(0.05)  # let the killed go before looking again
    return False


def _processes_in(root: str) -> list[int]:
    """The processes whose root folder is `root` (a chroot's), this one never."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with suppress(OSError):  # gone meanwhile
            if os.readlink(entry / "root") == root:
                found.append(int(entry.name))
    return found


def _session_members(session: int) -> list[int]:
    """The processes of `session` still running (from /proc/PID/stat: its sixth field, after
    the program's name in parentheses, which may itself hold any character)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        if fields[0] != "Z" and int(fields[3]) == session:
            members.append(int(entry.name))
    return members


BINFMT = Path("/proc/sys/fs/binfmt_misc")
#: Our own binfmt_misc entry: the same qemu for arm64 programs, with the C flag, so a
#: set-user-ID program (sudo, as the guide's maker types it) runs with its owner's rights.
#: The entry registered last is tried first; it is removed when the check ends.
OUR_ENTRY = "uno-showdown-aarch64"


def unmount_under(path: Path) -> None:
    """Unmount whatever is mounted inside `path` (deepest first): a root is never removed
    with the machine's /dev or /proc still bound into it."""
    inside = str(path.resolve()) + "/"
    mounts = [line.split()[1] for line in Path("/proc/self/mounts").read_text().splitlines()]
    for where in sorted({m for m in mounts if m.startswith(inside)}, reverse=True):
        subprocess.run(["umount", "-l", where], capture_output=True, check=False)


def remove_root(path: Path) -> None:
    """Remove a root, its mounts first. A lazily unmounted folder can stay busy a moment
    (a check killed mid-step leaves its mounts): try again, and never go on with a folder
    that is still there, where `cp -a` would put the fresh root inside the old one."""
    for _attempt in range(5):
        if not path.exists():
            return
        unmount_under(path)
        shutil.rmtree(path, ignore_errors=True)
        if path.exists():
            time.sleep(1)
    if path.exists():
        raise StepFailed(f"cannot remove {path} (something still holds it): remove it by hand")


def binfmt_ready() -> bool:
    """Whether the kernel runs arm64 programs through qemu (binfmt_misc) with set-user-ID
    honoured, registering what it can."""
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
                       capture_output=True, check=False)
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists() and shutil.which("update-binfmts"):
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], capture_output=True,
                       check=False)
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        return False
    if (BINFMT / OUR_ENTRY).exists():
        return True
    fields = dict(line.split(" ", 1) for line in entry.read_text().splitlines()[1:]
                  if " " in line)
    def escaped(hexes: str) -> str:
        return "".join(f"\\x{b:02x}" for b in bytes.fromhex(hexes))
    line = (f":{OUR_ENTRY}:M:{fields['offset']}:{escaped(fields['magic'])}:"
            f"{escaped(fields['mask'])}:{fields['interpreter']}:POCF")
    try:
        (BINFMT / "register").write_text(line)
    except OSError as exc:
        print(f"pi-check: cannot register {OUR_ENTRY} ({exc}): sudo will not work in the "
              "root", file=sys.stderr)
    return True


def binfmt_share(cache: Path) -> int:
    """A shared hold on our binfmt entry, so two checks (bookworm and trixie side by side)
    can run at once: the entry is removed by the last one to end, never under another."""
    cache.mkdir(parents=True, exist_ok=True)
    fd = os.open(cache / "binfmt.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_SH)
    return fd


def suite_held(cache: Path, suite: str) -> int | None:
    """An exclusive hold on `suite`'s root, or None when another check of the same suite
    runs: two would copy, mount and remove the same folder under each other."""
    cache.mkdir(parents=True, exist_ok=True)
    fd = os.open(cache / f"{suite}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def binfmt_done(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # another check still runs arm64 programs through it
        os.close(fd)
        return
    if (BINFMT / OUR_ENTRY).exists():
        (BINFMT / OUR_ENTRY).write_text("-1")
    os.close(fd)


def base_root(cache: Path, suite: str, proot: bool) -> Path:
    """The debootstrapped base for `suite`, made once and kept in `cache`."""
    base = cache / f"{suite}-arm64-base"
    if (base / "etc" / "os-release").exists():
        return base
    work = cache / f"{suite}-arm64-partial"
    remove_root(work)
    cache.mkdir(parents=True, exist_ok=True)
    argv = ["debootstrap", "--arch=arm64", "--variant=minbase",
            f"--cache-dir={cache / 'debs'}"]
    (cache / "debs").mkdir(exist_ok=True)
    if proot:  # no binfmt_misc: unpack here, configure under proot
        subprocess.run([*argv, "--foreign", suite, str(work), MIRROR], check=True)
        Root(work, proot=True).run("/debootstrap/debootstrap --second-stage")
    else:
        subprocess.run([*argv, suite, str(work), MIRROR], check=True)
    work.rename(base)
    return base


#: Runs of each command in the start-up step: emulated processes on a shared machine vary by
#: a third from one run to the next, and five runs left the fastest of each to chance.
START_UP_RUNS = 15

#: No systemd runs in the root (nor can under qemu-user): in front of the real systemctl,
#: which enables and disables units offline, this drops `--now` and says that it starts and
#: stops nothing. pi-check starts the table's service itself, as its unit says.
SYSTEMCTL = """#!/bin/bash
verb=""; keep=()
for a in "$@"; do
  [ "$a" = --now ] && continue
  keep+=("$a"); [ -z "$verb" ] && [ "${a#-}" = "$a" ] && verb=$a
done
case "$verb" in
  start|stop|restart|try-restart|reload|status|is-active)
    echo "pi-check: no systemd in this root: systemctl $verb not run" >&2; exit 0;;
esac
exec /usr/bin/systemctl "${keep[@]}"
"""


def systemctl_stand_in(root: Path) -> None:
    path = root / "usr" / "local" / "sbin" / "systemctl"  # before /usr/bin on sudo's PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SYSTEMCTL)
    path.chmod(0o755)


def clone_into(root: Path) -> None:
    """The repository's committed HEAD, bare, where the guide's clone finds it."""
    target = root / REPOSITORY.lstrip("/")
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(["git", "clone", "--quiet", "--bare", "--no-hardlinks", str(ROOT),
                    str(target)], check=True)


def python_minor(root: Root) -> tuple[int, int]:
    out = root.run("python3 -c 'import sys; print(*sys.version_info[:2])'").stdout.split()
    return int(out[0]), int(out[1])


@contextmanager
def headless_table(root: Root, unit: str = "/etc/systemd/system/uno-showdown.service",
                   ) -> Iterator[None]:
    """The GPIO table's service as systemd would start it (its user, folders, environment,
    command line), on mock pins: no systemd runs in a chroot."""
    text = (root.path / unit.lstrip("/")).read_text().replace("\\\n", " ")
    exec_start = re.search(r"^ExecStart=(.*)$", text, re.M)
    assert exec_start is not None
    env = dict(re.findall(r"^Environment=(\w+)=(.*)$", text, re.M))
    env.update(GPIOZERO_PIN_FACTORY="mock", GPIOZERO_MOCK_PIN_CLASS="mockpwmpin",
               RUNTIME_DIRECTORY="/run/uno-showdown")
    root.run("install -d -m 0750 -o showdown -g showdown /run/uno-showdown && "
             "install -m 0640 -o showdown -g showdown /dev/null /run/uno-showdown-table.log")
    command = ("umask 0007; exec " + exec_start.group(1).strip()
               + " >/run/uno-showdown-table.log 2>&1")
    words = ["env", "-i", *(f"{k}={v}" for k, v in env.items()),
             "PATH=/usr/local/bin:/usr/bin:/bin", "bash", "-c",
             f"cd /var/lib/uno-showdown && {command}"]
    process = subprocess.Popen(root.argv(["runuser", "-u", "showdown", "--", *words]))
    try:
        sock = root.path / "run" / "uno-showdown" / "duel.sock"
        deadline = time.monotonic() + 300
        while not sock.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                log = root.path / "run" / "uno-showdown-table.log"
                raise StepFailed("the headless table did not open its duel socket:\n"
                                 + (log.read_text() if log.exists() else ""))
            time.sleep(0.5)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def steps(root: Root, blocks: dict[str, str]) -> list[tuple[str, Callable[[], str]]]:
    """The steps in order: each returns a short result, or raises StepFailed. A block the
    steps follow and the guide lacks (renamed, its marker dropped) is refused here, before
    the root is touched, not minutes later at its step."""

    def guide(name: str) -> str:
        if name not in blocks:
            shown = GUIDE.relative_to(ROOT) if GUIDE.is_relative_to(ROOT) else GUIDE
            raise StepFailed(f"{shown} has no block marked "
                             f"<!-- pi-check: {name} -->, which this check follows")
        return blocks[name]

    def block(name: str, user: str = MAKER, **env: str) -> Callable[[], str]:
        guide(name)

        def go() -> str:
            script = blocks[name].replace("ADDRESS-OF-THIS-REPOSITORY", REPOSITORY)
            done = root.run(script, user=user, env=env)
            last = (done.stdout.strip().splitlines() or [""])[-1]
            return f"ok: {last[:60]}" if last else "ok"
        return go

    def prepare() -> str:
        policy = root.path / "usr" / "sbin" / "policy-rc.d"  # no daemons start in the root
        policy.write_text("#!/bin/sh\nexit 101\n")
        policy.chmod(0o755)
        shutil.copy("/etc/resolv.conf", root.path / "etc" / "resolv.conf")
        hosts = root.path / "etc" / "hosts"  # sudo looks up this machine's name
        known = hosts.read_text() if hosts.exists() else "127.0.0.1 localhost\n"
        hosts.write_text(known + f"127.0.1.1 {os.uname().nodename}\n")
        root.run("apt-get update -q && apt-get install -y -q --no-install-recommends "
                 + " ".join(BASE_PACKAGES))
        systemctl_stand_in(root.path)
        # A machine behind a TLS-inspecting proxy trusts its certificate authority in
        # /usr/local/share/ca-certificates: the root does as the host does (pip, git).
        local_cas = Path("/usr/local/share/ca-certificates")
        if local_cas.is_dir():
            shutil.copytree(local_cas, root.path / local_cas.relative_to("/"),
                            dirs_exist_ok=True)
            root.run("update-ca-certificates >/dev/null")
        root.run(f"id {MAKER} >/dev/null 2>&1 || useradd -m -s /bin/bash {MAKER}; "
                 f"printf '%s\\n' '{MAKER} ALL=(ALL) NOPASSWD: ALL' "
                 f"'Defaults env_keep += \"SYSTEMD_OFFLINE\"' > /etc/sudoers.d/{MAKER}; "
                 "id outsider >/dev/null 2>&1 || useradd -m -s /bin/bash outsider")
        clone_into(root.path)
        return "sudo, systemd, a login user with sudo (as Imager makes)"

    from_source = block("lgpio-from-source", user=MAKER)
    from_pypi = block("lgpio-from-pypi")
    duel_block = block("duel")

    def lgpio_from_pypi() -> str:
        major, minor = python_minor(root)
        if (major, minor) >= (3, 13):
            # no wheel for 3.13: the guide's build from PyPI's source, C library built in
            return f"Python {major}.{minor}, built: " + from_source()
        return from_pypi()

    def gpio_from_root_folder() -> str:
        done = root.run("cd / && GPIOZERO_PIN_FACTORY=lgpio uno-showdown selftest "
                        "--device gpio --echo-seconds 0 --no-motor", user=MAKER, check=False)
        err = done.stderr
        if ".lgd-nfy" in err or "install lgpio" in err:
            raise StepFailed(err)
        if "lgpio is installed but could not start" in err:
            return "ok: lgpio loads from /, says its own reason (no Pi's GPIO chip here)"
        if "no GPIO library could be loaded" in err:
            return "ok: no lgpio here, the message says to install it"
        raise StepFailed(err or done.stdout)

    def kmsdrm_named() -> str:
        done = root.run("SDL_VIDEODRIVER=kmsdrm uno-showdown companion", user=MAKER,
                        check=False, timeout=600)
        if "libgbm.so.1" in done.stderr and "sudo apt install" in done.stderr:
            return "ok: " + done.stderr.strip().split(": the system")[-1][:70]
        raise StepFailed(done.stderr or done.stdout)

    def duel() -> str:
        with headless_table(root):
            out = duel_block()
            sock = root.run("stat -c '%A %U:%G' /run/uno-showdown/duel.sock").stdout.strip()
            if sock != "srw-rw---- showdown:showdown":
                raise StepFailed(f"the duel socket is {sock}")
            refused = root.run("uno-showdown duel", user="outsider", check=False)
            if "you may not talk to the service" not in refused.stderr:
                raise StepFailed("a user outside the group was not refused: "
                                 + refused.stderr)
        return f"{out}; socket {sock}; outsider refused"

    def companion_dummy() -> str:
        done = root.run("SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy timeout -s INT 90 "
                        "uno-showdown companion || test $? = 124 -o $? = 130",
                        user=MAKER, check=False, timeout=600)
        if done.returncode != 0 or "Traceback" in done.stderr:
            raise StepFailed(done.stderr or done.stdout)
        return "ok: ran 90 s under SDL's dummy driver"

    def units_verified() -> str:
        root.run("for unit in /etc/systemd/system/uno-showdown*.service; do "
                 "systemd-analyze verify --man=no \"$unit\"; done 2>&1 | "
                 "(! grep -v 'Failed to connect\\|Running in chroot\\|^$')")
        scores = root.run("for unit in /etc/systemd/system/uno-showdown*.service; do "
                          "systemd-analyze security --offline=yes --no-pager \"$unit\" "
                          "| tail -1; done", check=False).stdout
        levels = re.findall(r"(uno-showdown[\w-]*)\.service: ([\d.]+)", scores)
        return "ok: verify clean; " + ", ".join(f"{n} {v}" for n, v in levels)

    def start_up() -> str:
        """benchmarks/cli_startup.py in the root: the commands typed at the Pi beside
        `python3 -c pass`, both under the same emulation."""
        done = root.run("cd /opt/uno-showdown && venv/bin/python benchmarks/cli_startup.py "
                        f"--runs {START_UP_RUNS}", user=MAKER, timeout=3600)
        print(done.stdout, flush=True)
        ratios = {line[:26].strip(): "/".join(line.split()[-2:])
                  for line in done.stdout.splitlines()
                  if line.startswith(("uno-showdown game", "uno-showdown --", "floor: +"))}
        return "ok: x pass (min/median) " + ", ".join(
            f"{k.removeprefix('uno-showdown ').replace('floor: + argparse, SQL', 'floor')} {v}"
            for k, v in ratios.items())

    removal = guide("remove")

    def remove_quietly() -> str:
        done = root.run(removal, user=MAKER, check=False)
        noise = [line for line in done.stderr.splitlines() if "does not exist" in line
                 or "not found" in line]
        if done.returncode != 0 or noise:
            raise StepFailed(done.stderr)
        return "ok: quiet"

    return [
        ("prepare the root", prepare),
        ("guide: packages", block("packages", user=MAKER)),
        ("guide: install", block("install")),
        ("guide: lgpio from PyPI", lgpio_from_pypi),
        ("guide: groups", block("groups")),
        ("guide: user", block("user")),
        ("guide: links", block("links")),
        ("guide: game list", block("game-list")),
        ("guide: pin map", block("pinmap")),
        ("GPIO started from /", gpio_from_root_folder),
        ("guide: self-test, mock pins", block("selftest-mock")),
        ("kmsdrm libraries named", kmsdrm_named),
        ("guide: screen libraries", block("screen-libraries")),
        ("guide: GPIO unit", block("gpio-unit")),
        ("guide: screen unit", block("screen-unit")),
        ("units verified", units_verified),
        ("guide: keeping score", block("keeping-score")),
        ("guide: duel, headless table", duel),
        ("companion, SDL dummy", companion_dummy),
        ("start-up under emulation", start_up),
        ("guide: update", block("update")),
        ("guide: remove", remove_quietly),
    ]


#: The signals that stop a check as a failed step would (`kill`, a closed terminal, Ctrl-C).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def _stopped(signum: int, _frame: object) -> None:
    """End the check through `_check`'s `finally`, which ends what runs in the root and takes
    its mounts down (left mounted, the host's /dev and /proc stay bound inside a root that
    the next run removes). A second signal (a closed terminal sends SIGHUP twice) would cut
    that cleanup short: the stop signals are ignored from here on."""
    _hold_stops()
    with suppress(OSError, RuntimeError):  # a terminal that hung up; stderr mid-write
        print(f"pi-check: stopped by {signal.Signals(signum).name}: ending what runs in the "
              "root and taking its mounts down", file=sys.stderr, flush=True)
    raise SystemExit(128 + signum)


def _hold_stops() -> None:
    """Ignore the stop signals: from the first caught, and while the check cleans up."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


@contextmanager
def _stops_cleanly() -> Iterator[None]:
    """`_stopped` for the stop signals while the check runs; the handlers of before after."""
    before = {signum: signal.signal(signum, _stopped) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in before.items():
            if handler is not None:  # None: set outside Python, which cannot be put back
                signal.signal(signum, handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pi-check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="bookworm", help="Debian suite (bookworm, trixie)")
    parser.add_argument("--cache", type=Path, default=CACHE,
                        help="where the debootstrapped base is kept between runs")
    parser.add_argument("--keep", action="store_true", help="keep the root afterwards")
    parser.add_argument("--cpu", default=PI_CPU,
                        help=f"the CPU qemu emulates (default {PI_CPU}, the Pi 4's; "
                             "cortex-a76 is the Pi 5's)")
    parser.add_argument("--start-at", metavar="STEP",
                        help="go on in the root a --keep run left, from this step (its name "
                             "as the table prints it)")
    args = parser.parse_args(argv)
    work = run_root(args.cache, args.suite)
    # The guide's blocks and the step asked for, checked before anything is made, removed
    # or mounted: making the steps runs nothing.
    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    try:
        names = [name for name, _step in steps(Root(work, proot=False), blocks)]
    except StepFailed as exc:
        print(f"pi-check: {exc}", file=sys.stderr)
        return 2
    if args.start_at is not None and args.start_at not in names:
        print(f"pi-check: no step {args.start_at!r}: {', '.join(names)}", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("pi-check: run it as root (debootstrap, chroot and mounts need it)",
              file=sys.stderr)
        return 2
    missing = [t for t in ("debootstrap", "qemu-aarch64-static") if not shutil.which(t)]
    if missing:
        print(f"pi-check: {' and '.join(missing)} not found: apt-get install debootstrap "
              "qemu-user-static binfmt-support", file=sys.stderr)
        return 2
    if suite_held(args.cache, args.suite) is None:  # held until this process ends
        print(f"pi-check: another pi-check of {args.suite} is running; wait for it to end "
              "(another suite may run beside it)", file=sys.stderr)
        return 2
    os.environ["QEMU_CPU"] = args.cpu  # for the first arm64 program of each step, and on
    with _stops_cleanly():
        return _check(args, work, blocks)


def _check(args: argparse.Namespace, work: Path, blocks: dict[str, str]) -> int:
    """The check itself, in `work`: the base root (debootstrapped once), a fresh copy of it
    (or the kept one, from `--start-at`), the steps in order, the table."""
    held = binfmt_share(args.cache)
    try:
        return _check_with_binfmt(args, work, blocks)
    finally:  # however it ends, a stop signal included
        binfmt_done(held)


def _check_with_binfmt(args: argparse.Namespace, work: Path, blocks: dict[str, str]) -> int:
    report = Report()
    started = time.monotonic()
    try:
        proot = not binfmt_ready()
        if proot and not shutil.which("proot"):
            print("pi-check: binfmt_misc cannot run arm64 here and proot is not installed "
                  "(apt-get install proot)", file=sys.stderr)
            return 2
        base = base_root(args.cache, args.suite, proot)
    except (subprocess.CalledProcessError, StepFailed) as exc:
        report.rows.append(("debootstrap", time.monotonic() - started, f"FAILED: {exc}"))
        report.print(args.suite)
        return 1
    report.rows.append(("debootstrap (cached base)", time.monotonic() - started,
                        "ok: " + ("proot + qemu" if proot else "binfmt_misc + qemu")))
    if args.start_at is None or not work.exists():
        try:
            remove_root(work)
        except StepFailed as exc:
            print(f"pi-check: {exc}", file=sys.stderr)
            return 1
        subprocess.run(["cp", "-a", str(base), str(work)], check=True)
    root = Root(work, proot)
    failed = False
    try:
        root.mount()
        todo = steps(root, blocks)
        if args.start_at is not None:
            todo = todo[[name for name, _step in todo].index(args.start_at):]
        for name, step in todo:
            began = time.monotonic()
            try:
                result = step()
            except Exception as exc:  # any failure ends the check at this step, said why
                report.rows.append((name, time.monotonic() - began, "FAILED"))
                print(f"pi-check: step '{name}' failed: {exc}", file=sys.stderr)
                failed = True
                break
            report.rows.append((name, time.monotonic() - began, result))
            print(f"{name}: {result}", flush=True)
    finally:
        _hold_stops()  # a stop signal now would cut the cleanup short
        root.unmount()
        if not args.keep:
            remove_root(work)
    report.print(args.suite)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
