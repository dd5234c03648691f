"""`uno-showdown`: one entry point (`cli`), one module per command, each imported only when it
runs; the options the commands share."""
