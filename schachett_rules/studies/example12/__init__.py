"""Can the worked example of §12 happen? 190 against 68, reading by reading.

The question
------------
§12 of the manual ends with an example: the two W players "together (according
to §§ 7–9 and the counting cards in the tricks) have 190 Points, S₁ and S₂ 68".
The counting cards of a deck come to 216 points, so 258 − 216 = 42 points must
come from the King events of §7–§9 and, perhaps, from the suit cards promoted
in the last trick (§11). Whether and how that can happen depends on readings
the surviving pages leave open: what "remaining cards" are (lacuna
``remaining``), whether promoted I–III score as officers (``promoted-points``),
and which King is the "1st King" (``king-order``).

The method
----------
:func:`scenarios` works from the compiled :class:`~schachett_rules.kernel.tables.Tables` only: the
card points, the event tables by trick (which already hold the reading of
*remaining*), the King-order flags, the last-trick points and the parties. Every
King meets exactly one fate in the trick in which it is played — it wins the
trick (``self``), a partner of its owner wins it (``partner``) or an opponent
does (``opponent``) — so a game is described, as far as points go, by each
King's trick and fate, the order of Kings that share a trick, the promoted
cards in the last trick that score extra points there, and which party is W.
The enumeration tries all of these, keeps those whose events and promotions
make up the difference exactly and leave each party a card-point share between
0 and everything there is, and then applies structural facts every legal game
obeys, each derived from the tables and named when it rules a candidate out:

* ``one-winner``: a trick has one winner; of two Kings in one trick at most one
  can win it, the first played holds against an equal King, and the other's fate
  follows from who wins (of two Kings of different parties in one trick, one is
  always taken by an opponent);
* ``last-trick-stalemate``: a King can win the last trick only if no card in it
  takes the King and is out of the King's reach (counting the capture chains in
  the last-trick table) — so a promoted card that counts as an officer above the
  King rules out a stalemate in the trick it must be in;
* ``last-trick-full``: the Kings and the promoted cards of the last trick must
  fit into one trick;
* ``last-trick-points``: when the last trick's winner is fixed by a King's fate
  there, that party's card points include the promoted cards.

The trick of the 2nd King is never earlier than the 1st one's: the Kings are
ordered by trick (and by play order within a trick) before first and later are
counted — by :func:`~schachett_rules.kernel.scoring.king_events` itself.

:func:`find_witness` then builds a real game for a surviving scenario. It plays
trick by trick *without a deal*: a card is taken from the cards not yet played,
and when a follower plays a card from a lower follow tier, he is recorded as
void in the higher tiers, so that he may never play such a card later. The hand
of each seat is, at the end, the cards it played; the King events' tricks and
fates, the promoted cards (kept for the last trick) and the cards that would
score extra in the last trick (played before it) are enforced card by card, and
each party's card points may never pass its target. A depth-first search with
restarts steers points to the party that lags behind its share. A game found is
replayed through :class:`~schachett_rules.kernel.state.State` and returned as a record.

The finding
-----------
* ``remaining = all-hands`` (52 cards in trick 1): impossible by arithmetic. Every
  multiple is now a multiple of 8, the cheapest two events are 25 + 8 + 8 = 41
  (both Kings in the last trick; under ``both-first`` those two would both be
  first, and the cheapest pair is 25 + 16 + 8 = 49), and no promoted card is
  worth the missing 1.
* ``king-order = per-event``: impossible by structure. Two different kinds of
  event both earn their bonus (at least 25 + 2 + 50 + 4 = 81), so both Kings
  must be stalemated, in different tricks (a trick has one winner); the sums
  that fit put the second stalemate in the last trick, next to the promoted
  card that has to be there — and that card, counting as an officer, takes the
  King.
* ``each-hand`` with ``by-fate`` or ``both-first`` (both readings of promoted
  points): possible, and in exactly one shape. Only a first stalemate is cheap
  enough; 25 + 2r is odd and every later event even, so the events are odd and
  the promoted extra must be odd: an F IV (+9) leaves 33, an F II under
  ``as-officers`` (+11) leaves 31, which needs a stalemate in the last trick
  beside that II, or a stalemate and a selfmate in one trick — both ruled out.
  What remains: events 33 = stalemate of the 1st King in trick 12
  (25 + 2 × 2 = 29, to its own party) + selfmate of the 2nd King in trick 13
  (4 × 1 = 4, to the opponents of the selfmated King, i.e. the same party).
  216 + 9 + 29 + 4 = 258. W may be the party that scores both events
  (33 + 157 card points) or the other one (190 card points against 33 + 35);
  the search finds real games for both.

The other lacunae of the printed ruleset (``deal``, ``castling``,
``suit-order``, ``pawn-takes-suit``, ``ties``, ``king-follow``) do not change
these verdicts: the enumeration depends only on the points, event tables,
King order and parties, and the search finds games under each of their
options too (``report`` accepts them as extra readings). A random deal adds
one more way to split the same shape (both Kings in one party: 29 and 4 to
different parties).

The modules
-----------
:mod:`.model` (the readings, constraints, a King's fate, a scenario),
:mod:`.scenarios` (the arithmetic), :mod:`.structure` (the structural facts),
:mod:`.witness` (the search for a game) and :mod:`.report` (the verdicts).

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> viable = [s for s in scenarios(t) if s.excluded is None]
>>> sorted({s.shape() for s in viable})
['stalemate t12 first 29 + selfmate t13 later 4 + IV promoted 9']
>>> record = find_witness(t, viable[0], budget=20_000)
>>> from schachett_rules.engine.replay import replay
>>> sorted(replay(record).result.totals)
[68, 190]
"""

from __future__ import annotations

from .model import (CONSTRAINTS, DEFAULT_BUDGET, DEFAULT_TARGETS, FATES, READINGS, RESTART_NODES, KingFate, Scenario,
                    card_total)
from .report import Report, Row, Witness, judge, report
from .scenarios import arithmetic_obstacle, scenarios
from .structure import structural_problem
from .witness import find_witness, witness_problem

__all__ = ["DEFAULT_TARGETS", "DEFAULT_BUDGET", "RESTART_NODES", "READINGS", "FATES", "CONSTRAINTS", "KingFate",
           "Scenario", "Witness", "Row", "Report", "scenarios", "arithmetic_obstacle", "structural_problem", "card_total",
           "find_witness", "witness_problem", "judge", "report"]
