"""How a deal shares out the Kings between the parties: exactly, and by simulation.

The printed deal puts the two Kings face up with neighbours, one in each party.
The AI reconstruction deals all 52 cards at random; then one party may hold
both Kings and the other none, and "the enemy King" of §7 loses its plain
meaning. How often that happens follows from counting, and from dealing.

>>> from schachett_rules.kernel.compiler import tables_for
>>> exact = kings_exact(tables_for("ai-reconstruction"))
>>> exact[(2, 0)], exact[(1, 1)], exact[(0, 2)]
(Fraction(25, 102), Fraction(26, 51), Fraction(25, 102))
>>> kings_exact(tables_for("original"))
{(1, 1): Fraction(1, 1)}
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..kernel.tables import Tables
from ..kernel.deal import deal_cards, seat_of
from ..simulation.stats import wilson
from ..kernel.streams import GameStream


def _free_slots(t: Tables, dealer: int) -> list[int]:
    """Cards still to be dealt at random into each party's hands, after the face-up ones."""
    slots = [0] * len(t.parties)
    given = [0] * t.n_seats
    for card, base, offset in t.given_cards:
        given[seat_of(t, base, offset, dealer)] += 1
    for seat in range(t.n_seats):
        slots[t.party_of[seat]] += t.hand_size - given[seat]
    return slots


def kings_exact(t: Tables, dealer: int = 0) -> dict[tuple[int, ...], Fraction]:
    """The exact chance of each split of the royal cards among the parties (two parties).

    Face-up royal cards go where the deal clause puts them; the others fall
    into the free places of the hands uniformly, so the number each party
    receives is hypergeometric.
    """
    if len(t.parties) != 2:
        raise ValueError("kings_exact counts for two parties")
    fixed = [0, 0]
    for card, base, offset in t.given_cards:
        if t.royal_cards >> card & 1:
            fixed[t.party_of[seat_of(t, base, offset, dealer)]] += 1
    loose = t.royal_cards.bit_count() - sum(fixed)
    s0, s1 = _free_slots(t, dealer)
    total = math.comb(s0 + s1, loose)
    out = {}
    for j in range(loose + 1):
        ways = math.comb(s0, j) * math.comb(s1, loose - j)
        if ways:
            out[(fixed[0] + j, fixed[1] + loose - j)] = Fraction(ways, total)
    return dict(sorted(out.items(), reverse=True))


def kings_simulated(t: Tables, deals: int, seed: int) -> dict[tuple[int, ...], int]:
    """How many of ``deals`` random deals gave each split of the royal cards."""
    counts: dict[tuple[int, ...], int] = {}
    for i in range(deals):
        hands = deal_cards(t, i % t.n_seats, GameStream(seed, i))
        split = [0] * len(t.parties)
        for seat, hand in enumerate(hands):
            split[t.party_of[seat]] += (hand & t.royal_cards).bit_count()
        key = tuple(split)
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), reverse=True))


def compare(t: Tables, deals: int, seed: int) -> tuple[list[dict], float]:
    """Exact against simulated, split by split, and the chi-square statistic of the agreement."""
    exact = kings_exact(t)
    seen = kings_simulated(t, deals, seed)
    rows, chi2 = [], 0.0
    for split in sorted(set(exact) | set(seen), reverse=True):
        p = exact.get(split, Fraction(0))
        k = seen.get(split, 0)
        lo, hi = wilson(k, deals)
        expected = float(p) * deals
        if expected > 0:
            chi2 += (k - expected) ** 2 / expected
        rows.append({"split": list(split), "exact": float(p), "exact_fraction": str(p), "simulated": k / deals,
                     "ci95": [lo, hi], "agrees": lo <= float(p) <= hi})
    return rows, chi2


# chi-square critical values at the 0.1% level, by degrees of freedom
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52}


def format_comparison(t: Tables, deals: int, seed: int) -> str:
    """The comparison as text, with a verdict."""
    rows, chi2 = compare(t, deals, seed)
    head = " : ".join(t.party_names)
    width = max(18, len(head) + 1)
    lines = [f"How the deal of {t.name} shares the Kings between the parties ({deals} deals, seed {seed})", "",
             f"{head:<{width}} {'exact':>22} {'simulated':>10}   95% interval"]
    for r in rows:
        split = " : ".join(map(str, r["split"]))
        lines.append(f"{split:<{width}} {r['exact_fraction']:>12} = {r['exact']:.4f} {r['simulated']:>10.4f}   "
                     f"[{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]{'' if r['agrees'] else '  (outside)'}")
    one_party = sum(r["exact"] for r in rows if 0 in r["split"])
    lines.append("")
    lines.append(f"One party holds every King (the other none) in {100 * one_party:.2f}% of deals.")
    dof = max(1, sum(1 for r in rows if r["exact"] > 0) - 1)
    crit = CHI2_999.get(dof)
    if crit is not None and len(rows) > 1:
        verdict = "agree" if chi2 < crit else "DISAGREE"
        lines.append(f"Chi-square {chi2:.2f} on {dof} degree{'s' if dof > 1 else ''} of freedom "
                     f"(0.1% critical value {crit}): counting and dealing {verdict}.")
    return "\n".join(lines)

