"""`schachett play` on the family's games: the person passes cards, bids, calls and lays cards away before play.

The person types "1" at every prompt (the first choice offered, the first card he may play); the bots play random.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main


def play(tmp_path, name, seed=3):
    out = tmp_path / f"{name}.json"
    result = CliRunner().invoke(main, ["play", name, "--seat", "0", "--seed", str(seed), "--bots", "random",
                                       "--out", str(out)], input="1\n" * 200)
    assert result.exit_code == 0, result.output
    return result.output, out


def test_schafkopf_the_person_bids_and_the_declarer_is_announced(tmp_path):
    text, out = play(tmp_path, "schafkopf")
    assert "Before play: South (you) bids or passes." in text
    assert "  1. bids Rufer" in text and "South (you) bids Rufer" in text
    assert " declares " in text and "Game over." in text
    assert "King events" not in text            # the family's games have no Kings to score
    # the end names the parties of the contract played: the winners' settlement is positive
    record = json.loads(out.read_text())
    assert record["ruleset"] == "schafkopf"
    replayed = CliRunner().invoke(main, ["replay", str(out)])
    assert replayed.exit_code == 0, replayed.output


def test_hearts_the_person_passes_three_cards_and_sees_game_points(tmp_path):
    text, _ = play(tmp_path, "hearts")
    assert text.count("Before play: South (you) passes a card.") == 3
    assert "South (you) passes cK to West" in text
    assert "West passes a card to North" in text          # the cards others pass stay hidden
    assert "Game points: South (you)" in text and "Winner:" not in text


def test_euchre_shows_the_turned_card(tmp_path):
    text, _ = play(tmp_path, "euchre")
    assert "Turned up: " in text and "Game points: your party" in text


@pytest.mark.parametrize("name", ["five-hand-euchre", "wendish-schafkopf", "dreiwendsch", "officers-schafkopf", "whist"])
def test_every_family_game_plays_to_its_end_at_the_terminal(tmp_path, name):
    text, _ = play(tmp_path, name)
    assert "Game over." in text
