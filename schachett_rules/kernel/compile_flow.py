"""Compiling the family's clauses: restrictions on play, the first lead by a card, values and game points, and
the flow before play (passing, the stock and the turned card, the auction and its contracts).

The compiler (:mod:`.compiler`) compiles the play of one contract; these
functions add what the family's games need to it, and :func:`compile_flow`
compiles every contract (once per trump colour where it is played for each
colour) into the :class:`~.flow.Flow` the state walks before the first card.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import RuleCheckError
from ..language import ir
from ..language.cards import SelectorError
from ..language.expr import ExprError, evaluate
from ..language.printer import clause as clause_text, selector as selector_text
from ..rules.loader import Effective, Resolved
from .core import ACTS, W_BEFORE_LAST, W_FIRST, W_HOLDING, W_UNTIL
from .flow import ContractTable, Flow, Offer, OfferTable, RoundTable



def _named(clause) -> str:
    """A restriction or obligation by its name and its own words, for a refusal: 'broken: no lead h until ...'."""
    text = clause_text(clause).split("\n", 1)[0]
    return f"{clause.name}: {text.split(': ', 1)[1]}" if ": " in text else clause.name


def _fail(eff: Effective, message: str) -> RuleCheckError:
    at = eff.clause.at
    label = f"{eff.key} [{', '.join(eff.clause.basis.cites)}]"
    return RuleCheckError(message, eff.origin.file, at.line if at else 0, at.column if at else 0, label)


def _cite(clause) -> str:
    return ", ".join(clause.basis.cites) if clause is not None and clause.basis is not None else ""


def mentions_called(sel: ir.Selector | None) -> bool:
    """Whether a selector speaks of the card called in the game (``called``, ``of called colour``)."""
    if sel is None:
        return False
    atoms = [a for t in sel.terms for a in (t.base, *t.minus)]
    return any((a.what == "kind" and a.name == "called") or a.colour == "called" for a in atoms)


def callable_faces(comp) -> int:
    """The faces (a bitmask) the call clause in force lets a declarer call; 0 without a call."""
    eff = comp.r.effective("call")
    if eff is None:
        return 0
    try:
        return comp.deck.select(eff.clause.cards, None, "call", comp.trump, comp.classes)
    except SelectorError as err:
        comp.errors.append(_fail(eff, err.message))
        return 0


def _select_cards(comp, eff: Effective, sel: ir.Selector | None, called: int | None) -> int:
    if sel is None:
        return 0
    return comp.deck.cards(comp.deck.select(sel, None, "restriction", comp.trump, comp.classes, called))


def restrictions(comp) -> dict:
    """The restriction and obligation clauses as rows of card masks; where one names the called card, a set of rows
    for every card that may be called."""
    rows_eff = [e for e in comp.r.clauses if isinstance(e.clause, ir.Restriction)]
    owed_eff = [e for e in comp.r.clauses if isinstance(e.clause, ir.Obligation)]
    if not rows_eff and not owed_eff:
        return {}
    faces = callable_faces(comp)
    d = comp.deck
    dynamic = any(mentions_called(s) for e in rows_eff for s in (e.clause.cards, e.clause.until, e.clause.holding)) \
        or any(mentions_called(s) for e in owed_eff for s in (e.clause.cards, e.clause.led))
    if dynamic and not faces:
        eff = next(e for e in rows_eff + owed_eff)
        comp.errors.append(_fail(eff, "this clause speaks of the called card, but no call clause says which card a "
                                      "declarer calls"))
        return {}

    def build(called: int | None):
        rows, owed = [], []
        for e in rows_eff:
            c = e.clause
            try:
                if not called and called != 0 and any(mentions_called(s) for s in (c.cards, c.until, c.holding)):
                    continue          # without a call the clause has nothing to speak of
                when = ((W_FIRST if c.first else 0) | (W_BEFORE_LAST if c.before_last else 0)
                        | (W_UNTIL if c.until is not None else 0) | (W_HOLDING if c.holding is not None else 0))
                rows.append((ACTS.index(c.act), when, _select_cards(comp, e, c.cards, called),
                             _select_cards(comp, e, c.until, called), _select_cards(comp, e, c.holding, called)))
            except SelectorError as err:
                comp.errors.append(_fail(e, err.message))
        for e in owed_eff:
            c = e.clause
            try:
                if called is None and (mentions_called(c.cards) or mentions_called(c.led)):
                    continue
                owed.append((_select_cards(comp, e, c.led, called), _select_cards(comp, e, c.cards, called)))
            except SelectorError as err:
                comp.errors.append(_fail(e, err.message))
        return tuple(rows), tuple(owed)

    rows, owed = build(None)
    out = {"restrictions": rows, "obligations": owed,
           "restriction_words": tuple((_named(e.clause), _cite(e.clause)) for e in rows_eff
                                      if not any(mentions_called(s) for s in (e.clause.cards, e.clause.until,
                                                                              e.clause.holding))),
           "obligation_words": tuple((_named(e.clause), _cite(e.clause)) for e in owed_eff
                                     if not (mentions_called(e.clause.cards) or mentions_called(e.clause.led)))}
    if dynamic:
        by_rows, by_owed = {}, {}
        for f in range(len(d.face_names)):
            if faces >> f & 1:
                by_rows[f], by_owed[f] = build(f)
        out["restrictions_by_called"], out["obligations_by_called"] = by_rows, by_owed
        # with a card called, every clause binds: their words in clause order
        out["restriction_words_called"] = tuple((_named(e.clause), _cite(e.clause)) for e in rows_eff)
        out["obligation_words_called"] = tuple((_named(e.clause), _cite(e.clause)) for e in owed_eff)
    return out


def first_lead_card(comp) -> int:
    """The card whose holder leads the first trick (``lead first: holder of c2``), or -1."""
    eff = comp.r.effective("lead first")
    if eff is None or not eff.clause.holder:
        return -1
    try:
        return comp.deck.card_of(eff.clause.holder)
    except Exception as err:  # an unknown card: say it with the clause
        comp.errors.append(_fail(eff, getattr(err, "message", str(err))))
        return -1


def values(comp) -> tuple[tuple[str, Fraction], ...]:
    """The value clauses in force, worked out (they are constants)."""
    out = []
    for e in comp.r.clauses:
        if isinstance(e.clause, ir.Value):
            try:
                out.append((e.clause.name, evaluate(e.clause.amount, {})))
            except ExprError as err:
                comp.errors.append(_fail(e, err.message))
    return tuple(out)


def runners(comp, rank) -> tuple[int, ...]:
    """The runners clause's cards, highest first by the ranking (copies in deck order)."""
    eff = comp.r.effective("runners")
    if eff is None or rank is None:
        return ()
    try:
        faces = comp.deck.select(eff.clause.cards, None, "runners", comp.trump, comp.classes)
    except SelectorError as err:
        comp.errors.append(_fail(eff, err.message))
        return ()
    d = comp.deck
    chosen = [f for f in range(len(d.face_names)) if faces >> f & 1]
    ranks = [rank[f] for f in chosen]
    if len(set(ranks)) != len(ranks):
        comp.errors.append(_fail(eff, "two runner cards rank alike, so the runners have no order; rank each of them "
                                      "on its own in the ranking"))
        return ()
    order = sorted(chosen, key=lambda f: -rank[f])
    return tuple(c for f in order for c in range(len(d.card_face)) if d.face_cards[f] >> c & 1)


