"""TLS, the documented option: the broker (amqtt or mosquitto) speaks TLS with a self-signed
certificate made here; the tables trust it from their credentials file, and a client that
does not trust it gets nowhere."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.championship.tables.conftest import BROKERS, Cluster, build


def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "broker.crt", folder / "broker.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return cert_path, key_path


@pytest.fixture(params=BROKERS)
def tls_cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cluster]:
    c = build(tmp_path, request.param, tls=self_signed(tmp_path))
    try:
        yield c
    finally:
        c.close()


def test_tables_and_director_over_tls(tls_cluster: Cluster) -> None:
    c = tls_cluster
    assert c.address.tls and c.table_creds[1].ca_pem
    c.start_director()
    c.start_table(1)
    c.seated(1)
    c.deal(1)
    c.wait_converged()


def test_a_client_that_does_not_trust_the_certificate_gets_nowhere(tls_cluster: Cluster) -> None:
    c = tls_cluster
    creds = c.table_creds[1]
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                         client_id=creds.client_id + "-untrusting",
                         protocol=mqtt.MQTTv311)
    client.username_pw_set(creds.username, creds.secret)
    client.tls_set_context(ssl.create_default_context())  # the system's CAs only
    with pytest.raises(ssl.SSLError):
        client.connect("127.0.0.1", c.port)
    plain = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=creds.client_id + "-plain",
                        protocol=mqtt.MQTTv311)
    plain.username_pw_set(creds.username, creds.secret)
    try:  # without TLS the broker never says yes
        plain.connect("127.0.0.1", c.port)
        for _ in range(3):
            plain.loop(timeout=1.0)
    except OSError:
        pass
    assert not plain.is_connected()
