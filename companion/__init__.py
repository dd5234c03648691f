"""The companion: the table's score keeper.

* pure: the cards (`deck`), the scoring methods (`scoring`), the game model and the table's
  rules and helpers (`table`);
* `store`: the games file (SQLite), where nothing entered is lost;
* `app`: the score keeper's controller, which every screen and command goes through;
* `touch` and `screen`: the touch toolkit and the score keeper's screen on it.
"""
