"""The page that ranks the bots: who the pages' "random" and "strong" players are, and how they compare.

Every figure the site gives "played well" comes from one bot (:data:`.sims.STRONG_BOTS`); a reader needs to know
how strong it is against the others before trusting what it finds. The page plays a ladder
(:func:`schachett_rules.simulation.ladder.ladder`: every pair on the same deals in both seatings, cached like
every run) in a game of four hands and in the game of two people, and states what it found from those
figures alone.
"""

from __future__ import annotations

from ..players import bot_kind
from ..players.montecarlo import SAMPLES as MC_SAMPLES
from ..simulation.ladder import DuelResult, ladder
from ..simulation.parallel import default_workers
from .context import Context
from .sims import SEED, STRONG_BOTS, strong_games_for

PAGE = "simulations/players.md"
# the command line's bots in the order a ladder lists them, weakest in intent first: the pages' two players and
# the two between them (the default-strength searching players take seconds a game and are left to the command line)
LADDER_BOTS = ("random", "heuristic", "mc", STRONG_BOTS[0])
LADDER_RULESETS = ("original", "two-player")
_WHAT = {
    "random": "plays any legal card, each as likely as another: the players of the pages' large runs",
    "heuristic": "weighs each legal card by what the trick on the table is likely to bring its party: who would "
                 "hold it after that card, how likely the players still to come can take it (from the cards it has "
                 "not seen), its points and its King events; it plays the cheapest card that gets the result and "
                 "looks no further than the trick",
    "mc": f"deals the cards it cannot see at random many times ({MC_SAMPLES} a decision by default), agreeing with "
          "all its seat has seen, plays each legal card out at random in every such deal, and keeps the best on "
          "average",
    "dd": "deals the cards it cannot see as mc does and asks the exact solver what each legal card is worth with "
          "every hand open and best play by all, near the end to the last card, earlier to the end of the trick "
          "with quick play-outs beyond; the number after the colon is the deals a decision",
}


def expected_share(gap: float) -> float:
    """The share of decided games a bot rated ``gap`` points above another is expected to win (Elo's curve).

    >>> round(expected_share(100), 3), expected_share(0)      # 1 / (1 + 10 ** (-100 / 400))
    (0.64, 0.5)
    """
    return 1 / (1 + 10 ** (-gap / 400))


def _share(r: DuelResult, a: str) -> str:
    """A duel's share of decided games for bot ``a`` (either side of the pair), with its interval, in percent."""
    low, high = r.interval
    if r.a != a:
        share, low, high = 1 - r.a_share, 1 - high, 1 - low
    else:
        share = r.a_share
    return f"{100 * share:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _unsettled(r: DuelResult) -> bool:
    """Whether a duel's games leave it open which bot is the stronger: its interval holds an even share (or no
    game was decided)."""
    low, high = r.interval
    return not r.decided or low <= 0.5 <= high


def _pair(results: list[DuelResult], x: str, y: str) -> DuelResult:
    return next(r for r in results if {r.a, r.b} == {x, y})


def ladder_section(ruleset: str, results: list[DuelResult], rating: dict[str, float], games: int) -> str:
    """One ruleset's ladder as a Markdown section: the finding, the pairs, the ratings and the command."""
    strong = STRONG_BOTS[0]
    order = sorted(rating, key=lambda b: -rating[b])
    ranked = ", then ".join(f"{b} ({rating[b]:+.0f})" for b in order)
    finding = (f"**Finding:** in {ruleset}, {games} games a pair, the ladder ranks {ranked}. The pages' strong "
               f"player, {strong}, wins {_share(_pair(results, strong, 'random'), strong)} of the decided games "
               f"against random players and {_share(_pair(results, strong, 'mc'), strong)} against mc.")
    open_pairs = [(x, y) for x, y in zip(order, order[1:]) if _unsettled(_pair(results, x, y))]
    if open_pairs:
        named = [f"{x} and {y}" for x, y in open_pairs]
        listed = named[0] if len(named) == 1 else ", of ".join(named[:-1]) + " and of " + named[-1]
        finding += (f" These games leave open the order of {listed}: "
                    + ("their pair's interval holds" if len(named) == 1 else "each pair's interval holds")
                    + " an even share.")
    rows = ["| pair (A against B) | games | decided | A's share of decided games | 95% interval |",
            "|---|---|---|---|---|"]
    for r in results:
        low, high = r.interval
        share = f"{100 * r.a_share:.1f}%" if r.decided else "none decided"
        rows.append(f"| {r.a} against {r.b} | {r.games} | {r.decided} | {share} | "
                    f"[{100 * low:.1f}, {100 * high:.1f}] |")
    ratings = ["| bot | rating (Elo, random = 0) |", "|---|---|"] + [f"| {b} | {rating[b]:+.0f} |" for b in order]
    command = (f"`schachett ladder {ruleset} --bots {','.join(LADDER_BOTS)} --games {games} --seed {SEED}`")
    return (f"## {ruleset}\n\n{finding}\n\n" + "\n".join(rows) + "\n\n" + "\n".join(ratings) + f"\n\n{command}\n")


def players_page(ctx: Context, write) -> tuple[str, str]:
    """Write the page of the players, ranked; return its title and path for the navigation."""
    sections = []
    for ruleset in LADDER_RULESETS:
        games = strong_games_for(ctx.tables[ruleset])
        results, rating = ladder(ruleset, list(LADDER_BOTS), games, SEED, workers=default_workers())
        sections.append(ladder_section(ruleset, results, rating, games))
    kinds = "\n".join(f"- **{b}** {_WHAT[bot_kind(b)]}." for b in LADDER_BOTS)
    page = (
        "# The players, ranked\n\n"
        "The simulations play with bots: random players for the large runs, and the sampling player "
        f"{STRONG_BOTS[0]} where a page says a game was *played well*. How far apart they play is measured here, in "
        "the way the command line's `schachett ladder` measures it: every pair of bots plays the same deals, each "
        "deal twice with the parties' seats exchanged, so that neither bot keeps the better cards. A game is "
        "*decided* when one party wins it; a share is of the decided games, with its 95% interval (Wilson's).\n\n"
        f"{kinds}\n\n"
        "The command line has stronger players than these, which take too long for a page built from scratch: "
        "dd at its default strength (more deals a decision) and ismcts, a tree search over the deals a seat may "
        "be facing (`schachett duel ismcts mc original --games 200`).\n\n"
        "A rating is fitted to all the pairs' decided games at once (Bradley and Terry's model, on Elo's scale): a "
        f"bot 100 points above another is expected to win {100 * expected_share(100):.0f}% of their decided games, "
        f"200 points above, {100 * expected_share(200):.0f}%.\n\n"
        + "\n".join(sections))
    write(PAGE, page)
    return "The players, ranked", PAGE
