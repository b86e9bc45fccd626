"""§12's worked example (190 against 68): which readings make it reachable, and real games that reach it."""

from __future__ import annotations

import collections
import json

import pytest

from schachett_rules.studies import example12 as ex
from schachett_rules.studies.example12.structure import _blocks, _trick_problem
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.errors import IllegalAction
from schachett_rules.rules.loader import load
from schachett_rules.engine.replay import GameRecord, replay

DEFAULT = (("king-order", "by-fate"), ("promoted-points", "knight-only"), ("remaining", "each-hand"))


def tables(**readings):
    opts = dict(DEFAULT)
    opts.update({k.replace("_", "-"): v for k, v in readings.items()})
    return tables_for("original", tuple(sorted(opts.items())))


# --- the arithmetic, by hand ---------------------------------------------------------------------

# §7–§9 under `each-hand` (r = cards in each hand before the trick: 13 in trick 1, 1 in trick 13):
#   first King:  checkmate 100 + 6r, selfmate 50 + 4r, stalemate 25 + 2r
#   later King:  checkmate 6r,       selfmate 4r,      stalemate 2r     (r no larger than the first's)
# Every King meets exactly one fate, so there are always two events. 258 − 216 = 42 must come from
# them and from the promoted F IV (knight-only: 9 each, so 0, 9 or 18). A first checkmate (≥ 106) or
# selfmate (≥ 54) is too much, so the first King is stalemated: 25 + 2r is odd, and every later
# event is even, so the two events always sum to an odd number — never 42 (and never 24 = 42 − 18).
# Only 33 = 42 − 9 is left: 2r + k·r' = 8 with k ∈ {2, 4, 6}, r' ≤ r:
#   (a) stalemate r=3 (trick 11) + stalemate r'=1 (trick 13)   → the IV in the last trick takes the King
#   (b) stalemate r=2 (trick 12) + stalemate r'=2 (trick 12)   → one trick, one winner
#   (c) stalemate r=2 (trick 12) + selfmate  r'=1 (trick 13)   → possible
#   (d) stalemate r=1 (trick 13) + checkmate r'=1 (trick 13)   → the IV in the last trick takes the King
# each with either King first, either IV, and W either party: 4 × 2 × 2 × 2 = 32 candidates.

def hand_event_sums(all_first_in_one_trick: bool = False) -> set[int]:
    first = {"checkmate": lambda r: 100 + 6 * r, "selfmate": lambda r: 50 + 4 * r, "stalemate": lambda r: 25 + 2 * r}
    later = {"checkmate": lambda r: 6 * r, "selfmate": lambda r: 4 * r, "stalemate": lambda r: 2 * r}
    sums = set()
    for r1 in range(1, 14):
        for r2 in range(1, r1 + 1):
            for e1 in first:
                for e2 in first:
                    second = first[e2] if (all_first_in_one_trick and r1 == r2) else later[e2]
                    sums.add(first[e1](r1) + second(r2))
    return sums


def test_each_hand_knight_only_events_never_make_42_so_190_68_needs_a_promoted_iv():
    sums = hand_event_sums()
    assert 42 not in sums and 24 not in sums and 33 in sums
    assert all(s % 2 == 1 for s in sums if s <= 42)
    cands = ex.scenarios(tables())
    assert cands and {s.promoted_points for s in cands} == {9}
    assert all(len(s.promoted) == 1 and s.promoted[0] in ("wIV", "sIV") for s in cands)
    assert {sum(s.event_points) for s in cands} == {33}


@pytest.mark.slow
@pytest.mark.parametrize("king_order,same_trick_first", [("by-fate", False), ("both-first", True)])
def test_enumeration_matches_the_hand_model_for_many_totals(king_order, same_trick_first):
    # For totals T (against 68) the enumeration's (event sum, promoted extra) pairs are exactly those of
    # the hand model with the IV extras 0, 9, 18 — structure aside (excluded candidates are listed too).
    t = tables(king_order=king_order)
    sums = hand_event_sums(same_trick_first)
    for total in range(216 + 25, 216 + 70):
        need = total - 216
        want = {(e, p) for e in sums for p in (0, 9, 18) if e + p == need}
        got = {(sum(s.event_points), s.promoted_points) for s in ex.scenarios(t, (total - 68, 68))}
        assert got == want, total


