"""The rules kernel: the compiled tables and the only code that knows how a game of cards is played.

A ruleset is compiled once (:mod:`.compiler`) into a frozen :class:`~.tables.Tables` of ints,
bitmasks and small records. The queries of this package read it and nothing else:

* :mod:`.deal`: seats named by clauses, the shuffle and the deal, the k-th card of a set;
* :mod:`.trick`: the legal cards of a hand (and the follow tier that forced them), who holds a trick
  after each card, card points (the last trick's promotion included), the outcome of a full trick;
* :mod:`.scoring`: the fate of every King in a trick and its points (the only scorer of King events),
  and the settlement of a game;
* :mod:`.automaton`: the card a seat played by a fixed rule plays;
* :mod:`.castling`: when castling may happen, whose hand it reaches, which King may be rescued;
* :mod:`.visibility`: what a seat may see (an exposed dummy, face-up Kings, the tricks it keeps);
* :mod:`.core`: the leaf decisions all of these share, in a form numba compiles for the play-outs;
* :mod:`.state`: the one game state, which says whose decision it is, which actions (:mod:`.actions`) are
  open and what follows; it verifies them (:mod:`.verify`), records them (:mod:`.records`, built by
  :mod:`.gamelog`) and shows each seat what it may see (:mod:`.observation`); :mod:`.chance` is the
  random player, :mod:`.streams` the seeding of every game;
* :class:`~.tables.Tables` itself answers for seats and parties: who plays a seat, the next seat,
  partners and opponents, whose hand a castle reaches.

The state, the fast play-outs, the bots, the studies, the terminal and the site ask these; none of
them decides on its own who takes a trick or what a King's fate scores, and none walks a game but
through the state. The queries take the state
they need as plain arguments (hands as bitmasks, the trick as ``(seat, card)`` pairs, the trick's
index, a :class:`~.scoring.KingCount`), never a game object, so that every consumer, however it
keeps its state, asks the same question the same way.
"""
