"""Who may talk to the broker: one user per table and one for the director, with random
secrets, written to files a table reads and no one else.

A table's credentials file (JSON, mode 0600) holds its user name and secret, the event and
table they are for, and, when the broker speaks TLS, the certificate to trust. It never goes
on a command line (where `ps` would show it), and a file that other users can read is
refused. The same text fits in a QR code (`segno`) to carry to a table by phone.

The secret is the table's broker password and the key of its messages' HMAC (see `wire`).
The file also carries the public half of the director's signing key (`signing`): the table
checks what the director says with it, so the table's own secret cannot forge the
director. A file written before it had that key is refused, saying how to get a new one.
The broker's own files are made here too: a password file for the embedded broker
(argon2 hashes, what amqtt's `FileAuthPlugin` reads) and, for an existing mosquitto, a
password file in mosquitto's own PBKDF2-SHA512 format and an ACL.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from championship.broker.signing import DirectorVerifier, public_key
from championship.core import messages as wire
from championship.core.access import (
    KIND,
    Credentials,
    director_user,
    table_user,
)
from championship.core.errors import ChampionshipError
from championship.core.i18n import _

#: The largest credentials file read: one holds a name, a password and a certificate.
MAX_FILE_BYTES = 256 * 1024


def write_credentials(path: Path, creds: Credentials) -> None:
    """Write the file readable by its owner only (replacing one that was there)."""
    path.parent.mkdir(exist_ok=True)  # the folder, never its parents (`preflight`)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, creds.to_json().encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def read_credentials(path: str | Path) -> Credentials:
    """A credentials file, refused (one sentence) if others can read it or it is not one."""
    p = Path(path)
    try:
        mode = p.stat().st_mode
        with open(p, "rb") as stream:  # a few kilobytes; a device that never ends is not one
            raw = stream.read(MAX_FILE_BYTES + 1)
        text = raw.decode("utf-8") if len(raw) <= MAX_FILE_BYTES else ""
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name, or not UTF-8
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ChampionshipError(_("cannot read the credentials file {path}: {reason}").format(
            path=p, reason=reason)) from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ChampionshipError(_("{path} can be read by other users of this computer: make it "
                           "yours alone with `chmod 600 {path}`").format(path=p))
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise ValueError
        table = data.get("table")
        director_key = data.get("director_key")
        creds = Credentials(int(data["event"]), None if table is None else int(table),
                            str(data["username"]), str(data["password"]), data.get("broker"),
                            data.get("ca"),
                            director_key=None if director_key is None else str(director_key))
    except (ValueError, KeyError, TypeError):
        raise ChampionshipError(_("{path} is not a credentials file from `uno-showdown event serve`"
                           ).format(path=p)) from None
    if creds.director_key is None:
        raise ChampionshipError(_(
            "{path} was written by an older uno-showdown: it lacks the director's key, without "
            "which this table cannot tell the director's messages from a forgery. Run "
            "`uno-showdown event serve` again on the director's computer (it writes every "
            "table's file anew) and bring this table its new file").format(path=p))
    try:
        DirectorVerifier(creds.director_key)
    except ValueError:
        raise ChampionshipError(_("{path} is not a credentials file from `uno-showdown event serve`"
                           ).format(path=p)) from None
    return creds


def for_tables(director: Credentials, tables: dict[int, Credentials]
               ) -> dict[int, Credentials]:
    """The tables' credentials as their files carry them: each with the public half of the
    director's signing key."""
    if director.signing_key is None:
        raise ValueError("the director's credentials hold no signing key (Ledger makes it)")
    key = public_key(director.signing_key)
    return {t: replace(c, director_key=key) for t, c in tables.items()}


def qr_code(path: Path, creds: Credentials) -> None:
    """The credentials as a QR code image (PNG), for a table with a camera or a phone."""
    import segno

    segno.make(creds.to_json(), error="l").save(str(path), scale=4, border=2)
    os.chmod(path, 0o600)


# -- the brokers' own files --


def amqtt_password_file(users: Iterable[Credentials]) -> str:
    """`user:hash` lines for amqtt's FileAuthPlugin (argon2, via pwdlib).

    Argon2 at its lightest (one pass over 1 MiB; about a millisecond), as the mosquitto file
    takes PBKDF2 at 101 rounds: a slow hash defends a password a person chose, and these
    secrets are 192 random bits (`access`), beyond any guessing. A slow hash would defend
    nothing and cost every connection a quarter of a second of the broker's one loop, so
    fifty tables reconnecting at once would wait seconds for their turn."""
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher

    hasher = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
    return "".join(f"{c.username}:{hasher.hash(c.secret)}\n" for c in users)


def mosquitto_password_line(username: str, secret: str, *, iterations: int = 101) -> str:
    """One line of a mosquitto password file, as `mosquitto_passwd` writes it ($7$:
    PBKDF2-SHA512 with a 12-byte salt)."""
    salt = os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", secret.encode(), salt, iterations, 64)
    return (f"{username}:$7${iterations}${base64.b64encode(salt).decode()}$"
            f"{base64.b64encode(digest).decode()}\n")


def acl(event_id: int, tables: Iterable[int]) -> tuple[dict[str, list[str]],
                                                        dict[str, list[str]]]:
    """(publish, subscribe) topic lists per user: each table writes only its own `up` and
    reads only its own `down` and `ack` and the standings; the director the reverse."""
    pub: dict[str, list[str]] = {}
    sub: dict[str, list[str]] = {}
    director = director_user(event_id)
    pub[director] = [wire.down_topic(event_id, "+"), wire.ack_topic(event_id, "+"),
                     wire.standings_topic(event_id)]
    sub[director] = [wire.up_topic(event_id, "+")]
    for t in tables:
        user = table_user(event_id, t)
        pub[user] = [wire.up_topic(event_id, t)]
        sub[user] = [wire.down_topic(event_id, t), wire.ack_topic(event_id, t),
                     wire.standings_topic(event_id)]
    return pub, sub


def mosquitto_acl(event_id: int, tables: Iterable[int]) -> str:
    pub, sub = acl(event_id, tables)
    out = []
    for user in pub:
        out.append(f"user {user}")
        out += [f"topic write {t}" for t in pub[user]]
        out += [f"topic read {t}" for t in sub[user]]
        out.append("")
    return "\n".join(out)
