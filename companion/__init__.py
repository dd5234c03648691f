"""The table's score keeper: editions, scoring methods, game model, SQLite store, screen."""
