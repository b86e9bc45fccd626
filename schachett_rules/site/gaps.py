"""One page per gap or ambiguity of the manual: evidence, readings, choices, and measured effects."""

from __future__ import annotations

import html
import re

from ..kernel.scoring import penalty_money
from ..kernel.tables import Tables
from ..language import ir
from ..language.expr import render as render_expr
from ..language.ir import Lacuna
from ..language.printer import clause as clause_text
from ..rules.prose import penalty_effects
from ..rules.seating import and_list
from ..engine.session import next_cycle_start, partner_counts, seatings, default_players
from .context import Context, render, url_rel
from ..studies import example12 as ex
from ..studies.kings import compare
from ..players.sampling import default_deals
from . import sims
from .sims import effects_finding, effects_plot, effects_table, games_for, skill_table, stats_for
from .ranking import PAGE as PLAYERS_PAGE

TITLES = {
    "suit-order": "Where the suit cards X and IX rank",
    "pawn-takes-suit": "Pawns against suit cards",
    "ties": "Ties between equal cards",
    "king-follow": "The King as a follower",
    "deal": "The lost deal of §4",
    "castling": "The lost castling of §5",
    "castle-officer": "Castling: which officer",
    "castle-limit": "Castling: how often",
    "remaining": "What the 'remaining cards' are",
    "king-order": "The first King and the second",
    "promoted-points": "Points of the promoted suit cards",
    "castle-king": "Castling: the King of the hand opposite",
    "penalty-money": "Penalties: rounded one by one, or summed",
    "stake": "Three players: the Kaiser's stake",
    "ai-suit-order": "The AI's list of suit cards",
    "ai-pawn-capture": "The AI's 'can only beat higher cards'",
    "ai-castling": "The AI's castling",
    "rounding": "Rounding the money",
}

# The register of gaps and ambiguities, in its order: (number, page, what it is about).
REGISTER = [
    (1, "suit-order", "§2 lists suit cards F8 … F1 but §1 numbers them I–X"),
    (2, "pawn-takes-suit", "does a same-colour pawn take a suit card?"),
    (3, "ties", "first played wins: officers only, or every card?"),
    (4, "remaining", "remaining cards: per player, or in all hands?"),
    (5, "king-order", "which King is the 1st, and two Kings in one trick"),
    (6, "deal", "§4 is lost: the Kings face up, or a random deal?"),
    (7, "castling", "§5 is lost: who castles, when, with which officer, how often"),
    (8, "promoted-points", "do the promoted I–III score as officers?"),
    (9, "example-12", "§12's example: 190 + 68 = 258, more than the cards hold"),
    (10, "seating", "§13's seat changes and its garbled diagrams"),
    (11, "three-player", "three players: dealing, lots, the dummy and who sees it"),
    (12, "penalties", "penalties paid player to player: a ledger per player"),
]

CASTLING_CLAUSES = (ir.Castling, ir.CastleOfficer, ir.CastleLimit, ir.CastleKing, ir.CastleMoment, ir.CastleWith,
                    ir.CastleRescue)


def sweep_ruleset(ctx: Context, name: str, lac: Lacuna) -> str:
    """Where a lacuna's readings are measured: the first ruleset that has it, except that readings of castling are
    measured where castling is played (the printed ruleset plays none)."""
    owners = [r for r, res in ctx.rulesets.items() if any(c.lacuna.name == name for c in res.lacunae)]
    about_castling = any(isinstance(c, CASTLING_CLAUSES) for o in lac.options for c in o.clauses)
    if about_castling:
        playing = [r for r in owners if ctx.tables[r].castling is not None]
        if playing:
            return playing[0]
    return owners[0]


def _lacunae(ctx: Context) -> dict[str, tuple[Lacuna, str]]:
    found: dict[str, tuple[Lacuna, str]] = {}
    for rname, r in ctx.rulesets.items():
        for ch in r.lacunae:
            found.setdefault(ch.lacuna.name, (ch.lacuna, rname))
    return found