def test_the_32_candidates_of_190_68_by_hand():
    cands = ex.scenarios(tables())
    assert len(cands) == 32
    count = collections.Counter((s.shape(), s.constraint) for s in cands)
    assert count == {
        ("stalemate t11 first 31 + stalemate t13 later 2 + IV promoted 9", "last-trick-stalemate"): 8,
        ("stalemate t12 first 29 + stalemate t12 later 4 + IV promoted 9", "one-winner"): 8,
        ("stalemate t12 first 29 + selfmate t13 later 4 + IV promoted 9", None): 8,
        ("stalemate t13 first 27 + checkmate t13 later 6 + IV promoted 9", "last-trick-stalemate"): 8,
    }
    for s in cands:
        assert sum(s.totals) == 258 and sorted(s.totals) == [68, 190]
        assert sum(s.card_points) == 216 + 9
        assert all(s.totals[p] == s.event_points[p] + s.card_points[p] for p in (0, 1))
    # (c) in detail: 29 + 4 both to the stalemated King's party (selfmate scores for the opponents of the
    # selfmated King); W is that party (157 card points) or the other (190 card points).
    viable = [s for s in cands if s.viable]
    for s in viable:
        a, b = s.kings
        assert (a.event, a.trick, a.first, a.points) == ("stalemate", 12, True, 29)
        assert (b.event, b.trick, b.first, b.points) == ("selfmate", 13, False, 4)
        assert a.scorers == b.scorers == (a.owner,) and b.owner != a.owner
    assert {(s.event_points[s.totals.index(190)], s.card_points[s.totals.index(190)]) for s in viable} == \
        {(33, 157), (0, 190)}


def test_a_small_case_without_promotion_by_hand():
    # 150 + 97 = 247 = 216 + 31. With an IV (+9) the events would be 22, below any pair (≥ 29), so no
    # promotion: 31 = 25 + 2r + k·r' → 2r + k·r' = 6: stalemate t12 (29) + stalemate t13 (2), or stalemate t13
    # (27) + selfmate t13 (4) — but in one trick the stalemating seat takes the other King, which belongs
    # to the other party: that is a checkmate, not a selfmate.
    count = collections.Counter((s.shape(), s.constraint) for s in ex.scenarios(tables(), (150, 97)))
    assert count == {("stalemate t12 first 29 + stalemate t13 later 2", None): 4,
                     ("stalemate t13 first 27 + selfmate t13 later 4", "one-winner"): 4}


def test_per_event_is_ruled_out_by_structure():
    # Per event, two different kinds both earn a bonus (≥ 25 + 2 + 50 + 4 = 81 > 42): both Kings are
    # stalemated, 25 + 2(r + r') + promoted = 42 in separate tricks (one winner per trick), so the later
    # one is in the last trick together with a promoted card that takes it.
    for promoted in ("knight-only", "as-officers"):
        cands = ex.scenarios(tables(king_order="per-event", promoted_points=promoted))
        assert cands and not any(s.viable for s in cands)
        assert {s.constraint for s in cands} == {"last-trick-stalemate", "one-winner"}
        row = ex.judge(tables(king_order="per-event", promoted_points=promoted), budget=0)
        assert row.verdict == "impossible-structure" and row.line().startswith("impossible (structure: ")


@pytest.mark.parametrize("promoted", ["knight-only", "as-officers"])
@pytest.mark.parametrize("order", ["by-fate", "both-first", "per-event"])
def test_all_hands_is_ruled_out_by_arithmetic(promoted, order):
    # all-hands multiplies by 4 × (13 − trick + 1): every later event is a multiple of 8 and the cheapest
    # pair is 25 + 8 + 8 = 41 (both Kings in the last trick); no promoted extra is 1.
    t = tables(remaining="all-hands", promoted_points=promoted, king_order=order)
    assert ex.scenarios(t) == []
    why = ex.arithmetic_obstacle(t)
    assert why and "258 − 216 = 42" in why
    assert ex.judge(t, budget=0).line().startswith("impossible (arithmetic: ")


def test_structural_facts_from_the_tables():
    t = tables()
    wiv, wk, sk = t.face("wIV"), t.face("wK"), t.face("sK")
    assert _blocks(t, wiv, wk, last=True)          # IV counts as a Knight in the last trick
    assert not _blocks(t, wiv, wk, last=False)     # elsewhere it is a suit card the King takes
    assert not _blocks(t, sk, wk, last=False)      # an equal King played later does not take it
    one = ex.KingFate("wK", 0, "self", "stalemate", 5, 0, True, 0, (0,))
    two = ex.KingFate("sK", 1, "self", "stalemate", 5, 1, False, 0, (1,))
    assert "one winner" in _trick_problem(t, [one, two], last=False)
    taken_first = ex.KingFate("sK", 1, "opponent", "checkmate", 5, 0, True, 0, (0,))
    late_winner = ex.KingFate("wK", 0, "self", "stalemate", 5, 1, False, 0, (0,))
    assert "first played holds" in _trick_problem(t, [taken_first, late_winner], last=False)
    assert _trick_problem(t, [ex.KingFate("wK", 0, "self", "stalemate", 5, 0, True, 0, (0,)),
                                 ex.KingFate("sK", 1, "opponent", "checkmate", 5, 1, False, 0, (0,))], False) is None


# --- witnesses -------------------------------------------------------------------------------------


