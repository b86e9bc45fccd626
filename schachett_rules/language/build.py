"""Building the IR during the parse: a method per grammar rule and alias, called as lark's LALR parser reduces it.

The parser makes a :class:`ParseNode` for every rule it reduces, and the node
turns its children into IR as it is made, so the IR grows bottom-up during the
parse; positions are kept (:func:`placing` gives each node its place in the
text), and an error found while building (a range that runs backwards, a tier
out of order) is raised as :class:`BuildError` with the spot it was found at.
"""

from __future__ import annotations

from lark import Token, Tree

from . import ir
from .cards import MAX_CARDS
from .keywords import KEYWORDS, value_of
from .numerals import int_to_roman, roman_to_int
from ..errors import SchachettError

# Expressions deeper than this are refused with a clear error: the IR's JSON form
# (pydantic's reader and writer stop near 200 levels) must stay readable, and
# no rule of the game needs more than a handful of levels.
MAX_EXPR_DEPTH = 64


def _pos(node) -> ir.Pos | None:
    start = node.start
    return None if start is None else ir.Pos(line=start[0], column=start[1])


def _tokpos(tok: Token) -> ir.Pos:
    return ir.Pos(line=tok.line, column=tok.column)


class BuildError(SchachettError):
    """An error found while building the IR, at a known spot of the text."""

    def __init__(self, message: str, pos: ir.Pos | None):
        super().__init__(message)
        self.pos = pos


def _int(tok: Token, text: str | None = None) -> int:
    """A whole number from a token (``text``: the digits, when the token holds more than them)."""
    digits = str(tok) if text is None else text
    try:
        return int(digits)
    except ValueError:  # Python refuses to read numbers of more than 4300 digits
        raise BuildError(f"the number {digits[:8]}… ({len(digits)} digits) is too large", _tokpos(tok)) from None


def _unquote(s: str) -> str:
    body, out, i = s[1:-1], [], 0
    if "\\" not in body:
        return body
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _fields(meta, basis, because) -> dict:
    """The three fields every clause shares."""
    return {"basis": basis, "because": because, "at": _pos(meta)}


class _Deep:
    """An expression while it is being built, with how deeply its operations nest."""

    __slots__ = ("expr", "depth")

    def __init__(self, expr, depth: int, pos: ir.Pos | None):
        if depth > MAX_EXPR_DEPTH:
            raise BuildError(f"this expression nests {depth} operations inside one another (each + of a long sum "
                      f"counts one); at most {MAX_EXPR_DEPTH} are allowed: split it or simplify it", pos)
        self.expr, self.depth = expr, depth


def _expr(value):
    return value.expr


