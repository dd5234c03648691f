"""The MQTT broker: one authenticated connection (paho-mqtt), the embedded broker (amqtt), and
the credentials, password files and ACLs of the director and each table."""
