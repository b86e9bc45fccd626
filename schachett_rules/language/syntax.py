"""Parsing rule files: the Lark grammar, friendly syntax errors, and the tree-to-IR transformer.

>>> rs = parse_ruleset('ruleset demo "A demo" seats [§1 printed]: 4')
>>> rs.name, rs.statements[0].clause.count
('demo', 4)
"""

from __future__ import annotations

import functools
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ir
from .cards import MAX_CARDS
from ..errors import RuleSyntaxError, SchachettError

ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_to_int(symbol: str) -> int | None:
    """The value of a Roman numeral made of I, V, X, L, C, or None.

    >>> roman_to_int("IX"), roman_to_int("VIII"), roman_to_int("K")
    (9, 8, None)
    """
    if not symbol or any(ch not in ROMAN for ch in symbol):
        return None
    total = 0
    for i, ch in enumerate(symbol):
        v = ROMAN[ch]
        total += -v if i + 1 < len(symbol) and ROMAN[symbol[i + 1]] > v else v
    return total if int_to_roman(total) == symbol else None


def int_to_roman(n: int) -> str:
    """A Roman numeral for 1 ≤ n < 400.

    >>> int_to_roman(4), int_to_roman(10)
    ('IV', 'X')
    """
    out = []
    for value, sym in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                       (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)


@functools.lru_cache(maxsize=1)
def grammar() -> Lark:
    """The compiled LALR parser for the rule language (built once)."""
    text = resources.files("schachett_rules.language").joinpath("schachett.lark").read_text(encoding="utf-8")
    # cache=True keeps the built parser tables in the temp folder: the command line starts faster.
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=True)


# --- errors in words --------------------------------------------------------

# Known mistakes, each with snippets that fail in the same parser state.
# The first matching label is the message shown.
MISTAKES: dict[str, list[str]] = {
    "a clause's basis is followed by ':' (for example `seats [§1 printed]: 4`)": [
        "ruleset x seats [§1 printed] 4",
        "ruleset x ranking [§2 printed] D > T",
        "ruleset x remaining [§6 printed] each hand",
    ],
    "a citation looks like §3.2, §4,4 (3p), p.15 or foreword": [
        "ruleset x seats [3.2 printed]: 4",
        "ruleset x seats [s3 printed]: 4",
        "ruleset x seats []: 4",
    ],
    "the grade must be one of printed, uncertain, inferred, ai, conjecture, design": [
        "ruleset x seats [§1 sure]: 4",
        "ruleset x seats [§1 certain]: 4",
    ],
    "copies are written ×2 after the face's name (for example `T \"Rook\" ×2`)": [
        'ruleset x deck [§1 printed] { colours w "white" officer: T "Rook" x2 }',
        'ruleset x deck [§1 printed] { colours w "white" officer: T "Rook" 2 }',
    ],
    "ranks are separated by '>' (or '=' for equal ranks)": [
        "ruleset x ranking [§2 printed]: D, T",
        "ruleset x ranking [§2 printed]: D < T",
        "ruleset x ranking [§2 printed]: D T",
    ],
    "follow tiers are numbered: `1: officer  2: any`": [
        "ruleset x follow officer [§3.1 printed] { officer }",
        "ruleset x follow officer [§3.1 printed] { any }",
    ],
    "`choose` names a lacuna and one of its options: `choose deal kings-face-up`": [
        "ruleset x choose deal",
    ],
    "a rule file starts with `ruleset NAME \"Title\"`": [
        "seats [§1 printed]: 4",
        "ruleset",
        "ruleset X",
    ],
}

TERMINAL_WORDS = {
    "CITE": "a citation such as §3.2",
    "NAME": "a name in lower case",
    "FACE": "a face such as D, 8 or IV",
    "CARD": "a card such as wK or s8",
    "INT": "a whole number",
    "STRING": "a quoted text",
    "COPIES": "copies such as ×2",
    "ANY": "any",
    "ROYAL": "royal",
    "$END": "the end of the file",
}


def _word(parser: Lark, name: str) -> str:
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _excerpt(text: str, line: int, column: int) -> str:
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return f"    {src}\n    {' ' * max(column - 1, 0)}^"


@functools.lru_cache(maxsize=1)
def _mistake_parser():
    return grammar().parse


