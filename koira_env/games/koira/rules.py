"""Rule options and presets: every point where the sources differ is one named option.

``make_rules(num_players, "koira", **overrides)`` is the only way rules are built, so
validation (unknown names, bad values, impossible mixes, bad player counts) lives here.
RULES.md explains each option and names the test that pins it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from ...cards import SUITS, check_ranked_deck, ranked_cards
from ...core.options import RuleSet

# Allowed values of each choice-valued option; bool and int options are listed apart.
CHOICES: dict[str, tuple[Any, ...]] = {
    "war_trigger": ("any_tie", "highest_tie"),
    "war_mode": ("play_on", "split"),
    "trump_card": ("hidden", "revealed"),
    "phase_one_end": ("one_holder", "all_played", "due_player_empty"),
    "phase_two_leader": ("trump_holder", "last_winner"),
    "take": ("bottom", "lowest"),
    "emptied_trick": ("continues", "ends"),
    "sequences": (0, 2, 3),
    "sequence_beat": ("same_length", "any_length"),
    "reward": ("loser", "placement"),
}
BOOL_OPTIONS = (
    "risk_in_war",
    "trump_only_when_void",
    "voluntary_take",
    "trump_ends_trick",
    "sequences_from_two",
    "take_one_card",
)


@dataclass(frozen=True)
class Rules(RuleSet):
    """One complete, validated rule set. RULES.md says where each option comes from."""

    num_players: int = 4
    # The rule set the other options start from: source A ("koira"), source B ("koira-b"),
    # the "mattis" house rules or the tiny two-player "mini"; any option below overrides it.
    preset: str = "koira"
    # The deck holds the deck_ranks highest ranks of each suit in play (13: 2 to A; 3: Q, K,
    # A). The two-player removal of the last ten cards applies to the full 52-card deck only.
    deck_ranks: int = 13
    # The suits in play, as letters from "CDHS" in that order ("HS": hearts and spades).
    deck_suits: str = "CDHS"
    # Cards dealt to each player, and the hand size refills draw back up to.
    hand_size: int = 3
    # What starts a war: any tied rank, even below a higher card ("any_tie"), or only a tie
    # for the highest card ("highest_tie").
    war_trigger: str = "any_tie"
    # The tied players play again for the whole pile ("play_on") or share the trick among
    # them ("split", B's variation 1).
    war_mode: str = "play_on"
    # A player in a war may risk the top stock card instead of a hand card.
    risk_in_war: bool = True
    # The last stock card, the trump card, is set aside face down until phase two ("hidden")
    # or taken into hand face up, its suit trump at once ("revealed").
    trump_card: str = "hidden"
    # Phase one ends once at most one player holds cards ("one_holder"), once nobody does
    # ("all_played"), or when the player due to play has none ("due_player_empty").
    phase_one_end: str = "one_holder"
    # Who leads phase two: the trump card's holder or the last phase-one trick winner.
    phase_two_leader: str = "trump_holder"
    # In phase two a trump may beat a plain card only when void in that suit.
    trump_only_when_void: bool = True
    # A player able to beat the trick may take it instead.
    voluntary_take: bool = False
    # A player who cannot beat takes the bottom (first-played) play or the lowest card.
    take: str = "bottom"
    # Taking a run takes only its lowest card (B's variation 4, needs sequences).
    take_one_card: bool = False
    # A trick emptied by takes goes on, led by the next holder ("continues"), or is over and
    # a new one starts ("ends", B's letter; games can then cycle to max_actions).
    emptied_trick: str = "continues"
    # Runs of consecutive cards of one suit played as one move: 0 (off), 2 or 3 (the
    # shortest run).
    sequences: int = 0
    # A run is beaten by a higher run of the same length ("same_length") or of any length.
    sequence_beat: str = "same_length"
    # Only single cards and runs starting with a 2 (B's variation 3, needs sequences).
    sequences_from_two: bool = False
    # A trump played in phase two ends the trick (B's variation 2).
    trump_ends_trick: bool = False
    # Rewards: the loser -1 and everyone else the same ("loser"), or linear in the order
    # players went out ("placement").
    reward: str = "loser"
    # Truncation safeguard, above the proven bound 52 + 52 * 14 * 8 (RULES.md, point 23).
    max_actions: int = 6000


# Source B's four VARIATIONS map to war_mode="split", trump_ends_trick, sequences_from_two
# and take_one_card; they are off in every preset and switched on one by one.
PRESETS: dict[str, dict[str, Any]] = {
    "koira": {},
    "koira-b": {
        "war_trigger": "highest_tie",
        "trump_card": "revealed",
        "phase_one_end": "all_played",
        "phase_two_leader": "last_winner",
        "trump_only_when_void": False,
        "voluntary_take": True,
        "take": "lowest",
        "sequence_beat": "any_length",
    },
    "mattis": {
        "war_trigger": "highest_tie",
        "trump_card": "revealed",
        "phase_one_end": "due_player_empty",
        "phase_two_leader": "last_winner",
        "trump_only_when_void": False,
        "voluntary_take": True,
        "take": "lowest",
        "sequence_beat": "any_length",
    },
    # Koira (source A) shrunk until game-theory tools solve it exactly: Q, K, A of hearts
    # and spades, two cards each for two players, a stock of two (one card to risk, then
    # the trump card). RULES.md "Mini Koira".
    "mini": {"deck_ranks": 3, "deck_suits": "HS", "hand_size": 2},
}
MAX_ACTIONS_LIMIT = 10**9  # the compiled engine counts actions in a C int
PLAYER_RANGE = {"koira": (2, 8), "koira-b": (3, 8), "mattis": (3, 8), "mini": (2, 2)}
TWO_PLAYER_REMOVED = 10  # two players, full deck: the last ten cards of the order, unseen
OPTION_NAMES = tuple(f.name for f in fields(Rules) if f.name not in ("num_players", "preset"))


def deck_cards(r: Rules) -> tuple[int, ...]:
    """The ids of the cards in play, in id order (all 52 by default)."""
    return ranked_cards(r.deck_ranks, r.deck_suits)


def removed_unseen(r: Rules) -> int:
    """How many cards the deal removes unseen: the last ten of the order for two players
    with the full deck, none otherwise (a smaller deck is already small)."""
    full = r.deck_ranks == 13 and r.deck_suits == SUITS
    return TWO_PLAYER_REMOVED if r.num_players == 2 and full else 0


def make_rules(num_players: int = 4, rules: str | Rules = "koira", **options: Any) -> Rules:
    """Build validated rules from a preset name (or a ``Rules``) plus option overrides."""
    if isinstance(rules, Rules):
        base = rules
        if num_players != base.num_players:
            base = replace(base, num_players=num_players)
    else:
        if not isinstance(rules, str) or rules not in PRESETS:
            raise ValueError(f"unknown rules preset {rules!r}; valid presets: {sorted(PRESETS)}")
        base = Rules(num_players=num_players, preset=rules, **PRESETS[rules])
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ValueError(f"unknown rule option(s) {unknown}; valid options: {sorted(OPTION_NAMES)}")
    result = replace(base, **options)
    validate(result)
    return result


def validate(r: Rules) -> None:
    """Raise ``ValueError`` naming the problem and the valid choices."""
    n = r.num_players
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"num_players must be an int, got {n!r}")
    lo, hi = PLAYER_RANGE[r.preset]
    if not lo <= n <= hi:
        hint = " (use rules='koira' for 2 players)" if n == 2 else ""
        count = f"{lo}" if lo == hi else f"{lo}-{hi}"
        raise ValueError(
            f"preset {r.preset!r} is played by {count} players, got num_players={n}{hint}"
        )
    for name, allowed in CHOICES.items():
        value = getattr(r, name)
        if value not in allowed or isinstance(value, bool):
            raise ValueError(f"option {name}={value!r} is not valid; choose one of {list(allowed)}")
    for name in BOOL_OPTIONS:
        if not isinstance(getattr(r, name), bool):
            raise ValueError(f"option {name} must be True or False, got {getattr(r, name)!r}")
    if not isinstance(r.max_actions, int) or isinstance(r.max_actions, bool) or r.max_actions < 100:
        raise ValueError(f"option max_actions must be an int >= 100, got {r.max_actions!r}")
    if r.max_actions > MAX_ACTIONS_LIMIT:
        raise ValueError(
            f"option max_actions must be at most {MAX_ACTIONS_LIMIT}, got {r.max_actions!r}"
        )
    _validate_deck(r)
    if r.sequences == 0:
        for name in ("sequences_from_two", "take_one_card"):
            if getattr(r, name):
                raise ValueError(
                    f"option {name}=True only changes how sequences are played; "
                    "it needs sequences=2 or sequences=3"
                )


def _validate_deck(r: Rules) -> None:
    """The deck options one by one, then whether the deck deals the hands and a trump card."""
    ranks, suits, hand = r.deck_ranks, r.deck_suits, r.hand_size
    check_ranked_deck(ranks, suits)
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
        raise ValueError(f"option hand_size must be an int >= 1, got {hand!r}")
    size = ranks * len(suits)
    removed = removed_unseen(r)
    needed = r.num_players * hand + 1 + removed
    if size < needed:
        unseen = f" (plus the {removed} removed unseen)" if removed else ""
        raise ValueError(
            f"a deck of {size} cards (deck_ranks={ranks}, deck_suits={suits!r}) cannot deal "
            f"hand_size={hand} to each of {r.num_players} players and keep a trump card"
            f"{unseen}: it needs at least {needed} cards"
        )
