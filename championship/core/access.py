"""Who may talk to the broker, as values: one user per table and one for the director, each
with a random secret (the broker password and the key of its messages' HMAC, see
`messages`). The store keeps them (`championship.store.ledger`), the broker's adapter writes
them to files and to the broker's own password files (`championship.broker.credentials`)."""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True)
class Credentials:
    event: int
    table: int | None  # None: the director
    username: str
    secret: str
    broker: str | None = None  # the broker's address, as the director knows it
    ca_pem: str | None = None  # the certificate to trust, when the broker speaks TLS

    @property
    def client_id(self) -> str:
        return client_id(self.username, self.secret)

    def to_json(self) -> str:
        data = {"kind": KIND, "event": self.event, "table": self.table,
                "username": self.username, "password": self.secret, "broker": self.broker}
        if self.ca_pem:
            data["ca"] = self.ca_pem
        return json.dumps(data, indent=1) + "\n"
