"""The family's section of the site: a page per game of variants/family/, the sources, and the mechanism matrix.

The expected cells are read from the rule files by hand: Hearts passes cards and bids no contract; Schafkopf bids
contracts, calls a hidden partner by his Ace and pays runners; Whist turns its trump from the deal and bids nothing;
Euchre has a stock, the dealer's exchange and going alone; Officers' Schafkopf lies in a tableau; Dreiwendsch has a
skat; only Schachett's rulesets score King fates and promote cards in the last trick.
"""

from __future__ import annotations

import html
import importlib
import re

import pytest

from schachett_rules.paths import family_rulesets
from schachett_rules.rules.loader import load
from schachett_rules.rules.rulebook import render_ruleset
from schachett_rules.site.context import Context

from .test_site_pages import anchors

family = importlib.import_module("schachett_rules.site.family")


@pytest.fixture(scope="module")
def site():
    pages: dict[str, str] = {}
    ctx = Context.load()
    nav = family.family_pages(ctx, lambda path, content: pages.__setitem__(path, content))
    return ctx, pages, nav


def matrix(pages) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The matrix as (columns, row -> column -> cell text, '' for a dash)."""
    text = pages[family.MATRIX]
    head = re.search(r"<thead>(.*?)</thead>", text).group(1)
    columns = re.findall(r"<th(?: class=\"schachett\")?><a [^>]*>([^<]+)</a></th>", head)
    rows = {}
    for tr in re.findall(r"<tr><th class=\"key\">(.*?)</tr>", re.search(r"<tbody>(.*)</tbody>", text).group(1)):
        name = html.unescape(tr.split("<br>")[0])
        cells = re.findall(r"<td class=\"(present|absent)(?: schachett)?\"><span class=\"cell-label\">[^<]*</span>(.*?)</td>", tr)
        rows[name] = {col: (html.unescape(re.sub(r"<[^>]+>", "", body)).removeprefix("✓ ") if kind == "present" else "")
                      for col, (kind, body) in zip(columns, cells)}
    return columns, rows


def test_a_page_per_family_game_with_its_rules_contracts_and_sources(site):
    ctx, pages, nav = site
    assert set(ctx.family) == set(family_rulesets())
    for name in family_rulesets():
        page = pages[f"family/{name}.md"]
        r = ctx.family[name]
        assert page.startswith(f'---\ntitle: "{r.title}"'), name
        assert f"variants/family/{name}.schachett, printed back from its IR" in page
        # every citation is a badge linking to the family's source, never to Schachett's manual
        cites = re.findall(r"\]\(([^)]+)\)\{ \.badge \.cite", page)
        assert cites and all(c.startswith("sources/") for c in cites), name
        for k in r.contracts:
            assert f"#contract-{k.name} " in page and k.title in page
        assert f"* [{r.title}](family/{name}.md)" in "\n".join(nav)
    # Schafkopf's contracts are shown with the clauses they change
    sk = pages["family/schafkopf.md"]
    assert "## Contracts" in sk and 'id="contract-rufer-partner"' in sk
    assert "The declarer's partner is the holder of the card he calls." in sk
    assert "## Contracts" not in pages["family/hearts.md"]


def test_the_source_pages_list_the_clauses_resting_on_them(site):
    ctx, pages, _ = site
    page = pages["family/sources/hearts/s2.md"]
    assert page.startswith("# hearts:§2 Passing") and "our summary of the source" in page
    assert "[hearts: passing](../../hearts.md#clause-passing)" in page
    assert "[schafkopf: auction](../../schafkopf.md#clause-auction)" in pages["family/sources/schafkopf/s6.md"]
    assert "| [whist:§1](s1.md) | Deck and deal |" in pages["family/sources/whist/index.md"]


def test_the_matrix_has_every_mechanism_and_every_ruleset(site):
    ctx, pages, _ = site
    columns, rows = matrix(pages)
    assert columns == list(ctx.family) + list(ctx.rulesets)
    assert columns[:8] == ["schafkopf", "wendish-schafkopf", "dreiwendsch", "officers-schafkopf", "five-hand-euchre",
                           "euchre", "whist", "hearts"]
    assert {"original", "three-player", "ai-reconstruction", "reconstruction"} <= set(columns[8:])
    assert list(rows) == ["contracts", "auction", "turned trump", "called partner", "hidden partner", "parties of one",
                          "stock / skat", "exchange", "card offered", "passing", "tableau", "restrictions", "obligations",
                          "runners",
                          "game points to a target", "Schneider / Schwarz-like thresholds", "castling", "King fates",
                          "promotion"]
    assert all(set(cells) == set(columns) for cells in rows.values())


def test_the_matrix_cells_as_the_rule_files_read(site):
    _, pages, _ = site
    _, rows = matrix(pages)

    def has(row, col):
        return rows[row][col] != ""

    # Hearts: passing, restrictions, each for himself, to 100 with the lowest winning; no contracts, no runners
    assert rows["passing"]["hearts"] == "3 cards"
    assert rows["restrictions"]["hearts"] == "broken, first-trick, two-of-clubs"
    assert rows["game points to a target"]["hearts"] == "to 100, lowest wins"
    assert has("parties of one", "hearts") and has("Schneider / Schwarz-like thresholds", "hearts")   # the moon
    assert not any(has(r, "hearts") for r in ("contracts", "auction", "runners", "turned trump", "castling"))
    # Schafkopf: contracts bid in an auction, a called and hidden partner, the called Ace's rules, runners, Schneider
    assert rows["contracts"]["schafkopf"] == "rufer, hochzeit, wenz, solo"
    # its Hochzeit: a trump laid face down for another to take (schafkopf:§8); nobody else offers a card
    assert rows["card offered"]["schafkopf"] == "hochzeit: trump face down"
    assert [col for col, cell in rows["card offered"].items() if cell] == ["schafkopf"]
    assert rows["called partner"]["schafkopf"] == "rufer: A except hA"
    assert rows["hidden partner"]["schafkopf"] == "the called card's holder"
    assert rows["obligations"]["schafkopf"] == "called-ace"
    assert has("runners", "schafkopf") and rows["Schneider / Schwarz-like thresholds"]["schafkopf"] == "> 90 points"
    assert not has("passing", "schafkopf") and not has("stock / skat", "schafkopf")
    # Wendish: the Old Ones are a hidden partnership too; the Hochzeit calls a card
    assert rows["hidden partner"]["wendish-schafkopf"] and rows["called partner"]["wendish-schafkopf"] == "hochzeit: any"
    # Whist: the trump is turned from the deal, nobody bids
    assert rows["turned trump"]["whist"] == "the dealer's last card"
    assert not has("contracts", "whist") and not has("auction", "whist")
    # Euchre: the turned card on a stock of 4, the dealer's exchange, alone, to 10, the march
    assert rows["turned trump"]["euchre"] == "top of the stock" and rows["stock / skat"]["euchre"] == "4 cards"
    assert rows["exchange"]["euchre"] == "dealer takes turned, discards 1"
    assert rows["parties of one"]["euchre"] == "up-alone (partner sits out)"
    assert rows["Schneider / Schwarz-like thresholds"]["euchre"] == "all tricks"
    assert rows["called partner"]["five-hand-euchre"] and rows["hidden partner"]["five-hand-euchre"]
    # the Wendish forms for three and two
    assert rows["stock / skat"]["dreiwendsch"] == "2 cards" and rows["exchange"]["dreiwendsch"].startswith("declarer")
    assert rows["tableau"]["officers-schafkopf"] == "8 covered"
    # Schachett: Kings and promotion, and no mechanism of the family's bidding
    for name in ("original", "reconstruction", "three-player"):
        assert has("King fates", name) and rows["promotion"][name] == "last trick"
        assert not any(has(r, name) for r in ("contracts", "auction", "passing", "runners", "game points to a target"))
    assert has("castling", "reconstruction") and has("castling", "three-player")
    assert not any(has("King fates", g) or has("castling", g) for g in family_rulesets())


def test_every_cell_links_to_its_clause(site):
    ctx, pages, _ = site
    built = dict(pages)
    for name in ctx.rulesets:      # the Schachett rulebooks the matrix links to
        built[ctx.rulebook_page(name)] = importlib.import_module("schachett_rules.site.rulebooks").rulebook_markdown(ctx, name)
    links = re.findall(r'<td class="present(?: schachett)?"><span class="cell-label">[^<]*</span><a href="([^"]+)"',
                       pages[family.MATRIX])
    assert len(links) > 60
    for href in links:
        path, _, anchor = href.partition("#")
        target = {"../": "family/", "../../rulebooks/": "rulebooks/"}
        page = next(prefix_to + path[len(prefix):].rstrip("/") + ".md" for prefix, prefix_to in
                    sorted(target.items(), key=lambda kv: -len(kv[0])) if path.startswith(prefix))
        assert anchor in anchors(built[page]), href


@pytest.mark.parametrize("name", family_rulesets())
def test_show_prints_every_family_game_with_its_contracts(name):
    r = load(name)
    text = render_ruleset(r)
    assert text.startswith(f"{r.title}  (ruleset {name}")
    for k in r.contracts:
        assert f"{k.title} (contract {k.name}" in text
