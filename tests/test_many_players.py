"""Schachett for six and eight players with two decks (variants/six-players and eight-players).

The rule files are new designs on top of the reconstruction. These tests check
what their design promises (the deck, the seats, the parties, four Kings face up
to four neighbours, castling only with a partner's hand), then
play thousands of random games through the engine and check every game against
the rules as written out here: every card played once, the hand sizes, the
winner of each trick from the capture relation, the card points, the four King
events and their points, and a settlement that sums to zero. Constructed deals
put two identical cards in one trick, and all four Kings in one trick.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from schachett_rules.language import ir
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.deal import names_of
from schachett_rules.rules.loader import load
from schachett_rules.engine.replay import GameRecord, record_of, replay
from schachett_rules.simulation.simulate import Spec, run
from schachett_rules.kernel.streams import GameStream

from .conftest import deal_with

RULESETS = ["six-players", "eight-players"]
SEATS = {"six-players": 6, "eight-players": 8}
HAND = {"six-players": 17, "eight-players": 13}
CARD_POINTS = 432            # two decks' §12 points (2 × 216); the two I's left out of six-players score nothing
EVENTS = {"opponent": ("checkmate", 100, 6), "partner": ("selfmate", 50, 4), "self": ("stalemate", 25, 2)}
GAMES = 4000                 # engine games per ruleset, each checked card by card


def expected_deck(name: str) -> Counter:
    """§1 twice over: every face twice; six-players leaves out one deck's suit card I in each colour."""
    faces = {"K": 2, "D": 2, "T": 4, "L": 4, "S": 4}
    faces.update({str(v): 2 for v in range(1, 9)})
    faces.update({r: 2 for r in ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")})
    if name == "six-players":
        faces["I"] = 1
    return Counter({c + f: n for c in "ws" for f, n in faces.items()})


def round_half_up(x: Fraction) -> Fraction:
    return Fraction(int(x + Fraction(1, 2))) if x >= 0 else -round_half_up(-x)


# --- the design, as the rule files state it --------------------------------------------------------

@pytest.mark.parametrize("name", RULESETS)
def test_deck_seats_parties_and_kings_face_up(name):
    t = tables_for(name)
    n = SEATS[name]
    deck = Counter(t.deck.card_name(c) for c in range(t.n_cards))
    assert deck == expected_deck(name)
    assert t.n_cards == (102 if name == "six-players" else 104)
    assert (t.n_seats, t.hand_size, t.n_tricks) == (n, HAND[name], HAND[name])
    assert t.parties == (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
    assert sum(t.points[t.deck.card_face[c]] for c in range(t.n_cards)) == CARD_POINTS
    # four Kings face up to four neighbours, alternately white and black: two to each party
    given = [(t.deck.card_name(c), base, off) for c, base, off in t.given_cards]
    assert given == [("wK", "dealer", 0), ("sK", "dealer", 1), ("wK", "dealer", 2), ("sK", "dealer", 3)]
    # no card takes its own twin (§2: the first played of two equal cards holds), in any trick
    assert all(not (t.beats[f] >> f & 1) and not (t.beats_last[f] >> f & 1) for f in range(t.n_faces))


def test_castling_stays_inside_the_party():
    six, eight = tables_for("six-players"), tables_for("eight-players")
    # at six seats the hand opposite is an opponent's, so the castle reaches the partner two places right:
    # seat 0 reaches 4, 1 reaches 5, 2 reaches 0, ... (a hand calculation of seat - 2 mod 6)
    assert all(six.party_of[s] != six.party_of[six.opposite(s)] for s in range(6))
    assert six.castling.with_seat == (4, 5, 0, 1, 2, 3)
    assert all(six.party_of[s] == six.party_of[six.castling.partner_for(s)] for s in range(6))
    # at eight it is a partner's, and the reconstruction's reading of §5 (3p) stands
    assert all(eight.party_of[s] == eight.party_of[eight.opposite(s)] for s in range(8))
    assert eight.castling is not None and load("eight-players").choice("castling") == "as-three-player"


@pytest.mark.parametrize("name", RULESETS)
def test_new_clauses_are_design_with_a_reason_and_every_reading_compiles(name):
    r = load(name)
    own = [e for e in r.clauses if e.origin.ruleset == name]
    assert {e.key for e in own} >= {"deck", "seats", "parties", "deal", "ties", "king order", "session"}
    for e in own:
        assert e.clause.basis.grade == "design", e.key
        assert e.clause.because, e.key
        assert e.clause.basis.cites, e.key
    for chosen in r.lacunae:
        for option in chosen.lacuna.options:
            t = compile_ruleset(load(name, {chosen.lacuna.name: option.name}))
            game = State.deal(t, 0, GameStream(5, 0))
            game.play_randomly(GameStream(5, 1))
            assert len(game.result().events) == 4, (chosen.lacuna.name, option.name)


@pytest.mark.parametrize("name", RULESETS)
def test_session_partners_every_pair_equally(name):
    from schachett_rules.engine.session import partner_counts, seatings
    session = load(name).clause("session")
    n = SEATS[name]
    players = [chr(65 + i) for i in range(n)]
    rows = seatings(session, players, n)
    assert session.games_per_round == n                      # everyone deals once a round
    counts = partner_counts(session, players, tables_for(name).parties)
    assert len(set(counts.values())) == 1 and min(counts.values()) > 0
    splits = {frozenset(frozenset(row[s] for s in p) for p in tables_for(name).parties) for row in rows}
    assert len(splits) == len(rows)                          # no split is played twice in a cycle


# --- thousands of random games, each checked --------------------------------------------------------

def check_game(t, game: State, dealer: int) -> None:
    n, size = t.n_seats, t.hand_size
    dealt = [list(h) for h in game.log[0].hands]
    # the deal: hand sizes, the whole deck, the Kings face up to four neighbours
    assert [len(h) for h in dealt] == [size] * n
    assert Counter(c for h in dealt for c in h) == Counter(t.deck.card_name(c) for c in range(t.n_cards))
    for k, king in enumerate(("wK", "sK", "wK", "sK")):
        assert king in dealt[(dealer + k) % n], (dealer, k)
    # castling moves a King and an officer between partners' hands; apply the exchanges to the deal
    held = [Counter(h) for h in dealt]
    for c in game.castles:
        assert t.party_of[c.seat] == t.party_of[c.with_seat] and c.with_seat == t.castling.partner_for(c.seat)
        held[c.seat] -= Counter([c.king])
        held[c.seat] += Counter([c.officer])
        held[c.with_seat] -= Counter([c.officer])
        held[c.with_seat] += Counter([c.king])
    # every card played once, each seat its own cards, one card per seat per trick
    assert len(game.tricks) == size and game.over
    for tr in game.tricks:
        assert sorted(s for s, _ in tr.cards) == list(range(n))
    assert Counter(c for tr in game.tricks for _, c in tr.cards) == Counter(c for h in dealt for c in h)
    for seat in range(n):
        assert Counter(c for tr in game.tricks for s, c in tr.cards if s == seat) == held[seat]
    # leads (§10.1) and the winner of each trick from the capture relation (§2, §11 in the last)
    assert game.tricks[0].leader == (dealer + 1) % n
    for a, b in zip(game.tricks, game.tricks[1:]):
        assert b.leader == a.winner
    for tr in game.tricks:
        assert tr.cards[0][0] == tr.leader
        beats = t.beats_last if tr.last else t.beats
        wseat, wface = tr.cards[0][0], t.face(tr.cards[0][1])
        for seat, c in tr.cards[1:]:
            if beats[t.face(c)] >> wface & 1:
                wseat, wface = seat, t.face(c)
        assert (tr.winner, tr.winning_card) == (wseat, t.deck.face_names[wface])
    # card points: the two decks' 432, plus what promotion adds in the last trick (§11, §12)
    result = game.result()
    last = game.tricks[-1]
    extra = sum(t.points_last[t.face(c)] - t.points[t.face(c)] for _, c in last.cards)
    assert extra >= 0
    assert sum(result.card_points) == sum(tr.points for tr in game.tricks) == CARD_POINTS + extra
    # four King events, one for each King; the first gets the bonus, the others the multiple alone
    events = result.events
    assert sorted(e.king for e in events) == ["sK", "sK", "wK", "wK"]
    assert [e.order for e in events] == ["first", "later", "later", "later"]
    assert [e.trick for e in events] == sorted(e.trick for e in events)
    for i, e in enumerate(events):
        tr = game.tricks[e.trick - 1]
        assert (e.owner, e.king) in tr.cards and e.taker == tr.winner
        fate = ("self" if e.owner == e.taker else
                "partner" if t.party_of[e.owner] == t.party_of[e.taker] else "opponent")
        name, bonus, multiple = EVENTS[fate]
        remaining = size - (e.trick - 1)
        assert e.event == name
        assert e.points == (bonus if i == 0 else 0) + multiple * remaining
        owner_party = t.party_of[e.owner]
        scorer = {"opponent": t.party_of[e.taker], "self": owner_party, "partner": 1 - owner_party}[fate]
        assert e.scoring_parties == (scorer,)
    # totals and the settlement of §12: a quarter of the difference to and from every player, summing to zero
    event_points = [sum(e.points for e in events if e.scoring_parties == (p,)) for p in (0, 1)]
    assert list(result.totals) == [result.card_points[p] + event_points[p] for p in (0, 1)]
    money = [Fraction(m) for m in result.settlement]
    assert sum(money) == 0
    if result.totals[0] == result.totals[1]:
        assert result.winner is None and not any(money)
    else:
        w = 0 if result.totals[0] > result.totals[1] else 1
        amount = round_half_up(Fraction(result.totals[w] - result.totals[1 - w], 4))
        assert result.winner == w
        assert money == [amount if t.party_of[s] == w else -amount for s in range(n)]


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_random_games_keep_every_invariant(name):
    t = tables_for(name)
    identical = castled = 0
    for i in range(GAMES):
        dealer = i % t.n_seats
        stream = GameStream(1888, i)
        game = State.deal(t, dealer, stream)
        game.play_randomly(stream)
        check_game(t, game, dealer)
        castled += bool(game.castles)
        identical += any(len(set(c for _, c in tr.cards)) < len(tr.cards) for tr in game.tricks)
    assert identical >= GAMES * 9 // 10  # two identical cards meet in some trick of (nearly) every game
    if name == "eight-players":
        assert castled > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_simulation_run_four_king_events_and_zero_sum(name):
    games = 2000
    s = run(Spec(ruleset=name, games=games, seed=7))
    assert s.games == games and sum(s.wins) + s.draws == games
    assert s.events_per_game == {4: games}
    assert sum(s.first_events.values()) == games                   # one first King a game
    assert sum(sum(v) for v in s.events_by_trick.values()) == 4 * games
    assert sum(m.total for m in s.seat_money) == 0
    assert sum(m.total for m in s.position_money) == 0


# --- constructed deals ------------------------------------------------------------------------------

def play_trick(game: State, cards: list[str]):
    for card in cards:
        game.play(card)
    if game.pending is not None:
        game.gather()
    return game.tricks[-1]


def ties_variant(rules, name: str, outcome: str) -> str:
    """The ruleset itself, or a variant of it whose ties clause lets the later of two equal cards take."""
    if outcome == "first":
        return name
    return str(rules(f"ruleset later-{name} \"test\" extends {name}\n"
                     "override ties [§2 design] { any: later played takes }\n", f"later-{name}"))


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("outcome", ["first", "later"])
@pytest.mark.parametrize("twin, others", [
    ("w7", ["w1", "w1", "w2", "w2", "w3", "w3"]),     # a pawn and its twin, the others follow lower
    ("sD", ["wS", "wS", "sS", "sS", "wS", "wS"]),     # a Dame and hers, the others give Knights
])
def test_identical_cards_in_one_trick_follow_the_ties_clause(rules, name, outcome, twin, others):
    """Seat 0 leads a card, seat 1 plays its twin: under §2 (design) the first played holds."""
    ref = ties_variant(rules, name, outcome)
    t = compile_ruleset(load(ref))
    n = t.n_seats
    dealer = n - 1                                       # seat 0 leads the first trick
    fixed = {0: [twin], 1: [twin]}
    for seat in range(2, n):
        fixed[seat] = [others[seat - 2]]
    game = State.from_record(t, dealer, deal_with(t, dealer, fixed))
    tr = play_trick(game, [twin, twin] + others[:n - 2])
    assert tr.cards[0] == (0, twin) and tr.cards[1] == (1, twin)
    if outcome == "first":
        assert (tr.winner, tr.winning_card) == (0, twin)
        assert tr.why[0] == f"{twin} does not take {twin}: of two equal cards the first played holds (§2)"
    else:
        assert (tr.winner, tr.winning_card) == (1, twin)
        assert tr.why[0] == f"{twin} takes {twin}: of two equal cards the later played takes (§2)"


@pytest.mark.parametrize("name", RULESETS)
def test_a_record_naming_a_twin_plays_one_copy_and_replays(name):
    t = tables_for(name)
    n = t.n_seats
    dealer = n - 1
    hands = deal_with(t, dealer, {0: ["wT", "wT", "w5"], 1: ["w4"]})
    game = State.from_record(t, dealer, hands)
    before = Counter(names_of(t, game.hands[0]))["wT"]
    assert before >= 2
    rec = game.play("wT")
    assert rec.card == "wT"
    assert Counter(names_of(t, game.hands[0]))["wT"] == before - 1    # one copy played, the others kept
    game.play_randomly(GameStream(3, 0))
    check_game(t, game, dealer)
    record = record_of(game, name)
    assert record.actions[0] == "wT"
    again = replay(GameRecord.model_validate(json.loads(record.model_dump_json())))
    assert [(tr.cards, tr.winner) for tr in again.tricks] == [(tr.cards, tr.winner) for tr in game.tricks]
    assert again.result == game.result()


@pytest.mark.parametrize("name", RULESETS)
def test_four_kings_in_one_trick_first_gets_the_bonus(name):
    """All four Kings fall in trick 1, taken by a Knight: the first King played scores 100 + 6 × remaining,
    the other three the multiple alone, in play order."""
    t = tables_for(name)
    n, size = t.n_seats, t.hand_size
    dealer = n - 1           # wK to seat n-1, sK to seat 0 (who leads), wK to seat 1, sK to seat 2
    knights = ["sS"] + ["wS", "wS", "sS"][:n - 5]
    plays = ["sK", "wK", "sK"] + knights + ["wK"]
    fixed = {seat: [card] for seat, card in enumerate(plays)}
    game = State.from_record(t, dealer, deal_with(t, dealer, fixed))
    tr = play_trick(game, plays)
    assert tr.winner == 3 and t.party_of[3] == 1           # the first Knight takes the trick
    got = [(e.owner, e.king, e.event, e.order, e.points, e.scoring_parties) for e in tr.events]
    assert got == [
        (0, "sK", "checkmate", "first", 100 + 6 * size, (1,)),     # taken by an opponent
        (1, "wK", "selfmate", "later", 4 * size, (0,)),             # taken by a partner: the other party scores
        (2, "sK", "checkmate", "later", 6 * size, (1,)),
        (n - 1, "wK", "selfmate", "later", 4 * size, (0,)),
    ]