class _Build:
    """Builds IR nodes from the rules the parser reduces; each rule and alias has a method of its name.

    The parser calls :class:`ParseNode` for every rule it reduces, with the
    children already built, so the IR grows bottom-up during the parse: no
    second walk over a tree, and no recursion however deep the text nests.
    """

    # -- small pieces
    def text(self, meta, ch):
        return "".join(_unquote(str(t)) for t in ch)

    def because(self, meta, ch):
        return ch[0]

    def basis(self, meta, ch):
        grade = ch[-1]
        cites = tuple(" ".join(str(c).split()) for c in ch[:-1])
        return ir.Basis(cites=cites, grade=ir.Grade(grade) if grade else None, at=_pos(meta))

    # -- header and statements
    def header(self, meta, ch):
        name, title, parent = ch
        return ("header", str(name), title or "", str(parent) if parent else None)

    def start(self, meta, ch):
        _, name, title, parent = ch[0]
        return ir.Ruleset(name=name, title=title, extends=parent, statements=tuple(ch[1:]))

    def clause_statement(self, meta, ch):
        return ir.ClauseStatement(clause=ch[0])

    def override(self, meta, ch):
        return ir.Override(clause=ch[0], at=_pos(meta))

    # -- deck
    def colour(self, meta, ch):
        return ir.Colour(code=str(ch[0]), name=ch[1], shade=str(ch[2]) if ch[2] else "")

    def colours(self, meta, ch):
        return tuple(ch)

    def face(self, meta, ch):
        sym, name, copies, royal = ch
        value = _int(sym) if str(sym).isdigit() else 0
        return [ir.Face(symbol=str(sym), name=name or "", value=value,
                        copies=_int(copies, str(copies)[1:]) if copies else 1, royal=royal is not None)]

    def face_range(self, meta, ch):
        faces = self._range(ch[0], ch[1])
        if ch[2]:
            copies = _int(ch[2], str(ch[2])[1:])
            faces = [f.model_copy(update={"copies": copies}) for f in faces]
        return faces

    def _range(self, lo_tok, hi_tok):
        lo, hi = str(lo_tok), str(hi_tok)
        if lo.isdigit() and hi.isdigit():
            a, b = _int(lo_tok), _int(hi_tok)
            if a > b:
                raise SchachettError(f"range {lo}..{hi} runs backwards; write the lower end first")
            self._range_size(lo, hi, b - a + 1)
            return [ir.Face(symbol=str(n), value=n) for n in range(a, b + 1)]
        a, b = roman_to_int(lo), roman_to_int(hi)
        if a is None or b is None:
            raise SchachettError(f"range {lo}..{hi} must run between two numbers or two Roman numerals")
        if a > b:
            raise SchachettError(f"range {lo}..{hi} runs backwards; write the lower end first")
        self._range_size(lo, hi, b - a + 1)
        return [ir.Face(symbol=int_to_roman(n), value=n, roman=True) for n in range(a, b + 1)]

    @staticmethod
    def _range_size(lo: str, hi: str, size: int) -> None:
        # Checked before the faces are made: a slip such as 1..10000000 must not build them all.
        if size > MAX_CARDS:
            raise SchachettError(f"range {lo}..{hi} makes {size} faces; a deck holds at most {MAX_CARDS} cards")

    def kind_decl(self, meta, ch):
        faces = tuple(f for group in ch[2:] for f in group)
        return ir.KindDecl(name=str(ch[0]), title=ch[1] or "", faces=faces, at=_pos(meta))

    def deck(self, meta, ch):
        basis, colours, *kinds, because = ch
        return ir.Deck(colours=colours, kinds=tuple(kinds), **_fields(meta, basis, because))

    # -- seats, parties, deal, lead
    def seats(self, meta, ch):
        basis, n, because = ch
        return ir.Seats(count=_int(n), **_fields(meta, basis, because))

    def party_spec_opposite(self, meta, ch):
        return ("opposite", ())

    def party(self, meta, ch):
        return tuple(_int(t) for t in ch)

    def party_spec_explicit(self, meta, ch):
        return ("explicit", tuple(ch))

    def party_spec_holders(self, meta, ch):
        return ("holders", ch[0])

    def party_spec_each(self, meta, ch):
        return ("each", ())

    def parties(self, meta, ch):
        basis, (form, parties), because = ch
        if form == "holders":
            return ir.Parties(holders=parties, **_fields(meta, basis, because))
        if form == "each":
            return ir.Parties(each=True, **_fields(meta, basis, because))
        return ir.Parties(opposite=form == "opposite", parties=parties, **_fields(meta, basis, because))

    def seat_ref_dealer(self, meta, ch):
        return ir.SeatRef(base="dealer", offset=0)

    def seat_ref_plus(self, meta, ch):
        return ir.SeatRef(base="dealer", offset=_int(ch[0]))

    def seat_ref_minus(self, meta, ch):
        return ir.SeatRef(base="dealer", offset=-_int(ch[0]))

    def seat_ref_fixed(self, meta, ch):
        return ir.SeatRef(base="seat", offset=_int(ch[0]))

    def give(self, meta, ch):
        return ir.Give(card=str(ch[0]), to=ch[1], at=_pos(meta))

    def deal_stock(self, meta, ch):
        return _int(ch[0])

    def deal_turn_stock(self, meta, ch):
        return "stock"

    def deal_turn_dealer(self, meta, ch):
        return "dealer"

    def deal_tableau(self, meta, ch):
        return _int(ch[0])

    def deal(self, meta, ch):
        basis, *gives, size, stock, turn, covered, because = ch
        return ir.Deal(gives=tuple(gives), hand_size=_int(size), stock=stock or 0, turn=turn or "",
                       covered=covered or 0, **_fields(meta, basis, because))

    def lead_by(self, meta, ch):
        return ch[0]

    def lead_by_winner(self, meta, ch):
        return "winner"

    def lead_by_holder(self, meta, ch):
        return ("holder", str(ch[0]))

    def lead(self, meta, ch):
        which, basis, by, because = ch
        if by == "winner":
            return ir.Lead(which=which, winner=True, **_fields(meta, basis, because))
        if isinstance(by, tuple):
            return ir.Lead(which=which, holder=by[1], **_fields(meta, basis, because))
        return ir.Lead(which=which, by=by, **_fields(meta, basis, because))

    def restrict_cond_first(self, meta, ch):
        return ("first", True)

    def restrict_cond_before_last(self, meta, ch):
        return ("before_last", True)

    def restrict_cond_until(self, meta, ch):
        return ("until", ch[0])

    def restrict_cond_holding(self, meta, ch):
        return ("holding", ch[0])

    def restrict_act(self, meta, ch):
        return str(ch[0])

    def restriction(self, meta, ch):
        name, basis, act, cards, *conds, because = ch
        given = dict(conds)
        if len(given) != len(conds):
            raise BuildError(f"restriction {name}: a condition is given twice", _pos(meta))
        return ir.Restriction(name=str(name), act=act, cards=cards, **given, **_fields(meta, basis, because))

    def runners(self, meta, ch):
        basis, cards, because = ch
        return ir.Runners(cards=cards, **_fields(meta, basis, because))

    def obligation(self, meta, ch):
        name, basis, cards, led, because = ch
        return ir.Obligation(name=str(name), cards=cards, led=led, **_fields(meta, basis, because))

    def passing(self, meta, ch):
        basis, count, *directions, because = ch
        return ir.Passing(count=_int(count), directions=tuple(directions), **_fields(meta, basis, because))

    def exchange(self, meta, ch):
        basis, who, what, count, because = ch
        return ir.Exchange(who=who, takes=what, discards=_int(count), **_fields(meta, basis, because))

    def bid_colour_turned(self, meta, ch):
        return "turned"

    def bid_colour_not_turned(self, meta, ch):
        return "not-turned"

    def bid_item(self, meta, ch):
        return ir.BidItem(contract=str(ch[0]), colour=ch[1] or "any")

    def bid_group(self, meta, ch):
        return tuple(ch)

    def bid_round(self, meta, ch):
        *groups, mode = ch
        return ir.BidRound(offers=tuple(groups), mode=mode, at=_pos(meta))

    def all_pass_redeal(self, meta, ch):
        return ("redeal", None)

    def all_pass_play(self, meta, ch):
        return ("play", ch[0])

    def all_pass_dealer(self, meta, ch):
        return ("dealer", None)

    def auction(self, meta, ch):
        basis, first, *rest, because = ch
        *rounds, (all_pass, play) = rest
        return ir.Auction(first=first, rounds=tuple(rounds), all_pass=all_pass, play=play,
                          **_fields(meta, basis, because))

    def requires(self, meta, ch):
        basis, how, cards, because = ch
        return ir.Requires(cards=cards, all=how == "all", **_fields(meta, basis, because))

    def requires_exactly(self, meta, ch):
        basis, count, cards, because = ch
        if _int(count) < 1:
            raise BuildError("requires: `holds exactly N of` needs N of at least 1; to ask that a hand hold none of "
                             "some cards, no clause says so yet", _pos(meta))
        return ir.Requires(cards=cards, all=False, exactly=_int(count), **_fields(meta, basis, because))

    def offer(self, meta, ch):
        basis, cards, face, first, count, back, because = ch
        if _int(count) < 1:
            raise BuildError("offer: the taker gives back at least one card (`taker gives back 1 of ...`), so that "
                             "both hands keep their size", _pos(meta))
        return ir.Offer(cards=cards, face_up=face == "up", first=first, back_count=_int(count), back=back,
                        **_fields(meta, basis, because))

    def offer_refused(self, meta, ch):
        basis, outcome, because = ch
        return ir.OfferRefused(outcome=outcome, **_fields(meta, basis, because))

    def call_condition_not_held(self, meta, ch):
        return "not-held"

    def call_condition_colour_held(self, meta, ch):
        return "colour-held"

    def call_condition_held(self, meta, ch):
        return "held"

    def call_rule(self, meta, ch):
        basis, cards, *conditions, because = ch
        conditions = [c for c in conditions if c is not None]
        if "held" in conditions and "not-held" in conditions:
            raise BuildError("call: a card cannot be both held and not held by the declarer; keep one of `where "
                             "held` and `where not held`", _pos(meta))
        return ir.CallRule(cards=cards, not_held="not-held" in conditions, colour_held="colour-held" in conditions,
                           held="held" in conditions, **_fields(meta, basis, because))

    def partner_clause(self, meta, ch):
        basis, who, because = ch
        return ir.Partner(who=who, **_fields(meta, basis, because))

    def sit_out(self, meta, ch):
        basis, because = ch
        return ir.SitOut(**_fields(meta, basis, because))

    def value(self, meta, ch):
        name, basis, amount, because = ch
        return ir.Value(name=str(name), amount=_expr(amount), **_fields(meta, basis, because))

    def game_points_line(self, meta, ch):
        return (ch[0], _expr(ch[1]))

    def lowest_wins(self, meta, ch):
        return True

    def game_target(self, meta, ch):
        return ("target", _int(ch[0]), bool(ch[1]))

    def game_points(self, meta, ch):
        basis, *lines, because = ch
        target = next((x for x in lines if x is not None and x[0] == "target"), None)
        lines = [x for x in lines if x is not None and x[0] != "target"]
        who = dict(lines)
        if len(who) != len(lines):
            raise BuildError("game points: each line says the points of different parties; one is given twice",
                             _pos(meta))
        return ir.GamePoints(declarer=who.get("declarer"), others=who.get("others"), each=who.get("each"),
                             target=target[1] if target else None, lowest_wins=bool(target and target[2]),
                             **_fields(meta, basis, because))

    # -- ranking, capture, ties, follow, selectors
    def rank_group(self, meta, ch):
        return tuple(t if isinstance(t, ir.Selector) else str(t) for t in ch)

    def card_class(self, meta, ch):
        name, basis, cards, because = ch
        return ir.CardClass(name=str(name), cards=cards, **_fields(meta, basis, because))

    def ranking(self, meta, ch):
        basis, *groups, because = ch
        return ir.Ranking(groups=tuple(groups), **_fields(meta, basis, because))

    def colour_rel(self, meta, ch):
        words = [str(c) for c in ch]
        return "trump-shade" if words[-1] == "shade" else words[1]

    def atom_any(self, meta, ch):
        return ir.Atom(what="any", colour=ch[1] or "any", at=_tokpos(ch[0]))

    def atom_royal(self, meta, ch):
        return ir.Atom(what="royal", colour=ch[1] or "any", at=_tokpos(ch[0]))

    def atom_kind(self, meta, ch):
        return ir.Atom(what="kind", name=str(ch[0]), colour=ch[1] or "any", at=_tokpos(ch[0]))

    def atom_face(self, meta, ch):
        return ir.Atom(what="face", name=str(ch[0]), colour=ch[1] or "any", at=_tokpos(ch[0]))

    def atom_card(self, meta, ch):
        return ir.Atom(what="card", name=str(ch[0]), at=_tokpos(ch[0]))

    def term(self, meta, ch):
        return ir.Term(base=ch[0], minus=tuple(ch[1:]))

    def selector(self, meta, ch):
        return ir.Selector(terms=tuple(ch))

    def capture_rule(self, meta, ch):
        taker, basis, direction, victims = ch
        return ir.CaptureRule(taker=str(taker), direction=direction, victims=victims, basis=basis, at=_pos(meta))

    def capture(self, meta, ch):
        basis, *rules, because = ch
        return ir.Capture(rules=tuple(rules), **_fields(meta, basis, because))

    def tie_rule(self, meta, ch):
        return ir.TieRule(kind=str(ch[0]), rule=ch[1], at=_pos(meta))

    def ties(self, meta, ch):
        basis, *rules, because = ch
        return ir.Ties(rules=tuple(rules), **_fields(meta, basis, because))

    def tier(self, meta, ch):
        return (_int(ch[0]), ch[1], _tokpos(ch[0]))

    def follow(self, meta, ch):
        name, basis, *tiers, because = ch
        for want, (number, _, pos) in enumerate(tiers, start=1):
            if number != want:
                raise BuildError(f"follow tiers must be numbered 1, 2, 3, … in order; found {number} where {want} belongs", pos)
        return ir.Follow(led=str(name), tiers=tuple(t[1] for t in tiers), **_fields(meta, basis, because))

    # -- promotion, points
    def promote(self, meta, ch):
        return ir.Promote(face=str(ch[0]), as_face=str(ch[1]))

    def promotion(self, meta, ch):
        basis, *promotes, because = ch
        return ir.Promotion(promotes=tuple(promotes), **_fields(meta, basis, because))

    def promoted(self, meta, ch):
        return True

    def points_entry(self, meta, ch):
        return ir.PointsEntry(cards=ch[0], points=_expr(ch[1]), at=_pos(meta))

    def points(self, meta, ch):
        promoted, basis, *entries, because = ch
        return ir.Points(promoted=bool(promoted), entries=tuple(entries), **_fields(meta, basis, because))

    # -- King events
    def remaining(self, meta, ch):
        basis, scope, because = ch
        return ir.Remaining(scope=scope, **_fields(meta, basis, because))

    def king_event(self, meta, ch):
        name, basis, when, scorer, first, later, because = ch
        return ir.KingEvent(name=str(name), when=when, scores=scorer, first=_expr(first), later=_expr(later),
                            **_fields(meta, basis, because))

    def king_order(self, meta, ch):
        basis, count, same, because = ch
        return ir.KingOrder(count=count, same_trick=same, **_fields(meta, basis, because))

    # -- settlement, penalties, review
    def settle_wins(self, meta, ch):
        return _expr(ch[0])

    def settlement(self, meta, ch):
        basis, unit, wins, amount, per, because = ch
        return ir.Settlement(unit=unit, amount=_expr(amount), per=per, wins=wins, **_fields(meta, basis, because))

    def penalty_effect_pays(self, meta, ch):
        return ("pays", _int(ch[0]), ch[1])

    def penalty_effect_forfeit(self, meta, ch):
        return ("forfeit",)

    def penalty_effect_take_back(self, meta, ch):
        return ("take_back",)

    def penalty(self, meta, ch):
        name, basis, offence, *effects, because = ch
        kw: dict = {}
        for eff in effects:
            if eff[0] == "pays":
                kw["pays"], kw["to"] = eff[1], eff[2]
            else:
                kw[eff[0]] = True
        return ir.Penalty(name=str(name), offence=offence, **kw, **_fields(meta, basis, because))

    def tricks_word(self, meta, ch):
        return str(ch[0])

    def review(self, meta, ch):
        basis, n, _, because = ch
        return ir.Review(tricks=_int(n), **_fields(meta, basis, because))

    def memory(self, meta, ch):
        basis, kind, because = ch
        return ir.Memory(keeps=kind, **_fields(meta, basis, because))

    # -- sessions
    def stop(self, meta, ch):
        return True

    def reign(self, meta, ch):
        rounds, *seats, dummy = ch
        return ir.Reign(rounds=_int(rounds), seats=tuple(_int(x) for x in seats), dummy=_int(dummy))

    def seat_change(self, meta, ch):
        return ir.SeatChange(rounds=ch[0], after_a=_int(ch[1]), at=_pos(meta))

    def seat_change_swap(self, meta, ch):
        return ir.SeatChange(rounds=ch[0], seats=(_int(ch[1]), _int(ch[2])), at=_pos(meta))

    def session(self, meta, ch):
        basis, players, games, rounds, stop, reign, *changes, because = ch
        return ir.Session(games_per_round=_int(games), rounds_per_cycle=_int(rounds), stop_after_cycle=bool(stop),
                          reign=reign, changes=tuple(changes), players=players or (),
                          **_fields(meta, basis, because))

    def first_dealer(self, meta, ch):
        return _int(ch[0])

    def dealer(self, meta, ch):
        basis, first, direction, because = ch
        return ir.Dealer(first=first, passes=direction, **_fields(meta, basis, because))

    # -- castling
    def castling_none(self, meta, ch):
        basis, because = ch
        return ir.Castling(mode="none", **_fields(meta, basis, because))

    def castler(self, meta, ch):
        return ch[0]

    def castler_king_holder(self, meta, ch):
        return "holder"

    def permit_when_before(self, meta, ch):
        return ("before", None)

    def permit_when_after(self, meta, ch):
        return ("after", _int(ch[0]))

    def permit_when_rescue(self, meta, ch):
        return ("rescue", _int(ch[0]))

    def permit_when_rescue_any(self, meta, ch):
        return ("rescue", None)

    def permit(self, meta, ch):
        *who, (when, trick) = ch
        seats = tuple(w for w in who if w != "holder")
        return ir.Permit(who=seats, king_holder="holder" in who, when=when, trick=trick, at=_pos(meta))

    def castling(self, meta, ch):
        basis, *permits, because = ch
        return ir.Castling(mode="rules", permits=tuple(permits), **_fields(meta, basis, because))

    def castle_officer(self, meta, ch):
        basis, officer, because = ch
        return ir.CastleOfficer(officer=officer, **_fields(meta, basis, because))

    def castle_limit(self, meta, ch):
        basis, limit, because = ch
        return ir.CastleLimit(limit=limit, **_fields(meta, basis, because))

    def partner(self, meta, ch):
        return True

    def reach_opposite(self, meta, ch):
        return {"opposite": True}

    def reach_places(self, meta, ch):
        n = _int(ch[0])
        return {"places": n if ch[1] == "left" else -n}

    def castle_with(self, meta, ch):
        basis, partner, reach, because = ch
        return ir.CastleWith(partner=bool(partner), **reach, **_fields(meta, basis, because))

    def castle_king(self, meta, ch):
        basis, takes, because = ch
        return ir.CastleKing(takes=takes, **_fields(meta, basis, because))

    def stake(self, meta, ch):
        basis, per, because = ch
        return ir.Stake(per=per, **_fields(meta, basis, because))

    def settle_penalties(self, meta, ch):
        basis, rounding, because = ch
        return ir.SettlePenalties(rounding=rounding, **_fields(meta, basis, because))

    def castle_rescue(self, meta, ch):
        basis, *events, because = ch
        return ir.CastleRescue(events=tuple(str(e) for e in events), **_fields(meta, basis, because))

    def one_hand(self, meta, ch):
        return True

    def dummy(self, meta, ch):
        basis, seat, by, after, one_hand, because = ch
        return ir.Dummy(seat=_int(seat), by=_int(by), exposed_after=_int(after), one_hand_at_a_time=bool(one_hand),
                        **_fields(meta, basis, because))

    def seat_list(self, meta, ch):
        return tuple(_int(x) for x in ch)

    def never_castle(self, meta, ch):
        return "never"

    def pass_rule(self, meta, ch):
        return ch[0]

    def bid_rule_never(self, meta, ch):
        return "never"

    def bid_rule_forced(self, meta, ch):
        return "forced"

    def lay_rule(self, meta, ch):
        return ch[-1]

    def calling_rule(self, meta, ch):
        return ch[-1]

    def automaton(self, meta, ch):
        basis, seats, policy, passes, bids, lays, calls, castles, because = ch
        return ir.Automaton(seats=seats, policy=policy, passes=passes, bids=bids, lays_away=lays, calls=calls,
                            castles=castles,
                            **_fields(meta, basis, because))

    def castle_moment(self, meta, ch):
        basis, castles, because = ch
        return ir.CastleMoment(castles=castles, **_fields(meta, basis, because))

    def seat_names(self, meta, ch):
        basis, *names, because = ch
        return ir.SeatNames(names=tuple(_unquote(str(n)) for n in names), **_fields(meta, basis, because))

    def party_names(self, meta, ch):
        basis, *names, because = ch
        return ir.PartyNames(names=tuple(_unquote(str(n)) for n in names), **_fields(meta, basis, because))

    def players(self, meta, ch):
        return tuple(_unquote(str(n)) for n in ch)

    # -- lacunae
    def evidence(self, meta, ch):
        return ir.Evidence(basis=ch[0], quote=ch[1], at=_pos(meta))

    def option(self, meta, ch):
        name, basis, summary, *clauses = ch
        return ir.Option(name=str(name), basis=basis, summary=summary, clauses=tuple(clauses), at=_pos(meta))

    def each_colour(self, meta, ch):
        return True

    def contract(self, meta, ch):
        name, basis, title, each, like, *clauses = ch
        return ir.Contract(name=str(name), basis=basis, title=title, each_colour=bool(each),
                           like=str(like) if like else None, clauses=tuple(clauses), at=_pos(meta))

    def lacuna(self, meta, ch):
        name, basis, question, *rest = ch
        evidence = tuple(x for x in rest if isinstance(x, ir.Evidence))
        options = tuple(x for x in rest if isinstance(x, ir.Option))
        return ir.Lacuna(name=str(name), basis=basis, question=question, evidence=evidence,
                         options=options, at=_pos(meta))

    def choose(self, meta, ch):
        return ir.Choose(lacuna=str(ch[0]), option=str(ch[1]), because=ch[2], at=_pos(meta))

    def drop(self, meta, ch):
        return ch[0]

    def drop_topic(self, meta, ch):
        return str(ch[0])

    def drop_name(self, meta, ch):
        return str(ch[0])

    def drop_castle_king(self, meta, ch):
        return ir.Drop(key="castle king", at=_pos(meta))

    def drop_game_points(self, meta, ch):
        return ir.Drop(key="game points", at=_pos(meta))

    def drop_section(self, meta, ch):
        return ir.Drop(section=" ".join(str(ch[0]).split()), at=_pos(meta))

    def drop_lacuna(self, meta, ch):
        return ir.Drop(lacuna=str(ch[0]), at=_pos(meta))

    def drop_contract(self, meta, ch):
        return ir.Drop(contract=str(ch[0]), at=_pos(meta))

    def drop_key(self, meta, ch):
        topic, name = ch
        key = f"{topic} {name}" if name else topic
        return ir.Drop(key=key, at=_pos(meta))

    # -- expressions: built as _Deep, which counts how deeply they nest
    def num(self, meta, ch):
        return _Deep(ir.Num(value=_int(ch[0])), 1, None)

    def name(self, meta, ch):
        return _Deep(ir.Name(name=str(ch[0]), at=_tokpos(ch[0])), 1, None)

    def call(self, meta, ch):
        pos = _tokpos(ch[0])
        # a call is two levels of the IR's JSON: the node and its list of arguments
        return _Deep(ir.Call(fn=str(ch[0]), args=tuple(a.expr for a in ch[1:]), at=pos),
                     2 + max(a.depth for a in ch[1:]), pos)

    def neg(self, meta, ch):
        return _Deep(ir.Neg(operand=ch[0].expr), ch[0].depth + 1, _pos(meta))

    def _bin(op):  # noqa: N805 - a factory used while building the class
        def method(self, meta, ch):
            return _Deep(ir.BinOp(op=op, left=ch[0].expr, right=ch[1].expr),
                         max(ch[0].depth, ch[1].depth) + 1, _pos(meta))
        return method

    bin_op_add, bin_op_sub, bin_op_mul, bin_op_div = _bin("+"), _bin("-"), _bin("*"), _bin("/")

    def bin_op_cmp(self, meta, ch):
        left, op, right = ch
        return _Deep(ir.BinOp(op=str(op), left=left.expr, right=right.expr), max(left.depth, right.depth) + 1,
                     _pos(meta))


