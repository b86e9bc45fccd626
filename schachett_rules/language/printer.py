"""Printing the IR back as rule text, so that parse(print(ir)) gives the same IR.

>>> from schachett_rules.language.syntax import parse_ruleset
>>> rs = parse_ruleset('ruleset x "X" seats [§1 printed]: 4 ranking [§2 printed]: D > T = L')
>>> print(format_ruleset(rs))
ruleset x "X"
<BLANKLINE>
seats [§1 printed]: 4
<BLANKLINE>
ranking [§2 printed]: D > T = L
<BLANKLINE>
"""

from __future__ import annotations

from . import ir
from .expr import render
from .keywords import phrase


def quote(text: str) -> str:
    """A string literal of the rule language.

    >>> quote('say "hi"')
    '"say \\\\"hi\\\\""'
    """
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def basis(b: ir.Basis | None) -> str:
    """The bracket of citations and grade, with a leading space (or nothing)."""
    if b is None:
        return ""
    grade = f" {phrase('grade', b.grade.value)}" if b.grade else ""
    return f" [{', '.join(b.cites)}{grade}]"


def _because(c) -> str:
    return f"\n    because {quote(c.because)}" if c.because is not None else ""


def _seat(ref: ir.SeatRef) -> str:
    if ref.base == "seat":
        return f"seat {ref.offset}"
    if ref.offset > 0:
        return f"dealer + {ref.offset}"
    if ref.offset < 0:
        return f"dealer - {-ref.offset}"
    return "dealer"


def _atom(a: ir.Atom) -> str:
    word = {"any": "any", "royal": "royal"}.get(a.what, a.name)
    if a.colour == "trump-shade":
        return word + " of trump shade"
    return word + (f" of {a.colour} colour" if a.colour != "any" else "")


def selector(s: ir.Selector) -> str:
    """A selector as rule text."""
    return ", ".join(" except ".join([_atom(t.base)] + [_atom(m) for m in t.minus]) for t in s.terms)


def _faces(faces: tuple[ir.Face, ...]) -> str:
    items, i = [], 0
    while i < len(faces):
        f = faces[i]
        plain = not f.name and not f.royal
        if plain and (f.roman or f.symbol.isdigit()):
            j = i
            while (j + 1 < len(faces) and faces[j + 1].roman == f.roman and faces[j + 1].value == faces[j].value + 1
                   and not faces[j + 1].name and faces[j + 1].copies == f.copies and not faces[j + 1].royal
                   and (f.roman or faces[j + 1].symbol.isdigit())):
                j += 1
            if f.roman or j > i:
                # a range keeps numbered faces numbered (and Roman ones Roman) when read back
                items.append(f"{f.symbol}..{faces[j].symbol}" + (f" ×{f.copies}" if f.copies != 1 else ""))
                i = j + 1
                continue
        text = f.symbol + (f" {quote(f.name)}" if f.name else "") + (f" ×{f.copies}" if f.copies != 1 else "")
        items.append(text + (" royal" if f.royal else ""))
        i += 1
    return ", ".join(items)


