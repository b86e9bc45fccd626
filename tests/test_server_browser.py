"""People at the game server's pages, in headless Chromium (Playwright driving Debian's chromium).

Four browser contexts play a whole four-player game through the pages; three people play the
Kaiser game with castling, one of them reconnecting from a new browser mid-game, and the server is
killed and started again mid-game. The pages' screenshots (a phone, 390 px, and a desktop) are kept
in test-artifacts/.
"""

from __future__ import annotations

import contextlib
import re
import time

import httpx
import pytest

from schachett_rules.paths import home
from tests.serving import BROWSER_ARGS, CHROMIUM, engine_state, serving

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (CI installs Debian's chromium)")]
ARTIFACTS = home() / "test-artifacts"


@contextlib.contextmanager
def chromium():
    from playwright.sync_api import sync_playwright
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Person:
    """One person's browser at the table."""

    def __init__(self, browser, url: str, width: int = 1280):
        self.browser, self.url, self.width = browser, url, width
        self.errors: list[str] = []
        self.open()

    def open(self) -> None:
        self.context = self.browser.new_context(viewport={"width": self.width, "height": 900})
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # a refusal the test asks for (a 4xx answer) is logged by the browser as a failed load: not a fault
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and
                     "responded with a status of 4" not in m.text else None)
        self.page.goto(self.url, wait_until="networkidle")
        self.page.wait_for_function("() => document.body.dataset.version !== undefined")

    def close(self) -> None:
        self.context.close()

    @property
    def version(self) -> int:
        return int(self.page.evaluate("() => document.body.dataset.version"))

    def my_turn(self) -> bool:
        return self.page.locator("#status.yours").count() > 0

    def wait_past(self, version: int) -> None:
        self.page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version, timeout=15000)

    def decide(self, castle: bool = True, keyboard: bool = False) -> None:
        """Play the first card the page highlights as legal (or castle with the first officer offered)."""
        before = self.version
        offers = self.page.locator("#castle:not([hidden]) .card-button")
        if offers.count():
            (offers.first if castle else self.page.locator("#castle button.secondary")).click()
        else:
            legal = self.page.locator("#hand .card-button.legal, #dummy .card-button.legal").first
            if keyboard:
                legal.focus()
                self.page.keyboard.press("Enter")
            else:
                legal.click()
        self.wait_past(before)


def refuse_once(person: Person, refused: list[str]) -> None:
    """The first time a page offers a card the rules forbid, click it: the page must say why, with the clause."""
    wrong = person.page.locator("#hand .card-button.not-legal")
    if refused or not wrong.count():
        return
    before = person.version
    wrong.first.click()
    person.page.wait_for_selector("#message:not([hidden])")
    refused.append(person.page.locator("#message").inner_text())
    assert person.version == before          # nothing changed


def play_until_over(people: dict[int, Person], castle: bool = True, limit: int = 200, after=None,
                    refused: list[str] | None = None) -> int:
    """Each person whose page says it is their turn decides, until every page shows the end of the game.

    ``after(step)`` may replace a person (a reconnect): the people are read anew at every step. With ``refused``,
    a forbidden card is clicked once and the page's refusal kept there.
    """
    steps = 0
    while not all(p.page.locator("#end:not([hidden])").count() for p in people.values()):
        movers = [p for p in people.values() if p.my_turn()]
        if not movers:
            next(iter(people.values())).page.wait_for_timeout(100)
            continue
        if refused is not None:
            refuse_once(movers[0], refused)
        movers[0].decide(castle=castle, keyboard=steps == 3)
        steps += 1
        if after is not None:
            after(steps)
        assert steps < limit, "the game did not end"
    return steps


