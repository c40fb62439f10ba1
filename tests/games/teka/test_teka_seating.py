"""koira_experiments.teka_seating: the deciding games of a Teka tournament and their seating."""

from __future__ import annotations

import pytest

from koira_agents.tournament import TournamentConfig, run_tournament
from koira_experiments import teka_seating
from koira_experiments.teka_seating import deciding_seats, lucky, summarize


def test_deciding_games_put_the_two_agents_opposite_with_other_partners():
    assert deciding_seats(["a", "x", "y", "b"], "a", "b") == (0, 3)
    assert deciding_seats(["x", "a", "b", "y"], "a", "b") == (1, 2)
    assert deciding_seats(["a", "x", "b", "y"], "a", "b") is None  # partners
    assert deciding_seats(["a", "b", "x", "a"], "a", "b") is None  # the agent sits twice
    assert deciding_seats(["a", "b", "x", "x"], "a", "c") is None  # no rival


def test_lucky_when_the_rivals_partner_speaks_right_after_the_agents():
    # seats a, b, partner of a, partner of b: b's partner (3) speaks right after a's (2)
    assert lucky(0, 1)
    # seats a, partner of b, partner of a, b: a's partner (2) speaks right after b's (1)
    assert not lucky(0, 3)
    assert lucky(2, 3) and not lucky(3, 2)


def hand(declarer: int, made: bool, contract: int = 13, double: bool = False) -> dict:
    return {"type": "hand_end", "declarer": declarer, "made": made, "contract": contract,
            "double": double}  # fmt: skip


def record(players: list[str], places: list[int], hands: list[dict]) -> dict:
    return {"players": players, "result": {"places": places}, "events": hands}


def test_summary_counts_hands_by_declarer_and_bounds_the_win_rate():
    records = [
        # lucky seating, the partners declare, the agent wins
        record(["a", "b", "x", "y"], [1, 2, 1, 2], [hand(3, False, double=True)]),
        # unlucky seating, the agent declares once and loses
        record(["a", "y", "x", "b"], [2, 1, 2, 1], [hand(0, False, 9), hand(2, False, 12)]),
        # not a deciding game: the two agents are partners
        record(["a", "x", "b", "y"], [1, 2, 1, 2], [hand(1, False)]),
    ]
    found = summarize(records, "a", "b")
    assert found["games"] == 2 and found["won"] == 1
    assert found["lucky games"] == found["lucky won"] == 1
    assert found["unlucky games"] == 1 and found["unlucky won"] == 0
    assert found["hands"] == 3
    assert found["partners declared"] == 2 and found["agents declared"] == 1
    assert found["partners' double thirteens"] == 1
    assert found["partners' bids of 12 or 13"] == 1
    assert found["games the agents declared in"] == 1
    assert found["win rate"] == 0.5 and found["bound"] == 1.0


def test_a_tournament_folder_is_read_from_its_records(tmp_path, capsys):
    agents = ("c1=counter", "counter", "r1=random", "r2=random")
    config = TournamentConfig(agents=agents, game="teka", deals=6, seed=3)
    run_tournament(config, tmp_path, workers=1, save_records=24)
    found = teka_seating.main([str(tmp_path)])
    assert "win rate:" in capsys.readouterr().out
    assert found["games"] > 0
    assert found["lucky games"] + found["unlucky games"] == found["games"]
    assert found["lucky won"] + found["unlucky won"] == found["won"]
    assert found["partners declared"] + found["agents declared"] == found["hands"]
    assert found["win rate"] <= found["bound"] <= 1.0


def test_a_folder_without_records_is_refused(tmp_path):
    with pytest.raises(ValueError, match="--save-records"):
        teka_seating.load_records(tmp_path)
