"""The site: built strictly, every link and citation resolving, and looked at in a real browser."""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import shutil
import subprocess
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin

import pytest

from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.paths import home
from schachett_rules.rules.loader import load
from schachett_rules.simulation import simulate as sim
from schachett_rules.site.sims import summary_rows
from tests.test_simulation import TINY

ARTIFACTS = home() / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    # the build takes minutes, so the run makes one (tests/conftest.py) and tests/test_learn.py reads it too
    return built_site


class Links(HTMLParser):
    """The links, anchors and images of one page."""

    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str]] = []   # (href, class)
        self.ids: set[str] = set()
        self.images: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append((a["href"], a.get("class") or ""))
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])


@functools.lru_cache(maxsize=None)
def parsed(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "search" not in p.parts and p.name != "404.html")


def target(site: Path, page: Path, href: str) -> tuple[Path, str]:
    url = urljoin("http://x/" + page.relative_to(site).as_posix(), href)
    path, frag = urldefrag(url)
    rel = unquote(path[len("http://x/"):])
    file = site / rel
    if file.is_dir() or rel.endswith("/") or rel == "":
        file = file / "index.html"
    return file, frag


@pytest.mark.slow
def test_every_internal_link_and_anchor_resolves(site):
    broken = []
    for page in pages(site):
        for href, _ in parsed(page).links:
            if re.match(r"^[a-z]+:", href) or href.startswith("//"):
                continue
            file, frag = target(site, page, href)
            if not file.exists():
                broken.append(f"{page.relative_to(site)} → {href} (no such page)")
            elif frag and file.suffix == ".html" and frag not in parsed(file).ids:
                broken.append(f"{page.relative_to(site)} → {href} (no anchor {frag})")
        for src in parsed(page).images:
            if not re.match(r"^[a-z]+:", src) and not target(site, page, src)[0].exists():
                broken.append(f"{page.relative_to(site)} → image {src}")
    assert not broken, "\n".join(broken[:30])


@pytest.mark.slow
def test_every_citation_resolves_to_a_manual_section_page(site):
    seen = 0
    for page in pages(site):
        for href, cls in parsed(page).links:
            if "cite" not in cls.split():
                continue
            seen += 1
            file, frag = target(site, page, href)
            rel = file.relative_to(site).as_posix()
            assert rel.startswith(("manual/", "ai/", "family/sources/")) and file.exists(), f"{page}: citation {href} → {rel}"
            if frag:
                assert frag in parsed(file).ids, f"{page}: citation {href} has no anchor {frag}"
    assert seen > 500


@pytest.mark.slow
def test_every_section_page_lists_the_clauses_that_cite_it(site):
    """Both directions: each clause's citations lead to pages that link back to the clause."""
    from schachett_rules.site.context import Context, clause_anchor, section_page
    ctx = Context.load()
    missing = []
    for name, r in ctx.rulesets.items():
        for e in r.clauses:
            back = f"rulebooks/{name}/#{clause_anchor(e.key)}"
            for c in e.clause.basis.cites:
                sec = ctx.resolve(c).section
                file = site / section_page(sec).replace(".md", "/index.html")
                hrefs = [target(site, file, h) for h, _ in parsed(file).links]
                if not any(f == site / f"rulebooks/{name}/index.html" and frag == clause_anchor(e.key)
                           for f, frag in hrefs):
                    missing.append(f"{section_page(sec)} lacks {back}")
    assert not missing, "\n".join(missing[:20])


def test_generated_pages_are_not_kept_in_docs():
    tracked = subprocess.run(["git", "ls-files", "docs"], cwd=home(), capture_output=True, text=True).stdout.split()
    assert set(tracked) <= {"docs/gen_pages.py", "docs/assets/site.css", "docs/language.md", "docs/tutorial.md",
                            "docs/records.md", "docs/pipeline.md", "docs/family-tutorial.md"}, tracked


