"""The game boundary (docs/design.md, "Two layers"): what a game provides the toolkit.

A game is a package (`moaisim.games.moai` for Moai) whose module object is its `GameSpec`: the
toolkit (the runner, the analysis, the studies, the command line) finds it by name through the
registry (`moaisim.games.load_game`) and uses only the names listed here, never the game's own
modules. The same way TAG's `AbstractForwardModel` says which methods a game implements, this
protocol says which names a game exports; `tests/test_games.py` checks that every registered
game has them all.

The names are grouped as the toolkit uses them: what the game is, its rules data, its two
engines and its forward model, its results, its strategies and skill levels, and the words its
reports use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class GameSpec(Protocol):
    """What a game package exports (each name a module-level attribute of the package)."""

    # --- what the game is -----------------------------------------------------------------
    #: The registry name (`--game NAME`), e.g. "moai".
    NAME: str
    #: The game's title and one line about it (`moaisim games`).
    TITLE: str
    SUMMARY: str
    #: The player counts the game is played with.
    PLAYERS: range

    # --- rules data -------------------------------------------------------------------------
    #: The game's frozen rules object (players, variants, rule options, component set,
    #: parameters); it has `.players`, `.variants`, `.digest()`, `.setup` and `.game`.
    Rules: type
    #: `make_rules(players, variants, components, params, **options) -> Rules`, each mistake a
    #: one-line `RulesError`.
    make_rules: Callable[..., Any]
    #: Named variants (name -> one line) and rule options (name -> allowed values, the first
    #: the default); `parse_variants(spec) -> frozenset`, `variant_label(variants) -> str`.
    VARIANTS: Mapping[str, str]
    OPTIONS: Mapping[str, tuple[str, ...]]
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
    #: The game's rules book, a document of the project's docs/ (`moaisim.docs`; "rules.md"
    #: for Moai), and its default component file as (package, file name) for
    #: `importlib.resources` (`moaisim rules` and `moaisim rules --components` print them).
    RULES_BOOK: str
    COMPONENTS_FILE: tuple[str, str]

    # --- the engines and the forward model ------------------------------------------------------
    #: The forward model over the fast machine (`Games.new(rules, seed, games, ...)`:
    #: pending, apply, play, clone, results) and one game of it (`Game`), the readable
    #: one-game engine (`ReferenceGame`, the oracle), `determinize(view, n, rng)`.
    Games: type
    Game: type
    ReferenceGame: type
    determinize: Callable[..., Any]
    #: What a seat is shown, and the decision kinds (an enum whose values are the strategy
    #: methods' names).
    SeatView: type
    Kind: type
    #: A played game's record (`.events`, `.text()`, `.result`) and the log read back.
    GameRecord: type
    NOT_A_LOG: str
    read_log: Callable[..., Any]
    logged_rules: Callable[..., Any]
    compare_events: Callable[..., None]
    #: `replay(log, components) -> GameRecord`: a log of `moaisim play --json` played again
    #: (its header names the game: `game_name`).
    replay: Callable[..., Any]
    #: The event log's schema as Markdown (docs/events.md).
    schema_markdown: Callable[[], str]
    #: Each seat's compiled form, or None (`compiled_forms(rules, strategies)`), and the
    #: kernels compiled before parallel workers start (`warm.warm_up(...)`).
    compiled_forms: Callable[..., Any]
    warm: Any

    # --- results -------------------------------------------------------------------------------
    #: The per-seat results table (columns, types, categoricals) and the per-round table;
    #: `frame(columns) -> DataFrame`, `seat_rows(state, seed, game, names) -> columns`.
    COLUMNS: tuple[str, ...]
    DTYPES: Mapping[str, str]
    CATEGORIES: tuple[str, ...]
    ROUND_COLUMNS: Mapping[str, str]
    ROUND_DTYPES: Mapping[str, str]
    frame: Callable[..., Any]
    seat_rows: Callable[..., Any]
    #: The score parts a report can put beside the score (column -> what it is).
    UNITS: Mapping[str, str]
    #: The parts a seat's score splits into, the headline part first (statues, pawns, wood
    #: for Moai), and `score_parts(results) -> DataFrame` of each row's points from each.
    SCORE_PARTS: tuple[str, ...]
    score_parts: Callable[..., Any]
    #: The per-seat measures a strategies table averages besides the score (column ->
    #: (label, short word)), `seat_measures(results) -> DataFrame` of them; those that add
    #: up to the score (in `SCORE_PARTS` order) and those a report and a versus table show.
    SEAT_MEASURES: Mapping[str, tuple[str, str]]
    seat_measures: Callable[..., Any]
    SCORE_MEASURES: tuple[str, ...]
    SHOWN_MEASURES: tuple[str, ...]
    #: The results columns and the rule parameters (added from a run's cells when its
    #: results lack them) that `score_parts`, `seat_measures` and `game_metrics` read.
    MEASURE_COLUMNS: tuple[str, ...]
    MEASURE_PARAMETERS: tuple[str, ...]
    #: The results columns a balance search's block sums keep besides the score and the
    #: headline part's points (its cache, `blocks.jsonl`).
    BLOCK_COLUMNS: tuple[str, ...]
    #: The game's own per-game metrics of the paired comparison of set-ups (name -> (how a
    #: sentence names it, the unit of an effect, its equivalence margin or None)) and
    #: `game_metrics(results, by=("cell", "game")) -> DataFrame` of them, one row a game.
    GAME_METRICS: Mapping[str, tuple[str, str, float | None]]
    game_metrics: Callable[..., Any]

    # --- strategies ------------------------------------------------------------------------------
    #: The base class a user subclasses, the built-ins (name -> 'module:Class'), the
    #: entry-point group where other packages add strategies for this game.
    Strategy: type
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
    #: The component set's type; `component_document(path) -> (TOML document, source)`
    #: (None: the shipped file); `components_from_dict(document, source) -> Components`;
    #: `parse_epoch_card(source, text, epoch, card_id)`; `apply_parameters(document,
    #: params) -> document` (rule parameters set, as `make_rules(params=...)` does).
    Components: type
    component_document: Callable[..., tuple[dict[str, Any], str]]
    components_from_dict: Callable[..., Any]
    parse_epoch_card: Callable[..., Any]
    apply_parameters: Callable[..., dict[str, Any]]
    #: The component edits a balance search may name (name -> (kind, meaning)), those that
    #: change a published total (name -> the total), `edit_default(components, name)` (an
    #: edit's value in a component set) and `apply_edit(document, name, value,
    #: keep_totals)` (made in place).
    COMPONENT_EDITS: Mapping[str, tuple[str, str]]
    TOTAL_CHANGING: Mapping[str, str]
    edit_default: Callable[..., Any]
    apply_edit: Callable[..., None]

    # --- words ----------------------------------------------------------------------------------
    #: What the reports call a seat, a round, a score part and the game's headline part
    #: ("seat", "round", "Moai height"...), and seat 0's role: `seat_zero_name` names the
    #: seat metrics ("<name> win share", "<name>'s share against fair"), `seat_zero_said`,
    #: `seat_zero_aside`, `seat_zero_player` and `seat_axis` name seat 0 in sentences and
    #: figures; the headline part's piece, label, verb and count column (`headline_piece`,
    #: `headline_label`, `headline_verb`, `headline_count`), the strong-play table's
    #: columns (`pieces_per_seat`, `first_piece_round`, `self_play_pieces`) and sentences
    #: (`pieces_made`, `never_made`, `score_rule`, `score_parts_said`, `strong_parts_said`),
    #: and `weights_folder` (the shipped weights, as the reports name them).
    VOCABULARY: Mapping[str, str]


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
