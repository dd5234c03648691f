"""The pure cores: given their inputs, the same answer every time. No I/O, no clock, no
thread: the duel engine and the log's format (`duel`), the Pico's wire codec (`board`), the
cards (`deck`), scoring (`scoring`), the table's rules and game model (`table`), and the
championship's draw, clock, standings and awards (`championship`)."""