def _keyword(table: str):
    def method(self, meta, ch):
        return value_of(table, " ".join(str(t) for t in ch).replace(" ,", ","))
    method.__name__ = table
    return method


for _table in KEYWORDS:
    setattr(_Build, _table, _keyword(_table))

_BUILD = _Build()


class ParseNode(Tree):
    """The parser's node: its children are built into IR as the node is made.

    When the parser reduces a rule it makes a node of this class from the
    rule's children; each child that is itself a node has its position by then
    (:func:`placing` sets it once the child is made), so it is turned into IR here.
    ``start`` is where the node's own text begins, ``container`` where the text
    of the rule that made it begins (further left when the rule's node is one of
    its children, as an expression in brackets is); both are (line, column), or
    None for a rule that matched no text.
    """

    __slots__ = ()
    start: tuple[int, int] | None = None
    container: tuple[int, int] | None = None

    def __init__(self, data, children, meta=None):
        super().__init__(data, [c.build() if type(c) is ParseNode else c for c in children], meta)

    def build(self):
        """This node as IR (or as the piece of IR its rule makes)."""
        try:
            return getattr(_BUILD, self.data)(self, self.children)
        except BuildError:
            raise
        except SchachettError as err:
            raise BuildError(err.message, _pos(self)) from None


def placing(reduce):
    """A parser callback of one rule, wrapped to give the node it makes its place in the text.

    A node begins where its first child that takes up text begins: a token, or
    a node of a rule that matched some text (where that rule's text begins).
    This is the start lark's ``propagate_positions`` gives; the end it also
    works out is never read, and leaving it out makes parsing a fifth faster.

    >>> from lark import Token
    >>> inner = placing(lambda ch: ParseNode("x", []))([Token("NAME", "a", line=3, column=5)])
    >>> outer = placing(lambda ch: ch[1])([Token("LPAR", "(", line=3, column=4), inner])
    >>> outer is inner, inner.start, inner.container
    (True, (3, 5), (3, 4))
    """
    def placed(children):
        node = reduce(children)
        if type(node) is ParseNode:
            for c in children:
                if type(c) is ParseNode:
                    if c.container is not None:
                        start = c.container
                        break
                elif isinstance(c, Token):
                    start = (c.line, c.column)
                    break
            else:
                return node
            if node.start is None:
                node.start = start
            node.container = start
        return node
    return placed
