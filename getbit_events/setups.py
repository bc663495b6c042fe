"""The game's constants and the set-up they make: limbs, Shark cards, variants, hands (R1, R2).

The state, the board and the rules all start from these; this module imports
none of them, so none of them imports another for a constant.
"""

from __future__ import annotations

__all__ = ["LIMBS", "SHARK_CARDS", "VARIANTS", "hand_size", "starting_hand"]

# R6: four limbs; also the order in which an unstated bite takes them (docs/gbn.md).
LIMBS: tuple[str, ...] = ("right-arm", "left-arm", "right-leg", "left-leg")
SHARK_CARDS: tuple[str, ...] = (
    "right-leg",
    "left-leg",
    "right-arm",
    "left-arm",
    "exhaustion",
    "any-limb",
)
VARIANTS: tuple[str, ...] = ("standard", "three-player", "two-player", "shark")


def hand_size(swimmers: int) -> int:
    """R1: 4 swimmers hold 1-5, 5 hold 1-6, 6 hold 1-7."""
    return swimmers + 1


def starting_hand(size: int) -> range:
    """R1: the cards every swimmer holds before round 1."""
    return range(1, size + 1)
