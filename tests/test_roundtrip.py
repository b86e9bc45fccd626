"""Round trip: IR → rule text → parse → the same IR, for the shipped variants and random rulesets."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from schachett_rules.language import ir
from schachett_rules.paths import known_rulesets, ruleset_path
from schachett_rules.language.printer import format_ruleset
from schachett_rules.language.syntax import parse_ruleset


def same(a: ir.Ruleset, b: ir.Ruleset) -> bool:
    return ir.strip_positions(a.model_dump()) == ir.strip_positions(b.model_dump())


@pytest.mark.parametrize("name", known_rulesets())
def test_every_variant_round_trips(name):
    original = parse_ruleset(ruleset_path(name).read_text(encoding="utf-8"), name)
    assert same(original, parse_ruleset(format_ruleset(original)))


def test_ir_is_json_and_back():
    original = parse_ruleset(ruleset_path("original").read_text(encoding="utf-8"))
    again = ir.Ruleset.model_validate(json.loads(original.model_dump_json()))
    assert again == original
    assert "Ruleset" in json.dumps(ir.json_schema())


# --- random IR -----------------------------------------------------------------------------------

names = st.from_regex(r"[a-z][a-z0-9]{0,5}(-[a-z0-9]{1,4})?", fullmatch=True).filter(
    lambda s: s not in {"any", "royal", "order", "except", "of", "lacuna"})
kinds = st.sampled_from(["officer", "pawn", "suit", "trump"])
faces = st.sampled_from(["K", "D", "T", "L", "S", "1", "8", "IV", "X", "A"])
cards = st.sampled_from(["wK", "sK", "w8", "sIV", "eA"])
text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"), max_size=30)
cites = st.lists(st.sampled_from(["§1", "§3.2", "§4,4 (3p)", "p.15", "foreword", "ai:§2", "§10.3"]),
                 min_size=1, max_size=3).map(tuple)
grades = st.sampled_from(list(ir.Grade))
basis = st.builds(ir.Basis, cites=cites, grade=grades)
maybe_basis = st.one_of(st.none(), basis)
because = st.one_of(st.none(), text)

atoms = st.one_of(
    st.builds(ir.Atom, what=st.just("any"), colour=st.sampled_from(["any", "led", "same", "other"])),
    st.builds(ir.Atom, what=st.just("royal"), colour=st.sampled_from(["any", "led"])),
    st.builds(ir.Atom, what=st.just("kind"), name=kinds, colour=st.sampled_from(["any", "same", "other"])),
    st.builds(ir.Atom, what=st.just("face"), name=faces, colour=st.sampled_from(["any", "led"])),
    st.builds(ir.Atom, what=st.just("card"), name=cards),
)
selectors = st.builds(ir.Selector, terms=st.lists(st.builds(ir.Term, base=atoms, minus=st.lists(atoms, max_size=2).map(tuple)),
                                                  min_size=1, max_size=3).map(tuple))

exprs = st.recursive(
    st.one_of(st.builds(ir.Num, value=st.integers(0, 500)),
              st.builds(ir.Name, name=st.sampled_from(["remaining", "value", "winner", "loser", "trick"]))),
    lambda inner: st.one_of(
        st.builds(ir.BinOp, op=st.sampled_from(["+", "-", "*", "/"]), left=inner, right=inner),
        st.builds(ir.Neg, operand=inner),
        st.builds(ir.Call, fn=st.sampled_from(["round_half_up", "floor", "max"]), args=st.lists(inner, min_size=1, max_size=2).map(tuple)),
    ), max_leaves=6)

seat_refs = st.one_of(st.builds(ir.SeatRef, base=st.just("dealer"), offset=st.integers(-3, 3)),
                      st.builds(ir.SeatRef, base=st.just("seat"), offset=st.integers(0, 5)))


def face_lists():
    plain = st.builds(ir.Face, symbol=st.sampled_from(["K", "D", "T", "A", "O"]), name=st.sampled_from(["", "King", "Ober"]),
                      copies=st.integers(1, 3), royal=st.booleans())
    numeric = st.tuples(st.integers(1, 9), st.integers(0, 3), st.integers(1, 3)).map(
        lambda a: tuple(ir.Face(symbol=str(n), value=n, copies=a[2]) for n in range(a[0], a[0] + a[1] + 1)))
    from schachett_rules.language.syntax import int_to_roman
    roman = st.tuples(st.integers(1, 5), st.integers(0, 5), st.integers(1, 3)).map(
        lambda a: tuple(ir.Face(symbol=int_to_roman(n), value=n, roman=True, copies=a[2])
                        for n in range(a[0], a[0] + a[1] + 1)))
    return st.one_of(st.lists(plain, min_size=1, max_size=3).map(tuple), numeric, roman)


clauses = st.one_of(
    st.builds(ir.Deck, basis=maybe_basis, because=because,
              colours=st.lists(st.builds(ir.Colour, code=st.sampled_from(["w", "s", "e", "gr"]), name=text), min_size=1, max_size=3).map(tuple),
              kinds=st.lists(st.builds(ir.KindDecl, name=kinds, title=text, faces=face_lists()), min_size=1, max_size=3).map(tuple)),
    st.builds(ir.Seats, basis=maybe_basis, because=because, count=st.integers(1, 8)),
    st.builds(ir.Parties, basis=maybe_basis, opposite=st.just(True)),
    st.builds(ir.Parties, basis=maybe_basis, parties=st.lists(st.lists(st.integers(0, 7), min_size=1, max_size=3).map(tuple),
                                                             min_size=1, max_size=3).map(tuple)),
    st.builds(ir.Deal, basis=maybe_basis, gives=st.lists(st.builds(ir.Give, card=cards, to=seat_refs), max_size=2).map(tuple),
              hand_size=st.integers(1, 26)),
    st.builds(ir.Lead, basis=maybe_basis, which=st.sampled_from(["first", "next"]), by=seat_refs),
    st.builds(ir.Lead, basis=maybe_basis, which=st.just("next"), winner=st.just(True)),
    st.builds(ir.Ranking, basis=maybe_basis, groups=st.lists(st.lists(faces, min_size=1, max_size=3).map(tuple), min_size=1, max_size=5).map(tuple)),
    st.builds(ir.Capture, basis=maybe_basis, rules=st.lists(st.builds(ir.CaptureRule, taker=kinds, victims=selectors,
                                                                      direction=st.sampled_from(["lower", "higher"]),
                                                                      basis=maybe_basis),
                                                            min_size=1, max_size=3).map(tuple)),
    st.builds(ir.Ties, basis=maybe_basis, rules=st.lists(st.builds(ir.TieRule, kind=st.one_of(kinds, st.just("any")),
                                                                   rule=st.sampled_from(["first", "later"])), min_size=1, max_size=2).map(tuple)),
    st.builds(ir.Follow, basis=maybe_basis, led=kinds, tiers=st.lists(selectors, min_size=1, max_size=4).map(tuple)),
    st.builds(ir.Promotion, basis=maybe_basis, promotes=st.lists(st.builds(ir.Promote, face=faces, as_face=faces), min_size=1, max_size=3).map(tuple)),
    st.builds(ir.Points, basis=maybe_basis, promoted=st.booleans(),
              entries=st.lists(st.builds(ir.PointsEntry, cards=selectors, points=exprs), min_size=1, max_size=3).map(tuple)),
    st.builds(ir.Remaining, basis=maybe_basis, scope=st.sampled_from(["each", "all"])),
    st.builds(ir.KingEvent, basis=maybe_basis, name=names, when=st.sampled_from(["opponent", "partner", "self"]),
              scores=st.sampled_from(["taker", "owner", "opponents"]), first=exprs, later=exprs),
    st.builds(ir.KingOrder, basis=maybe_basis, count=st.sampled_from(["all", "each"]), same_trick=st.sampled_from(["play", "all-first"])),
    st.builds(ir.Settlement, basis=maybe_basis, unit=text, amount=exprs),
    st.builds(ir.Penalty, basis=maybe_basis, name=names, offence=text, pays=st.one_of(st.none(), st.integers(0, 99)),
              to=st.sampled_from(["opponents", "players"]), forfeit=st.booleans(), take_back=st.booleans())
    .map(lambda p: p if p.pays is not None else p.model_copy(update={"to": None})),
    st.builds(ir.Review, basis=maybe_basis, tricks=st.integers(0, 5)),
    st.builds(ir.Session, basis=maybe_basis, games_per_round=st.integers(1, 9), rounds_per_cycle=st.integers(1, 9),
              stop_after_cycle=st.booleans(),
              reign=st.one_of(st.none(), st.builds(ir.Reign, rounds=st.integers(1, 4), seats=st.lists(st.integers(0, 5), min_size=1, max_size=4).map(tuple),
                                                   dummy=st.integers(0, 5))),
              changes=st.lists(st.one_of(
                  st.builds(ir.SeatChange, rounds=st.sampled_from(["even", "odd"]), after_a=st.integers(0, 5)),
                  st.builds(ir.SeatChange, rounds=st.sampled_from(["even", "odd"]),
                            seats=st.tuples(st.integers(0, 5), st.integers(0, 5)))), max_size=2).map(tuple)),
    st.builds(ir.Dealer, basis=maybe_basis, first=st.one_of(st.none(), st.integers(0, 5)), passes=st.sampled_from(["left", "right"])),
    st.builds(ir.Castling, basis=maybe_basis, mode=st.just("none")),
    st.builds(ir.CastleOfficer, basis=maybe_basis, officer=selectors),
    st.builds(ir.CastleLimit, basis=maybe_basis, limit=st.sampled_from(["game", "party", "seat", "none"])),
    st.builds(ir.CastleKing, basis=maybe_basis, takes=st.sampled_from(["own", "other-before-play"])),
    st.builds(ir.Stake, basis=maybe_basis, per=st.sampled_from(["seat", "player"])),
    st.builds(ir.SettlePenalties, basis=maybe_basis, rounding=st.sampled_from(["each", "game"])),
    st.builds(ir.Castling, basis=maybe_basis, mode=st.just("rules"),
              permits=st.lists(st.one_of(
                  st.builds(ir.Permit, who=st.lists(seat_refs, min_size=1, max_size=2).map(tuple), king_holder=st.booleans(),
                            when=st.just("before")),
                  st.builds(ir.Permit, who=st.lists(seat_refs, max_size=2).map(tuple), king_holder=st.just(True),
                            when=st.sampled_from(["after", "rescue"]), trick=st.integers(1, 13)),
                  st.builds(ir.Permit, who=st.lists(seat_refs, min_size=1, max_size=2).map(tuple), when=st.just("rescue"),
                            trick=st.none())), min_size=1, max_size=3).map(tuple)),
    st.builds(ir.Memory, basis=maybe_basis, keeps=st.sampled_from(["every", "review"])),
    st.builds(ir.Automaton, basis=maybe_basis, seats=st.lists(st.integers(0, 7), min_size=1, max_size=3).map(tuple),
              policy=st.sampled_from(["lowest", "highest", "cheapest-taker"])),
    st.builds(ir.Dummy, basis=maybe_basis, seat=st.integers(0, 5), by=st.integers(0, 5), exposed_after=st.integers(0, 13),
              one_hand_at_a_time=st.booleans()),
)

statements = st.one_of(
    st.builds(ir.ClauseStatement, clause=clauses),
    st.builds(ir.Override, clause=clauses),
    st.builds(ir.Choose, lacuna=names, option=names, because=because),
    st.builds(ir.Drop, key=st.sampled_from(["ranking", "follow pawn", "king checkmate", "penalty revoke", "seats", "game points", "castle king", "dummy 2"])),
    st.builds(ir.Drop, section=st.sampled_from(["§10.3", "§4,4 (3p)", "p.15"])),
    st.builds(ir.Drop, lacuna=names),
    st.builds(ir.Lacuna, name=names, basis=st.builds(ir.Basis, cites=cites, grade=st.one_of(st.none(), grades)), question=text,
              evidence=st.lists(st.builds(ir.Evidence, basis=basis, quote=text), max_size=2).map(tuple),
              options=st.lists(st.builds(ir.Option, name=names, basis=basis, summary=text,
                                         clauses=st.lists(clauses, max_size=2).map(tuple)), min_size=1, max_size=2).map(tuple)),
)

rulesets = st.builds(ir.Ruleset, name=names, title=text, extends=st.one_of(st.none(), names),
                     statements=st.lists(statements, max_size=6).map(tuple))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rulesets)
def test_random_rulesets_round_trip(rs):
    printed = format_ruleset(rs)
    assert same(rs, parse_ruleset(printed, "<printed>")), printed
