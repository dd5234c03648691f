"""The loopback championship of tests/championship/tables (a broker of each kind, a director,
tables), for the hostile tests of the broker and the wire."""

from tests.championship.tables.conftest import amqtt_cluster, cluster  # noqa: F401 (fixtures)
