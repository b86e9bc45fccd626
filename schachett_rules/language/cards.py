"""Cards as integers: the deck a ruleset declares, card names, and selectors.

A *face* is a colour and a symbol (``wT``); a *card* is one physical copy of a
face (there are two ``wT``). Faces and cards are numbered once, when a deck
clause is compiled; hands are integer bitmasks over cards.

>>> from schachett_rules.rules.loader import load
>>> deck = Deck.from_clause(load("original").clause("deck"))
>>> len(deck.card_face), len(deck.face_names)
(52, 46)
>>> deck.face("wT"), deck.face_names[deck.face("s8")]
(2, 's8')
>>> deck.face("wZ")
Traceback (most recent call last):
...
schachett_rules.errors.UnknownCard: unknown card 'wZ': the deck has no face 'Z' (faces: K, D, T, L, S, 1, 2, 3, 4, 5, 6, 7, 8, I, II, III, IV, V, VI, VII, VIII, IX, X)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import ir
from ..errors import SchachettError, UnknownCard

CARD_NAME = re.compile(r"([a-z]+)([A-Z]+|[0-9]+)\Z")

# Far above any deck a card game uses (two Schachett decks are 104 cards); the compiler's
# tables grow with the square of the faces, so a slip such as ×1000000 must stop here.
MAX_CARDS = 1000


class SelectorError(SchachettError):
    """A selector naming a kind, face or card the deck lacks, or a colour relation out of place."""


@dataclass(frozen=True)
class Deck:
    """The numbered faces and cards of a deck clause."""

    colours: tuple[str, ...]
    colour_names: tuple[str, ...]
    colour_shades: tuple[str, ...]    # colour index -> its shade ("black", "red"), "" where the deck gives none
    kinds: tuple[str, ...]
    kind_titles: tuple[str, ...]
    symbols: tuple[str, ...]          # symbols in declaration order, each once
    face_names: tuple[str, ...]       # face index -> 'wT'
    face_colour: tuple[int, ...]      # face index -> colour index
    face_kind: tuple[str, ...]
    face_symbol: tuple[str, ...]
    face_value: tuple[int, ...]
    face_royal: tuple[bool, ...]
    face_title: tuple[str, ...]       # 'Rook' etc., '' where the deck gives none
    face_cards: tuple[int, ...]       # face -> bitmask of its cards
    card_face: tuple[int, ...]        # card -> face
    all_faces: int                    # bitmask over faces

    @classmethod
    def from_clause(cls, clause: ir.Deck) -> "Deck":
        """Number the faces (colour by colour, in declaration order) and their copies."""
        colours = tuple(c.code for c in clause.colours)
        if len(set(colours)) != len(colours):
            raise SelectorError("two colours have the same code")
        for code in colours:
            if not code.isalpha():
                raise SelectorError(f"colour code {code!r} must be lower-case letters only, so that card names "
                                    f"like {code}K can be read")
        symbols, kinds = [], []
        for kind in clause.kinds:
            if kind.name in kinds:
                raise SelectorError(f"kind {kind.name} is declared twice")
            kinds.append(kind.name)
            for f in kind.faces:
                if f.symbol in symbols:
                    raise SelectorError(f"face {f.symbol} is declared twice")
                if f.copies < 1:
                    raise SelectorError(f"face {f.symbol} must have at least one copy")
                symbols.append(f.symbol)
        size = len(colours) * sum(f.copies for kind in clause.kinds for f in kind.faces)
        if size > MAX_CARDS:
            raise SelectorError(f"the deck would hold {size} cards; a deck holds at most {MAX_CARDS}")
        names, fc, fk, fs, fv, fr, ft, cards_of, card_face = [], [], [], [], [], [], [], [], []
        for ci, code in enumerate(colours):
            for kind in clause.kinds:
                for f in kind.faces:
                    index = len(names)
                    names.append(code + f.symbol)
                    fc.append(ci)
                    fk.append(kind.name)
                    fs.append(f.symbol)
                    fv.append(f.value)
                    fr.append(f.royal)
                    ft.append(f.name)
                    mask = 0
                    for _ in range(f.copies):
                        mask |= 1 << len(card_face)
                        card_face.append(index)
                    cards_of.append(mask)
        return cls(colours=colours, colour_names=tuple(c.name for c in clause.colours),
                   colour_shades=tuple(c.shade for c in clause.colours), kinds=tuple(kinds),
                   kind_titles=tuple(k.title or k.name for k in clause.kinds),
                   symbols=tuple(symbols), face_names=tuple(names), face_colour=tuple(fc), face_kind=tuple(fk),
                   face_symbol=tuple(fs), face_value=tuple(fv), face_royal=tuple(fr), face_title=tuple(ft),
                   face_cards=tuple(cards_of), card_face=tuple(card_face), all_faces=(1 << len(names)) - 1)

    # --- names ---------------------------------------------------------------
    def face(self, name: str) -> int:
        """The face index of a card name such as ``wT`` or ``sIV``."""
        m = CARD_NAME.match(name) if isinstance(name, str) else None
        if not m:
            raise UnknownCard(f"unknown card {name!r}: a card is written as its colour and its face, such as "
                              f"{self.face_names[0]} or {self.face_names[-1]}")
        code, symbol = m.groups()
        if code not in self.colours:
            raise UnknownCard(f"unknown card {name!r}: the deck has no colour {code!r} (colours: {', '.join(self.colours)})")
        if symbol not in self.symbols:
            raise UnknownCard(f"unknown card {name!r}: the deck has no face {symbol!r} (faces: {', '.join(self.symbols)})")
        return self.colours.index(code) * len(self.symbols) + self.symbols.index(symbol)

    def faces_of_symbol(self, symbol: str) -> int:
        """Bitmask of the faces (one per colour) with this symbol."""
        out = 0
        for f, s in enumerate(self.face_symbol):
            if s == symbol:
                out |= 1 << f
        return out

    def cards(self, face_mask: int) -> int:
        """The card bitmask of a face bitmask."""
        out, f = 0, 0
        while face_mask:
            if face_mask & 1:
                out |= self.face_cards[f]
            face_mask >>= 1
            f += 1
        return out

    def card_of(self, name: str) -> int:
        """The first copy of a named card, as a card number."""
        mask = self.face_cards[self.face(name)]
        return (mask & -mask).bit_length() - 1

    def card_name(self, card: int) -> str:
        """The name of a card (copies share their face's name)."""
        return self.face_names[self.card_face[card]]

    def describe_faces(self, face_mask: int) -> str:
        """The faces of a bitmask, by name, in deck order."""
        return ", ".join(self.face_names[f] for f in range(len(self.face_names)) if face_mask >> f & 1)

    # --- selectors ---------------------------------------------------------------
    def _atom(self, atom: ir.Atom, ref: int | None, context: str, trump: int | None = None,
              classes: dict | None = None, called: int | None = None) -> int:
        is_called = atom.what == "kind" and atom.name == "called" and "called" not in self.kinds
        is_colour = (atom.what == "kind" and atom.name in self.colours and atom.name not in self.kinds
                     and not (classes and atom.name in classes))
        if is_called:
            if called is None:
                raise SelectorError("'called' names the card called in the game, and no card is called here: "
                                    "say it in a contract with a call clause")
            mask = 1 << called
        elif is_colour:
            mask = sum(1 << f for f, c in enumerate(self.face_colour) if self.colours[c] == atom.name)
        elif atom.what == "any":
            mask = self.all_faces
        elif atom.what == "royal":
            mask = sum(1 << f for f, r in enumerate(self.face_royal) if r)
        elif atom.what == "kind":
            if classes and atom.name in classes:
                mask = classes[atom.name]
            elif atom.name not in self.kinds:
                named = ", ".join(self.kinds) + (f"; classes: {', '.join(classes)}" if classes else "")
                raise SelectorError(f"{atom.name!r} is not a kind of this deck (kinds: {named})")
            else:
                mask = sum(1 << f for f, k in enumerate(self.face_kind) if k == atom.name)
        elif atom.what == "face":
            if atom.name not in self.symbols:
                raise SelectorError(f"{atom.name!r} is not a face of this deck (faces: {', '.join(self.symbols)})")
            mask = self.faces_of_symbol(atom.name)
        else:
            try:
                mask = 1 << self.face(atom.name)
            except UnknownCard as err:
                raise SelectorError(err.message) from None
        if atom.colour == "any":
            return mask
        if atom.colour == "called":
            if called is None:
                raise SelectorError("'of called colour' needs a card called in the game: say it in a contract with "
                                    "a call clause")
            return mask & sum(1 << f for f, c in enumerate(self.face_colour) if c == self.face_colour[called])
        if atom.colour in ("trump", "trump-shade"):
            if trump is None:
                raise SelectorError(f"'{'of trump colour' if atom.colour == 'trump' else 'of trump shade'}' needs a "
                                    f"trump colour: it is said in a contract played for each colour")
            if atom.colour == "trump":
                return mask & sum(1 << f for f, c in enumerate(self.face_colour) if c == trump)
            shade = self.colour_shades[trump]
            if not shade:
                raise SelectorError("'of trump shade' needs colours with shades: write them after each colour's name "
                                    "in the deck clause, such as c \"clubs\" (black)")
            return mask & sum(1 << f for f, c in enumerate(self.face_colour) if self.colour_shades[c] == shade)
        allowed = {"follow": "led", "capture": "same"}.get(context)
        if atom.colour != "other" and atom.colour != allowed:
            where = {"led": "follow rules (the led card's colour)", "same": "capture rules (the taking card's colour)"}
            raise SelectorError(f"'of {atom.colour} colour' only makes sense in {where[atom.colour]}")
        if ref is None:
            raise SelectorError(f"'of {atom.colour} colour' needs a card to compare with, and there is none here")
        same = sum(1 << f for f, c in enumerate(self.face_colour) if c == ref)
        return mask & same if atom.colour != "other" else mask & ~same & self.all_faces

    def select(self, selector: ir.Selector, ref: int | None = None, context: str = "", trump: int | None = None,
               classes: dict | None = None, called: int | None = None) -> int:
        """The faces a selector names, as a bitmask; ``ref`` is the colour that
        ``of led colour`` / ``of same colour`` refers to, ``trump`` the trump colour of the contract played
        (``of trump colour``), ``classes`` the classes of cards a name may mean beside the kinds and the colours'
        codes, ``called`` the face of the card called in the game (``called``, ``of called colour``)."""
        out = 0
        for term in selector.terms:
            mask = self._atom(term.base, ref, context, trump, classes, called)
            for minus in term.minus:
                mask &= ~self._atom(minus, ref, context, trump, classes, called)
            out |= mask
        return out


def describe_selector(selector: ir.Selector, deck: Deck | None = None, ref: int | None = None) -> str:
    """A selector in words; with a deck and a reference colour, colours are named.

    >>> sel = ir.Selector(terms=(ir.Term(base=ir.Atom(what="kind", name="pawn", colour="led")),))
    >>> describe_selector(sel)
    'a pawn of the led colour'
    """
    def noun(a: ir.Atom) -> str:
        if a.what == "any":
            return "card"
        if a.what == "royal":
            titles = [deck.face_title[f] for f, r in enumerate(deck.face_royal) if r] if deck else []
            return titles[0] if titles and titles[0] else "royal card"
        if a.what == "kind" and a.name == "called":
            return "called card"
        if a.what == "kind" and deck is not None and a.name in deck.colours and a.name not in deck.kinds:
            return f"card of {deck.colour_names[deck.colours.index(a.name)]}"
        if a.what == "kind":
            return deck.kind_titles[deck.kinds.index(a.name)] if deck and a.name in deck.kinds else a.name
        if a.what == "face" and deck is not None and a.name in deck.symbols:
            title = deck.face_title[deck.symbols.index(a.name)]
            return f"{a.name} ({title})" if title else a.name
        return a.name

    def words(a: ir.Atom) -> str:
        if a.what == "card":
            return a.name
        n = noun(a)
        if a.colour in ("led", "same") and deck is not None and ref is not None:
            return f"{deck.colour_names[ref]} {n}"
        if a.colour == "other" and deck is not None and ref is not None:
            others = [c for i, c in enumerate(deck.colour_names) if i != ref]
            return f"{' or '.join(others)} {n}"
        suffix = {"led": " of the led colour", "same": " of its own colour", "other": " of another colour",
                  "trump": " of the trump colour", "trump-shade": " of the trump's shade",
                  "called": " of the called card's colour"}
        base = "any card" if a.what == "any" and a.colour == "any" else n
        return base + suffix.get(a.colour, "")

    parts = []
    for term in selector.terms:
        text = words(term.base)
        if term.minus:
            text += " other than " + " or ".join(words(m) for m in term.minus)
        parts.append(text)
    joined = " or ".join(parts)
    if joined.startswith("any card"):
        return joined
    article = "an" if joined[:1].lower() in "aeiou" else "a"
    return f"{article} {joined}"
