"""The family's games at the terminal: the decisions before play (passing, bids, the call), typed by a person.

Whole games are fed a script, through the command (CliRunner) or the :class:`Table` loop. The facts asserted
come from the rule files: Hearts passes 3 cards left in its first game and the holder of c2 leads the first
trick with it (hearts:§2, §3); in Schafkopf a Rufer calls an Ace the declarer does not hold, whose holder
is his partner, known to the others only when the Ace is played (schafkopf:§2).
"""

from __future__ import annotations

import random
import re

from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.cli.terminal import Table, render_end
from schachett_rules.engine.replay import read_record, replay
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.deal import names_of
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players.bots import RandomBot


def test_a_whole_game_of_hearts_passes_three_cards_and_the_c2_leads(tmp_path):
    out = tmp_path / "hearts.json"
    # three cards named on one line, then the first card on offer in each of the 13 tricks
    script = "1 2 3\n" + "1\n" * 13
    result = CliRunner().invoke(main, ["play", "hearts", "--seed", "5", "--bots", "random", "--out", str(out)],
                                input=script)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Passing (hearts:§2): pass 3 cards on to West" in text      # game 0 passes to the left
    passed = re.findall(r"^  South \(you\) passes (\S+) to West$", text, re.M)
    assert len(passed) == 3
    got = re.search(r"^You received (\S+) (\S+) (\S+) from East$", text, re.M)    # from the right
    assert got, text[:3000]
    first_play = text.split("South (you) plays> ")[0]
    assert "Your hand, South (seat 0) (13 cards):" in first_play.split("You received")[-1]
    assert not set(passed) & set(re.findall(r"\d+:(\S+)", first_play.split("You received")[-1]))
    assert text.count("South (you) plays> ") == 13
    assert "Game points: " in text and "Game over." in text
    record = read_record(out)
    assert [a.give for a in record.actions[:12]] and all(hasattr(a, "give") for a in record.actions[:12])
    report = replay(record, str(out))
    t = tables_for("hearts")
    hands = report.tricks[0]
    first = report.tricks[0].cards[0]
    assert first[1] == "c2"                                    # the holder of c2 leads it (hearts:§3)
    assert report.tricks[0].leader == first[0]
    assert len(report.tricks) == 13 and sum(report.result.card_points) == 26    # 13 hearts and sQ 13
    assert hands and t.n_tricks == 13
    shown = re.search(r"^Game points: (.*)$", text, re.M).group(1)
    assert [int(x) for x in re.findall(r" (\d+)(?:,|$)", shown)] == [int(x) for x in report.result.game_points]


def test_a_decision_before_play_takes_a_word_a_number_help_and_refuses_in_words(tmp_path):
    script = "?\nzz\n99\nsolo x\ngrand\npass\n"
    result = CliRunner().invoke(main, ["play", "schafkopf", "--seed", "3", "--out", str(tmp_path / "s.json")],
                                input=script)
    text = result.output
    assert "Auction (schafkopf:§6): your bid." in text
    assert re.search(r"Your options: 1:rufer \(Rufer\)  2:wenz \(Wenz\)", text)
    assert "Before the first card the table decides" in text                    # ?
    assert "not allowed: 'zz' is not a contract of this ruleset" in text
    assert "not allowed: there is no option 99: the options are numbered 1 to 7" in text
    assert "not allowed: 'grand' is not a contract of this ruleset" in text
    assert "  South (you): pass" in text
    assert result.exit_code == 1 and "the input ended in trick 1" in result.stderr


class Bidder(RandomBot):
    """A random player that bids ``word`` where it is open and passes otherwise."""

    def __init__(self, t, word: str = "pass"):
        super().__init__(t)
        self.word = word

    def decide(self, obs, rng):
        if obs.decision == "bid":
            return self.word if self.word in obs.options else "pass"
        return super().decide(obs, rng)


def test_wendish_s7_the_terminal_shows_which_cards_lie_on_a_face_down_card(tmp_path):
    # Officers' Schafkopf (wendish:§7): eight piles a player, each a face-up card on a face-down one; at the
    # first card all sixteen face-up cards lie on one, and the card played from a pile leaves its pile bare
    out = tmp_path / "officers.json"
    result = CliRunner().invoke(main, ["play", "officers-schafkopf", "--seed", "5", "--bots", "random", "--out",
                                       str(out)], input="1\n" * 16)
    assert result.exit_code == 0, result.output
    views = result.output.split("Trick ")
    first = re.findall(r"^On a face-down card, (.*?): (.*)$", views[1], re.M)
    assert [len(cards.split()) for _, cards in first] == [8, 8]
    played = re.search(r"^  South \(you\) plays (\S+)$", views[1], re.M).group(1)
    assert played in dict(first)["South (you)"].split()
    mine_next = dict(re.findall(r"^On a face-down card, (.*?): (.*)$", views[2], re.M))["South (you)"].split()
    assert played not in mine_next and len(mine_next) == 7


