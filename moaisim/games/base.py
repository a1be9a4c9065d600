"""The game boundary (docs/design.md, "Two layers"): what a game provides the toolkit.

A game is a package (`moaisim.games.moai` for Moai) whose module object is its `GameSpec`: the
toolkit (the runner, the analysis, the studies, the command line) finds it by name through the
registry (`moaisim.games.load_game`) and uses only the names listed here, never the game's own
modules. The same way TAG's `AbstractForwardModel` says which methods a game implements, this
protocol says which names a game exports; `tests/test_games.py` checks that every registered
game has them all.

A game declares what it is as data (`GameInfo`, its `INFO`) and what the engine floor drives
as a few names (`GameEngine`: its rules, its two engines, its views, its invariant hook); the
rest of `GameSpec` is what the toolkit's results, measures, strategies and balance edits read.
`spec_names()` lists every name of a protocol, inherited ones too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data (as OpenSpiel's `GameType` and `GameInfo`): the one record a
    game declares about itself, `INFO` in its package."""

    #: The registry name (`--game NAME`), e.g. "moai"; the title and one line about it
    #: (`moaisim games`); the player counts it is played with.
    name: str
    title: str
    summary: str
    players: range
    #: The game's rules book, a document of the project's docs/ (`moaisim.docs`; "rules.md"
    #: for Moai), and its default component file as (package, file name) for
    #: `importlib.resources` (`moaisim rules` and `moaisim rules --components` print them).
    rules_book: str
    components_file: tuple[str, str]
    #: The parts a seat's score splits into, the headline part first (statues, pawns, wood
    #: for Moai): the results' `score_parts` and every table that splits a score.
    score_parts: tuple[str, ...]
    #: What the reports call a seat, a round, a score part and the game's headline part
    #: ("seat", "round", "Moai height"...), and seat 0's role: `seat_zero_name` names the
    #: seat metrics ("<name> win share", "<name>'s share against fair"), `seat_zero_said`,
    #: `seat_zero_aside`, `seat_zero_player` and `seat_axis` name seat 0 in sentences and
    #: figures; the headline part's piece, label, verb and count column (`headline_piece`,
    #: `headline_label`, `headline_verb`, `headline_count`), the strong-play table's
    #: columns (`pieces_per_seat`, `first_piece_round`, `self_play_pieces`) and sentences
    #: (`pieces_made`, `never_made`, `score_rule`, `score_parts_said`, `strong_parts_said`),
    #: and `weights_folder` (the shipped weights, as the reports name them). Every game
    #: gives every key of `VOCABULARY_KEYS`.
    vocabulary: Mapping[str, str]
    #: CPU seconds a game of search (L4) at its defaults costs a searching seat, measured at
    #: each player count (`benchmarks/search_cost.py`): the up-front estimates of `simulate`,
    #: `experiment`, `versus` and `sheet` (`studies.versus.search_seconds`).
    search_seconds: Mapping[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ResultsInfo:
    """A game's results tables (docs/design.md, "Results schema"): the per-seat table's
    columns, their types and categoricals, the per-round table's, `frame(columns) ->
    DataFrame` and `seat_rows(state, seed, game, names) -> columns`."""

    columns: tuple[str, ...]
    dtypes: Mapping[str, str]
    categories: tuple[str, ...]
    round_columns: Mapping[str, str]
    round_dtypes: Mapping[str, str]
    frame: Callable[..., Any]
    seat_rows: Callable[..., Any]


@dataclass(frozen=True)
class MeasuresInfo:
    """What a game's tables, reports and studies compute from its results.

    - `score_parts(results) -> DataFrame`: each row's points from each part of the score
      (`GameInfo.score_parts`);
    - `seat`: the per-seat measures a strategies table averages besides the score (column ->
      (label, short word)), `seat_measures(results) -> DataFrame` of them; `score`: those
      that add up to the score (in `score_parts` order); `shown`: those a report and a
      versus table show;
    - `columns`, `parameters`: the results columns and the rule parameters (added from a
      run's cells when its results lack them) these read;
    - `block_columns`: what a balance search's block sums keep besides the score and the
      headline part's points (its cache, `blocks.jsonl`);
    - `metrics`: the game's own per-game metrics of the paired comparison of set-ups (name
      -> (how a sentence names it, the unit of an effect, its equivalence margin or None)),
      `game_metrics(results, by=("cell", "game")) -> DataFrame` of them, one row a game.
    """

    score_parts: Callable[..., Any]
    seat: Mapping[str, tuple[str, str]]
    seat_measures: Callable[..., Any]
    score: tuple[str, ...]
    shown: tuple[str, ...]
    columns: tuple[str, ...]
    parameters: tuple[str, ...]
    block_columns: tuple[str, ...]
    metrics: Mapping[str, tuple[str, str, float | None]]
    game_metrics: Callable[..., Any]


#: The words every game's vocabulary gives (`GameInfo.vocabulary`).
VOCABULARY_KEYS: tuple[str, ...] = (
    "seat", "round", "score", "headline_part", "headline_column", "seat_zero_name",
    "seat_zero_said", "seat_zero_aside", "seat_zero_player", "seat_axis", "headline_piece",
    "headline_label", "headline_verb", "headline_count", "pieces_made", "never_made",
    "pieces_per_seat", "first_piece_round", "self_play_pieces", "score_rule",
    "score_parts_said", "strong_parts_said", "weights_folder",
)  # fmt: skip


@runtime_checkable
class GameEngine(Protocol):
    """What a game supplies the engine floor (`moaisim.engine`) and its conformance suite
    (tests/test_conformance.py): the record of what it is, its rules, its two engines, the
    views its seats are shown and the invariant its pieces keep. A game writes these and
    nothing generic (docs/design.md, "Adding a game")."""

    #: What the game is (`GameInfo`).
    INFO: GameInfo
    #: The game's frozen rules object (`RulesLike`: players, variants, the digest, the
    #: set-up's label, the game's name) and `make_rules(players, variants=..., params=...,
    #: **options) -> Rules`, each mistake a one-line `RulesError`.
    Rules: type
    make_rules: Callable[..., Any]
    #: The forward model over the fast machine (a `moaisim.engine.Games` subclass:
    #: `Games.new(rules, seed, games)`), one game of it (`moaisim.engine.Game`), the readable
    #: one-game engine (`ReferenceGame(rules, seed, game)`, the oracle the fast one is
    #: compared with) and `determinize(view, seed, n, rows=...)`: `n` games a seat's view may
    #: be of (`moaisim.engine.determinize`).
    Games: type
    Game: type
    ReferenceGame: type
    determinize: Callable[..., Any]
    #: What a seat is shown (`moaisim.engine.View`) and the decision kinds (an enum whose
    #: values are the strategy methods' names).
    SeatView: type
    Kind: type
    #: The game's policy: the class a seat's strategy subclasses, one method a decision kind
    #: (`view -> [n] actions`), by default uniformly random legal play from the seat's stream
    #: (`view.rng`). Both engines ask it: `Games.new(...).play([strategy, ...])` plays a
    #: batch to its end, `ReferenceGame(rules, strategies, seed, game).play()` one game, and
    #: its `final_scores()` are the batch's `scores()` row of that game.
    Strategy: type
    #: The game's invariant hook: `conserved(games) -> [problem, ...]`, each a line naming a
    #: piece that is not where the rules keep it (pieces conserved, counts in range); empty
    #: when the games are sound.
    conserved: Callable[[Any], list[str]]


@runtime_checkable
class GameSpec(GameEngine, Protocol):
    """What a game package exports for the whole toolkit: the engine's names
    (`GameEngine`) and those of its results, measures, strategies and balance edits (each
    name a module-level attribute of the package)."""

    # --- rules data -------------------------------------------------------------------------
    #: Named variants (name -> one line) and rule options (name -> allowed values, the first
    #: the default); `parse_variants(spec) -> frozenset`, `variant_label(variants) -> str`.
    VARIANTS: Mapping[str, str]
    OPTIONS: Mapping[str, tuple[str, ...]]
    #: Each rule option's one line: the rule it settles and what its values do.
    OPTION_HELP: Mapping[str, str]
    parse_variants: Callable[..., frozenset[str]]
    variant_label: Callable[..., str]
    #: Rule parameters, one record each (`Parameter`: key, rule id, meaning, range, default):
    #: the CLI's --param help, the results columns, the docs table and the balance space all
    #: derive from this table.
    PARAMETERS: Mapping[str, Any]
    #: Parameters whose first legal value is not 0 (name -> lowest value).
    LATER: Mapping[str, int]
    #: `check_names(params)`, `parse_assignments(["k=v", ...]) -> {k: [v, ...]}`,
    #: `parameter_listing() -> str` (the --param help), `parameter_values(components)`.
    check_names: Callable[..., None]
    parse_assignments: Callable[..., dict[str, list[int]]]
    parameter_listing: Callable[[], str]
    parameter_values: Callable[..., dict[str, int]]
    #: The parameters as the rules book's Markdown table (`moaisim variants --markdown`).
    parameter_table: Callable[[], str]
    #: The default component set and how a component file is read.
    default_components: Callable[[], Any]

    # --- the engines and the forward model ------------------------------------------------------
    #: A played game's record (`.events`, `.text()`, `.result`), as `moaisim.play` returns it.
    GameRecord: type
    #: `replay(log, components) -> GameRecord`: a log of `moaisim play --json` played again
    #: (its header names the game: `game_name`).
    replay: Callable[..., Any]
    #: The event log's schema as Markdown (docs/events.md).
    schema_markdown: Callable[[], str]
    #: Each seat's compiled form, or None (`compiled_forms(rules, strategies)`), and the
    #: kernels compiled before parallel workers start (`warm.warm_up(...)`).
    compiled_forms: Callable[..., Any]
    warm: Any

    # --- results and measures -------------------------------------------------------------------
    #: The results tables (`ResultsInfo`) and what the tables, reports and studies compute from
    #: them in the game's own terms (`MeasuresInfo`).
    RESULTS: ResultsInfo
    MEASURES: MeasuresInfo

    # --- strategies ------------------------------------------------------------------------------
    #: The built-in strategies (name -> 'module:Class'), the entry-point group where other
    #: packages add strategies for this game (the base a user subclasses: `Strategy`).
    STRATEGIES: Mapping[str, str]
    STRATEGY_GROUP: str
    #: The skill levels (L0 ... L4), the library pool (L2), the levels that are mixtures,
    #: and `level_spec(level, players) -> spec`.
    LEVELS: tuple[str, ...]
    LEVEL_POOL: tuple[str, ...]
    MIXTURE_LEVELS: frozenset[str]
    level_spec: Callable[[str, int], str]

    # --- tuning: the weight-vector family a tuner searches (`moaisim tune`, certify, retune) ----
    #: The parametric strategy class (`heuristic` for Moai): `load_strategy(TUNABLE,
    #: weights={name: value})` plays a point of its weight space; an instance's vector (`.w`,
    #: in `WEIGHT_NAMES` order) is set when it is made, or by `start(rules, ...)` for a
    #: subclass that picks its weights by the rules (`TUNED`). A subclass that overrides a
    #: decision method plays more than its weights.
    TUNABLE: type
    #: Each weight as (name, scale, meaning); the names, and the scales (numpy array) a
    #: search moves in units of, in that order.
    WEIGHTS: tuple[tuple[str, float, str], ...]
    WEIGHT_NAMES: tuple[str, ...]
    WEIGHT_SCALES: Any
    #: `read_weights(table, source) -> {name: value}` (a TOML document's `[weights]`, each
    #: mistake one line) and `default_weights() -> {name: value}` (every weight).
    read_weights: Callable[..., dict[str, float]]
    default_weights: Callable[[], dict[str, float]]
    #: Where the shipped weights and mixture files live: `weights_path(name) -> Path`.
    weights_path: Callable[[str], Any]
    #: The strategy that plays the shipped tuned weights of its player count (`tuned`), the
    #: shipped file it plays at a player count (`tuned_file(players) -> name`) and the name
    #: (without .toml) of weights re-tuned for one rules object (`retuned_key(rules)`).
    TUNED: type
    tuned_file: Callable[[int], str]
    retuned_key: Callable[..., str]
    #: Restricted play: what `restrict(strategy, forbid=[...])` can forbid (name -> meaning).
    FORBID: Mapping[str, str]
    #: A seat that plays, game by game, the strategy a table assigns it
    #: (`DISPATCH(specs, table)`: the meta-game's compositions in one batch).
    DISPATCH: type

    # --- component documents (the balance search edits these) -------------------------------------
    #: `component_document(path) -> (TOML document, source)` (None: the shipped file),
    #: `components_from_dict(document, source)` (the game's component set) and
    #: `apply_parameters(document, params) -> document` (rule parameters set, as
    #: `make_rules(params=...)` does).
    component_document: Callable[..., tuple[dict[str, Any], str]]
    components_from_dict: Callable[..., Any]
    apply_parameters: Callable[..., dict[str, Any]]
    #: The component edits a balance search may name (name -> (kind, meaning)), those that
    #: change a published total (name -> the total), `edit_default(components, name)` (an
    #: edit's value in a component set) and `apply_edit(document, name, value,
    #: keep_totals)` (made in place).
    COMPONENT_EDITS: Mapping[str, tuple[str, str]]
    TOTAL_CHANGING: Mapping[str, str]
    edit_default: Callable[..., Any]
    apply_edit: Callable[..., None]


@runtime_checkable
class RulesLike(Protocol):
    """What the toolkit reads of any game's rules object (annotations outside the games)."""

    players: int
    variants: frozenset[str]
    game: str

    def digest(self) -> str:
        """The stable digest of the whole set-up."""
        ...

    @property
    def setup(self) -> str:
        """The set-up's label: its differences from the base game."""
        ...


def spec_names(protocol: type) -> list[str]:
    """Every name a game must export for `protocol` (`GameEngine` or `GameSpec`), the
    inherited ones first."""
    out: list[str] = []
    for cls in reversed(protocol.__mro__):
        for name in getattr(cls, "__annotations__", {}):
            if cls not in (object, Protocol) and name not in out and not name.startswith("_"):
                out.append(name)
    return out


def lazy_names(module: str, table: dict[str, tuple[str, str]], names: dict[str, Any]) -> tuple[
        Callable[[str], Any], Callable[[], list[str]]]:  # fmt: skip
    """A game package's `__getattr__` and `__dir__` (PEP 562) for its `GameSpec` names: each
    name of `table` (name -> (module, attribute); attribute "" for the module itself) is
    imported on first use and kept in the package's namespace `names` (its `globals()`), so
    that importing a game costs nothing until a name is read."""

    def getattr_(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, attr = table[name]
        value = importlib.import_module(where)
        if attr:
            value = getattr(value, attr)
        names[name] = value
        return value

    def dir_() -> list[str]:
        return sorted([*names, *table])

    return getattr_, dir_
