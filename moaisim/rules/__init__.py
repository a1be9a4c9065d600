"""What the game is: components, epoch cards and disasters, rule options and variants
(docs/rules.md)."""

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
from moaisim.rules.components import Components, EpochCard, load_components
from moaisim.rules.epoch_cards import DISASTERS, EFFECTS, Effect, EpochTable, epoch_table
from moaisim.rules.model import Rules
from moaisim.rules.variants import OPTIONS, VARIANTS, parse_variants, variant_label

__all__ = [
    "CAMP",
    "CARD_TYPES",
    "DISASTERS",
    "EFFECTS",
    "N_CARD_TYPES",
    "OPTIONS",
    "RESERVE",
    "VARIANTS",
    "ZONES",
    "Components",
    "Effect",
    "EpochCard",
    "EpochTable",
    "Layout",
    "Rules",
    "card_value",
    "epoch_table",
    "is_raid",
    "load_components",
    "parse_variants",
    "variant_label",
]