def _friendly(err: UnexpectedInput, text: str, file: str) -> RuleSyntaxError:
    parser = grammar()
    line, column = getattr(err, "line", 1) or 1, getattr(err, "column", 1) or 1
    label = None
    try:
        label = err.match_examples(_mistake_parser(), MISTAKES, use_accepts=True)
    except Exception:  # the catalogue is a courtesy; never let it hide the real error
        label = None
    if isinstance(err, UnexpectedCharacters):
        found = repr(text[err.pos_in_stream]) if err.pos_in_stream < len(text) else "end of file"
        head = f"unexpected character {found}"
        expected = sorted(err.allowed or ())
    elif isinstance(err, UnexpectedEOF):
        head = "the file ends too early"
        expected = sorted(err.expected or ())
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    else:
        assert isinstance(err, UnexpectedToken)
        tok = err.token
        head = "unexpected end of file" if tok.type == "$END" else f"unexpected {tok.value!r}"
        expected = sorted(err.accepts or err.expected or ())
    words = sorted({_word(parser, e) for e in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    message = head
    if label:
        message += f": {label}"
    if words:
        message += f"; expected {', '.join(words)}"
    return RuleSyntaxError(message, file, line, column, _excerpt(text, line, column))


# --- tree to IR ---------------------------------------------------------------

def _pos(meta) -> ir.Pos | None:
    if getattr(meta, "empty", True):
        return None
    return ir.Pos(line=meta.line, column=meta.column)


def _tokpos(tok: Token) -> ir.Pos:
    return ir.Pos(line=tok.line, column=tok.column)


class _At(SchachettError):
    """An error found while building the IR, at a known spot of the text."""

    def __init__(self, message: str, pos: ir.Pos):
        super().__init__(message)
        self.pos = pos


def _int(tok: Token, text: str | None = None) -> int:
    """A whole number from a token (``text``: the digits, when the token holds more than them)."""
    digits = str(tok) if text is None else text
    try:
        return int(digits)
    except ValueError:  # Python refuses to read numbers of more than 4300 digits
        raise _At(f"the number {digits[:8]}… ({len(digits)} digits) is too large", _tokpos(tok)) from None


def _unquote(s: str) -> str:
    body, out, i = s[1:-1], [], 0
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


class _ClauseMeta:
    """Helper: the three fields every clause shares."""

    @staticmethod
    def fields(meta, basis, because) -> dict:
        return {"basis": basis, "because": because, "at": _pos(meta)}


@v_args(meta=True)
class ToIR(Transformer):
    """Builds IR nodes from the parse tree; each rule has a method of its name."""

    # -- small pieces
    def text(self, meta, ch):
        return "".join(_unquote(str(t)) for t in ch)

    def because(self, meta, ch):
        return ch[0]

    def grade(self, meta, ch):
        return str(ch[0])

    def basis(self, meta, ch):
        grade = ch[-1]
        cites = tuple(" ".join(str(c).split()) for c in ch[:-1])
        return ir.Basis(cites=cites, grade=ir.Grade(grade) if grade else None, at=_pos(meta))

    def _join(self, meta, ch):
        return " ".join(str(t) for t in ch)

    lead_which = tie_outcome = remaining_scope = when = scorer = order_count = _join
    same_trick = payee = tricks_word = parity = direction = drop_topic = colour_rel = _join
    direction_word = memory_kind = limit = policy = _join

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
        return ir.Colour(code=str(ch[0]), name=ch[1])

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
        return ir.Deck(colours=colours, kinds=tuple(kinds), **_ClauseMeta.fields(meta, basis, because))

    # -- seats, parties, deal, lead
    def seats(self, meta, ch):
        basis, n, because = ch
        return ir.Seats(count=_int(n), **_ClauseMeta.fields(meta, basis, because))

    def opposite(self, meta, ch):
        return ("opposite", ())

    def party(self, meta, ch):
        return tuple(_int(t) for t in ch)

    def explicit_parties(self, meta, ch):
        return ("explicit", tuple(ch))

    def parties(self, meta, ch):
        basis, (form, parties), because = ch
        return ir.Parties(opposite=form == "opposite", parties=parties,
                          **_ClauseMeta.fields(meta, basis, because))

    def dealer_seat(self, meta, ch):
        return ir.SeatRef(base="dealer", offset=0)

    def dealer_plus(self, meta, ch):
        return ir.SeatRef(base="dealer", offset=_int(ch[0]))

    def dealer_minus(self, meta, ch):
        return ir.SeatRef(base="dealer", offset=-_int(ch[0]))

    def fixed_seat(self, meta, ch):
        return ir.SeatRef(base="seat", offset=_int(ch[0]))

    def give(self, meta, ch):
        return ir.Give(card=str(ch[0]), to=ch[1], at=_pos(meta))

    def deal(self, meta, ch):
        basis, *gives, size, because = ch
        return ir.Deal(gives=tuple(gives), hand_size=_int(size), **_ClauseMeta.fields(meta, basis, because))

    def lead_by(self, meta, ch):
        return ch[0]

    def lead_winner(self, meta, ch):
        return "winner"

    def lead(self, meta, ch):
        which, basis, by, because = ch
        if by == "winner":
            return ir.Lead(which=which, winner=True, **_ClauseMeta.fields(meta, basis, because))
        return ir.Lead(which=which, by=by, **_ClauseMeta.fields(meta, basis, because))

    # -- ranking, capture, ties, follow, selectors
    def rank_group(self, meta, ch):
        return tuple(str(t) for t in ch)

    def ranking(self, meta, ch):
        basis, *groups, because = ch
        return ir.Ranking(groups=tuple(groups), **_ClauseMeta.fields(meta, basis, because))

    def _rel(self, rel):
        return rel.split()[1] if rel else "any"

    def any_atom(self, meta, ch):
        return ir.Atom(what="any", colour=self._rel(ch[1]), at=_tokpos(ch[0]))

    def royal_atom(self, meta, ch):
        return ir.Atom(what="royal", colour=self._rel(ch[1]), at=_tokpos(ch[0]))

    def kind_atom(self, meta, ch):
        return ir.Atom(what="kind", name=str(ch[0]), colour=self._rel(ch[1]), at=_tokpos(ch[0]))

    def face_atom(self, meta, ch):
        return ir.Atom(what="face", name=str(ch[0]), colour=self._rel(ch[1]), at=_tokpos(ch[0]))

    def card_atom(self, meta, ch):
        return ir.Atom(what="card", name=str(ch[0]), at=_tokpos(ch[0]))

    def term(self, meta, ch):
        return ir.Term(base=ch[0], minus=tuple(ch[1:]))

    def selector(self, meta, ch):
        return ir.Selector(terms=tuple(ch))

    def capture_rule(self, meta, ch):
        return ir.CaptureRule(taker=str(ch[0]), direction=ch[1], victims=ch[2], at=_pos(meta))

    def capture(self, meta, ch):
        basis, *rules, because = ch
        return ir.Capture(rules=tuple(rules), **_ClauseMeta.fields(meta, basis, because))

    def tie_rule(self, meta, ch):
        return ir.TieRule(kind=str(ch[0]), rule=ch[1].split()[0], at=_pos(meta))

    def ties(self, meta, ch):
        basis, *rules, because = ch
        return ir.Ties(rules=tuple(rules), **_ClauseMeta.fields(meta, basis, because))

    def tier(self, meta, ch):
        return (_int(ch[0]), ch[1], _tokpos(ch[0]))

    def follow(self, meta, ch):
        name, basis, *tiers, because = ch
        for want, (number, _, pos) in enumerate(tiers, start=1):
            if number != want:
                raise _At(f"follow tiers must be numbered 1, 2, 3, … in order; found {number} where {want} belongs", pos)
        return ir.Follow(led=str(name), tiers=tuple(t[1] for t in tiers), **_ClauseMeta.fields(meta, basis, because))

    # -- promotion, points
    def promote(self, meta, ch):
        return ir.Promote(face=str(ch[0]), as_face=str(ch[1]))

    def promotion(self, meta, ch):
        basis, *promotes, because = ch
        return ir.Promotion(promotes=tuple(promotes), **_ClauseMeta.fields(meta, basis, because))

    def promoted(self, meta, ch):
        return True

    def points_entry(self, meta, ch):
        return ir.PointsEntry(cards=ch[0], points=ch[1], at=_pos(meta))

    def points(self, meta, ch):
        promoted, basis, *entries, because = ch
        return ir.Points(promoted=bool(promoted), entries=tuple(entries), **_ClauseMeta.fields(meta, basis, because))

    # -- King events
    def remaining(self, meta, ch):
        basis, scope, because = ch
        return ir.Remaining(scope=scope.split()[0], **_ClauseMeta.fields(meta, basis, because))

    def king_event(self, meta, ch):
        name, basis, when, scorer, first, later, because = ch
        when_key = {"taken by opponent": "opponent", "taken by partner": "partner", "wins the trick": "self"}[when]
        return ir.KingEvent(name=str(name), when=when_key, scores=scorer, first=first, later=later,
                            **_ClauseMeta.fields(meta, basis, because))

    def king_order(self, meta, ch):
        basis, count, same, because = ch
        return ir.KingOrder(count=count.split()[0], same_trick="play" if same.startswith("play") else "all-first",
                            **_ClauseMeta.fields(meta, basis, because))

    # -- settlement, penalties, review
    def settlement(self, meta, ch):
        basis, unit, amount, because = ch
        return ir.Settlement(unit=unit, amount=amount, **_ClauseMeta.fields(meta, basis, because))

    def pays(self, meta, ch):
        return ("pays", _int(ch[0]), "opponents" if ch[1] == "opponent" else "players")

    def forfeit(self, meta, ch):
        return ("forfeit",)

    def take_back(self, meta, ch):
        return ("take_back",)

    def penalty(self, meta, ch):
        name, basis, offence, *effects, because = ch
        kw: dict = {}
        for eff in effects:
            if eff[0] == "pays":
                kw["pays"], kw["to"] = eff[1], eff[2]
            else:
                kw[eff[0]] = True
        return ir.Penalty(name=str(name), offence=offence, **kw, **_ClauseMeta.fields(meta, basis, because))

    def review(self, meta, ch):
        basis, n, _, because = ch
        return ir.Review(tricks=_int(n), **_ClauseMeta.fields(meta, basis, because))

    def memory(self, meta, ch):
        basis, kind, because = ch
        return ir.Memory(keeps="every" if kind.startswith("every") else "review",
                         **_ClauseMeta.fields(meta, basis, because))

    # -- sessions
    def stop(self, meta, ch):
        return True

    def reign(self, meta, ch):
        rounds, *seats, dummy = ch
        return ir.Reign(rounds=_int(rounds), seats=tuple(_int(x) for x in seats), dummy=_int(dummy))

    def seat_change(self, meta, ch):
        return ir.SeatChange(rounds=ch[0], after_a=_int(ch[1]), at=_pos(meta))

    def seat_swap(self, meta, ch):
        return ir.SeatChange(rounds=ch[0], seats=(_int(ch[1]), _int(ch[2])), at=_pos(meta))

    def session(self, meta, ch):
        basis, games, rounds, stop, reign, *changes, because = ch
        return ir.Session(games_per_round=_int(games), rounds_per_cycle=_int(rounds), stop_after_cycle=bool(stop),
                          reign=reign, changes=tuple(changes), **_ClauseMeta.fields(meta, basis, because))

    def first_dealer(self, meta, ch):
        return _int(ch[0])

    def dealer(self, meta, ch):
        basis, first, direction, because = ch
        return ir.Dealer(first=first, passes=direction, **_ClauseMeta.fields(meta, basis, because))

    def castling_none(self, meta, ch):
        basis, because = ch
        return ir.Castling(mode="none", **_ClauseMeta.fields(meta, basis, because))

    def castler(self, meta, ch):
        return ch[0]

    def king_holder(self, meta, ch):
        return "holder"

    def before_play(self, meta, ch):
        return ("before", None)

    def after_trick(self, meta, ch):
        return ("after", _int(ch[0]))

    def rescue_in(self, meta, ch):
        return ("rescue", _int(ch[0]))

    def rescue_any(self, meta, ch):
        return ("rescue", None)

    def permit(self, meta, ch):
        *who, (when, trick) = ch
        seats = tuple(w for w in who if w != "holder")
        return ir.Permit(who=seats, king_holder="holder" in who, when=when, trick=trick, at=_pos(meta))

    def castling(self, meta, ch):
        basis, *permits, because = ch
        return ir.Castling(mode="rules", permits=tuple(permits), **_ClauseMeta.fields(meta, basis, because))

    def castle_officer(self, meta, ch):
        basis, officer, because = ch
        return ir.CastleOfficer(officer=officer, **_ClauseMeta.fields(meta, basis, because))

    def castle_limit(self, meta, ch):
        basis, limit, because = ch
        return ir.CastleLimit(limit="none" if limit.startswith("no") else limit.split()[-1],
                              **_ClauseMeta.fields(meta, basis, because))

    def seat_list(self, meta, ch):
        return tuple(_int(x) for x in ch)

    def automaton(self, meta, ch):
        basis, seats, policy, because = ch
        kind = {"the lowest card": "lowest", "the highest card": "highest"}.get(policy, "cheapest-taker")
        return ir.Automaton(seats=seats, policy=kind, **_ClauseMeta.fields(meta, basis, because))

    def one_hand(self, meta, ch):
        return True

    def dummy(self, meta, ch):
        basis, seat, by, after, one_hand, because = ch
        return ir.Dummy(seat=_int(seat), by=_int(by), exposed_after=_int(after), one_hand_at_a_time=bool(one_hand),
                        **_ClauseMeta.fields(meta, basis, because))

    # -- lacunae
    def evidence(self, meta, ch):
        return ir.Evidence(basis=ch[0], quote=ch[1], at=_pos(meta))

    def option(self, meta, ch):
        name, basis, summary, *clauses = ch
        return ir.Option(name=str(name), basis=basis, summary=summary, clauses=tuple(clauses), at=_pos(meta))

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

    def drop_section(self, meta, ch):
        return ir.Drop(section=" ".join(str(ch[0]).split()), at=_pos(meta))

    def drop_lacuna(self, meta, ch):
        return ir.Drop(lacuna=str(ch[0]), at=_pos(meta))

    def drop_key(self, meta, ch):
        topic, name = ch
        key = f"{topic} {name}" if name else topic
        return ir.Drop(key=key, at=_pos(meta))

    # -- expressions
    def num(self, meta, ch):
        return ir.Num(value=_int(ch[0]))

    def name(self, meta, ch):
        return ir.Name(name=str(ch[0]), at=_tokpos(ch[0]))

    def call(self, meta, ch):
        return ir.Call(fn=str(ch[0]), args=tuple(ch[1:]), at=_tokpos(ch[0]))

    def neg(self, meta, ch):
        return ir.Neg(operand=ch[0])

    def _bin(op):  # noqa: N805 - a factory used while building the class
        def method(self, meta, ch):
            return ir.BinOp(op=op, left=ch[0], right=ch[1])
        return method

    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")


def parse_ruleset(text: str, file: str = "<string>") -> ir.Ruleset:
    """Parse rule text into a :class:`~schachett_rules.language.ir.Ruleset`.

    Syntax errors become :class:`RuleSyntaxError` with file, line, column, a
    caret under the spot and what was expected, in words.

    >>> parse_ruleset("ruleset x seats [§1 printed] 4", "x.schachett")
    Traceback (most recent call last):
    ...
    schachett_rules.errors.RuleSyntaxError: x.schachett:1:30: unexpected '4': a clause's basis is followed by ':' (for example `seats [§1 printed]: 4`); expected ':'
        ruleset x seats [§1 printed] 4
                                     ^
    """
    try:
        tree = grammar().parse(text)
    except UnexpectedInput as err:
        raise _friendly(err, text, file) from None
    try:
        result = ToIR().transform(tree)
    except VisitError as err:
        inner = err.orig_exc
        if isinstance(inner, SchachettError):
            meta = getattr(err.obj, "meta", None)
            line = getattr(meta, "line", 0) if meta and not meta.empty else 0
            column = getattr(meta, "column", 0) if meta and not meta.empty else 0
            if isinstance(inner, _At):  # the error knows its spot better than the rule around it
                line, column = inner.pos.line, inner.pos.column
            raise RuleSyntaxError(inner.message, file, line, column, _excerpt(text, line, column) if line else "") from None
        raise
    return result.model_copy(update={"file": file})


def tree_of(text: str) -> Tree:
    """The raw Lark parse tree (for tools and tests that inspect the grammar)."""
    return grammar().parse(text)
