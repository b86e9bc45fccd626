"""``python -m schachett_rules``: the ``schachett`` command, for a machine where the entry point is not on the path."""

from .cli.main import main

main(prog_name="schachett")