def clause(c, indent: str = "") -> str:
    """One clause as rule text."""
    b = basis(c.basis)
    i2 = indent + "    "
    if isinstance(c, ir.Deck):
        lines = [f"deck{b} {{", f"{i2}colours " + ", ".join(f"{col.code} {quote(col.name)}" + (f" ({col.shade})" if col.shade
                                                                                               else "")
                                                         for col in c.colours)]
        for k in c.kinds:
            title = f" {quote(k.title)}" if k.title else ""
            lines.append(f"{i2}{k.name}{title}: {_faces(k.faces)}")
        text = "\n".join(lines) + f"\n{indent}}}"
    elif isinstance(c, ir.Seats):
        text = f"seats{b}: {c.count}"
    elif isinstance(c, ir.Parties):
        if c.holders is not None:
            spec = f"holders of {selector(c.holders)}"
        elif c.each:
            spec = "each alone"
        else:
            spec = "opposite" if c.opposite else " | ".join(" ".join(map(str, p)) for p in c.parties)
        text = f"parties{b}: {spec}"
    elif isinstance(c, ir.Deal):
        inner = [f"{i2}give {g.card} to {_seat(g.to)} face up" for g in c.gives] + [f"{i2}hands {c.hand_size}"]
        if c.stock:
            inner.append(f"{i2}stock {c.stock}")
        if c.turn:
            inner.append(f"{i2}turn up " + ("top of stock" if c.turn == "stock" else "last dealt to dealer"))
        if c.covered:
            inner.append(f"{i2}tableau {c.covered} covered")
        text = f"deal{b} {{\n" + "\n".join(inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Lead):
        by = "winner" if c.winner else f"holder of {c.holder}" if c.holder else _seat(c.by)
        text = f"lead {phrase('lead_which', c.which)}{b}: {by}"
    elif isinstance(c, ir.Restriction):
        conds = ((["in first trick"] if c.first else []) + (["before last trick"] if c.before_last else [])
                 + ([f"until played {selector(c.until)}"] if c.until is not None else [])
                 + ([f"while holding {selector(c.holding)}"] if c.holding is not None else []))
        text = f"restriction {c.name}{b}: no {c.act} {selector(c.cards)}" + "".join(" " + x for x in conds)
    elif isinstance(c, ir.Runners):
        text = f"runners{b}: {selector(c.cards)}"
    elif isinstance(c, ir.Obligation):
        text = f"obligation {c.name}{b}: play {selector(c.cards)} when led {selector(c.led)}"
    elif isinstance(c, ir.Passing):
        text = f"passing{b}: {c.count} cards " + ", ".join(phrase("pass_direction", d) for d in c.directions)
    elif isinstance(c, ir.Exchange):
        text = (f"exchange{b}: {phrase('exchange_who', c.who)} takes {phrase('exchange_what', c.takes)}, "
                f"discards {c.discards}")
    elif isinstance(c, ir.Auction):
        def item(it: ir.BidItem) -> str:
            return it.contract + {"any": "", "turned": " of turned colour", "not-turned": " except turned colour"}[it.colour]
        inner = [f"{i2}from {_seat(c.first)}"]
        inner += [f"{i2}round: " + " < ".join(", ".join(item(it) for it in grp) for grp in r.offers)
                  + f": {phrase('round_mode', r.mode)}" for r in c.rounds]
        inner.append(f"{i2}all pass: " + {"redeal": "redeal", "dealer": "dealer must bid"}.get(
            c.all_pass, f"play {item(c.play) if c.play else ''}"))
        text = f"auction{b} {{\n" + "\n".join(inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Requires):
        how = f"exactly {c.exactly} of" if c.exactly is not None else phrase('requires_how', 'all' if c.all else 'one')
        text = f"requires{b}: holds {how} {selector(c.cards)}"
    elif isinstance(c, ir.Offer):
        text = (f"offer{b}: {selector(c.cards)} {phrase('offer_face', 'up' if c.face_up else 'down')}, asked from "
                f"{_seat(c.first)}, taker gives back {c.back_count} of {selector(c.back)}")
    elif isinstance(c, ir.OfferRefused):
        text = f"offer refused{b}: {phrase('refused_outcome', c.outcome)}"
    elif isinstance(c, ir.CallRule):
        conditions = (["not held"] if c.not_held else []) + (["held"] if c.held else []) + (
            ["its colour held"] if c.colour_held else [])
        text = f"call{b}: {selector(c.cards)}" + (" where " + " and ".join(conditions) if conditions else "")
    elif isinstance(c, ir.Partner):
        text = f"partner{b}: {phrase('partner_who', c.who)}"
    elif isinstance(c, ir.SitOut):
        text = f"sit out{b}: partner"
    elif isinstance(c, ir.Value):
        text = f"value {c.name}{b}: {render(c.amount)}"
    elif isinstance(c, ir.GamePoints):
        lines = [f"{i2}{phrase('game_points_who', who)}: {render(e)}"
                 for who, e in (("declarer", c.declarer), ("others", c.others), ("each", c.each)) if e is not None]
        if c.target is not None:
            lines.append(f"{i2}until {c.target}" + (" lowest wins" if c.lowest_wins else ""))
        text = f"game points{b} {{\n" + "\n".join(lines) + f"\n{indent}}}"
    elif isinstance(c, ir.Ranking):
        text = f"ranking{b}: " + " > ".join(" = ".join(g if isinstance(g, str) else f"({selector(g)})" for g in grp)
                                             for grp in c.groups)
    elif isinstance(c, ir.CardClass):
        text = f"class {c.name}{b}: {selector(c.cards)}"
    elif isinstance(c, ir.Capture):
        inner = [f"{i2}{r.taker}{basis(r.basis)} takes {phrase('direction_word', r.direction)}: {selector(r.victims)}" for r in c.rules]
        text = f"capture{b} {{\n" + "\n".join(inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Ties):
        inner = [f"{i2}{r.kind}: {phrase('tie_outcome', r.rule)}" for r in c.rules]
        text = f"ties{b} {{\n" + "\n".join(inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Follow):
        inner = [f"{i2}{n}: {selector(s)}" for n, s in enumerate(c.tiers, start=1)]
        text = f"follow {c.led}{b} {{\n" + "\n".join(inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Promotion):
        text = f"promotion{b} in last trick: " + ", ".join(f"{p.face} as {p.as_face}" for p in c.promotes)
    elif isinstance(c, ir.Points):
        inner = [f"{i2}{selector(e.cards)}: {render(e.points)}" for e in c.entries]
        text = f"points{' promoted' if c.promoted else ''}{b} {{\n" + "\n".join(inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Remaining):
        text = f"remaining{b}: {phrase('remaining_scope', c.scope)}"
    elif isinstance(c, ir.KingEvent):
        inner = [f"when: {phrase('when', c.when)}", f"scores: {phrase('scorer', c.scores)}", f"first: {render(c.first)}", f"later: {render(c.later)}"]
        text = f"king {c.name}{b} {{\n" + "\n".join(i2 + x for x in inner) + f"\n{indent}}}"
    elif isinstance(c, ir.KingOrder):
        count, same = phrase("order_count", c.count), phrase("same_trick", c.same_trick)
        text = f"king order{b} {{\n{i2}count: {count}\n{i2}same trick: {same}\n{indent}}}"
    elif isinstance(c, ir.Settlement):
        wins = f"{i2}declarer wins when: {render(c.wins)}\n" if c.wins is not None else ""
        text = (f"settlement{b} {{\n{i2}unit {quote(c.unit)}\n{wins}{i2}amount: {render(c.amount)}\n"
                f"{i2}{phrase('settle_per', c.per)}\n{indent}}}")
    elif isinstance(c, ir.Penalty):
        inner = [f"offence {quote(c.offence)}"]
        if c.pays is not None:
            inner.append(f"pays {c.pays} to each {phrase('payee', c.to)}")
        if c.forfeit:
            inner.append("party scores nothing")
        if c.take_back:
            inner.append("card taken back")
        text = f"penalty {c.name}{b} {{\n" + "\n".join(i2 + x for x in inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Review):
        text = f"review{b}: {c.tricks} previous {'trick' if c.tricks == 1 else 'tricks'}"
    elif isinstance(c, ir.Memory):
        text = f"memory{b}: {phrase('memory_kind', c.keeps)}"
    elif isinstance(c, ir.Automaton):
        text = (f"automaton{b}: " + ", ".join(f"seat {x}" for x in c.seats) + f" play {phrase('policy', c.policy)}"
                + (f", pass {phrase('pass_policy', c.passes)}" if c.passes else "")
                + (", never bid" if c.bids == "never" else ", bid only when made to" if c.bids == "forced" else "")
                + (f", lay away {phrase('pass_policy', c.lays_away)}" if c.lays_away else "")
                + (f", call {phrase('call_policy', c.calls)}" if c.calls else "")
                + (", and never castle" if c.castles == "never" else ""))
    elif isinstance(c, ir.CastleMoment):
        text = f"castle moment{b}: {phrase('per_moment', c.castles)}"
    elif isinstance(c, (ir.SeatNames, ir.PartyNames)):
        text = f"{c.clause}{b}: " + ", ".join(quote(n) for n in c.names)
    elif isinstance(c, ir.Dummy):
        text = (f"dummy{b}: seat {c.seat} played by seat {c.by}, exposed after trick {c.exposed_after}"
                + (", its player sees one hand at a time until then" if c.one_hand_at_a_time else ""))
    elif isinstance(c, ir.Session):
        inner = ([f"players: {', '.join(quote(p) for p in c.players)}"] if c.players else []) + \
            [f"round: {c.games_per_round} games", f"cycle: {c.rounds_per_cycle} rounds"]
        if c.stop_after_cycle:
            inner.append("stop: after cycle")
        if c.reign is not None:
            inner.append(f"reign: {c.reign.rounds} rounds, players on seats {' '.join(map(str, c.reign.seats))}, "
                         f"dummy on seat {c.reign.dummy}")
        inner += [f"before {phrase('parity', ch.rounds)} rounds: player {ch.after_a} after A changes with left neighbour"
                  if ch.seats is None else
                  f"before {phrase('parity', ch.rounds)} rounds: seat {ch.seats[0]} changes with seat {ch.seats[1]}"
                  for ch in c.changes]
        text = f"session{b} {{\n" + "\n".join(i2 + x for x in inner) + f"\n{indent}}}"
    elif isinstance(c, ir.Dealer):
        first = f"seat {c.first} deals first, " if c.first is not None else ""
        text = f"dealer{b}: {first}passes {phrase('direction', c.passes)}"
    elif isinstance(c, ir.Castling):
        if c.mode == "none":
            text = f"castling{b}: none"
        else:
            inner = [permit(p) for p in c.permits]
            text = f"castling{b} {{\n" + "\n".join(i2 + x for x in inner) + f"\n{indent}}}"
    elif isinstance(c, ir.CastleOfficer):
        text = f"castle officer{b}: {selector(c.officer)}"
    elif isinstance(c, ir.CastleLimit):
        text = f"castle limit{b}: {phrase('limit', c.limit)}"
    elif isinstance(c, ir.CastleWith):
        text = f"castle with{b}: {'partner ' if c.partner else ''}{reach(c)}"
    elif isinstance(c, ir.CastleRescue):
        text = f"castle rescue{b}: {', '.join(c.events)}"
    elif isinstance(c, ir.CastleKing):
        text = f"castle king{b}: {phrase('castle_king_kind', c.takes)}"
    elif isinstance(c, ir.Stake):
        text = f"stake{b}: {phrase('stake_kind', c.per)}"
    elif isinstance(c, ir.SettlePenalties):
        text = f"settle penalties{b}: {phrase('penalty_rounding', c.rounding)}"
    else:  # pragma: no cover - every clause class is handled above
        raise TypeError(f"cannot print {type(c).__name__}")
    return indent + text + _because(c).replace("\n    ", "\n" + i2)