def parties_rule(comp) -> tuple[str, int]:
    """Who plays with whom in this contract: its partner clause, else the parties clause; and the holders' cards."""
    partner = comp.r.clause("partner")
    if partner is not None:
        return ("called" if partner.who == "called" else partner.who), 0
    c = comp.r.clause("parties")
    if c is not None and c.holders is not None:
        try:
            return "holders", comp.deck.cards(comp.deck.select(c.holders, None, "parties", comp.trump, comp.classes))
        except SelectorError as err:
            comp.errors.append(_fail(comp.r.effective("parties"), err.message))
            return "holders", 0
    if c is not None and c.each:
        return "each", 0
    return "fixed", 0


# --- the flow ---------------------------------------------------------------------------------------------------

def compile_flow(resolved: Resolved, base, compile_contract) -> Flow | None:
    """The flow of a ruleset: its passing, stock and turned card, its auction and every contract's tables.

    ``base`` is the compiler of the ruleset's own clauses (for the deck and the seats); ``compile_contract(name,
    trump)`` compiles the tables of a contract for a trump colour (None for a contract of one).
    Returns None for a ruleset with nothing before play.
    """
    r = resolved
    deal = r.clause("deal")
    passing = r.effective("passing")
    auction = r.effective("auction")
    rule, holders = parties_rule(base)
    if (not r.contracts and passing is None and auction is None and not (deal and (deal.stock or deal.turn or
                                                                                  deal.covered))
            and rule == "fixed" and r.effective("exchange") is None):
        return None
    errors = base.errors
    d = base.deck
    contracts: list[ContractTable] = []
    names = [c.name for c in r.contracts]
    for c in r.contracts:
        scope = r.for_contract(c.name)
        colours = range(len(d.colours)) if c.each_colour else (None,)
        variants = []
        for colour in colours:
            t = compile_contract(c.name, colour)
            if t is None:
                break
            variants.append(t)
        if len(variants) != len(colours):
            continue
        req, call = scope.clause("requires"), scope.clause("call")

        def cards_of(clause, key: str, colour):
            if clause is None:
                return 0
            try:
                return d.cards(d.select(clause.cards, None, key, colour, _classes_of(scope, base, colour)))
            except SelectorError as err:
                errors.append(_fail(scope.effective(key), err.message))
                return 0

        requires = [(cards_of(req, "requires", colour), req.all if req is not None else True) for colour in colours]
        exactly = req.exactly if req is not None and req.exactly is not None else -1
        offer = _offer(scope, base, c.name, colours, requires, exactly, errors)
        partner = scope.clause("partner")
        if partner is not None and partner.who == "none":
            call = None              # a declarer who plays alone calls nothing, whatever the ruleset calls
        call_masks = [cards_of(call, "call", colour) for colour in colours]
        rule_c, _ = parties_rule(_Scoped(scope, base, None))
        if call is not None and (partner is None or partner.who != "called"):
            errors.append(_fail(scope.effective("call"), f"contract {c.name} calls a card, so it must also say "
                                                         f"`partner: holder of called card`"))
        if partner is not None and partner.who == "called" and call is None:
            errors.append(_fail(scope.effective("partner"), f"contract {c.name}'s partner is the holder of the "
                                                            f"called card, but no call clause says what is called"))
        sit = scope.clause("sit out")
        if sit is not None and rule_c == "taker":
            errors.append(_fail(scope.effective("sit out"), "the partner sits out, but he took the declarer's card "
                                                            "and gave one back: an offer makes a partner to play"))
        elif sit is not None and rule_c not in ("fixed", "called"):
            errors.append(_fail(scope.effective("sit out"), "the partner sits out, so the contract needs a partner: "
                                                            "fixed parties of two, or a called card"))
        if sit is not None and rule_c == "fixed" and any(len(p) != 2 for p in variants[0].parties):
            errors.append(_fail(scope.effective("sit out"), "the partner sits out, but the parties are not of two: "
                                                            "whose partner would it be?"))
        ex = scope.clause("exchange")
        dl = scope.clause("deal")
        if ex is not None:
            if ex.takes == "turned" and not dl.turn:
                errors.append(_fail(scope.effective("exchange"), "the exchange takes up the turned card, but the deal "
                                                                 "turns none up"))
            if ex.takes == "stock" and not dl.stock:
                errors.append(_fail(scope.effective("exchange"), "the exchange takes up the stock, but the deal "
                                                                 "leaves none"))
            taken = 1 if ex.takes == "turned" else dl.stock
            if ex.discards != taken:
                errors.append(_fail(scope.effective("exchange"), f"the exchange takes up {taken} card"
                                                                 f"{'s' if taken != 1 else ''} but discards "
                                                                 f"{ex.discards}; a hand must keep its size"))
        contracts.append(ContractTable(
            name=c.name, title=c.title, cite=_cite(c), each_colour=c.each_colour, variants=tuple(variants),
            requires=tuple(requires), requires_cite=_cite(req), call=tuple(call_masks),
            call_not_held=bool(call and call.not_held), call_colour_held=bool(call and call.colour_held),
            call_held=bool(call and call.held),
            call_cite=_cite(call), partner=rule_c, partner_cite=_cite(partner), sit_out=sit is not None,
            exchange=(ex.who, ex.takes, ex.discards) if ex is not None else None, exchange_cite=_cite(ex),
            requires_exactly=exactly, offer=offer))
    for key in ("offer", "offer refused"):
        eff = r.effective(key)
        if eff is not None:
            errors.append(_fail(eff, f"an {key} clause belongs to a contract: the declarer of that contract offers "
                                     f"the card; put the clause inside the contract it goes with"))
    rounds: list[RoundTable] = []
    all_pass, play_offer, first = "redeal", None, ("dealer", 1)
    if auction is not None:
        a = auction.clause
        first = base.seat(auction, a.first)

        def offer(item: ir.BidItem, rank: int) -> Offer | None:
            if item.contract not in names:
                errors.append(_fail(auction, f"the auction offers {item.contract}, which is no contract of this "
                                             f"ruleset (contracts: {', '.join(names) or 'none'})"))
                return None
            k = names.index(item.contract)
            if item.colour != "any" and not r.contracts[k].each_colour:
                errors.append(_fail(auction, f"{item.contract} is offered for the turned colour or another, but it "
                                             f"is not played for each colour"))
            if item.colour != "any" and not deal.turn:
                errors.append(_fail(auction, f"{item.contract} is offered by the turned card's colour, but the deal "
                                             f"turns no card up"))
            return Offer(contract=k, colour=item.colour, rank=rank)

        for rd in a.rounds:
            offers = []
            for rank, group in enumerate(rd.offers):
                for item in group:
                    o = offer(item, rank)
                    if o is not None:
                        offers.append(o)
            rounds.append(RoundTable(offers=tuple(offers), mode=rd.mode))
        all_pass = a.all_pass
        if a.all_pass == "play":
            play_offer = offer(a.play, 0)
            if play_offer is not None and r.contracts[play_offer.contract].each_colour and play_offer.colour == "any":
                errors.append(_fail(auction, f"when all pass, {a.play.contract} is played, but for which trump? Say "
                                             f"`play {a.play.contract} of turned colour`"))
        if a.all_pass == "dealer" and not a.rounds:
            errors.append(_fail(auction, "the dealer must bid when all pass, but the auction has no round to bid in"))
    elif r.contracts:
        errors.append(RuleCheckError("the ruleset has contracts but no auction clause says how one is chosen",
                                     r.file, 1, 1, "auction"))
    own_exchange = None
    ex_eff = r.effective("exchange")
    if ex_eff is not None and not r.contracts:
        ex = ex_eff.clause
        taken = 1 if ex.takes == "turned" else (deal.stock if deal else 0)
        if ex.takes == "stock" and not (deal and deal.stock):
            errors.append(_fail(ex_eff, "the exchange takes up the stock, but the deal leaves none"))
        elif ex.takes == "turned" and not (deal and deal.turn):
            errors.append(_fail(ex_eff, "the exchange takes up the turned card, but the deal turns none up"))
        elif ex.discards != taken:
            errors.append(_fail(ex_eff, f"the exchange takes up {taken} card{'s' if taken != 1 else ''} but discards "
                                        f"{ex.discards}; a hand must keep its size"))
        if ex.who == "declarer" and rule != "holders":
            errors.append(_fail(ex_eff, "the declarer takes up the cards, but nobody declares: without an auction "
                                        "the declarer is the one holder of a `parties: holders of` card"))
        own_exchange = (ex.who, ex.takes, ex.discards)
    _automaton_asked(r, errors, passing is not None, auction, contracts, own_exchange, play_offer)
    return Flow(passing=(passing.clause.count, passing.clause.directions) if passing is not None else None,
                exchange=own_exchange, exchange_cite=_cite(ex_eff.clause) if ex_eff is not None else "",
                passing_cite=_cite(passing.clause) if passing is not None else "",
                stock=deal.stock if deal else 0, turn=deal.turn if deal else "", covered=deal.covered if deal else 0,
                first_bidder=first, rounds=tuple(rounds), all_pass=all_pass, all_pass_offer=play_offer,
                auction_cite=_cite(auction.clause) if auction is not None else "", has_auction=auction is not None,
                contracts=tuple(contracts), partner=rule, holders=holders)