@pytest.fixture(scope="module")
def server(site):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # the test's output is for failures
            pass

    handler = functools.partial(Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


KEY_PAGES = ["", "play/", "manual/", "manual/s3/", "manual/s4/", "rulebooks/original/", "rulebooks/three-player/",
             "compare/matrix/", "compare/ai/", "gaps/", "gaps/deal/", "gaps/castling/", "gaps/example-12/",
             "simulations/", "simulations/original/", "cards/", "language/", "tutorial/", "records/", "pipeline/"]


@contextlib.contextmanager
def chromium():
    """Debian's chromium, driven by Playwright, with nothing of its own reaching out to the network."""
    from playwright.sync_api import sync_playwright
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            yield browser
        finally:
            browser.close()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (CI installs Debian's chromium)")
def test_key_pages_load_in_a_browser_without_errors(server):
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
        for path in KEY_PAGES:
            response = page.goto(server + path, wait_until="networkidle")
            assert response is not None and response.ok, path
            broken = page.evaluate("() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                                   ".map(i => i.src)")
            assert not broken, f"{path}: images that did not render: {broken}"
            if path in ("", "cards/", "gaps/deal/", "simulations/original/"):
                assert page.evaluate("() => document.images.length") > 0, path
            if path == "":
                page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
            if path == "gaps/deal/":
                page.screenshot(path=str(ARTIFACTS / "gap-deal.png"), full_page=True)
        assert not errors, "\n".join(errors)
        # the search box finds "checkmate"
        page.goto(server, wait_until="networkidle")
        page.click(".md-search__input")
        page.keyboard.type("checkmate", delay=20)   # typed, as a reader would: the search listens to keys
        page.wait_for_selector(".md-search-result__item", state="attached", timeout=20000)
        results = page.locator(".md-search-result__item").count()
        assert results > 0
        assert "checkmate" in page.locator(".md-search-result").inner_text().lower()


# --- narrow screens: the matrix and the gap tables on a phone ------------------------------------

# What the reader must never meet: a page wider than the screen, a cell whose words run out of it, a badge
# cut by its cell, a word broken inside (a break after a hyphen, a slash or an underscore is a break between the
# parts of a word).
LAYOUT_FAULTS = """() => {
  document.querySelectorAll('article details').forEach(d => d.open = true);
  const faults = [], vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1)
    faults.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + vw + ' px screen');
  const where = el => (el.closest('tr') || el).innerText.trim().split('\\n')[0].slice(0, 40);
  // the matrix and a gap's readings fit the screen: they neither scroll sideways nor squeeze their words
  document.querySelectorAll('.matrix, .readings .md-typeset__scrollwrap, .readings table').forEach(m => {
    if (m.scrollWidth > m.clientWidth + 1) faults.push(m.className + ' scrolls sideways: ' + m.scrollWidth + ' px');
  });
  // a cell of running text gives its lines room for a dozen letters at the least
  document.querySelectorAll('article td').forEach(td => {
    const em = parseFloat(getComputedStyle(td).fontSize), width = td.getBoundingClientRect().width;
    if (td.offsetParent !== null && td.innerText.length > 40 && width < 7 * em)
      faults.push('a cell is squeezed to ' + Math.round(width / em * 10) / 10 + ' em in ' + where(td));
  });
  for (const table of document.querySelectorAll('article table')) {
    for (const cell of table.querySelectorAll('td, th')) {
      if (cell.offsetParent === null) continue;
      if (cell.scrollWidth > cell.clientWidth + 1) faults.push('a cell overflows in ' + where(cell));
      const c = cell.getBoundingClientRect();
      for (const b of cell.querySelectorAll('.badge')) {
        const r = b.getBoundingClientRect();
        if (r.width && (r.left < c.left - 1 || r.right > c.right + 1))
          faults.push('badge ' + b.innerText + ' is cut in ' + where(cell));
      }
    }
    const walk = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\-\\/–—_]+[\\-\\/–—_]?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) faults.push('the word ' + m[0] + ' breaks inside, in ' + where(node.parentElement));
      }
    }
  }
  return faults;
}"""

NARROW_PAGES = ["compare/matrix/", "gaps/castling/", "gaps/deal/", "play/"]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (CI installs Debian's chromium)")
def test_the_matrix_and_the_gap_tables_fit_a_phone_and_a_desktop_with_every_word_whole(server):
    faults = []
    with chromium() as browser:
        for width in (390, 1280):
            page = browser.new_page(viewport={"width": width, "height": 900})
            for path in NARROW_PAGES:
                page.goto(server + path, wait_until="networkidle")
                faults += [f"{path} at {width} px: {f}" for f in page.evaluate(LAYOUT_FAULTS)]
                if path == "compare/matrix/":
                    page.screenshot(path=str(ARTIFACTS / f"matrix-{width}.png"), full_page=False)
            page.close()
    assert not faults, "\n".join(faults[:30])


# --- the simulation summary: a column for each King event of the rulesets shown ---------------------------

# The tiny ruleset of the simulation tests with its three King events given other names.
COURT = (TINY.replace('ruleset tiny "Four cards, one trick: every figure can be worked out by hand"',
                      'ruleset court "Four cards, one trick, King events of other names"')
         .replace("king checkmate", "king capture").replace("king selfmate", "king treason")
         .replace("king stalemate", "king triumph"))


def test_simulation_summary_has_a_column_for_each_king_event_of_the_rulesets(tmp_path):
    path = tmp_path / "court.schachett"
    path.write_text(COURT, encoding="utf-8")
    court = sim.Spec(ruleset=str(path), games=60, seed=1)
    printed = sim.Spec(ruleset="original", games=60, seed=1)
    items = [("court", court, sim.run(court)), ("original", printed, sim.run(printed))]
    tables = {"court": compile_ruleset(load(str(path))), "original": tables_for("original")}
    head, rule, court_row, printed_row = summary_rows(items, tables).splitlines()
    cells = [c.strip() for c in head.strip("|").split("|")]
    e = cells.index("captures per game")
    assert cells[e:e + 6] == ["captures per game", "treasons", "triumphs", "checkmates", "selfmates", "stalemates"]
    assert rule.count("---") == len(cells)
    court_cells = [c.strip() for c in court_row.strip("|").split("|")]
    printed_cells = [c.strip() for c in printed_row.strip("|").split("|")]
    # one trick, one King: every game of court has exactly one King event, and none of the printed names;
    # the printed game has two Kings, each meeting one fate
    assert sum(float(x) for x in court_cells[e:e + 3]) == pytest.approx(1.0, abs=0.011)
    assert court_cells[e + 3:e + 6] == ["—", "—", "—"]
    assert printed_cells[e:e + 3] == ["—", "—", "—"]
    assert sum(float(x) for x in printed_cells[e + 3:e + 6]) == pytest.approx(2.0, abs=0.011)   # two Kings, two fates


@pytest.mark.slow
def test_the_simulations_set_every_ruleset_played_well_beside_its_random_games(site):
    from schachett_rules.site import sims
    index = (site / "simulations" / "index.html").read_text(encoding="utf-8")
    start = index.index('<h2 id="played-well"')
    randomly, well = index[:start], index[start:]
    for name in ("original", "reconstruction", "three-player", "eight-players", "solitaire"):
        assert f'<a href="{name}/">' in randomly and f'<a href="{name}/">' in well
    # the games of each strong run, named: fewer where six or eight hands play
    games = dict(re.findall(r'<tr>\s*<td><a href="([a-z-]+)/">.*?</td>\s*<td>([\d,]+)</td>', well, re.S))
    # the suite builds with 20 strong games (tests/conftest.py): where six or eight hands play, a fifth of them
    assert games["original"] == "20" and games["eight-players"] == "4"
    page = (site / "simulations" / "original" / "index.html").read_text(encoding="utf-8")
    assert f"schachett simulate original --bots {sims.STRONG_BOTS[0]} -n 20 -s {sims.SEED}" in page
    assert "20 games a ruleset (4 where six or eight hands play" in index
    six = (site / "variants" / "six-players" / "index.html").read_text(encoding="utf-8")
    assert f"with strong players on every seat (the sampling player, {sims.STRONG_BOTS[0]}" in six
    assert "4 games of six-players" in six


@pytest.mark.slow
def test_the_players_page_ranks_the_pages_bots_on_the_same_deals_in_both_seatings(site):
    from schachett_rules.site import ranking as pp, sims
    page = (site / "simulations" / "players" / "index.html").read_text(encoding="utf-8")
    index = (site / "simulations" / "index.html").read_text(encoding="utf-8")
    assert 'href="players/"' in index and "The players, ranked" in index      # linked, and in the navigation
    bots = list(pp.LADDER_BOTS)
    assert sims.STRONG_BOTS[0] in bots and "random" in bots       # the pages' two players are on the ladder
    for ruleset in pp.LADDER_RULESETS:
        section = page[page.index(f'<h2 id="{ruleset}"'):]
        section = section[:section.index("<h2", 4)] if "<h2" in section[4:] else section
        rows = re.findall(r"<tr>\s*<td>([\w:]+) against ([\w:]+)</td>\s*<td>(\d+)</td>\s*<td>(\d+)</td>\s*"
                          r"<td>([\d.]+)%</td>", section)
        # every pair once, 20 games each (the suite's strong games, tests/conftest.py)
        assert sorted((a, b) for a, b, *_ in rows) == sorted((a, b) for i, a in enumerate(bots) for b in bots[i + 1:])
        assert all(games == "20" and int(decided) <= 20 for _, _, games, decided, _ in rows)
        # the finding gives the strong player's share against random as the row's, seen from the other side
        row = next(r for r in rows if {r[0], r[1]} == {"random", sims.STRONG_BOTS[0]})
        theirs = float(row[4]) if row[0] == sims.STRONG_BOTS[0] else 100 - float(row[4])
        said = re.search(rf"{sims.STRONG_BOTS[0]}, wins ([\d.]+)% \[", section)
        assert said and float(said.group(1)) == pytest.approx(theirs, abs=0.051)
        assert (f"schachett ladder {ruleset} --bots {','.join(bots)} --games 20 --seed {sims.SEED}") in section
    # Elo's curve by hand: 1 / (1 + 10^(-1/4)) = 0.640, 1 / (1 + 10^(-1/2)) = 0.760
    assert "expected to win 64% of their decided games, 200 points above, 76%" in page
