"""The organiser's machinery: the operations on an event (`operations`), the director's side
of the sync (`director`), a table's agent (`table_agent`), `event serve`, and the results
sheet."""
