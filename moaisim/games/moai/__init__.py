"""Moai (Adrian Dinu, 2007), the first game behind moaisim's game boundary: this module is its
`GameSpec` (`moaisim.games.base`).

The toolkit reads every name below from here, never from the game's own modules. Each name is
loaded on first use (PEP 562), so importing the game costs nothing until a name is read: the
rules (`rules/`), the two engines and the forward model (`engine/`), and the strategies
(`moaisim.strategies.moai`).
"""

from __future__ import annotations

from moaisim.games.base import GameInfo, lazy_names
from moaisim.games.moai import words

#: What the game is (`GameInfo`): its name, title, player counts, rules book (docs/rules.md),
#: default component file (`moaisim rules`), score parts and the words its reports use.
INFO = GameInfo(
    name="moai",
    title="Moai",
    summary=("Adrian Dinu, 2007: clans bid for the bird-man, take epoch cards, send workers "
           "to the forest, fields, volcano and boats, carve statues and feed their "
           "people"),
    players=range(2, 6),
    rules_book="rules.md",
    components_file=("moaisim.games.moai.rules", "default.toml"),
    score_parts=words.SCORE_PARTS,
    vocabulary=words.VOCABULARY,
    # `benchmarks/search_cost.py --games 200 --seed 6920` and `--games 100 --seed 6921
    # --self-play` (2026-12-05): the largest of one searching seat against L3 (200 and 100
    # games a batch) and L4 self-play, rounded up; at 5 players search rolls out with the
    # learned ranker (L3 there), ten times the cost
    search_seconds={2: 0.11, 3: 0.09, 4: 0.09, 5: 0.65},
)  # fmt: skip

#: name -> (module, attribute): the rest of the `GameSpec`, loaded on first use.
_LAZY: dict[str, tuple[str, str]] = {
    # rules data
    "Rules": ("moaisim.games.moai.rules.model", "Rules"),
    "make_rules": ("moaisim.games.moai.rules.model", "make_rules"),
    "default_components": ("moaisim.games.moai.rules.model", "default_components"),
    "VARIANTS": ("moaisim.games.moai.rules.variants", "VARIANTS"),
    "OPTIONS": ("moaisim.games.moai.rules.variants", "OPTIONS"),
    "OPTION_HELP": ("moaisim.games.moai.rules.variants", "OPTION_HELP"),
    "parse_variants": ("moaisim.games.moai.rules.variants", "parse_variants"),
    "variant_label": ("moaisim.games.moai.rules.variants", "variant_label"),
    "PARAMETERS": ("moaisim.games.moai.rules.parameters", "PARAMETERS"),
    "LATER": ("moaisim.games.moai.rules.parameters", "LATER"),
    "check_names": ("moaisim.games.moai.rules.parameters", "check_names"),
    "parse_assignments": ("moaisim.games.moai.rules.parameters", "parse_assignments"),
    "parameter_listing": ("moaisim.games.moai.rules.parameters", "listing"),
    "parameter_values": ("moaisim.games.moai.rules.parameters", "values"),
    "parameter_table": ("moaisim.games.moai.rules.model", "parameter_table"),
    # the engines and the forward model
    "Games": ("moaisim.games.moai.engine.forward", "Games"),
    "Game": ("moaisim.games.moai.engine.forward", "Game"),
    "conserved": ("moaisim.games.moai.engine.conserved", "problems"),
    "determinize": ("moaisim.games.moai.engine.forward", "determinize"),
    "ReferenceGame": ("moaisim.games.moai.engine.reference", "ReferenceGame"),
    "SeatView": ("moaisim.games.moai.engine.views", "SeatView"),
    "Kind": ("moaisim.games.moai.engine.decisions", "Kind"),
    "GameRecord": ("moaisim.games.moai.engine.record", "GameRecord"),
    "schema_markdown": ("moaisim.games.moai.engine.events", "schema_markdown"),
    "compiled_forms": ("moaisim.games.moai.engine.seats", "compiled_forms"),
    "warm": ("moaisim.games.moai.engine.warm", ""),
    "replay": ("moaisim.strategies.moai.replay", "replay"),
    # results
    "RESULTS": ("moaisim.games.moai.engine.results", "RESULTS"),
    "MEASURES": ("moaisim.games.moai.measures", "MEASURES"),
    # each row's points from statues (beyond the GameSpec: the toolkit reads `score_parts`)
    "statue_points": ("moaisim.games.moai.engine.results", "statue_points"),
    # strategies and skill levels
    "Strategy": ("moaisim.strategies.moai.base", "Strategy"),
    "STRATEGIES": ("moaisim.strategies.moai.levels", "STRATEGIES"),
    "STRATEGY_GROUP": ("moaisim.strategies.moai.levels", "STRATEGY_GROUP"),
    "LEVELS": ("moaisim.strategies.moai.levels", "LEVELS"),
    "LEVEL_POOL": ("moaisim.strategies.moai.levels", "LEVEL_POOL"),
    "MIXTURE_LEVELS": ("moaisim.strategies.moai.levels", "MIXTURE_LEVELS"),
    "level_spec": ("moaisim.strategies.moai.levels", "level_spec"),
    # tuning: the weight-vector family, restricted play, per-game dispatch
    "TUNABLE": ("moaisim.strategies.moai.heuristic", "HeuristicStrategy"),
    "WEIGHTS": ("moaisim.strategies.moai.heuristic", "WEIGHTS"),
    "WEIGHT_NAMES": ("moaisim.strategies.moai.heuristic", "NAMES"),
    "WEIGHT_SCALES": ("moaisim.strategies.moai.heuristic", "SCALES"),
    "read_weights": ("moaisim.strategies.moai.heuristic", "read_weights"),
    "default_weights": ("moaisim.strategies.moai.heuristic", "defaults"),
    "weights_path": ("moaisim.strategies.moai.heuristic", "weights_path"),
    "TUNED": ("moaisim.strategies.moai.tuned", "TunedStrategy"),
    "tuned_file": ("moaisim.strategies.moai.tuned", "tuned_file"),
    "retuned_key": ("moaisim.strategies.moai.tuned", "retuned_key"),
    "FORBID": ("moaisim.strategies.moai.restrict", "FORBID"),
    "DISPATCH": ("moaisim.strategies.moai.mixture", "DispatchStrategy"),
    # component documents (the balance search edits these)
    "component_document": ("moaisim.games.moai.rules.components", "document"),
    "components_from_dict": ("moaisim.games.moai.rules.components", "components_from_dict"),
    "apply_parameters": ("moaisim.games.moai.rules.parameters", "apply"),
    "COMPONENT_EDITS": ("moaisim.games.moai.edits", "COMPONENT_EDITS"),
    "TOTAL_CHANGING": ("moaisim.games.moai.edits", "TOTAL_CHANGING"),
    "edit_default": ("moaisim.games.moai.edits", "edit_default"),
    "apply_edit": ("moaisim.games.moai.edits", "apply_edit"),
    # the decisions' shapes: each kind's answer width and action-space size (distill, learn)
    "ACTION_WIDTHS": ("moaisim.games.moai.engine.decisions", "ACTION_WIDTHS"),
    "action_size": ("moaisim.games.moai.engine.decisions", "action_size"),
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())