def index_lacuna_cites(ctx: Context) -> None:
    """Record which sections each lacuna draws on, for the manual pages."""
    for name, (lac, _) in _lacunae(ctx).items():
        cites = list(lac.basis.cites) + [c for e in lac.evidence for c in e.basis.cites] + \
            [c for o in lac.options for c in o.basis.cites]
        for c in dict.fromkeys(cites):
            ctx.lacuna_cites.setdefault(ctx.resolve(c).section.cite, []).append((name, f"gaps/{name}.md"))


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.splitlines())


READINGS_HEAD = ("reading", "grade", "rests on", "what it says", "chosen by")


def readings_table(ctx: Context, page: str, lac: Lacuna, chosen_by: dict[str, list[str]]) -> str:
    """A lacuna's readings as an HTML table; each cell carries its column's name, for the card a narrow screen shows."""
    rows = []
    for o in lac.options:
        who = ", ".join(f'<a href="{url_rel(page, ctx.rulebook_page(n))}">{n}</a>' for n in chosen_by.get(o.name, []))
        cells = (f"<strong>{html.escape(o.name)}</strong>", ctx.grade(o.basis.grade),
                 " ".join(ctx.cite_html(page, c) for c in o.basis.cites), html.escape(o.summary), who or "—")
        rows.append("<tr>" + "".join(f'<td><span class="cell-label">{h}</span><span class="cell">{c}</span></td>'
                                     for h, c in zip(READINGS_HEAD, cells)) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in READINGS_HEAD)
    return (f'<div class="readings">\n<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n' + "\n".join(rows)
            + "\n</tbody>\n</table>\n</div>")


def gap_markdown(ctx: Context, name: str, lac: Lacuna, write) -> str:
    """A lacuna's page."""
    page = f"gaps/{name}.md"
    chosen_by: dict[str, list[str]] = {}
    choices = []
    for rname, r in ctx.rulesets.items():
        ch = next((c for c in r.lacunae if c.lacuna.name == name), None)
        if ch is None:
            continue
        chosen_by.setdefault(ch.option, []).append(rname)
        choices.append({"ruleset": f"[{rname}](../rulebooks/{rname}.md)", "option": ch.option, "because": ch.because})
    options = [{"name": o.name, "rules": _indent("\n".join(clause_text(c) for c in o.clauses))} for o in lac.options]
    evidence = [{"cites": ctx.cites_of(page, e.basis.cites), "grade": ctx.grade(e.basis.grade) if e.basis.grade else "",
                 "quote": e.quote} for e in lac.evidence]
    where = sweep_ruleset(ctx, name, lac)
    effects = finding = ""
    if where in ctx.rulesets and any(c.lacuna.name == name for c in ctx.rulesets[where].lacunae):
        base = ctx.rulesets[where].choice(name)
        # every reading plays as many games as the slowest of them can (the engine's readings fewer than the batch's)
        games = min(games_for(ctx, where, {name: o.name}) for o in lac.options)
        rows = [(o.name, stats_for(ctx, where, {name: o.name}, games)[1]) for o in lac.options]
        if len(rows) > 1:
            baseline = [o.name for o in lac.options].index(base)
            write(f"gaps/{name}-effects.svg", effects_plot(rows, f"{name}: readings played in {where}"))
            finding = effects_finding(rows, baseline, where)
            effects = (finding + "\n\n"
                       f"Measured in [{where}](../rulebooks/{where}.md), each reading in turn, everything else as that "
                       f"ruleset plays it.\n\n![the effects of each reading]({name}-effects.svg)\n\n"
                       + effects_table(rows, baseline, where))
            strong = [(o.name, stats_for(ctx, where, {name: o.name}, sims.strong_games_for(ctx.tables[where]),
                                             sims.STRONG_BOTS)[1])
                      for o in lac.options]
            effects += ("\n\n### What the readings do to a well-played game\n\n"
                        + effects_finding(strong, baseline, where, sims.STRONG_PLAYERS) + "\n\n"
                        + effects_table(strong, baseline, where, sims.STRONG_PLAYERS) + "\n\n"
                        + f"For a finer answer, `schachett sweep {where} -l {name} -b {sims.STRONG_BOTS[0]} -n 2000` "
                        f"plays each reading 2,000 times with the same players on every core, and keeps the result in "
                        f"the simulation cache; `-b dd` ({default_deals(ctx.tables[where])} deals a decision) plays "
                        f"stronger and slower; [the players, ranked](../{PLAYERS_PAGE}) says how strong "
                        f"{sims.STRONG_BOTS[0]} plays against the other bots.\n\n"
                        + skill_table(where, [(o.name, {name: o.name}) for o in lac.options], where))
    extra = ""
    if name == "deal":
        ai = ctx.tables["ai-reconstruction"]
        rows, chi2 = compare(ai, 100000, 1888)
        table = [f"| Kings of {' : '.join(ai.party_names)} | exact | by dealing 100,000 hands | 95% interval |", "|---|---|---|---|"]
        for row in rows:
            table.append(f"| {' : '.join(map(str, row['split']))} | {row['exact_fraction']} = {row['exact']:.4f} | "
                         f"{row['simulated']:.4f} | [{row['ci95'][0]:.4f}, {row['ci95'][1]:.4f}] |")
        one = sum(r["exact"] for r in rows if 0 in r["split"])
        extra = ("## How often a random deal gives one party both Kings\n\nThe AI's random deal "
                 "([ai-reconstruction](../rulebooks/ai-reconstruction.md)) counted exactly, and by dealing "
                 "(`schachett kings ai-reconstruction`); the two agree (chi-square "
                 f"{chi2:.2f} on 2 degrees of freedom).\n\n" + "\n".join(table) +
                 f"\n\nOne party holds both Kings, and the other none, in {100 * one:.1f}% of deals: then 'the enemy "
                 "King' of §7 is a King the other party holds, and one party can never checkmate. The printed deal "
                 "puts one King in each party every time.")
    return render("gap.md.j2", title=TITLES.get(name, name), cites=ctx.cites_of(page, lac.basis.cites),
                  question=lac.question, evidence=evidence, options=options, choices=choices, effects=effects,
                  finding=finding, readings=readings_table(ctx, page, lac, chosen_by), extra=extra)