def _offer(scope: Resolved, base, name: str, colours, requires, exactly: int, errors: list) -> OfferTable | None:
    """A contract's ``offer`` and ``offer refused`` clauses compiled, each checked against the contract's others:
    its taker is the partner (``partner: taker``), its declarer holds exactly one of the cards offered
    (``requires: holds exactly 1 of``), the cards given back are none of those offered, and someone says what
    follows when nobody takes it. None where the contract offers nothing."""
    eff, refused = scope.effective("offer"), scope.effective("offer refused")
    partner = scope.clause("partner")
    taker = partner is not None and partner.who == "taker"
    if eff is None:
        if taker:
            errors.append(_fail(scope.effective("partner"), f"contract {name}'s partner is the taker of the card "
                                                            f"offered, but no offer clause says what is offered"))
        if refused is not None:
            errors.append(_fail(refused, f"contract {name} says what follows when nobody takes the card offered, "
                                         f"but it offers none (no offer clause)"))
        return None
    o = eff.clause
    if not taker:
        errors.append(_fail(eff, f"contract {name} offers a card, so it must also say `partner: taker`: the player "
                                 f"who takes it plays with the declarer"))
    classes = {colour: _classes_of(scope, base, colour) for colour in colours}

    def cards(sel, colour) -> int:
        try:
            return base.deck.cards(base.deck.select(sel, None, "offer", colour, classes[colour]))
        except SelectorError as err:
            errors.append(_fail(eff, err.message))
            return 0

    offered = tuple(cards(o.cards, colour) for colour in colours)
    back = tuple(cards(o.back, colour) for colour in colours)
    if exactly != 1 or any(mask != want for (mask, _all), want in zip(requires, offered)):
        errors.append(_fail(eff, f"the declarer offers his one card of {selector_text(o.cards)}, "
                                 f"so only a player who holds exactly one may bid contract {name}: say `requires: "
                                 f"holds exactly 1 of` the same cards"))
    if any(a & b for a, b in zip(offered, back)):
        errors.append(_fail(eff, "a card the taker gives back could be one of the cards offered; the cards given "
                                 "back must be others (`... gives back 1 of any except ...`)"))
    if refused is None:
        errors.append(_fail(eff, f"contract {name} offers a card, but no `offer refused` clause says what follows "
                                 f"when nobody takes it (`offer refused: redeal` or `offer refused: declarer "
                                 f"alone`)"))
    return OfferTable(cards=offered, back=back, back_count=o.back_count, face_up=o.face_up,
                      first=base.seat(eff, o.first), refused=refused.clause.outcome if refused else "redeal",
                      cite=_cite(o), refused_cite=_cite(refused.clause) if refused else "")