def assert_witness(record: GameRecord, scenario: ex.Scenario) -> None:
    rep = replay(GameRecord.model_validate_json(record.model_dump_json()))
    r = rep.result
    assert sorted(r.totals) == [68, 190]
    assert tuple(r.totals) == scenario.totals
    events = [(e.event, e.king, e.trick, e.order, e.points) for e in r.events]
    assert events == [(k.event, k.king, k.trick, "first" if k.first else "later", k.points) for k in scenario.kings]
    last = [c for _, c in rep.tricks[-1].cards]
    assert all(p in last for p in scenario.promoted)
    assert ex.witness_problem(record, scenario) is None


@pytest.mark.slow
@pytest.mark.parametrize("promoted", ["knight-only", "as-officers"])
def test_witnesses_replay_to_190_and_68_for_both_splits(promoted):
    t = tables(promoted_points=promoted)
    viable = [s for s in ex.scenarios(t) if s.viable]
    found = set()
    for s in viable:
        key = s.event_points[s.totals.index(190)]
        if key in found:
            continue
        record = ex.find_witness(t, s, budget=60_000, seed=1)
        if record is not None:
            assert_witness(record, s)
            assert record.options == dict(t.options)
            found.add(key)
    assert found == {0, 33}   # W scores the events (33 + 157) or S does (33 + 35 = 68; W 190 cards)


def test_a_tampered_witness_is_caught():
    t = tables()
    s = next(s for s in ex.scenarios(t) if s.viable)
    record = ex.find_witness(t, s, budget=60_000)
    assert record is not None
    other = next(x for x in ex.scenarios(t) if x.viable and x.totals != s.totals)
    assert "totals" in ex.witness_problem(record, other)
    # swap the last two cards of one seat: the record no longer replays as the same game
    data = record.model_dump()
    data["actions"][-1], data["actions"][-2] = data["actions"][-2], data["actions"][-1]
    with pytest.raises(IllegalAction):
        ex.witness_problem(GameRecord.model_validate(data), s)


def test_no_witness_is_sought_for_an_excluded_scenario():
    t = tables()
    excluded = next(s for s in ex.scenarios(t) if not s.viable)
    assert ex.find_witness(t, excluded, budget=10_000) is None


# --- the report ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_report_table_for_the_three_lacunae():
    rep = ex.report()
    verdicts = {tuple(r.readings.values()): r.verdict for r in rep.rows}
    assert len(verdicts) == 12
    for (remaining, promoted, order), verdict in verdicts.items():
        if remaining == "all-hands":
            assert verdict == "impossible-arithmetic"
        elif order == "per-event":
            assert verdict == "impossible-structure"
        else:
            assert verdict == "possible", (remaining, promoted, order)
    for r in rep.rows:
        for w in r.witnesses:
            assert_witness(w.record, w.scenario)
    text = rep.as_text()
    assert "possible — witness found" in text and "impossible (arithmetic: " in text
    data = json.loads(rep.json_text())
    assert [r["verdict"] for r in data["rows"]] == [r.verdict for r in rep.rows]


def test_s12_worked_example_totals_reachability():
    # The printed ruleset's own readings: each-hand, knight-only, by-fate. §12's 190 against 68 is
    # reachable, but only one way: a King stalemated in trick 12 (29), the other selfmated in the last
    # trick (4), and an F IV promoted there (9): 216 + 9 + 29 + 4 = 258.
    r = load("original")
    readings = {k: [r.choice(k)] for k in ("remaining", "promoted-points", "king-order")}
    assert readings == {"remaining": ["each-hand"], "promoted-points": ["knight-only"], "king-order": ["by-fate"]}
    rep = ex.report(readings)
    (row,) = rep.rows
    assert row.verdict == "possible"
    assert row.line().startswith("possible — witness found")
    assert row.classes and all(c.startswith("stalemate t12 first 29 + selfmate t13 later 4 + IV promoted 9")
                               for c in row.classes)
    assert row.witnesses
    for w in row.witnesses:
        assert_witness(w.record, w.scenario)


def test_example12_names_the_parties_as_the_ruleset_does():
    # §12 speaks of W₁ and W₂ against S₁ and S₂; the study's words name the parties by the original
    # ruleset's party names (South and North, West and East), never by an index
    t = tables()
    viable = [s for s in ex.scenarios(t) if s.viable]
    texts = [s.text() for s in viable] + [k.text() for s in viable for k in s.kings]
    assert viable and not any("party " in text for text in texts)
    assert all("South and North" in s.text() and "West and East" in s.text() for s in viable)
    stalemated = next(k for s in viable for k in s.kings if k.event == "stalemate" and k.king == "sK")
    assert stalemated.text().startswith("sK (West and East) stalemate in trick 12")
    assert "parties" not in viable[0].as_json()["kings"][0]         # the JSON keeps the parties' numbers