def test_four_people_play_a_whole_game_through_the_pages(tmp_path):
    with serving(tmp_path) as server, chromium() as browser:
        creator = browser.new_page()
        creator.goto(server.url + "/?ruleset=original", wait_until="networkidle")
        for i in range(4):
            creator.select_option(f"#seat-{i}", "person")
        creator.click("button.primary")
        links = [creator.locator(".invitations input").nth(i).input_value() for i in range(4)]
        assert len(set(links)) == 4 and all(re.search(r"#k=[\w-]{32}$", u) for u in links)
        people = [Person(browser, u, width=390 if i == 0 else 1280) for i, u in enumerate(links)]
        people[0].page.screenshot(path=str(ARTIFACTS / "server-table-390.png"), full_page=True)
        people[1].page.screenshot(path=str(ARTIFACTS / "server-table-1280.png"), full_page=True)
        for p in people:    # a phone's page is no wider than the phone
            assert p.page.evaluate("() => document.documentElement.scrollWidth") <= p.width + 1
        refused: list[str] = []
        assert play_until_over(dict(enumerate(people)), refused=refused) == 52   # 52 cards: the printed game has no castling
        # a forbidden card clicked: the follow rule that forbids it, with its section (§3.1–§3.3)
        assert refused and re.search(r"must follow .* \(§3\.[123]\)", refused[0]), refused
        end = people[0].page
        end.screenshot(path=str(ARTIFACTS / "server-end-390.png"), full_page=True)
        text = end.locator("#end").inner_text()
        assert "Card points:" in text and "Settlement" in text and "Trick 13 — last trick" in text
        table = re.search(r"/tables/([\w-]+)#", links[0]).group(1)
        record = httpx.get(f"{server.url}/api/tables/{table}/record").json()
        assert len(record["actions"]) == 52
        # the replay viewer steps forwards and back
        end.click("text=Replay it trick by trick")
        end.wait_for_selector("#step")
        assert end.locator("#step").inner_text() == "The deal"
        end.keyboard.press("ArrowRight")
        end.click("#next")
        assert end.locator("#step").inner_text() == "Trick 2 of 13"
        end.click("#prev")
        assert end.locator("#step").inner_text() == "Trick 1 of 13"
        assert end.locator("#r-trick img").count() == 4
        end.screenshot(path=str(ARTIFACTS / "server-replay-390.png"), full_page=True)
        # the next game of the session
        first = people[1]
        first.page.click("#next-game")
        first.page.wait_for_function("() => document.body.dataset.game === '2'")
        assert all(not p.errors for p in people), [p.errors for p in people]


def test_three_people_play_the_kaiser_game_with_castling_a_reconnect_and_a_restart(tmp_path):
    with serving(tmp_path) as server, chromium() as browser:
        made = httpx.post(server.url + "/api/tables", json={"ruleset": "three-player", "seats": ["person"] * 3}).json()
        urls = {s["seat"]: s["url"] for s in made["seats"]}
        people = {seat: Person(browser, url) for seat, url in urls.items()}
        left = people[1]
        assert left.my_turn() and left.page.locator("#castle:not([hidden])").count()   # §5 (3p): castle before play
        left.page.screenshot(path=str(ARTIFACTS / "server-castle-1280.png"), full_page=True)
        left.decide(castle=True)
        assert "♜" in left.page.locator("#events").inner_text()
        state, _ = engine_state(server.db, made["table"])
        assert len(state.castles) == 1 and state.castles[0].seat == 1

        def disturb(step: int) -> None:
            if step == 10:          # the Kaiser's left opens his link on another device
                people[1].close()
                people[1] = Person(browser, urls[1], width=390)
                hand = people[1].page.locator("#hand img").count()
                assert hand == len(engine_state(server.db, made["table"])[0].observation(1).hands[1])
            if step == 20:          # the server dies and comes back; the pages reconnect on their own
                before = [p.version for p in people.values()]
                server.restart(kill=True)
                # the pages reconnect on their own, some later than others on a busy machine: wait for the one
                # whose turn it is to say so
                deadline = time.monotonic() + 30
                while not (movers := [p for p in people.values() if p.my_turn()]):
                    assert time.monotonic() < deadline, "no page showed its turn within 30 s of the restart"
                    next(iter(people.values())).page.wait_for_timeout(100)
                movers[0].decide()
                for p, v in zip(people.values(), before):
                    p.wait_past(v)
        play_until_over(people, after=disturb)
        state, _ = engine_state(server.db, made["table"])   # every card was a click: the Kaiser's, the dummy's too
        assert state.over and len(state.tricks) == 13 and state.castles[0].seat == 1
        people[0].page.screenshot(path=str(ARTIFACTS / "server-kaiser-end-1280.png"), full_page=True)


def choose(person: Person, word: str) -> None:
    """Click the bid or call the page offers as ``word`` (the first one offered when ``word`` is not)."""
    person.page.wait_for_selector("#status.yours")
    before = person.version
    buttons = person.page.locator("#decision .choices button")
    wanted = person.page.locator(f'#decision .choices button[data-choice="{word}"]')
    (wanted.first if wanted.count() else buttons.first).click()
    person.wait_past(before)


