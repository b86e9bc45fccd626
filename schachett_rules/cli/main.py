"""The ``schachett`` command line.

Exit codes: 0 when all is well, 1 for bad input (a rule file, a record, a
manual file) or a file that could not be written, 2 for bad usage (an unknown
command, option or argument, or an output path that cannot be used). Bad
input is reported as one paragraph naming the file, line and column or the
trick and seat, and the clause; never as a traceback. Every file a command
writes goes through :mod:`.output`.

Each command lives in a module of this package by what it works on, and that module is imported
only when the command runs or its own help is asked: ``schachett --help`` and ``schachett check``
load neither numpy nor matplotlib nor mkdocs.
"""

from __future__ import annotations

import importlib
import sys

import click

from ..errors import SchachettError, UsageError

# Every command: the module of schachett_rules.cli that defines it (under the command's name), and the
# first paragraph of its help, which `schachett --help` lists without importing the module.
COMMANDS = {
    "check": ("rulesets", "Parse, check and compile a rule file, and every reading of its lacunae."),
    "show": ("rulesets", "Show a ruleset as readable prose, grouped by manual section, or as data."),
    "diff": ("rulesets", "Line up two rulesets clause by clause: same, changed, only in one."),
    "schema": ("rulesets", "Print the JSON Schema of the rule files' IR."),
    "manual": ("rulesets", "List the manual's sections, or print one (e.g. `schachett manual §3.2`)."),
    "sample": ("games", "Play one random legal game and print (or write) its record."),
    "replay": ("games", "Check, play and score a game record (JSON), or every game of a session record."),
    "play": ("games", "Play a game yourself at the terminal against bots (plain stdin and stdout; a pipe works too)."),
    "simulate": ("runs", "Play many games with bots and report results, King events, advantages and the course of "
                         "play."),
    "sweep": ("runs", "Play every reading (and combination) of some lacunae on the same deals and rank their "
                      "effects."),
    "compare": ("runs", "The same measurements for several rulesets, side by side."),
    "session": ("runs", "Play whole cycles of games with random players and keep each player's ledger."),
    "bench": ("runs", "Measure play-out speed and the time to parse, check and compile a ruleset."),
    "kings": ("studies", "How often the deal gives one party both Kings: exactly, and by dealing."),
    "example12": ("studies", "Can the totals of §12's worked example arise in a game at all? For each "
                             "combination of readings."),
    "solitaire": ("studies", "The solitaire: how many deals can be won, and deals of a chosen difficulty."),
    "solve": ("analysis", "The best result each party can force with every hand open, and a line that achieves it."),
    "duel": ("analysis", "Two bots on the same deals in both seatings: A's share of the decided games, with its 95% "
                         "interval."),
    "ladder": ("analysis", "Every pair of some bots on the same deals in both seatings: each pair's share and a "
                           "rating per bot."),
    "site": ("site", "Build or serve the annotated rulebook site (MkDocs)."),
    "serve": ("serve", "Start the game server: tables in the browser for people and bots, any ruleset."),
    "deck": ("deck", "The deck of a ruleset, printed to cut out and play with."),
    "rules": ("sheets", "The rules of Schachett, to print."),
    "scoresheet": ("sheets", "A score sheet for one cycle of the session clause: its rounds and games, with the "
                             "seat changes."),
}

# click 8.4 and later suggest close command names; before, an unknown name is a plain usage error.
_NoSuchCommand = getattr(click.exceptions, "NoSuchCommand", ())


def _fail(err: SchachettError) -> None:
    click.echo(f"error: {err.message}", err=True)
    sys.exit(2 if isinstance(err, UsageError) else 1)


class _Commands(click.Group):
    """The top command: loads a command's module when it is needed, and turns errors into exit codes."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            module = importlib.import_module(f"{__package__}.{COMMANDS[name][0]}")
            self.add_command(getattr(module, name), name)
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listed by click itself from stand-ins that carry only the help's first paragraph, so that the
        # list looks as it would with every module loaded.
        stand_ins = {name: self.commands.get(name) or click.Command(name, help=COMMANDS[name][1])
                     for name in self.list_commands(ctx)}
        click.Group(commands=stand_ins).format_commands(ctx, formatter)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except _NoSuchCommand as err:   # click suggests from the commands loaded so far: suggest from them all
            raise _NoSuchCommand(err.command_name, possibilities=self.list_commands(ctx), ctx=ctx) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SchachettError as err:
            _fail(err)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="schachett_rules")
def main() -> None:
    """Schachett (c. 1888): rule files, an engine that plays them, and tools around both."""


if __name__ == "__main__":  # pragma: no cover
    main()
