"""Plots of a run's statistics, as SVG and PNG (matplotlib, drawn without a screen).

Four figures: when the King events happen (by trick), how the points fall
(each party's total, and the difference), the money by place at the table with
95% intervals (the seat and lead advantage), and from which trick the game is
decided.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from ..kernel.tables import Tables
from ..rules.seating import seat_words
from .stats import Stats

COLOURS = {"checkmate": "#b22222", "selfmate": "#1f77b4", "stalemate": "#2ca02c"}
FIGURES = ("king-events-by-trick", "points", "seat-advantage", "decided")
"""The figures :func:`plot_stats` draws, by file name without the suffix."""
FORMATS = ("svg", "png")


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def place_names(t: Tables) -> list[str]:
    """The places at the table, counted from the dealer, named by their part in the first trick.

    Place ``k`` is the seat ``k`` to the dealer's left; its name says whether it deals, leads the first trick
    or plays in it 2nd, 3rd, ..., and whether it partners the dealer.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> place_names(tables_for("original"))
    ['the dealer (plays 4th)', 'leads the first trick', "plays 2nd (the dealer's partner)", 'plays 3rd']
    """
    n = t.n_seats
    base, off = t.first_lead
    partners = _dealer_places(t) - {0}
    names = []
    for place in range(n):
        if base != "dealer":        # a fixed seat leads: its place from the dealer changes from game to game
            role = ""
        else:
            turn = (place - off) % n + 1
            role = "leads the first trick" if turn == 1 else f"plays {_ordinal(turn)}"
        if place == 0:
            names.append(f"the dealer ({role})" if role else "the dealer")
        elif place in partners:
            names.append(f"{role} (the dealer's partner)" if role else f"the dealer's partner ({seat_words(place, n)})")
        else:
            names.append(role or seat_words(place, n))
    return names


def _dealer_places(t: Tables) -> set[int]:
    """The places (counted from the dealer) that are in the dealer's party whoever deals."""
    n = t.n_seats
    return {k for k in range(n) if all(t.party_of[(d + k) % n] == t.party_of[d] for d in range(n))}


def party_names(t: Tables) -> list[str]:
    """The parties by their seats, as the plots label them.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> party_names(tables_for("original"))
    ['South and North (seats 0, 2)', 'West and East (seats 1, 3)']
    """
    return [f"{t.party_names[p]} (seats {', '.join(map(str, seats))})" for p, seats in enumerate(t.parties)]


def _save(fig, folder: Path, name: str) -> list[Path]:
    out = []
    for ext in FORMATS:
        path = folder / f"{name}.{ext}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        out.append(path)
    return out


def plot_stats(s: Stats, folder: Path, title: str = "", t: Tables | None = None) -> list[Path]:
    """Write the figures into ``folder``; return the files written.

    With the ruleset's tables ``t`` the places at the table and the parties are named (:func:`place_names`,
    :func:`party_names`); without them they are numbered.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    title = title or s.ruleset
    written: list[Path] = []
    n = max(s.games, 1)
    tricks = list(range(1, s.n_tricks + 1))
    from .simulate import party_titles
    parties = party_names(t) if t else party_titles(s)
    places = place_names(t) if t else [seat_words(k, s.n_seats) for k in range(s.n_seats)]
    every = f"{s.games:,} games"

    fig, ax = plt.subplots(figsize=(7, 3.6))
    for name, by_trick in s.events_by_trick.items():
        ax.plot(tricks, [100 * c / n for c in by_trick], marker="o", label=name, color=COLOURS.get(name))
    ax.set_xlabel("trick")
    ax.set_ylabel("share of games (%)")
    ax.set_xticks(tricks)
    ax.set_ylim(bottom=0)
    ax.set_title(f"{title}: in which trick the Kings meet their fate ({every})")
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))    # beside the lines, never over them
    ax.grid(alpha=0.3)
    written += _save(fig, folder, "king-events-by-trick")
    plt.close(fig)

    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.8), layout="constrained")
    for p, hist in enumerate(s.points_hist):
        xs = sorted(hist)
        left.step([x * s.BIN for x in xs], [100 * hist[x] / n for x in xs], where="post", label=parties[p])
    left.set_xlabel("points in a game (cards and King events)")
    left.set_ylabel("share of games (%)")
    peak = max((100 * v / n for hist in s.points_hist for v in hist.values()), default=1.0)
    left.set_ylim(0, 1.3 * peak)        # room for the legend above the curves
    left.legend(frameon=False, fontsize=8, loc="upper right")
    left.set_title("each party's points", fontsize=11)
    xs = sorted(s.difference_hist)
    right.bar([x * s.BIN + s.BIN / 2 for x in xs], [100 * s.difference_hist[x] / n for x in xs], width=s.BIN,
              color="#777777")
    right.set_xlabel(f"{parties[0]}'s points − {parties[1]}'s" if s.n_parties == 2 else "the difference of the points")
    right.set_title("the difference between the parties", fontsize=11)
    fig.suptitle(f"{title}: how the points fall ({every})")
    written += _save(fig, folder, "points")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(min(9.0, max(6.5, 1.1 * s.n_seats)), 4.2), layout="constrained")
    means = [r.mean for r in s.position_money]
    lows = [r.ci()[0] for r in s.position_money]
    highs = [r.ci()[1] for r in s.position_money]
    xs = list(range(s.n_seats))
    dealers = _dealer_places(t) if t else set()
    for side, colour, label in ((True, "#555555", "the dealer's party"), (False, "#2f6f3e", "the other party")):
        at = [x for x in xs if (x in dealers) == side]
        if not at or not dealers:
            continue
        ax.errorbar(at, [means[x] for x in at], yerr=[[means[x] - lows[x] for x in at], [highs[x] - means[x] for x in at]],
                    fmt="o", markersize=7, capsize=6, color=colour, ecolor=colour, label=label)
    if not dealers:
        ax.errorbar(xs, means, yerr=[[m - lo for m, lo in zip(means, lows)], [hi - m for m, hi in zip(means, highs)]],
                    fmt="o", markersize=7, capsize=6, color="#2f6f3e", ecolor="#555555")
    else:
        fig.legend(frameon=False, fontsize=9, loc="outside lower center", ncol=2)
    for x, m, hi in zip(xs, means, highs):
        ax.annotate(f"{m:+.2f}", (x, hi), textcoords="offset points", xytext=(0, 4), ha="center", fontsize=9)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(xs, ["\n".join(textwrap.wrap(p, 13)) for p in places], fontsize=8)
    ax.set_xlim(-0.5, s.n_seats - 0.5)
    spread = max([abs(v) for v in lows + highs] or [1.0])
    ax.set_ylim(-1.35 * spread, 1.35 * spread)
    ax.set_ylabel(f"money won per game ({t.money_unit})" if t else "money won per game")
    ax.set_title(f"{title}: money by place at the table ({every})\nthe dot is the mean, the bar its 95% interval",
                 fontsize=10)
    written += _save(fig, folder, "seat-advantage")
    plt.close(fig)

    decided = max(s.games - s.draws, 1)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.bar(tricks, [100 * v / decided for v in s.decided_at], color="#8c564b")
    ax.set_xlabel("the trick after which the winner is ahead on points to the end")
    ax.set_ylabel("share of decided games (%)")
    ax.set_xticks(tricks)
    ax.set_title(f"{title}: when the game is decided ({decided:,} decided games)")
    written += _save(fig, folder, "decided")
    plt.close(fig)
    return written
