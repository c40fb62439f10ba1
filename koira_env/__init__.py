"""Koira and Mattis: a rules engine and a PettingZoo AEC environment."""

from .cards import card_id, card_name, parse_deck
from .engine import RISK, TAKE, IllegalActionError, State, new_game
from .env import env, raw_env
from .rules import PRESETS, Rules, make_rules

__all__ = [
    "PRESETS",
    "RISK",
    "TAKE",
    "IllegalActionError",
    "Rules",
    "State",
    "card_id",
    "card_name",
    "env",
    "make_rules",
    "new_game",
    "parse_deck",
    "raw_env",
]
