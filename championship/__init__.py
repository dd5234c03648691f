"""The organiser's side of a bar championship (the regulation in seed 000).

* `core`: pure: settings, the seat draw, the stage clocks, standings across tables, the
  final, the awards and the wire messages between director and tables;
* `store`: the event's part of the games file, the standings' sums, a table's outbox and the
  director's ledger;
* `broker`: the MQTT broker (paho-mqtt, the embedded amqtt) and its credentials;
* `desk`: the operations on an event, the director's and the tables' side of the sync,
  `event serve`, the results sheet and the table cards;
* `screen` and `web`: the director's touch screen and the players' live page.
"""
