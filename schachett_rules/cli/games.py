"""The commands of single games: ``sample`` deals and plays one, ``replay`` plays a record back, ``play``
seats you at the table against bots."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import click

from ..kernel.state import State
from ..engine.replay import format_report, read_record, record_of, replay as run
from ..engine.session import (SessionGame, SessionRecord, format_ledger, is_session_file, ledger, read_session,
                              reached, session_winners, target_of)
from ..errors import RecordError, UsageError
from ..kernel.compiler import compile_ruleset
from ..players import make_bot
from ..kernel.streams import GameStream
from ..rules.loader import load
from ..rules.rulebook import render_ruleset
from ..simulation.simulate import Spec
from . import output
from .bots import bot_names
from .common import force_flag, forced, option_flag, options_of
from .terminal import Abandoned, Table, players_of, render_end, render_start, terminal_writer


@click.command()
@click.argument("ruleset")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--dealer", type=click.IntRange(min=0), default=None, help="The dealer's seat (default: seed mod seats).")
@click.option("--out", "out", type=click.Path(path_type=Path), help="Write the record here.")
@force_flag()
@option_flag
def sample(ruleset: str, seed: int, dealer: int | None, out: Path | None, option_items: tuple[str, ...]) -> None:
    """Play one random legal game and print (or write) its record."""
    opts = options_of(ruleset, option_items)
    if out:
        output.check_file(out, "--out", forced())
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    d = seed % t.n_seats if dealer is None else dealer
    if d >= t.n_seats:
        raise UsageError(f"--dealer {d}: ruleset {r.name} has seats 0 to {t.n_seats - 1}")
    stream = GameStream(seed, 0)
    game = State.deal(t, d, stream)
    game.play_randomly(stream)
    text = record_of(game, r.name, opts).model_dump_json(indent=1)
    if out:
        output.write_file(out, text + "\n", "--out")
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(text)


def _replay_session(path: Path, as_json: bool) -> None:
    session = read_session(path)
    t = compile_ruleset(load(session.ruleset, session.options, chosen_by="the session's options", near=path.parent))
    try:
        lines = ledger(t, session, near=path.parent)
    except RecordError as err:
        raise RecordError(f"{path}: {err.message}") from None
    if as_json:
        click.echo(json.dumps({"ruleset": session.ruleset, "games": len(session.games),
                               "ledger": [x.model_dump() for x in lines]}, indent=2))
    else:
        click.echo(f"{len(session.games)} games of {session.ruleset}, replayed\n")
        click.echo(format_ledger(lines, t.money_unit, game_points=target_of(t) is not None))


@click.command()
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the tricks, events, points and settlement as JSON.")
@option_flag
def replay(record: Path, as_json: bool, option_items: tuple[str, ...]) -> None:
    """Check, play and score a game record (JSON), or every game of a session record."""
    if is_session_file(record):
        _replay_session(record, as_json)
        return
    rec = read_record(record)
    # Checked here, as the other commands do, so that a bad --option is a usage error and not
    # reported as the record's own options.
    opts = options_of(rec.ruleset, option_items)
    report = run(rec, str(record), opts)
    click.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False) if as_json else format_report(report))


@click.command()
@click.argument("ruleset")
@click.option("--seat", type=int, default=None,
              help="Your seat (default 0; in a solitaire the first seat no automaton plays).")
@click.option("--seed", "-s", type=int, default=None, help="The deal's seed (default: a random one, printed).")
@click.option("--bots", "-b", default="heuristic", show_default=True,
              help="random, heuristic, mc, dd, ismcts (a strength after a colon: mc:48) for the other seats: one for all, "
                   "one per party, or one per seat.")
@click.option("--dealer", type=click.IntRange(min=0), default=None, help="The dealer's seat (default: seed mod seats).")
@click.option("--out", "out", type=click.Path(path_type=Path),
              help="Where to save the game's record (default: schachett-game-SEED.json here).")
@click.option("--to-target", "to_target", is_flag=True,
              help="Play game after game until a player reaches the ruleset's target of game points (Hearts to "
                   "100, Euchre to 10), with the ledger after each game; saved as a session record.")
@force_flag()
@option_flag
def play(ruleset: str, seat: int | None, seed: int | None, bots: str, dealer: int | None, out: Path | None,
         to_target: bool, option_items: tuple[str, ...]) -> None:
    """Play a game yourself at the terminal against bots (plain stdin and stdout; a pipe works too).

    On your turn type a card (w7, sIV) or its number in your hand; before play (passing, bids, a call, a
    discard) an option by its word or number; ? lists the commands. The game is saved as a record that
    `schachett replay` plays back.
    """
    opts = options_of(ruleset, option_items)
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    free = [s for s in range(t.n_seats) if t.controller(s) == s and not (t.automaton and s in t.automaton[0])]
    seat = free[0] if seat is None else seat
    if seat not in free:
        why = ("does not exist" if not 0 <= seat < t.n_seats else
               f"is a dummy, played by seat {t.controller(seat)}" if t.controller(seat) != seat else
               "is played by the automaton")
        raise UsageError(f"--seat {seat}: in ruleset {r.name} that seat {why}; you may take seat "
                         f"{', '.join(map(str, free))}")
    try:
        names = Spec(ruleset=r.name, bots=bot_names(bots), games=1).seat_bots(t)
    except ValueError as err:
        raise UsageError(f"--bots {bots}: {err}") from None
    seed = random.randrange(10 ** 6) if seed is None else seed
    d = seed % t.n_seats if dealer is None else dealer
    if d >= t.n_seats:
        raise UsageError(f"--dealer {d}: ruleset {r.name} has seats 0 to {t.n_seats - 1}")
    if to_target and target_of(t) is None:
        raise UsageError(f"--to-target: ruleset {r.name} plays no session to a target (its game points clause "
                         f"names none)")
    if to_target and dealer is not None:
        raise UsageError("--dealer: a session passes the deal as its dealer clause says; leave --dealer out")
    out = output.check_file(out or Path(f"schachett-{'session' if to_target else 'game'}-{seed}.json"), "--out",
                            forced())
    mine = players_of(t, seat)
    write = terminal_writer(sys.stdout.isatty())
    bots_at = {s: make_bot(names[s], t) for s in range(t.n_seats) if t.controller(s) == s and s not in mine}
    if to_target:
        _play_to_target(r, t, opts, seed, mine, names, bots_at, out, write)
        return
    stream = GameStream(seed, 0)
    game = State.deal(t, d, stream)
    write(render_start(t, r.title or r.name, seed, d, mine, dict(enumerate(names))))
    try:
        result = _table(r, game, mine, bots_at, stream, write).run()
    except (Abandoned, KeyboardInterrupt) as err:
        why = _stopped(err)
        if len(game.history()) > 1:     # something was played: keep it, as a record that replays up to here
            output.write_file(out, record_of(game, r.name, opts, stopped=why).model_dump_json(indent=1) + "\n",
                              "--out")
            why += f"; the game so far is saved in {out} (schachett replay {out} shows it up to there)"
        else:
            why += "; nothing had been played, so nothing was saved"
        _leave(err, why)
    write(render_end(game.t, result, mine, t))
    output.write_file(out, record_of(game, r.name, opts).model_dump_json(indent=1) + "\n", "--out")
    write(f"The game is saved in {out} (schachett replay {out} plays it back).")


def _table(r, game: State, mine: set[int], bots_at: dict, rng, write) -> Table:
    return Table(game, mine, bots_at, rng, lambda: sys.stdin.readline(), write, echo=not sys.stdin.isatty(),
                 rules=render_ruleset(r))


def _stopped(err: BaseException) -> str:
    return err.message if isinstance(err, Abandoned) else "interrupted at the keyboard"


def _leave(err: BaseException, why: str) -> None:
    click.echo(("\n" if isinstance(err, KeyboardInterrupt) else "") + why, err=True)
    sys.exit(1 if isinstance(err, Abandoned) else 130)


def _play_to_target(r, t, opts: dict[str, str], seed: int, mine: set[int], names: list[str], bots_at: dict,
                    out: Path, write) -> None:
    """Games at the terminal until a player reaches the target of game points, as ``schachett session`` plays
    them (the deal passing as the dealer clause says, game ``n`` from stream ``n``); the ledger after each."""
    target, lowest = target_of(t)
    players = [t.seat_name(s) for s in range(t.n_seats)]
    games: list[SessionGame] = []
    number = 0
    while True:
        stream = GameStream(seed, number)
        game = State.deal(t, t.dealer_of(number), stream, game=number)
        head = render_start(t, r.title or r.name, seed, game.dealer, mine, dict(enumerate(names)))
        write(f"\nGame {number + 1}, played until a player has {target} game points.\n{head}")
        try:
            result = _table(r, game, mine, bots_at, stream, write).run()
        except (Abandoned, KeyboardInterrupt) as err:
            why = _stopped(err)
            if games:
                why += (f"; the {len(games)} game{'s' if len(games) > 1 else ''} finished so far are saved in {out} "
                        f"(schachett replay {out} shows the ledger)")
            _leave(err, why)
        write(render_end(game.t, result, mine, t))
        games.append(SessionGame(number=number + 1, round=1, seating=players, record=record_of(game, r.name, opts)))
        session = SessionRecord(ruleset=r.name, options=opts, players=players, games=games)
        output.write_file(out, session.model_dump_json(indent=1) + "\n", "--out")
        lines = ledger(t, session)
        write(f"\nLedger after {len(games)} game{'s' if len(games) > 1 else ''} (target {target} game points):")
        write(format_ledger(lines, t.money_unit, game_points=True))
        if reached(t, lines):
            won = session_winners(t, lines)
            write(f"\n{' and '.join(won)} win{'s' if len(won) == 1 else ''} the session"
                  + (" with the fewest game points." if lowest else ".")
                  + f" The session is saved in {out} (schachett replay {out} replays every game).")
            return
        number += 1
