"""What the game is: components, epoch cards and disasters, rule options and variants
(docs/rules.md)."""

from moaisim.games.moai.rules.codes import (
    CAMP,
    CARD_TYPES,
    N_CARD_TYPES,
    RESERVE,
    ZONES,
    Layout,
    card_value,
    is_raid,
)
from moaisim.games.moai.rules.components import Components, EpochCard, load_components
from moaisim.games.moai.rules.epoch_cards import DISASTERS, EFFECTS, Effect, EpochTable, epoch_table
from moaisim.games.moai.rules.model import Rules
from moaisim.games.moai.rules.variants import OPTIONS, VARIANTS, parse_variants, variant_label

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
