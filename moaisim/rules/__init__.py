"""What the game is: components, rule options and variants (docs/rules.md)."""

from moaisim.rules.codes import (
    CAMP,
    CARD_TYPES,
    N_CARD_TYPES,
    RESERVE,
    ZONES,
    Layout,
    card_value,
    is_raid,
)
from moaisim.rules.components import DISASTERS, Components, EpochCard, load_components
from moaisim.rules.model import Rules
from moaisim.rules.variants import OPTIONS, VARIANTS, parse_variants, variant_label

__all__ = [
    "CAMP",
    "CARD_TYPES",
    "DISASTERS",
    "N_CARD_TYPES",
    "OPTIONS",
    "RESERVE",
    "VARIANTS",
    "ZONES",
    "Components",
    "EpochCard",
    "Layout",
    "Rules",
    "card_value",
    "is_raid",
    "load_components",
    "parse_variants",
    "variant_label",
]