def test_hearts_passing_and_a_schafkopf_auction_with_a_hidden_partner_through_the_pages(tmp_path):
    with serving(tmp_path) as server, chromium() as browser:
        # Hearts: one person against bots; three cards passed by clicking them, then the whole game
        made = httpx.post(server.url + "/api/tables", json={"ruleset": "hearts", "seats": ["person"] + ["bot:random"] * 3}).json()
        person = Person(browser, made["seats"][0]["url"])
        assert "pass 3 cards on" in person.page.locator("#status").inner_text()
        # while cards are passed no trick has been played: the score box says so, and nothing of the parties
        assert person.page.locator("#score").inner_text().strip() == "No trick has been played yet."
        # nor does anyone lead yet: the two of clubs may be passed on (hearts:§3)
        assert person.page.locator("#trick-title").inner_text().endswith("play has not begun")
        # and nothing has been passed, bid or turned up: the panel for what was said before play is not shown empty
        assert person.page.locator("#decision").is_hidden()
        for _ in range(3):
            person.decide()
        assert "You received" in person.page.locator("#decision").inner_text()
        assert person.page.locator("#hand .card-button").count() == 13
        person.page.screenshot(path=str(ARTIFACTS / "server-hearts-1280.png"), full_page=True)
        play_until_over({0: person})
        assert "game points" in person.page.locator("#end").inner_text()
        # Schafkopf: four people; the first bidder bids a Rufer where he may, the others pass, he calls an Ace
        for _ in range(20):
            made = httpx.post(server.url + "/api/tables", json={"ruleset": "schafkopf", "seats": ["person"] * 4}).json()
            people = {s["seat"]: Person(browser, s["url"]) for s in made["seats"]}
            first = next(s for s, p in people.items() if p.my_turn())
            if people[first].page.locator('#decision button[data-choice="rufer"]').count():
                break
            for p in people.values():
                p.close()
        choose(people[first], "rufer")
        for k in range(1, 4):
            choose(people[(first + k) % 4], "pass")
        caller = people[first]
        caller.page.wait_for_selector("#status.yours")
        ace = caller.page.locator("#decision .choices button").first.get_attribute("data-choice")
        choose(caller, ace)
        for p in people.values():
            p.page.wait_for_function("() => document.querySelector('#decision').innerText.includes('Called card')")
        table = re.search(r"/tables/([\w-]+)#", made["seats"][0]["url"]).group(1)
        state, t = engine_state(server.db, table)
        partner = next(s for s in range(4) if ace in [t.deck.card_name(c) for c in range(t.n_cards)
                                                      if state.hands[s] >> c & 1])
        for seat, p in people.items():
            marks = p.page.locator("#seats").inner_text()
            # the partner knows himself; the declarer and the others do not see who holds the Ace
            assert ("your partner" in marks) == (seat == partner), (seat, partner, marks)
        caller.page.screenshot(path=str(ARTIFACTS / "server-schafkopf-1280.png"), full_page=True)
        play_until_over(people)
        assert f"Called card: {ace}" in people[first].page.locator("#decision").inner_text() or \
            "rufer" in people[first].page.locator("#end").inner_text().lower()
        assert all(not p.errors for p in [person, *people.values()])


def test_wendish_s7_the_tableau_page_shows_which_cards_lie_on_a_face_down_card(tmp_path):
    # Officers' Schafkopf (wendish:§7): both players' face-up cards are open, each on a face-down card at the
    # start; the page says which, under each hand, and after the person's card one of his piles is bare
    with serving(tmp_path) as server, chromium() as browser:
        made = httpx.post(server.url + "/api/tables",
                          json={"ruleset": "officers-schafkopf", "seats": ["person", "bot:random"]}).json()
        person = Person(browser, made["seats"][0]["url"])

        def on_face_down(where: str) -> int:
            text = person.page.locator(f"{where} p.face-down").inner_text()
            return len(text.split(": ")[1].split(" (")[0].split())
        if not person.my_turn():
            person.wait_past(person.version)
        table = re.search(r"/tables/([\w-]+)#", made["seats"][0]["url"]).group(1)
        state, _t = engine_state(server.db, table)
        assert on_face_down("#hand") == 8 and on_face_down("#dummy") == 8 - len(state.trick)
        person.page.screenshot(path=str(ARTIFACTS / "server-officers-1280.png"), full_page=True)
        before = person.version
        person.decide()
        person.wait_past(before)
        assert on_face_down("#hand") == 7
        assert not person.errors