def first_question(text: str) -> str:
    """The question a gap asks: its text up to the first question mark that ends a sentence.

    A question mark inside a quotation, followed by a dash or a lower-case word, does not end it.

    >>> first_question("Who may castle? §5 is lost.")
    'Who may castle?'
    >>> first_question("The AI writes '(swap their Kings? — details)'. Swap Kings, or not?")
    "The AI writes '(swap their Kings? — details)'. Swap Kings, or not?"
    """
    m = re.match(r"(.*?\?)(?=\s+[A-Z§]|\s*$)", text, re.S)
    return m.group(1) if m else text


def example12_markdown(ctx: Context) -> str:
    """Register item 9: which readings let §12's example happen."""
    report = ex.report()
    page = "gaps/example-12.md"
    w, s = report.targets
    cards = ex.card_total(ctx.tables[report.ruleset])
    return (f"# §12's example: {w} against {s}\n\n{ctx.cite(page, '§12')}\n\n"
            f"§12 works an example: the white party W₁ W₂ has {w} points \"according to §§ 7–9 and the counting cards "
            f"in the tricks\", the black party {s}. Together that is {w + s} points, but all the card points of a game "
            f"add up to {cards} (more only with promoted suit cards in the last trick). The rest must come from the "
            "King events. Can the example arise in a real game at all, and under which readings?\n\n"
            f"For every combination of the readings that bear on points, an exact count lists how {w + s} − {cards} "
            "can be made of King events and promotions; arguments from the tables rule candidates out; and a search looks "
            "for an actual game for each candidate left, replayed by the engine to check it.\n\n"
            f"```text\n{report.as_text()}\n```\n")


def player_names(t: Tables, session: ir.Session) -> str:
    """The players of a session as the session clause names them (A, B, C …), as one string of letters.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.rules.loader import load
    >>> player_names(tables_for("original"), load("original").clause("session"))
    'ABCD'
    """
    return "".join(default_players(session, t))


