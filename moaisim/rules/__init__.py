"""What the game is: components, rule options and variants (RULES.md)."""

from moaisim.rules.components import (
    CARD_TYPES,
    DISASTERS,
    N_CARD_TYPES,
    Components,
    EpochCard,
    card_value,
    is_raid,
    load_components,
)
from moaisim.rules.model import CAMP, RESERVE, ZONES, Layout, Rules
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
