"""Plots of a run's statistics, as SVG and PNG (matplotlib, drawn without a screen).

Four figures: when the King events happen (by trick), how the points fall
(each party's total, and the difference), the money by place at the table with
95% intervals (the seat and lead advantage), and from which trick the game is
decided.
"""

from __future__ import annotations

from pathlib import Path

from .stats import Stats

COLOURS = {"checkmate": "#b22222", "selfmate": "#1f77b4", "stalemate": "#2ca02c"}
FIGURES = ("king-events-by-trick", "points", "seat-advantage", "decided")
"""The figures :func:`plot_stats` draws, by file name without the suffix."""
FORMATS = ("svg", "png")


def _save(fig, folder: Path, name: str) -> list[Path]:
    out = []
    for ext in FORMATS:
        path = folder / f"{name}.{ext}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        out.append(path)
    return out


def plot_stats(s: Stats, folder: Path, title: str = "") -> list[Path]:
    """Write the figures into ``folder``; return the files written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    title = title or s.ruleset
    written: list[Path] = []
    n = max(s.games, 1)
    tricks = list(range(1, s.n_tricks + 1))

    fig, ax = plt.subplots(figsize=(7, 3.6))
    for name, by_trick in s.events_by_trick.items():
        ax.plot(tricks, [100 * c / n for c in by_trick], marker="o", label=name, color=COLOURS.get(name))
    ax.set_xlabel("trick")
    ax.set_ylabel("share of games (%)")
    ax.set_xticks(tricks)
    ax.set_title(f"{title}: when the Kings meet their fate")
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    written += _save(fig, folder, "king-events-by-trick")
    plt.close(fig)

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    for p, hist in enumerate(s.points_hist):
        xs = sorted(hist)
        left.step([x * s.BIN for x in xs], [100 * hist[x] / n for x in xs], where="post", label=f"party {p}")
    left.set_xlabel("points in a game")
    left.set_ylabel("share of games (%)")
    left.legend(frameon=False)
    left.set_title("points per party")
    xs = sorted(s.difference_hist)
    right.bar([x * s.BIN + s.BIN / 2 for x in xs], [100 * s.difference_hist[x] / n for x in xs], width=s.BIN,
              color="#777777")
    right.set_xlabel("party 0 − party 1")
    right.set_title("difference")
    fig.suptitle(title)
    written += _save(fig, folder, "points")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.4))
    names = ["dealer", "first to lead"] + [f"dealer + {k}" for k in range(2, s.n_seats)]
    means = [t.mean for t in s.position_money]
    errs = [(t.ci()[1] - t.ci()[0]) / 2 for t in s.position_money]
    ax.bar(names, means, yerr=errs, capsize=5, color=["#555555" if m < 0 else "#2f6f3e" for m in means])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("mean money per game")
    ax.set_title(f"{title}: advantage by place at the table (95% intervals)")
    written += _save(fig, folder, "seat-advantage")
    plt.close(fig)

    decided = max(s.games - s.draws, 1)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.bar(tricks, [100 * v / decided for v in s.decided_at], color="#8c564b")
    ax.set_xlabel("decided from trick (the winner leads from then on)")
    ax.set_ylabel("share of decided games (%)")
    ax.set_xticks(tricks)
    ax.set_title(f"{title}: when the game is decided")
    written += _save(fig, folder, "decided")
    plt.close(fig)
    return written
