"""Kaivai (Anselm and Helge Ostertag, Pfifficus 2005), moaisim's third game: this module is its
`GameSpec` (`moaisim.games.base`).

The toolkit reads every name below from here, never from the game's own modules; each is
loaded on first use (PEP 562): the rules (`rules/`, its book docs/kaivai-rules.md), the two
engines and the forward model (`engine/`, the reference engine first), the measures and words
of its reports, and its strategies (`moaisim.strategies.kaivai`).
"""

from __future__ import annotations

from moaisim.games.base import GameInfo, lazy_names
from moaisim.games.kaivai import words

#: What the game is (`GameInfo`): its name, title, player counts, rules book
#: (docs/kaivai-rules.md), default component file (`moaisim rules`), score parts and the
#: words its reports use.
INFO = GameInfo(
    name="kaivai",
    title="Kaivai",
    summary=("Anselm and Helge Ostertag, 2005: secret bids set turn order, building cost and "
             "boat range; huts on growing islands, boats that build, fish, sell fish and sink "
             "each other; feasts, decay and a sealed contest for the cult sites"),
    players=range(3, 5),
    rules_book="kaivai-rules.md",
    components_file=("moaisim.games.kaivai.rules", "components.toml"),
    score_parts=words.SCORE_PARTS,
    vocabulary=words.VOCABULARY,
    # `benchmarks/search_cost.py --game kaivai --players 3 --games 40 --self-play --seed
    # 6931` and `--players 4 ... --seed 6932` (2026-12-06, L3 the learned ranker, which
    # search's rollouts play): the larger of one searching seat against L3 and L4 self-play
    search_seconds={3: 0.81, 4: 1.0},
)  # fmt: skip

_RULES = "moaisim.games.kaivai.rules"
_ENGINE = "moaisim.games.kaivai.engine"
_STRATEGIES = "moaisim.strategies.kaivai"
#: name -> (module, attribute): the rest of the `GameSpec`, loaded on first use.
_LAZY: dict[str, tuple[str, str]] = {
    # rules data
    "Rules": (f"{_RULES}.model", "Rules"),
    "make_rules": (f"{_RULES}.model", "make_rules"),
    "default_components": (f"{_RULES}.model", "default_components"),
    "parameter_table": (f"{_RULES}.model", "parameter_table"),
    "VARIANTS": (f"{_RULES}.options", "VARIANTS"),
    "OPTIONS": (f"{_RULES}.options", "OPTIONS"),
    "OPTION_HELP": (f"{_RULES}.options", "OPTION_HELP"),
    "parse_variants": (f"{_RULES}.options", "parse_variants"),
    "variant_label": (f"{_RULES}.options", "variant_label"),
    "PARAMETERS": (f"{_RULES}.parameters", "PARAMETERS"),
    "LATER": (f"{_RULES}.parameters", "LATER"),
    "check_names": (f"{_RULES}.parameters", "check_names"),
    "parse_assignments": (f"{_RULES}.parameters", "parse_assignments"),
    "parameter_listing": (f"{_RULES}.parameters", "listing"),
    "parameter_values": (f"{_RULES}.components", "parameter_values"),
    # the engines and the forward model
    "Games": (f"{_ENGINE}.forward", "Games"),
    "Game": (f"{_ENGINE}.forward", "Game"),
    "conserved": (f"{_ENGINE}.forward", "conserved"),
    "determinize": (f"{_ENGINE}.worlds", "determinize"),
    "ReferenceGame": (f"{_ENGINE}.asked", "ReferenceGame"),
    "SeatView": (f"{_ENGINE}.views", "SeatView"),
    "Kind": (f"{_ENGINE}.decisions", "Kind"),
    "GameRecord": (f"{_ENGINE}.record", "GameRecord"),
    "schema_markdown": (f"{_ENGINE}.events", "schema_markdown"),
    "compiled_forms": (f"{_ENGINE}.batch", "compiled_forms"),
    "warm": (f"{_ENGINE}.warm", ""),
    "replay": (f"{_STRATEGIES}.replay", "replay"),
    # results
    "RESULTS": (f"{_ENGINE}.results", "RESULTS"),
    "MEASURES": ("moaisim.games.kaivai.measures", "MEASURES"),
    # strategies and skill levels
    "Strategy": (f"{_ENGINE}.forward", "Strategy"),
    "STRATEGIES": (f"{_STRATEGIES}.levels", "STRATEGIES"),
    "STRATEGY_GROUP": (f"{_STRATEGIES}.levels", "STRATEGY_GROUP"),
    "LEVELS": (f"{_STRATEGIES}.levels", "LEVELS"),
    "LEVEL_POOL": (f"{_STRATEGIES}.levels", "LEVEL_POOL"),
    "MIXTURE_LEVELS": (f"{_STRATEGIES}.levels", "MIXTURE_LEVELS"),
    "level_spec": (f"{_STRATEGIES}.levels", "level_spec"),
    # tuning: the weight-vector family, restricted play, per-game dispatch
    "TUNABLE": (f"{_STRATEGIES}.heuristic", "HeuristicStrategy"),
    "WEIGHTS": (f"{_STRATEGIES}.heuristic", "WEIGHTS"),
    "WEIGHT_NAMES": (f"{_STRATEGIES}.heuristic", "NAMES"),
    "WEIGHT_SCALES": (f"{_STRATEGIES}.heuristic", "SCALES"),
    "read_weights": (f"{_STRATEGIES}.heuristic", "read_weights"),
    "default_weights": (f"{_STRATEGIES}.heuristic", "defaults"),
    "weights_path": (f"{_STRATEGIES}.heuristic", "weights_path"),
    "TUNED": (f"{_STRATEGIES}.tuned", "TunedStrategy"),
    "tuned_file": (f"{_STRATEGIES}.tuned", "tuned_file"),
    "retuned_key": (f"{_STRATEGIES}.tuned", "retuned_key"),
    "FORBID": (f"{_STRATEGIES}.restrict", "FORBID"),
    "DISPATCH": (f"{_STRATEGIES}.mixture", "DispatchStrategy"),
    # component documents (the balance search edits these)
    "component_document": (f"{_RULES}.components", "component_document"),
    "components_from_dict": (f"{_RULES}.components", "components_from_dict"),
    "apply_parameters": (f"{_RULES}.components", "apply_parameters"),
    "COMPONENT_EDITS": ("moaisim.games.kaivai.edits", "COMPONENT_EDITS"),
    "TOTAL_CHANGING": ("moaisim.games.kaivai.edits", "TOTAL_CHANGING"),
    "edit_default": ("moaisim.games.kaivai.edits", "edit_default"),
    "apply_edit": ("moaisim.games.kaivai.edits", "apply_edit"),
    # the decisions' shapes: each kind's answer width and action-space size (distill, learn)
    "ACTION_WIDTHS": (f"{_ENGINE}.decisions", "ACTION_WIDTHS"),
    "action_size": (f"{_ENGINE}.batch", "action_size"),
}

__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())
