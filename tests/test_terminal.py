"""``schachett play``: a person at the terminal against bots, driven through its input and output.

Most games are fed a script with CliRunner; the three-player game runs the installed command for
real, through pipes, answering each prompt as it appears. A rescue castle is played on a deal
written card by card (the one of test_castling), through the :class:`Table` loop itself.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.engine.replay import read_record, replay
from schachett_rules.kernel.streams import GameStream
from schachett_rules.cli.terminal import Abandoned, Table, render_view, sort_cards
from schachett_rules.kernel.trick import holder as kernel_holder

PROMPT = "South (you) plays> "
HAND_ROW = re.compile(r"^  (officer|pawn|suit card) +(.*)$", re.M)


def play(*args: str, input: str = ""):
    return CliRunner().invoke(main, ["play", *args], input=input)


def totals_printed(output: str) -> list[int]:
    line = re.search(r"^Totals: +(.*)$", output, re.M).group(1)
    return [int(x) for x in re.findall(r"(?:your|their) party (-?\d+)", line)]


# --- a whole game of original -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def whole_game(tmp_path_factory):
    out = tmp_path_factory.mktemp("play") / "game.json"
    result = play("original", "--seat", "0", "--seed", "7", "--out", str(out), input="1\n" * 13)
    return result, out


def test_a_whole_game_shows_hand_legal_marks_trick_and_score(whole_game):
    result, out = whole_game
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.count(PROMPT) == 13
    assert "\x1b[" not in text  # no colour when stdout is not a terminal
    # The hand, by kind, with the playable cards numbered; the first view is a full hand of 13.
    first = text.split(PROMPT)[0]
    assert "Your hand, South (seat 0) (13 cards):" in first
    rows = dict(HAND_ROW.findall(first))
    assert set(rows) <= {"officer", "pawn", "suit card"} and len(" ".join(rows.values()).split()) == 13
    assert re.search(r"(?<!\S)1:\S+", first)
    assert "Face up: " in first and "sK with South (you)" in first  # dealer 3: the sK lies with seat 0, South
    # Trick by trick: the cards as played, who holds the trick, who takes it and why.
    assert re.search(r"^Trick \d+ of 13: .* -- (South \(you\)|West|North \(your partner\)|East) holds it with \S+$", text, re.M)
    assert len(re.findall(r"^=> (South \(you\)|West|North \(your partner\)|East) takes trick \d+ with \S+, \d+ card "
                          r"points?$", text, re.M)) == 13
    assert re.search(r"^     \S+ (does not take|takes) \S+.*\(§", text, re.M)
    # The score, then where the record went.
    for head in ("Game over.", "King events", "Card points:", "King points:", "Totals:", "Winner:", "Settlement (Pfg):"):
        assert head in text
    assert f"The game is saved in {out}" in text


def test_the_saved_record_replays_to_the_printed_totals(whole_game):
    result, out = whole_game
    record = read_record(out)
    assert (record.ruleset, record.dealer, len(record.actions)) == ("original", 7 % 4, 52)
    report = replay(record, str(out))
    assert list(report.result.totals) == totals_printed(result.output)
    # Each card the person chose is the record's card at that place: seat 0's plays, in order.
    mine = re.findall(r"^  South \(you\) plays (\S+)$", result.output, re.M)
    assert mine == [c for tr in report.tricks for s, c in tr.cards if s == 0]


def test_the_same_seed_and_inputs_give_the_same_game(whole_game, tmp_path):
    _, out = whole_game
    again = tmp_path / "again.json"
    result = play("original", "--seed", "7", "--out", str(again), input="1\n" * 13)
    assert result.exit_code == 0
    assert read_record(again) == read_record(out)


def test_the_first_trick_as_the_person_sees_it(whole_game):
    text = whole_game[0].output
    first_trick = text[: text.index("=> ") + 200].split("\n=> ")[0]
    # Dealer 3: seat 0 leads; the person's card is echoed, then each bot's card.
    assert "Trick 1 of 13: South (you) leads." in first_trick
    assert re.search(r"plays> 1\n  South \(you\) plays \S+\n  West plays \S+\n  North \(your partner\) plays \S+\n  East plays \S+$",
                     first_trick)


# --- wrong input ---------------------------------------------------------------------------------------

def test_an_illegal_card_names_the_clause_and_asks_again(whole_game, tmp_path):
    """Find, in the scripted game, a turn where a follow rule leaves a held card unplayable; play it there."""
    segments = whole_game[0].output.split(PROMPT)[:-1]
    for turn, seg in enumerate(segments):
        view = seg[seg.rindex("Your hand, South"):]
        illegal = [c for row in HAND_ROW.findall(view) for c in row[1].split() if ":" not in c]
        if "must follow" in view and illegal:
            break
    else:
        pytest.fail("no turn of the scripted game had a card the follow rules forbid")
    out = tmp_path / "g.json"
    script = "1\n" * turn + f"{illegal[0]}\n" + "1\n" * (13 - turn)
    result = play("original", "--seed", "7", "--out", str(out), input=script)
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.count(PROMPT) == 14  # asked again after the refusal
    refusal = re.search(r"^  not allowed: (must follow \S+ with .*\(§3\.\d+\)); the legal cards are (.*)$", text, re.M)
    assert refusal, text
    # The refusal comes right after the illegal card and before the next prompt of the same turn.
    assert f"{PROMPT}{illegal[0]}\n  not allowed: " in text
    assert read_record(out) == read_record(whole_game[1])  # the game went on exactly as before


def test_commands_and_hints_do_not_play_a_card(tmp_path):
    out = tmp_path / "g.json"
    script = "?\nhand\nlast\n\nzz9\n99\nW\n1\nlast\nquit\n"
    result = play("original", "--seed", "7", "--out", str(out), input=script)
    assert result.exit_code == 1
    text = result.output
    assert "hand      show the table and your hand again" in text          # ?
    assert text.count("Your hand, South (seat 0) (13 cards):") == 2                   # hand shows it again
    assert "No trick has been finished yet." in text                          # last, before any trick
    assert re.search(r"\(type a card such as \S+ or \S+, or its number", text)   # empty line
    assert "'zz9' is neither a card of this deck nor a command" in text
    assert "there is no card 99 on the list: the cards you may play are numbered 1 to 13" in text
    assert "'W' is neither a card" in text
    assert text.count(PROMPT) == 10                                           # a prompt for each line
    assert len(re.findall(r"^  South \(you\) plays \S+$", text, re.M)) == 1       # and one card played
    assert re.search(r"plays> last\nTrick 1: South \(you\) \S+, West \S+, North \(your partner\) \S+, East \S+\n=> ", text)
    assert "you left the game in trick 2; the game so far is saved in" in result.stderr
    stopped = read_record(out)                     # the game so far: one trick, which replays up to there
    assert stopped.stopped == "you left the game in trick 2" and len(replay(stopped, str(out)).tricks) == 1


def test_a_card_name_is_read_without_regard_to_case():
    t = tables_for("original")
    game = State.deal(t, 3, GameStream(7, 0))
    lead = sort_cards(t, list(game.legal()))[0]
    lines = iter([lead.swapcase() + "\n"])
    table = Table(game, {0}, {}, GameStream(7, 0), lambda: next(lines, ""), lambda *a, **k: None)
    assert t.deck.card_name(table.ask_card().card) == lead


@pytest.mark.parametrize("script", ["", "1\n1\n1\n"])
def test_end_of_input_stops_cleanly_with_exit_1(tmp_path, script):
    out = tmp_path / "g.json"
    result = play("original", "--seed", "7", "--out", str(out), input=script)
    assert result.exit_code == 1
    assert "the input ended in trick" in result.stderr and "Traceback" not in result.output
    if not script:                  # nothing played: nothing saved
        assert "nothing had been played, so nothing was saved" in result.stderr
        assert not out.exists() and not list(tmp_path.iterdir())
    else:                           # three cards of the person's: the game so far, which replays up to there
        assert f"the game so far is saved in {out}" in result.stderr
        report = replay(read_record(out), str(out))
        assert report.result is None and report.stopped.startswith("the input ended in trick")
        assert sum(1 for tr in report.tricks for s, _ in tr.cards if s == 0) == 3 or len(report.tricks) == 2


@pytest.mark.parametrize("args, words", [
    (["original", "--seat", "4"], "--seat 4: in ruleset original that seat does not exist"),
    (["original", "--seat", "-1"], "--seat -1"),
    (["three-player", "--seat", "2"], "is a dummy, played by seat 0"),
    (["original", "--bots", "heuristic,nobody"], "unknown bot 'nobody'"),
    (["original", "--bots", "random,random,random"], "3 bots for 2 parties and 4 seats"),
    (["original", "--dealer", "4"], "--dealer 4"),
    (["original", "-o", "castling=sometimes"], "has no option 'sometimes'"),
    (["original", "--out", "/no/such/folder/g.json"], "there is no folder"),
])
def test_bad_usage_exits_2(args, words):
    result = play(*args, "--seed", "1", input="1\n" * 13)
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output
    assert PROMPT not in result.output  # nothing was dealt


# --- three players: the Kaiser plays the dummy's cards, through a real pipe ------------------------------

def drive(args: list[str], answer, cwd: Path, timeout: float = 120) -> tuple[int, str, str]:
    """Run a command, answering each prompt (output ending in '> ') with ``answer(output so far)``."""
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                         env=dict(os.environ, COLUMNS="200"))
    out, fd, end = b"", p.stdout.fileno(), time.monotonic() + timeout
    while time.monotonic() < end:
        if not select.select([fd], [], [], 1)[0]:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        out += chunk
        if out.endswith(b"> "):
            p.stdin.write(answer(out.decode()).encode() + b"\n")
            p.stdin.flush()
    else:
        p.kill()
        pytest.fail("the game did not finish in time:\n" + out.decode()[-2000:])
    p.stdin.close()
    err = p.stderr.read().decode()
    return p.wait(30), out.decode(), err


def test_three_player_kaiser_plays_his_dummy_through_a_pipe(tmp_path):
    script = Path(sys.executable).with_name("schachett")
    rc, out, err = drive([str(script), "play", "three-player", "--seat", "0", "--seed", "4", "--dealer", "0"],
                         lambda text: "" if text.endswith("castle> ") else "1", tmp_path)
    assert rc == 0, err + out[-2000:]
    # §4,4 (3p): the Kaiser deals the first game and holds the wK; his party is seats 0 and 2 (he and his dummy)
    assert ("You play the Kaiser (seat 0), the dummy (seat 2), in the Kaiser and his dummy (seats 0 and 2), which "
            "holds the wK. Against you: the Kaiser's left (seat 1) heuristic, the Kaiser's right (seat 3) heuristic.") in out
    # Thirteen cards from each of his two hands, each asked of the person; no bot plays for the dummy.
    assert out.count("the Kaiser (you) plays> ") == 13 and out.count("the dummy (your dummy) plays> ") == 13
    assert len(re.findall(r"^  the dummy \(your dummy\) plays \S+$", out, re.M)) == 13
    assert all(re.search(r"plays> 1\n$", before + "\n") for before in
               re.split(r"^  the dummy \(your dummy\) plays \S+$", out, flags=re.M)[:-1])
    # Trick 1: the left player leads, the dummy plays first of the Kaiser's hands, and until it has played
    # the Kaiser sees only the dummy's hand (§10 (3p)).
    first_view = out.split("the dummy (your dummy) plays> ")[0]
    assert "Your dummy's hand, the dummy (seat 2) (13 cards):" in first_view and "Your hand, the Kaiser" not in first_view
    assert "Face up: wK with the Kaiser (you), sK with the Kaiser's left" in first_view
    # The record is written in the current folder under the seed's name, and replays to the printed totals.
    saved = tmp_path / "schachett-game-4.json"
    assert "The game is saved in schachett-game-4.json" in out
    report = replay(read_record(saved), str(saved))
    assert list(report.result.totals) == totals_printed(out)
    assert len(re.findall(r"castle> \n", out)) == out.count("castle> ")  # every castle offer was answered "no"


# --- castling -----------------------------------------------------------------------------------------

# The deal of test_castling: dealer 3 holds the wK, and its only officer; seat 1 opposite holds wD, wS, wS.
RESCUE_DEAL = [
    "sK sT sT sD sL sL sS sS wT wT wL wL s8".split(),
    "wD wS wS w1 w2 w3 w4 w5 w6 w7 w8 wI wII".split(),
    "s1 s2 s3 s4 s5 s6 s7 wIII wIV wV wVI wVII wVIII".split(),
    "wK wIX wX sI sII sIII sIV sV sVI sVII sVIII sIX sX".split(),
]


class Scripted:
    """A bot that plays the listed cards first (then its first legal card) and never castles."""

    def __init__(self, cards):
        self.cards = list(cards)

    def play(self, obs, rng):
        return self.cards.pop(0) if self.cards else obs.legal[0]

    def castle(self, obs, options, rng):
        return None


def rescue_table(answers: list[str]):
    t = tables_for("original", (("castling", "as-three-player"),))
    game = State.from_record(t, 3, RESCUE_DEAL)
    written: list[str] = []
    def read():
        if written[-1] == "castle> " and not answers:
            return "\n"
        return (answers.pop(0) if answers else "1") + "\n"
    bots = {0: Scripted(["sT"]), 1: Scripted(["wS"]), 2: Scripted(["s1"])}
    table = Table(game, {3}, bots, GameStream(0, 0), read, lambda text, end="\n": written.append(text + end))
    return table, written


def test_a_rescue_castle_is_offered_and_taken():
    table, written = rescue_table(["1", "c wD"])
    result = table.run()
    text = "".join(written)
    # Trick 1: sT led; seat 3 must give its only officer, the wK, and the sT would take it.
    assert "You may play the numbered cards; must follow sT with an officer (§3.1)." in text
    assert "1:wK" in text and "East (you) plays wK" in text
    offer = text[text.index("Castling is allowed now"):text.index("castle> ")]
    assert "Trick 1 of 13: South sT, West (your partner) wS, North s1, East (you) wK -- South holds it with sT" in text
    assert "rescue: wK of East (you) was just taken" in offer
    assert "it goes to West (your partner)'s hand, and one of West (your partner)'s wD, wS takes its place" in offer
    assert ("♜ East (you) rescues his wK, just taken in trick 1: it goes to West (your partner)'s hand, and "
            "West (your partner)'s wD takes its place in the trick") in text
    trick = table.game.tricks[0]
    assert trick.cards[3] == (3, "wD") and trick.winner == 3 and trick.events == () and len(trick.rescues) == 1
    assert "=> East (you) takes trick 1 with wD, 33 card points" in text
    assert table.game.over and result.totals == table.game.result().totals


def test_a_rescue_passed_lets_the_checkmate_score():
    table, written = rescue_table(["1", "no"])
    table.run()
    text = "".join(written)
    assert "one of West (your partner)'s wD, wS takes its place" in text
    trick = table.game.tricks[0]
    assert trick.winner == 0 and [e.event for e in trick.events] == ["checkmate"] and not table.game.castles
    assert re.search(r"=> South takes trick 1 with sT.*\n(     .*\n)+  ♚ checkmate: East \(you\)'s wK", text)


def test_a_wrong_castle_names_the_clause_and_asks_again():
    table, written = rescue_table(["1", "c wT", "castle", "c wS"])
    table.run()
    text = "".join(written)
    assert "not allowed: wT cannot be taken for the King: seat 1 offers wD, wS (castle officer, §5 (3p)" in text
    assert 'type "castle OFFICER"' in text
    assert table.game.castles[0].officer == "wS"


# --- a solitaire: the person plays both hands of a party against an automaton ----------------------------

SOLO = '''ruleset solo "A test solitaire: the white party against an automaton" extends original

automaton [§1 design]: seat 1, seat 3 play the lowest card
    because "A fixed opponent, for the test."
'''


def test_a_solitaire_is_played_from_every_free_seat(tmp_path):
    path = tmp_path / "solo.schachett"
    path.write_text(SOLO, encoding="utf-8")
    result = play(str(path), "--seed", "3", "--out", str(tmp_path / "g.json"), input="1\n" * 26)
    assert result.exit_code == 0, result.output
    text = result.output
    # original's deal: wK to the dealer (seat 3), sK to his left (seat 0): the free seats 0 and 2 hold the sK
    assert ("You play South (seat 0), North (seat 2), in South and North (seats 0 and 2), which holds "
            "the sK. Against you: West (seat 1) (automaton: lowest)") in text
    assert text.count("South (you) plays> ") == 13 and text.count("North (you) plays> ") == 13
    assert len(re.findall(r"^  (West|East) \(automaton\) plays \S+$", text, re.M)) == 26
    # The person sees both hands he plays.
    assert "Your hand, South (seat 0) (13 cards):" in text and "Your hand, North (seat 2) (13 cards):" in text
    assert play(str(path), "--seat", "1").exit_code == 2


# --- rendering, directly ------------------------------------------------------------------------------

def test_render_view_sorts_by_kind_then_rank_and_numbers_only_legal_cards():
    t = tables_for("original")
    game = State.from_record(t, 3, RESCUE_DEAL)
    for card in ("sT", "wS", "s1"):
        game.play(card)
    text, cards = render_view(game, {3})
    assert cards == ["wK"]  # an officer was led: only the King may follow
    assert "  officer    1:wK\n  suit card  wX wIX sX sIX sVIII sVII sVI sV sIV sIII sII sI" in text
    seat, face = kernel_holder(t, 0, [(0, t.deck.card_of("sT")), (1, t.deck.card_of("wS")), (2, t.deck.card_of("s1"))])
    assert (seat, t.deck.face_names[face]) == (0, "sT")   # §2: the Rook takes the Knight; the pawn does not
    with pytest.raises(Abandoned):
        Table(game, {3}, {}, None, lambda: "", lambda *a, **k: None).ask_card()


def test_s3_the_rules_are_at_hand_at_the_table(tmp_path):
    # "rules §3.2" prints §3.2 as the rule file says it, "rules castling" the sections that speak of castling
    result = play("reconstruction", "--seed", "2", "--out", str(tmp_path / "g.json"),
                  input="rules §3.2\nrules castling\nquit\n")
    text = result.output
    assert "§3.2 Rules when leading a Pawn" in text
    assert "When a pawn is led, each player must play the first of these he can: (1) a pawn of the led colour" in text
    assert "§3.3 Rules when leading" not in text.split("rules castling")[0]          # one section, not the next
    assert "Castling exchanges a King for an officer of the hand the castle reaches." in text
