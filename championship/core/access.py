"""Who may talk to the broker, as values: one user per table and one for the director, each
with a random secret (the broker password and the key of its messages' HMAC, see
`messages`), and the director's signing key, whose public half each table's file carries
(`championship.broker.signing`: a table's secret must not be enough to speak as the
director). The store keeps them (`championship.store.ledger`), the broker's adapter writes
them to files and to the broker's own password files (`championship.broker.credentials`)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

DIRECTOR = "director"
KIND = "uno-showdown broker credentials"


def table_user(event_id: int, table: int) -> str:
    return f"e{event_id}-table-{table}"


def director_user(event_id: int) -> str:
    return f"e{event_id}-{DIRECTOR}"


def client_id(username: str, secret: str) -> str:
    """The MQTT client id of these credentials: the user name and a tag only the secret
    makes. A broker hands a persistent session to whoever connects with its id, so an id
    others can guess is a session others can take; this one is unguessable without the
    secret, the same at every start (the broker keeps the session across a restart), and
    the embedded broker refuses it from any other user."""
    tag = hmac.new(secret.encode(), b"uno-showdown client id", hashlib.sha256).hexdigest()
    return f"{username}-{tag[:24]}"


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def new_signing_key() -> str:
    """The director's Ed25519 key: 32 random bytes (any 32 bytes are one), unpadded
    URL-safe base64."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode("ascii").rstrip("=")


@dataclass(frozen=True, slots=True)
class Credentials:
    event: int
    table: int | None  # None: the director
    username: str
    secret: str
    broker: str | None = None  # the broker's address, as the director knows it
    ca_pem: str | None = None  # the certificate to trust, when the broker speaks TLS
    #: The director's: its signing key (`new_signing_key`), never written to a table's file.
    signing_key: str | None = None
    #: A table's: the public half of the director's key, to check what the director says.
    director_key: str | None = None

    @property
    def client_id(self) -> str:
        return client_id(self.username, self.secret)

    def to_json(self) -> str:
        data = {"kind": KIND, "event": self.event, "table": self.table,
                "username": self.username, "password": self.secret, "broker": self.broker}
        if self.ca_pem:
            data["ca"] = self.ca_pem
        if self.director_key:
            data["director_key"] = self.director_key
        return json.dumps(data, indent=1) + "\n"