def table_game(dealer: int, seed: int, bots: dict, lines: list[str]):
    t = tables_for("schafkopf")
    game = State.deal(t, dealer, GameStream(seed, 0))
    said: list[str] = []
    feed = iter(lines)
    table = Table(game, {0}, bots, random.Random(seed), lambda: next(feed, None),
                  lambda text="", end="\n": said.append(text + ("\n" if end == "\n" else "")), echo=True)
    result = table.run()
    return game, result, "".join(said) + render_end(game.t, result, {0}, t)


def test_schafkopf_the_person_declares_a_rufer_calls_an_ace_and_finds_his_partner():
    t = tables_for("schafkopf")
    for seed in range(40):                       # a deal on which South, bidding first, may call an Ace
        game = State.deal(t, 3, GameStream(seed, 0))
        if "rufer" in game.observation(0).options:
            break
    bots = {s: Bidder(t) for s in (1, 2, 3)}
    game, result, text = table_game(3, seed, bots, ["rufer", "1"] + ["1"] * 8)
    call = re.search(r"^Call \(schafkopf:§2\): you declared Rufer; name the card", text, re.M)
    assert call
    offered = re.search(r"^Your options: (.*)$", text[call.end():], re.M).group(1)
    aces = re.findall(r"\d+:(\S+)", offered)
    start = names_of(t, game.start_hands[0])
    assert aces and all(a.endswith("A") and a not in start for a in aces)      # an Ace he does not hold
    ace = aces[0]
    holder = next(s for s in range(4) if ace in names_of(t, game.start_hands[s]))
    assert result.contract == "rufer" and result.called == ace and result.partner == holder
    name = t.seat_name(holder)
    assert f"The called {ace}'s holder is known: you play with {name}" in text
    played = re.search(rf"^  {name}(?: \(your partner\))? plays {ace}$", text, re.M)
    assert played
    assert "(your partner)" not in text[:played.start()]              # hidden until the Ace is played
    assert "Contract: Rufer in Acorns by South (you), calling" not in text     # a Rufer names no trump colour
    assert re.search(rf"^Contract: Rufer by South \(you\), calling {ace}; partner {name}$", text, re.M)


def test_schafkopf_a_defender_does_not_see_the_declarers_partner_until_the_ace_falls():
    t = tables_for("schafkopf")
    bots = {1: Bidder(t, "rufer"), 2: Bidder(t), 3: Bidder(t)}
    seen = set()
    for seed in range(60):     # dealer South: West bids first; deals where he calls an Ace, held by South or not
        if "rufer" not in State.deal(t, 0, GameStream(seed, 0)).observation(1).options:
            continue
        game, result, text = table_game(0, seed, bots, ["pass"] + ["1"] * 8)
        assert result.contract == "rufer" and result.declarer == 1
        ace, holder = result.called, result.partner
        assert ace in names_of(t, game.start_hands[holder]) and holder != 1
        played = re.search(rf"^  \S+(?: \(you(?:r partner)?\))? plays {ace}$", text, re.M)
        before = text[:played.start()]
        if holder == 0:      # South holds the Ace: he alone knows, from the call on
            assert f"You hold the called {ace}: you play with West (your partner)" in before
        else:
            assert "who holds it is not known yet" in before
            assert "(your partner)" not in before and "you play with" not in before.lower()
            partner = next(s for s in range(4) if s not in (0, 1, holder))
            assert f"The called {ace}'s holder is known: you play with {t.seat_name(partner)}" in text
        seen.add(holder == 0)
        if seen == {True, False}:
            return
    raise AssertionError(f"60 deals did not give both cases: {seen}")


def test_euchre_to_its_target_shows_the_ledger_after_each_game_and_the_session_replays(tmp_path):
    out = tmp_path / "session.json"
    result = CliRunner().invoke(main, ["play", "euchre", "--to-target", "--seed", "2", "--bots", "random",
                                       "--out", str(out)], input="1\n" * 600)
    assert result.exit_code == 0, result.output[-2000:]
    text = result.output
    ledgers = re.findall(r"^Ledger after (\d+) games? \(target 10 game points\):$", text, re.M)
    assert ledgers and [int(x) for x in ledgers] == list(range(1, len(ledgers) + 1))
    assert re.search(r"^\S+ and \S+ win the session\.", text, re.M)
    # the last ledger: a partnership reached 10 game points (euchre:§4), the partners' accounts alike
    last = text.rsplit("Ledger after", 1)[1]
    rows = dict(re.findall(r"^(South|West|North|East) +\d+ +\d+ +-?\d+ +(\d+)$", last, re.M))
    assert len(rows) == 4 and rows["South"] == rows["North"] and rows["West"] == rows["East"]
    assert max(int(v) for v in rows.values()) >= 10
    replayed = CliRunner().invoke(main, ["replay", str(out)])
    assert replayed.exit_code == 0 and f"{len(ledgers)} games of euchre, replayed" in replayed.output
