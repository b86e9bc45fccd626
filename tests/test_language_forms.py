"""Rule-language forms that say what used to be decided in code: whose hand a castle reaches
(`castle with`), which King fates a rescue may undo (`castle rescue`), who deals (`dealer`), the
dummy's one-hand view until it is laid open, seats named by their place in prose, errors in
expressions, deep expressions, and the one keyword table behind the parser, printer and prose.

Expected values come from the manual's text (§5 (3p), §4,5 (3p), §10 (3p), §13) or from a hand
calculation written beside them.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from importlib import resources

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from schachett_rules.cli.main import main
from schachett_rules.kernel.state import State
from schachett_rules.kernel.observation import observe
from schachett_rules.engine.session import default_players, play_session
from schachett_rules.errors import RuleCheckError, RuleSyntaxError
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.language import ir, keywords
from schachett_rules.language.expr import ExprError, evaluate, evaluate_arrays, problems, render
from schachett_rules.language.printer import clause as clause_text, format_ruleset
from schachett_rules.language.syntax import MAX_EXPR_DEPTH, grammar_text, parse_ruleset
from schachett_rules.paths import known_rulesets
from schachett_rules.rules.loader import load
from schachett_rules.rules.prose import sentence
from schachett_rules.rules.rulebook import render_ruleset


def compiled(path):
    return compile_ruleset(load(str(path)))


def clause_of(text: str):
    return parse_ruleset(f"ruleset x {text}").statements[0].clause


# --- castle with: whose hand a castle reaches ----------------------------------------------------

def test_s5_3p_castle_with_the_one_sitting_opposite():
    # §5 (3p): "castle ... with the one sitting opposite him"; at four seats opposite is seat + 2
    for name in ("reconstruction", "three-player"):
        assert tables_for(name).castling.with_seat == (2, 3, 0, 1)
    # at eight seats, seat + 4 (a hand calculation)
    assert tables_for("eight-players").castling.with_seat == (4, 5, 6, 7, 0, 1, 2, 3)
    c = load("original").clause("castle with")
    assert c.opposite and not c.partner and c.basis.cites == ("§5 (3p)",) and c.basis.grade == "printed"


def test_s5_3p_six_players_castle_within_their_party():
    t = tables_for("six-players")
    # partner 2 places right: seat s reaches s - 2 (mod 6); parties 0 2 4 | 1 3 5
    assert t.castling.with_seat == (4, 5, 0, 1, 2, 3)
    assert all(t.party_of[s] == t.party_of[w] for s, w in enumerate(t.castling.with_seat))
    c = load("six-players").clause("castle with")
    assert c.basis.grade == "design" and "§5 (3p)" in c.basis.cites and c.because


def test_six_players_castles_reach_the_partner_without_a_king():
    # the dealer (wK) may castle after trick 1, his left neighbour (sK) before play; dealt no King are
    # dealer + 4 and dealer + 5, which their castles reach (dealer - 2 and dealer + 1 - 2)
    t = tables_for("six-players")
    for dealer in range(6):
        game = State.deal(t, dealer, random.Random(dealer))
        before = [(o.seat, o.with_seat) for o in game.castle_options()]
        assert before and all(s == (dealer + 1) % 6 and w == (dealer + 5) % 6 for s, w in before)


@pytest.mark.parametrize("text, reached", [
    ("opposite", (2, 3, 0, 1)),
    ("1 place left", (1, 2, 3, 0)),
    ("1 place right", (3, 0, 1, 2)),
    ("partner 2 places left", (2, 3, 0, 1)),
    ("partner 6 places right", (2, 3, 0, 1)),     # 6 right = 2 right = 2 left at four seats
])
def test_castle_with_forms_compile_into_with_seat(rules, text, reached):
    path = rules(f'ruleset v "V" extends original\nchoose castling as-three-player\n'
                 f'override castle with [§5 design]: {text}\n')
    assert compiled(path).castling.with_seat == reached


def test_castle_with_a_partner_claim_that_reaches_an_opponent_is_an_error(rules):
    path = rules('ruleset v "V" extends original\nchoose castling as-three-player\n'
                 'override castle with [§5 design]: partner 1 place left\n')
    with pytest.raises(RuleCheckError) as err:
        compiled(path)
    msg = err.value.message
    # from seat 0 one place left is seat 1, of the other party (parties opposite: 0 2 | 1 3)
    assert "from seat 0 it reaches seat 1, an opponent" in msg and err.value.line == 3
    assert "castle with" in err.value.clause


def test_six_players_cannot_claim_the_partner_opposite(rules):
    path = rules('ruleset v "V" extends six-players\noverride castle with [§5 design]: partner opposite\n')
    with pytest.raises(RuleCheckError, match=r"from seat 0 it reaches seat 3, an opponent"):
        compiled(path)


def test_castle_with_must_reach_another_seat(rules):
    path = rules('ruleset v "V" extends original\nchoose castling as-three-player\n'
                 'override castle with [§5 design]: 4 places left\n')
    with pytest.raises(RuleCheckError, match="back to the castling seat itself"):
        compiled(path)


THIRTEEN = ('ruleset v "V" extends original\nchoose castling as-three-player\n'
            'override seats [§1 design]: 13\ndrop seat names\ndrop session\n'
            'override parties [§1 design]: 0 2 4 6 8 10 12 | 1 3 5 7 9 11\n'
            'drop lacuna deal\n'
            'deal [§4 design] { give wK to dealer face up give sK to dealer + 1 face up hands 4 }\n')


def test_castle_with_opposite_at_an_odd_table_is_an_error(rules):
    # 13 seats of 4 cards: there is no seat opposite
    with pytest.raises(RuleCheckError, match="a table of 13 has no seat opposite"):
        compiled(rules(THIRTEEN))


def test_an_odd_table_castles_by_places(rules):
    # two places left from seat 12 is seat 14 mod 13 = 1, which sits in the other party
    t = compiled(rules(THIRTEEN + "override castle with [§5 design]: 2 places left\n"))
    assert t.castling.with_seat[:2] == (2, 3) and t.castling.with_seat[12] == 1
    with pytest.raises(RuleCheckError, match="from seat 11 it reaches seat 0, an opponent"):
        compiled(rules(THIRTEEN + "override castle with [§5 design]: partner 2 places left\n"))


def test_castling_without_castle_with_is_an_error(rules):
    path = rules('ruleset v "V" extends original\nchoose castling as-three-player\ndrop castle with\n')
    with pytest.raises(RuleCheckError, match=r"must also say `castle with` \(whose hand a castle reaches\)"):
        compiled(path)


# --- castle rescue: which fates a rescue may undo --------------------------------------------------

def test_s5_3p_a_rescue_undoes_checkmate_and_selfmate_only():
    # §5 (3p): "if with this 1st trick the King ... is checkmated or selfmated"
    c = tables_for("three-player").castling
    assert c.rescue_fates == ("opponent", "partner") and c.rescue_own_take is False
    assert c.may_rescue("opponent") and c.may_rescue("partner") and not c.may_rescue("self")
    assert load("three-player").clause("castle rescue").events == ("checkmate", "selfmate")


def test_a_rescue_from_stalemate_is_a_rule_file_statement(rules):
    path = rules('ruleset v "V" extends three-player\n'
                 'override castle rescue [§5 (3p) design]: checkmate, selfmate, stalemate\n')
    assert compiled(path).castling.rescue_own_take is True


@pytest.mark.parametrize("events, words", [
    ("checkmate, selfmate, checkmated", "names 'checkmated', which is not a King event"),
])
def test_castle_rescue_errors(rules, events, words):
    path = rules(f'ruleset v "V" extends three-player\noverride castle rescue [§5 (3p) design]: {events}\n')
    with pytest.raises(RuleCheckError) as err:
        compiled(path)
    assert words in err.value.message and err.value.line == 2


def test_a_rescue_permit_needs_castle_rescue(rules):
    path = rules('ruleset v "V" extends three-player\ndrop castle rescue\n')
    with pytest.raises(RuleCheckError, match="rescue permit, so the ruleset must say which fates"):
        compiled(path)


# --- dealer and players from the rule file ----------------------------------------------------------

def test_s4_5_3p_the_kaiser_deals_first_and_the_deal_passes_left():
    t = tables_for("three-player")
    assert (t.first_dealer, t.deal_step) == (0, 1)
    assert [t.dealer_of(g) for g in range(6)] == [0, 1, 2, 3, 0, 1]


def test_a_dealer_clause_passing_right(rules):
    path = rules('ruleset v "V" extends original\n'
                 'override dealer [§4 design]: seat 2 deals first, passes right\n')
    t = compiled(path)
    assert [t.dealer_of(g) for g in range(5)] == [2, 1, 0, 3, 2]
    r = load(str(path))
    record = play_session(t, "original", {}, r.clause("session"), list("ABCD"), 1, seed=3)
    assert [g.record.dealer for g in record.games[:5]] == [2, 1, 0, 3, 2]


def test_default_players_come_from_the_session_clause():
    # §4,2 (3p): three players reign in turn over four seats; §13: four players; six-players: six
    assert default_players(load("three-player").clause("session"), tables_for("three-player")) == ["A", "B", "C"]
    assert default_players(load("original").clause("session"), tables_for("original")) == list("ABCD")
    assert default_players(load("six-players").clause("session"), tables_for("six-players")) == list("ABCDEF")
    out = CliRunner().invoke(main, ["session", "three-player", "-q"])
    assert out.exit_code == 0, out.output
    assert [line.split()[0] for line in out.output.splitlines() if re.match(r"^[A-C] ", line)] == ["A", "B", "C"]


# --- the dummy's player sees one hand at a time until the dummy is laid open -------------------------

def test_s10_3p_one_hand_at_a_time_lasts_until_the_dummy_is_exposed(rules):
    path = rules('ruleset v "V" extends three-player\n'
                 'override dummy [§4,2 (3p), §10 (3p) design]: seat 2 played by seat 0, exposed after trick 2, '
                 'its player sees one hand at a time until then\n')
    t = compiled(path)
    game = State.deal(t, 0, random.Random(4))
    seen_alone = 0
    while len(game.tricks) < 2:
        if game.pending is not None:
            game.gather()
            continue
        view = observe(game, 0)
        order = [(game.leader + i) % 4 for i in range(4)]
        first = min((0, 2), key=order.index)          # of his two hands, the one that plays first
        if first not in {s for s, _ in game.trick}:
            assert set(view.hands) == {first}, (len(game.tricks), game.trick)
            seen_alone += len(game.tricks) == 1       # in trick 2 too, not only in trick 1
        else:
            assert set(view.hands) == {0, 2}
        assert 2 not in observe(game, 1).hands        # the allies do not see it yet
        game.play(next(iter(game.legal())))
    assert seen_alone > 0
    while game.pending is not None:
        game.gather()
    # after trick 2 the dummy lies open for everyone, and the Kaiser sees both his hands
    assert set(observe(game, 0).hands) == {0, 2} and set(observe(game, 1).hands) == {1, 2}


# --- prose names places from the table ----------------------------------------------------------------

def test_s13_prose_says_opposite_only_where_it_is():
    four = render_ruleset(load("original"))
    # §13: "before the 3rd, 5th ... round the player opposite A" changes; at four seats that is 2 after A
    assert "the player opposite A changes places" in four
    six = render_ruleset(load("six-players"))
    # at six seats the player opposite A is 3 places after him; 2 and 4 places are not opposite
    assert "the player two places after A changes" in six and "the player four places after A changes" in six
    assert "the player opposite A changes" in six and "the player three places after A" not in six


def test_prose_of_the_new_castling_clauses():
    assert sentence(clause_of("castle with [§5 design]: partner 2 places right")) == \
        "A castle reaches the hand of the player two places to the right, who is a partner."
    assert sentence(clause_of("castle with [§5 design]: opposite")) == "A castle reaches the hand of the player opposite."
    assert "checkmate or selfmate" in sentence(clause_of("castle rescue [§5 (3p) printed]: checkmate, selfmate"))


# --- expressions ----------------------------------------------------------------------------------------

def test_an_unknown_function_is_an_error_with_its_place(rules):
    path = rules('ruleset v "V" extends original\n'
                 'drop lacuna rounding settlement [§12 design] {\n'
                 '    unit "Pfg"\n'
                 '    amount: 2 * sqrt(winner - loser)\n'
                 '    per player\n'
                 '}\n')
    with pytest.raises(RuleCheckError) as err:
        compiled(path)
    e = err.value
    assert "unknown function 'sqrt'" in e.message
    assert (e.line, e.column) == (4, 17) and "settlement" in e.clause and e.file == str(path)


def test_the_evaluators_refuse_an_unknown_function():
    call = ir.Call(fn="sqrt", args=(ir.Num(value=4), ir.Num(value=9)), at=ir.Pos(line=3, column=9))
    with pytest.raises(ExprError, match=r"unknown function 'sqrt' \(line 3, column 9\)"):
        evaluate(call, {})
    with pytest.raises(ExprError, match="unknown function 'sqrt'"):
        evaluate_arrays(call, {})        # never quietly the smaller of its arguments


def _negations(n: int) -> ir.Expr:
    e: ir.Expr = ir.Num(value=7)
    for _ in range(n):
        e = ir.Neg(operand=e)
    return e


def _sum(n: int) -> ir.Expr:
    e: ir.Expr = ir.Num(value=1)
    for _ in range(n - 1):
        e = ir.BinOp(op="+", left=e, right=ir.Num(value=1))
    return e


def test_deep_expressions_are_walked_without_recursion():
    # 500 minuses: an even number, so the value is 7; a sum of 500 ones is 500
    deep, long = _negations(500), _sum(500)
    assert evaluate(deep, {}) == 7 and evaluate(long, {}) == 500
    assert render(deep) == "-" * 500 + "7" and render(long) == " + ".join(["1"] * 500)
    assert problems(deep, set()) == [] and problems(long, set()) == []
    num, den = evaluate_arrays(long, {})
    assert int(num) == 500 and int(den) == 1


@pytest.mark.parametrize("amount", ["-" * 500 + "winner", " + ".join(["winner"] * 500)])
def test_a_deep_expression_in_a_file_is_refused_in_words(amount):
    text = f'ruleset x settlement [§12 design] {{ unit "Pfg" amount: {amount} per player }}'
    with pytest.raises(RuleSyntaxError) as err:
        parse_ruleset(text, "deep.schachett")
    assert f"at most {MAX_EXPR_DEPTH} are allowed" in err.value.message and err.value.line == 1


def test_an_expression_at_the_depth_limit_goes_all_the_way(rules):
    # the limit itself is allowed: parse, check, compile, evaluate, JSON and back, print and back
    amount = "-" * (MAX_EXPR_DEPTH - 2) + "(winner - loser)"
    path = rules('ruleset v "V" extends original\n'
                 f'drop lacuna rounding settlement [§12 design] {{ unit "Pfg" amount: {amount} per player }}\n')
    t = compiled(path)
    assert evaluate(t.settlement.amount, {"winner": 5, "loser": 2}) == Fraction(3)   # an even number of minuses
    rs = parse_ruleset(path.read_text(encoding="utf-8"), str(path))
    assert ir.Ruleset.model_validate_json(rs.model_dump_json()) == rs
    again = parse_ruleset(format_ruleset(rs), str(path))
    assert ir.strip_positions(again.model_dump(mode="json")) == ir.strip_positions(rs.model_dump(mode="json"))


# --- one keyword table ----------------------------------------------------------------------------------

CLAUSES_BY_TABLE = {
    "limit": "castle limit [§5 design]: {}",
    "grade": "seats [§1 {}]: 4",
    "remaining_scope": "remaining [§6 design]: {}",
    "memory_kind": "memory [§10.3 design]: {}",
    "policy": "automaton [§1 design]: seat 1 play {}",
    "pass_policy": "automaton [§1 design]: seat 1 play the lowest card, pass {}",
    "call_policy": "automaton [§1 design]: seat 1 play the lowest card, call {}",
    "direction": "dealer [§4 design]: passes {}",
    "when": "king k [§7 design] {{ when: {} scores: taker first: 1 later: 1 }}",
    "scorer": "king k [§7 design] {{ when: taken by opponent scores: {} first: 1 later: 1 }}",
    "order_count": "king order [§7 design] {{ count: {} same trick: play order }}",
    "same_trick": "king order [§7 design] {{ count: all events same trick: {} }}",
    "tie_outcome": "ties [§2 design] {{ any: {} }}",
    "payee": "penalty p [§3.4 design] {{ offence \"o\" pays 1 to each {} }}",
    "lead_which": "lead {} [§10.1 design]: dealer + 1",
    "direction_word": "capture [§2 design] {{ officer takes {}: any }}",
    "castle_king_kind": "castle king [§5 (3p) design]: {}",
    "stake_kind": "stake [§12 design]: {}",
    "penalty_rounding": "settle penalties [§12 design]: {}",
    "per_moment": "castle moment [§5 design]: {}",
    "parity": "session [§13 design] {{ round: 4 games cycle: 6 rounds before {} rounds: seat 1 changes with seat 3 }}",
    "pass_direction": "passing [§1 design]: 3 cards {}",
    "exchange_who": "exchange [§1 design]: {} takes stock, discards 2",
    "exchange_what": "exchange [§1 design]: dealer takes {}, discards 1",
    "round_mode": "auction [§1 design] {{ from dealer + 1 round: solo < wenz: {} all pass: redeal }}",
    "requires_how": "requires [§1 design]: holds {} K, D",
    "partner_who": "partner [§1 design]: {}",
    "offer_face": "offer [§1 design]: K {}, asked from dealer + 1, taker gives back 1 of any except K",
    "refused_outcome": "offer refused [§1 design]: {}",
    "game_points_who": "game points [§1 design] {{ {}: 1 }}",
    "settle_per": "settlement [§12 design] {{ unit \"Pfg\" amount: winner - loser {} }}",
}


def test_every_keyword_phrase_parses_prints_and_has_prose():
    assert set(CLAUSES_BY_TABLE) == set(keywords.KEYWORDS)
    for table, template in CLAUSES_BY_TABLE.items():
        for word in keywords.KEYWORDS[table]:
            c = clause_of(template.format(word.phrase))
            assert keywords.phrase(table, word.value) == word.phrase
            assert word.phrase in clause_text(c), (table, word.phrase)
            again = clause_of(clause_text(c))
            assert ir.strip_positions(again.model_dump(mode="json")) == ir.strip_positions(c.model_dump(mode="json"))
            assert word.prose and sentence(c), (table, word.value)


def test_the_grammar_takes_its_keyword_rules_from_the_table():
    text = grammar_text()
    lark_file = resources.files("schachett_rules.language").joinpath("schachett.lark").read_text(encoding="utf-8")
    for table, rule in keywords.grammar_rules().items():
        assert rule in text
        assert not re.search(rf"^!?{table}:", lark_file, re.M), f"{table} is spelt in schachett.lark too"


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_grammar_aliases_name_the_ir_node_or_the_rule_they_build():
    nodes = {_snake(n) for n, obj in vars(ir).items() if isinstance(obj, type) and issubclass(obj, ir.Node)}
    text = resources.files("schachett_rules.language").joinpath("schachett.lark").read_text(encoding="utf-8")
    rule = None
    for line in text.splitlines():
        m = re.match(r"^[?!]?([a-z_]+):", line)
        if m:
            rule = m.group(1)
        for alias in re.findall(r"->\s*([a-z_]+)", line):
            ok = any(alias == n or alias.startswith(n + "_") for n in nodes | {rule})
            assert ok, f"alias {alias} (rule {rule}) names neither an IR node nor its rule"


# --- the new clauses print and parse back -----------------------------------------------------------

BASIS = st.just(ir.Basis(cites=("§5 (3p)",), grade=ir.Grade.design))


@given(st.one_of(
    st.builds(ir.CastleWith, basis=BASIS, opposite=st.just(True), partner=st.booleans()),
    st.builds(ir.CastleWith, basis=BASIS, places=st.integers(-12, 12), partner=st.booleans()),
    st.builds(ir.CastleRescue, basis=BASIS,
              events=st.lists(st.sampled_from(["checkmate", "selfmate", "stalemate", "x-y"]), min_size=1,
                              max_size=3).map(tuple)),
))
def test_castle_with_and_castle_rescue_round_trip(c):
    rs = ir.Ruleset(name="x", statements=(ir.ClauseStatement(clause=c),))
    again = parse_ruleset(format_ruleset(rs))
    assert ir.strip_positions(again.model_dump(mode="json")) == ir.strip_positions(rs.model_dump(mode="json"))


# --- grades: a clause is no surer than the least sure of its rules ------------------------------------------

def test_a_capture_clause_graded_surer_than_one_of_its_rules_is_an_error(rules):
    path = rules('ruleset v "V" extends hearts\n'
                 'override capture [hearts:§3 printed] {\n'
                 '    card [hearts:§3 conjecture] takes lower: card of same colour\n'
                 '}\n')
    with pytest.raises(RuleCheckError) as err:
        compiled(path)
    msg = err.value.message
    assert "graded printed, surer than its least sure part (rule card takes lower, conjecture)" in msg
    assert err.value.line == 2


def test_a_capture_clause_as_sure_as_its_least_sure_rule_is_sound(rules):
    path = rules('ruleset v "V" extends hearts\n'
                 'override capture [hearts:§3 conjecture] {\n'
                 '    card [hearts:§3 conjecture] takes lower: card of same colour\n'
                 '}\n')
    assert compiled(path).name == "v"


def test_a_contract_graded_surer_than_one_of_its_clauses_is_an_error(rules):
    path = rules('ruleset v "V" extends schafkopf\n'
                 'contract bettel [schafkopf:§5 printed] "Bettel" {\n'
                 '    partner [schafkopf:§5 design]: none\n'
                 '}\n')
    with pytest.raises(RuleCheckError) as err:
        compiled(path)
    assert "surer than its least sure part (partner, design)" in err.value.message
    assert err.value.clause == "contract bettel" and err.value.line == 2


@pytest.mark.parametrize("name", sorted(known_rulesets()))
def test_every_clause_of_every_ruleset_can_be_dropped(name):
    """`drop KEY` parses for the key of every clause a ruleset has (settle penalties, restriction broken ...), its
    contracts' clauses among them (offer refused, requires ...)."""
    r = load(name)
    keys = {e.key for e in r.clauses} | {ir.clause_key(c) for k in r.contracts for c in k.clauses}
    assert keys
    for key in sorted(keys):
        drop = parse_ruleset(f"ruleset x extends {name}\ndrop {key}\n").statements[-1]
        assert isinstance(drop, ir.Drop) and drop.key == key


def test_s13_a_session_inherited_by_a_table_of_other_size_is_refused(rules):
    # Wendish Schafkopf's session names four players; a three-handed form that keeps it names the wrong table
    path = rules('ruleset v "V" extends wendish-schafkopf\noverride seats [wendish:§6 printed]: 3\n'
                 'override seat names [wendish:§6 design]: "Forehand", "Middlehand", "Rearhand"\n'
                 'override deal [wendish:§6 printed] {\n    hands 10\n    stock 2\n}\n')
    with pytest.raises(RuleCheckError, match=r"the session names 4 players \(A, B, C, D\) but the game is played "
                                             r"by 3; give this ruleset its own session"):
        compiled(path)


def test_s13_the_family_forms_for_three_and_two_name_their_own_players():
    assert default_players(load("dreiwendsch").clause("session"), tables_for("dreiwendsch")) == list("ABC")
    assert default_players(load("officers-schafkopf").clause("session"), tables_for("officers-schafkopf")) == ["A", "B"]