def reach(c: ir.CastleWith) -> str:
    """Whose hand a castle reaches, as the rule text says it (without the partner claim).

    >>> reach(ir.CastleWith(places=-1)), reach(ir.CastleWith(opposite=True))
    ('1 place right', 'opposite')
    """
    if c.opposite:
        return "opposite"
    n = abs(c.places)
    return f"{n} place{'s' if n != 1 else ''} {phrase('direction', 'left' if c.places >= 0 else 'right')}"


def permit(p: ir.Permit) -> str:
    """One castling permit as rule text."""
    who = [_seat(w) for w in p.who] + (["king holder"] if p.king_holder else [])
    when = {"before": "before play", "after": f"after trick {p.trick}",
            "rescue": f"rescue in trick {p.trick}" if p.trick is not None else "rescue in any trick"}[p.when]
    return f"{', '.join(who)} {when}"


def statement(st) -> str:
    """One top-level statement as rule text."""
    if isinstance(st, ir.ClauseStatement):
        return clause(st.clause)
    if isinstance(st, ir.Override):
        return "override " + clause(st.clause)
    if isinstance(st, ir.Choose):
        return f"choose {st.lacuna} {st.option}" + (f"\n    because {quote(st.because)}" if st.because is not None else "")
    if isinstance(st, ir.Drop):
        if st.lacuna:
            return f"drop lacuna {st.lacuna}"
        if st.contract:
            return f"drop contract {st.contract}"
        return f"drop {st.key or st.section}"
    if isinstance(st, ir.Contract):
        head = (f"contract {st.name}{basis(st.basis)} {quote(st.title)}" + (" for each colour" if st.each_colour else "")
                + (f" like {st.like}" if st.like else ""))
        return "\n".join([head + " {"] + [clause(c, "    ") for c in st.clauses] + ["}"])
    assert isinstance(st, ir.Lacuna)
    lines = [f"lacuna {st.name}{basis(st.basis)} {quote(st.question)} {{"]
    lines += [f"    evidence{basis(e.basis)} {quote(e.quote)}" for e in st.evidence]
    for o in st.options:
        lines.append(f"    option {o.name}{basis(o.basis)} {quote(o.summary)} {{")
        lines += [clause(c, "        ") for c in o.clauses]
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines)


def format_ruleset(rs: ir.Ruleset) -> str:
    """A whole ruleset as rule text (comments are not kept; everything else is)."""
    head = f"ruleset {rs.name}" + (f" {quote(rs.title)}" if rs.title else "") + (f" extends {rs.extends}" if rs.extends else "")
    return "\n\n".join([head] + [statement(st) for st in rs.statements]) + "\n"
