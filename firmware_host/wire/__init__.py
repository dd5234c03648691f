"""The host's side of the Pico's wire, pure: the codec (the same module runs on the board as
`protocol`) and the host's copy of the board's wrapping clock."""
