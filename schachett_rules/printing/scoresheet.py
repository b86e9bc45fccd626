"""The score sheet: one cycle of a ruleset's session, game by game, to fill in at the table.

The rounds, the games in each and the seat changes between rounds all come from the session
clause (§13) through :func:`~schachett_rules.engine.session.seatings`: each round says who sits
where and who partners whom, then has a line per game for the dealer, each partnership's points
and each player's money, and a line for the round's sums. The players are called A, B, C and D
as the manual calls them; their names go at the top.
"""

from __future__ import annotations

import html

import pymupdf

from ..engine.session import default_players, seatings
from ..errors import UsageError
from ..kernel.tables import Tables
from ..rules.loader import Resolved
from .rulesheet import flow_pdf

CSS = """
body { font-family: sans-serif; font-size: 9pt; }
h1 { font-size: 15pt; margin: 0 0 3pt 0; }
h2 { font-size: 10.5pt; margin: 5pt 0 1pt 0; color: #1f4d38; }
p { margin: 1pt 0 3pt 0; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 0.6pt solid #777; padding: 3.2pt 3pt; font-size: 8.5pt; text-align: center; }
th { background-color: #e8edf3; }
td.sum { background-color: #f3f0e6; font-weight: bold; }
"""


def scoresheet_chunks(r: Resolved, t: Tables) -> list[tuple[str, float]]:
    """The sheet as HTML pieces: the heading, then one piece per round (two rounds' worth kept whole)."""
    session = r.clause("session")
    if session is None:
        raise UsageError(f"ruleset {r.name} has no session clause: it says nothing of rounds and cycles to score")
    players = default_players(session, t)
    if session.reign is not None or len(players) != 4 or t.n_seats != 4:
        raise UsageError(f"ruleset {r.name}: the score sheet is laid out for four players at one table")
    games = session.games_per_round
    unit = t.money_unit
    out = [(f"<h1>Schachett score sheet: one cycle of {games * session.rounds_per_cycle} games</h1>"
            f"<p>Ruleset <i>{html.escape(r.name)}</i>. {session.rounds_per_cycle} rounds of {games} games (§13); "
            "before each new round two players change places as printed under its heading. Partners sit opposite. "
            f"The deal passes to the left after every game. Write each partnership's points (cards and Kings "
            f"together) and each player's money in {html.escape(unit)} (+ won, − paid).</p>"
            "<p>" + " &nbsp; ".join(f"<b>{p}</b> ______________" for p in players) + "</p>", 0.0)]
    row_h = 18.0                     # points a row takes, with room to spare: a round is never split
    for rnd, seating in enumerate(seatings(session, players), start=1):
        sits = ", ".join(f"{t.seat_name(s)} {p}" for s, p in enumerate(seating))
        parties = [" + ".join(seating[s] for s in party) for party in t.parties]
        head = ('<tr><th width="7%">game</th><th width="9%">dealer</th>'
                + "".join(f'<th width="18%">{p} points</th>' for p in parties)
                + "".join(f'<th width="12%">{p} ({html.escape(unit)})</th>' for p in players) + "</tr>")
        rows = []
        for g in range(1, games + 1):
            number = (rnd - 1) * games + g
            rows.append(f"<tr><td>{number}</td><td></td>" + "<td></td>" * (len(parties) + len(players)) + "</tr>")
        rows.append('<tr><td class="sum" colspan="2">round sum</td>' + '<td class="sum"></td>' * len(parties)
                    + '<td class="sum"></td>' * len(players) + "</tr>")
        rows.append('<tr><td class="sum" colspan="2">so far</td>' + "<td></td>" * len(parties)
                    + '<td class="sum"></td>' * len(players) + "</tr>")
        piece = (f"<h2>Round {rnd}: {sits} &nbsp;·&nbsp; {parties[0]} against {parties[1]}</h2>"
                 f"<table>{head}{''.join(rows)}</table>")
        out.append((piece, 34 + row_h * (games + 3)))
    return out


def scoresheet_pdf(r: Resolved, t: Tables, paper: str) -> bytes:
    """The score sheet for one cycle as PDF bytes, on ``paper`` (a4 or letter)."""
    chunks = scoresheet_chunks(r, t)
    footer = f"Schachett score sheet, ruleset {r.name} · page {{page}} of {{pages}}"
    return flow_pdf(chunks, pymupdf.Archive(), paper, CSS, footer,
                    {"title": f"Schachett score sheet ({r.name})", "creator": "schachett scoresheet",
                     "subject": f"one cycle of the session clause, {paper} paper"})