def seating_markdown(ctx: Context) -> str:
    """Register item 10: the §13 seat changes, worked out from the rule."""
    page = "gaps/seating.md"
    r = ctx.rulesets["original"]
    session = r.clause("session")
    t = ctx.tables["original"]
    players = player_names(t, session)
    rows = seatings(session, players)
    seats = range(t.n_seats)
    parties = ", ".join(and_list(t.seat_name(s) for s in party) for party in t.parties)
    lines = [f"# The seat changes of §13\n\n{ctx.cite(page, '§13')}\n",
             "The printed rule: before the 2nd, 4th, 6th … round the player after A changes places with his left "
             "neighbour; before the 3rd, 5th, 7th … round the player opposite A does. The diagrams under it are "
             "garbled in the translation, but the rule can be applied on its own. Seats are numbered clockwise, "
             f"A sitting on {t.seat_title(0)}; partners sit opposite ({parties}).\n",
             "| round | " + "".join(f"{t.seat_title(s)} | " for s in seats) + "partners |",
             "|---|" + "---|" * t.n_seats + "---|"]
    for i, row in enumerate(rows, start=1):
        pairs = " and ".join("".join(sorted(row[s] for s in party)) for party in t.parties)
        lines.append(f"| {i} | " + " | ".join(row) + f" | {pairs} |")
    back = next_cycle_start(session, players)
    counts = partner_counts(session, players, t.parties)
    lines.append("")
    lines.append(f"Before the 7th round the change gives {' '.join(back)} again: the 2nd cycle repeats the 1st, as §13 "
                 f"says. Over one cycle every pair of players is partnered "
                 f"{', '.join(sorted({str(v) for v in counts.values()}))} times "
                 f"({', '.join(''.join(sorted(p)) + ' ' + str(v) for p, v in sorted(counts.items(), key=lambda x: sorted(x[0])))}),"
                 f" so the rotation is fair. The tests check both.")
    t3, session3 = ctx.tables["three-player"], ctx.rulesets["three-player"].clause("session")
    three = seatings(session3, player_names(t3, session3), t3.n_seats)
    kaiser = session3.reign.seats[0]
    label = {kaiser: " (Kaiser)", t3.next_seat(kaiser): " (left)",
             next(s for s in range(t3.n_seats) if t3.next_seat(s) == kaiser): " (right)", session3.reign.dummy: ""}
    lines.append("\n## Three players\n")
    lines.append(f"{ctx.cite(page, '§4,2 (3p)')} Each player is Kaiser for two rounds on the same seat "
                 f"({t3.seat_title(kaiser)}), the dummy's cards opposite him "
                 f"({t3.seat_title(session3.reign.dummy)}):\n")
    lines.append("| round | " + " | ".join(f"{t3.seat_title(s)}{label.get(s, '')}" for s in range(t3.n_seats)) + " |")
    lines.append("|---|" + "---|" * t3.n_seats)
    for i, row in enumerate(three, start=1):
        lines.append(f"| {i} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def three_player_markdown(ctx: Context) -> str:
    """Register item 11: what the three-player pages print, and what they leave open."""
    page = "gaps/three-player.md"
    c = ctx.cite
    hand = ctx.tables["three-player"].hand_size
    return (f"# Three players: dealing, lots and the dummy\n\n"
            f"The 3-player pages survive ({c(page, '3p')} to {c(page, '§12 (3p)')}), but parts are cut off or unclear. "
            f"The ruleset [three-player](../rulebooks/three-player.md) plays them; here is what it had to decide.\n\n"
            f"## Lots {c(page, '§4,1 (3p)')}\n\nThe lots decide only who is A, B and C (who sits where and reigns when). "
            f"A session takes the players in the order of the lots: `schachett session three-player --players A,B,C`.\n\n"
            f"## Dealing {c(page, '§4,4 (3p)')} {c(page, '§4,5 (3p)')} {c(page, '§4,8 (3p)')}\n\n"
            f"The Kaiser deals the first game of both his rounds and the deal passes left; the Kaiser receives the wK "
            f"and his left neighbour the sK in the first game, and the Kings move one place left after each game. "
            f"Together these put the wK with the dealer and the sK on his left in every game, which is the deal the "
            f"ruleset plays. §4,8 (3p), on dealing the Kings, is cut off at the foot of page 21; its end on page 22 "
            f"('the card not contained in the dummy is handled exactly as in the 4-player game') adds nothing the "
            f"other items do not say, so the rest of the cards are dealt {hand} to each place ({c(page, '§4,2 (3p)')}).\n\n"
            f"## The dummy and who sees it {c(page, '§10 (3p)')}\n\n"
            f"The dummy's cards are laid open after the first trick. In that trick the Kaiser looks first at whichever "
            f"of his two hands plays first (the dummy's if the left player or the dummy leads, his own if he or the "
            f"right player leads) and at the other only after playing from it. The dummy clause says exactly this, "
            f"and the players' observations follow it: bots see no more than the rules let a player see.\n\n"
            f"## Settlement\n\nThe pages say nothing of money. The ruleset settles by seat as the four-player game "
            f"does, so the Kaiser, who holds two seats, wins or pays for both hands; the session ledger credits the "
            f"dummy's seat to him. The readings of this gap are on [the Kaiser's stake](stake.md).\n")


def penalties_markdown(ctx: Context) -> str:
    """Register item 12: penalties and the ledger."""
    page = "gaps/penalties.md"
    r = ctx.rulesets["original"]
    t = ctx.tables["original"]
    settlement = r.clause("settlement")
    example = next(e.clause.pays for e in r.clauses if e.key.startswith("penalty ") and e.clause.pays)
    money = penalty_money(t, example)
    rows = []
    for e in r.clauses:
        if e.key.startswith("penalty "):
            p = e.clause
            rows.append(f"| `{p.name}` | {ctx.cites_of(page, p.basis.cites)} | {p.offence} | "
                        f"{'; '.join(penalty_effects(p))} |")
    return ("# Penalties, and a ledger per player\n\n"
            "The manual's penalties are paid from player to player, not from party to party; since partnerships "
            "change between rounds (§13), only an account per player can keep them.\n\n"
            "| penalty | rests on | offence | what follows |\n|---|---|---|---|\n" + "\n".join(rows) + "\n\n"
            "A game record applies a penalty with the action `{\"penalty\": {\"seat\": 1, \"name\": \"looking-back\"}}`. "
            "Points paid as a penalty are turned into money as a game won by that many points would be "
            f"({example} points against none: {render_expr(settlement.amount)} = {money} {settlement.unit}); whether "
            "each penalty is rounded on its own or a game's penalties are summed first is a gap of its own "
            "([penalties into money](penalty-money.md)). "
            "`schachett session` keeps each player's points and money over whole cycles; "
            "the money sums to zero after every game, which the tests check.\n")


def gap_pages(ctx: Context, write) -> list[tuple[str, str]]:
    """Write every gap page and the register; return (title, path) for the navigation."""
    nav = []
    found = _lacunae(ctx)
    for name, (lac, _) in found.items():
        write(f"gaps/{name}.md", gap_markdown(ctx, name, lac, write))
    write("gaps/example-12.md", example12_markdown(ctx))
    write("gaps/seating.md", seating_markdown(ctx))
    write("gaps/three-player.md", three_player_markdown(ctx))
    write("gaps/penalties.md", penalties_markdown(ctx))
    special = {"example-12": "§12's example: 190 against 68", "seating": "The seat changes of §13",
               "three-player": "Three players", "penalties": "Penalties and the ledger"}
    lines = ["# Gaps and ambiguities", "",
             "Where the manual is lost or can be read more than one way, each reading we can defend is written into "
             "the rule files as a *lacuna* with its evidence, graded and cited; every ruleset chooses one, and each "
             "can be played and measured. The register:", "",
             "| # | gap | about | readings | original plays | reconstruction plays (*play this one*) |", "|---|---|---|---|---|---|"]
    for number, name, about in REGISTER:
        title = TITLES.get(name) or special[name]
        if name in found:
            lac = found[name][0]
            lines.append(f"| {number} | [{title}]({name}.md) | {about} | {len(lac.options)} | "
                         f"{ctx.rulesets['original'].choice(name) or '—'} | "
                         f"{ctx.rulesets['reconstruction'].choice(name) or '—'} |")
        else:
            lines.append(f"| {number} | [{title}]({name}.md) | {about} | — | — | — |")
        nav.append((title, f"gaps/{name}.md"))
    others = [n for n in found if n not in {x[1] for x in REGISTER}]
    if others:
        lines += ["", "Other gaps the rule files record:", ""]
        for name in others:
            lines.append(f"- [{TITLES.get(name, name)}]({name}.md) — {first_question(found[name][0].question)}")
            nav.append((TITLES.get(name, name), f"gaps/{name}.md"))
    write("gaps/index.md", "\n".join(lines) + "\n")
    return nav