def _automaton_asked(r: Resolved, errors: list, passes: bool, auction, contracts, own_exchange, play_offer) -> None:
    """An error where an automaton's seat could be asked a decision before play that its rule does not make: it
    says which card it plays, and may say which cards it passes, how it bids, which cards it lays away and which
    card it calls; where it leaves one of them unsaid, a person or a bot would decide it, and the seat would no
    longer be played by a rule.

    A seat that never bids is a declarer only where nobody bids (the contract played when all pass, or the one
    holder of the cards that name the parties), so a call or an exchange of a contract bid is not asked of it;
    an exchange the dealer makes is."""
    eff = r.effective("automaton")
    if eff is None:
        return
    c = eff.clause
    never_bids = c.bids == "never"
    if never_bids and auction is not None and auction.clause.all_pass == "dealer":
        errors.append(_fail(eff, f"the rule says the automaton never bids, but the auction makes the dealer bid when "
                                 f"all the others have passed ({_cite(auction.clause)}), and the dealer may be an "
                                 f"automaton's seat"))
    unbid = [contracts[play_offer.contract]] if play_offer is not None else []
    declared = unbid if never_bids else contracts

    def lays_away(k) -> bool:
        return bool(k.exchange) and (k.exchange[0] == "dealer" or k in declared)

    laid = own_exchange is not None or any(lays_away(k) for k in contracts)
    if c.lays_away is not None and not laid:
        errors.append(_fail(eff, f"the rule says which cards the automaton lays away ({c.lays_away}), but in this "
                                 f"ruleset no exchange asks it to lay any away; leave that phrase out"))
    calls = any(any(k.call) for k in declared)
    if c.calls is not None and not calls:
        errors.append(_fail(eff, f"the rule says which card the automaton calls ({c.calls}), but in this ruleset no "
                                 f"contract it may declare calls a card; leave that phrase out"))
    asked = [what for what, open_ in (
        ("pass cards", passes and c.passes is None),
        ("bid", auction is not None and c.bids is None),
        ("call a card", calls and c.calls is None),
        ("lay cards away", laid and c.lays_away is None)) if open_]
    if not asked:
        return
    seats = ", ".join(f"seat {s}" for s in c.seats)
    said = ", ".join(asked[:-1]) + (" and " if len(asked) > 1 else "") + asked[-1]
    hints = [h for h, open_ in (("`, pass the highest cards` (or the lowest) says which cards it passes",
                                 "pass cards" in asked),
                                ("`, never bid` (or `, bid only when made to`) how it bids", "bid" in asked),
                                ("`, lay away the lowest cards` (or the highest) which cards it lays away",
                                 "lay cards away" in asked),
                                ("`, call the highest card it may` (or the lowest) which card it calls",
                                 "call a card" in asked)) if open_]
    hint = (" (after the play rule, " + "; ".join(hints) + ")") if hints else ""
    errors.append(_fail(eff, f"{seats} {'is' if len(c.seats) == 1 else 'are'} played by this rule, which "
                             f"says which card to play, but before the first card this ruleset may ask a seat to "
                             f"{said}, of which the rule says nothing{hint}; an automaton can play only a game in "
                             f"which it is told what to do at every decision"))


def _classes_of(scope: Resolved, base, colour):
    """The classes of cards in force in a contract for a trump colour (class clauses may speak of trumps)."""
    classes: dict[str, int] = {}
    for e in scope.clauses:
        if isinstance(e.clause, ir.CardClass):
            try:
                classes[e.clause.name] = base.deck.select(e.clause.cards, None, "class", colour, classes)
            except SelectorError:
                return classes
    return classes


class _Scoped:
    """The few things :func:`parties_rule` asks of a compiler, for a contract's clauses."""

    def __init__(self, resolved: Resolved, base, trump):
        self.r, self.deck, self.trump, self.errors = resolved, base.deck, trump, base.errors
        self.classes = _classes_of(resolved, base, trump)
