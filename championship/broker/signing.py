"""The director's signature on what it tells the tables (Ed25519, from `cryptography`).

A table's secret (`access`) is its broker password and the HMAC key of what it sends, and
its credentials file carries it to the table: whoever holds table N's file could sign with
it anything the director says to table N (a seating with another clock, a word voiding a
deal, a stop, an acknowledgement that drops its outbox). So the director signs its own
messages with a key only its games file holds, and each table's file carries the public
half, which lets the table check a signature and make none. What the tables send stays
under their HMAC: the director holds every table's secret anyway.

The key is 32 random bytes (`access.new_signing_key`), kept in the director's ledger and
written nowhere else; its public half is worked out here, the one place the library is
imported.
"""

from __future__ import annotations

import base64
import binascii

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _raw(text: str) -> bytes:
    """The bytes of unpadded URL-safe base64; ValueError if it is not that."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not base64") from exc


class DirectorSigner:
    """Signs with the director's key (its 32 bytes as `access.new_signing_key` wrote them)."""

    def __init__(self, key: str) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(_raw(key))

    @property
    def public(self) -> str:
        """The public half, as a table's credentials file carries it."""
        return _text(self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

    def sign(self, data: bytes) -> str:
        return _text(self._key.sign(data))


class DirectorVerifier:
    """Checks the director's signature with the public half from a credentials file."""

    def __init__(self, public: str) -> None:
        self._key = Ed25519PublicKey.from_public_bytes(_raw(public))

    def verify(self, data: bytes, signature: str) -> bool:
        try:
            self._key.verify(_raw(signature), data)
        except (InvalidSignature, ValueError):
            return False
        return True


def public_key(key: str) -> str:
    """The public half of the director's key."""
    return DirectorSigner(key).public
