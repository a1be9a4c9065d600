"""The rule space a balance search explores and the objectives it scores (`moaisim balance`).

A balance file (TOML) declares, besides the study's name and question and its game (a
top-level `game = "moai"`, optional, default Moai: `moaisim games` lists them):

- `[space]`: the settings the search may change, each `name = { kind, low, high }` (kinds
  `int` and `float`) or `name = { kind = "categorical", choices = [...] }`. A name is a rule
  parameter (`moaisim variants` lists them: `wood_points`, `moai_points`, `wood_per_palm`,
  the V3 removals...), a rule option (`turn_order`, `volcano_after_moai`, `spent_wood`),
  `variant` (a categorical of variant labels, `base` included) or a component edit
  (`COMPONENT_EDITS`): the palms of each epoch, the Moai tiles' heights scaled, the tiles of
  each height. Component edits keep the published totals (36 epoch cards, 21 Moai tiles)
  unless `[balance] keep_totals = false`.
- `[objectives.NAME]`: what a candidate is judged by, each a measure of the balance sheet
  (`MEASURES`) with a goal (`zero`: as near 0 as can be; `min`; `max`) and hard bounds
  (`at_most`, `at_least`, `within`: |x| at most), taken in the worst field and player count.

Every value is checked when the file is read, every count against its bound, and each
dimension's two ends are built into rules at every player count searched: a range the
components cannot meet (more palms than an epoch has cards, a hand the deck cannot deal) is
one line before anything is played; so is a study whose games, in all, would take years
(`Space.planned_games`, at most `MAX_STUDY_GAMES`).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from moaisim.errors import UserError
from moaisim.files import read_text
from moaisim.games import check_key, load_game
from moaisim.registry import load_strategy
from moaisim.rundir import identity_game, recorded_game
from moaisim.studies.retune import default_popsize
from moaisim.studies.sheet import MAX_DEALS, MAX_SEARCH_GAMES, SheetSettings, planned_games
from moaisim.studies.sheet import MAX_GAMES as MAX_SHEET_GAMES

#: Defaults of `[sheet]` for the finalists' balance sheets (smaller than `moaisim sheet`'s):
#: `check_games`, L4 self-play on the first deals (the check field: does each finding hold
#: under search play?), about 0.10 s of CPU per game and seat.
SHEET = {"games": 4000, "skill_games": 400, "search_games": 0, "deals": 300, "replays": 2,
         "check_games": 50}  # fmt: skip
#: Defaults of `[adapt]`: CMA-ES generations, games per candidate and seat rotation,
#: held-out games, games of the adapted fields, games of L4's seat against L3.
ADAPT = {"generations": 3, "games": 60, "held_out_games": 300, "field_games": 2000,
         "search_games": 40}  # fmt: skip
#: The bounds of a balance file's counts: games of one block, field or evaluation (each
#: played in memory, with its per-round table), search's (L4) games (about 0.10 s of CPU
#: each), trials, NSGA-II's population and CMA-ES's generations.
MAX_BLOCK_GAMES = 1_000_000
MAX_TRIALS = 100_000
MAX_POPULATION = 10_000
MAX_GENERATIONS = 1_000
#: The most games a whole study may play (`Space.planned_games`): more would take years.
MAX_STUDY_GAMES = 10**10
#: Games per composition of a diversity objective's meta-game unless it says.
DIVERSITY_GAMES = 40
#: The component edits a search space may name are the game's (`COMPONENT_EDITS` of its spec,
#: with `TOTAL_CHANGING`, `edit_default` and `apply_edit`).

#: The measure named by the game's headline part (`headline_part`: "statues" for Moai).
HEADLINE = "headline"
#: The measures objectives are built on (the balance sheet's), with their unit (`measures`
#: names `HEADLINE` by the game's headline part).
MEASURES: dict[str, tuple[str, str]] = {
    "seat0": ("points", "the {seat}'s win share (seat 0) minus the fair share 1/P, in every field"),
    "seat_rms": ("points", "root mean square of every seat's gap from fair, in every field"),
    HEADLINE: ("%", "share of strong play's score from {part} (the strongest field)"),
    "length": ("rounds", "rounds per game"),
    "length_change": ("rounds", "rounds per game minus the base game's, on the same deals"),
    "decisive": ("%", "games won by the sole leader after round `round` (the strongest field)"),
    "skill": ("points", "the better level's gain over fair as one seat against the weaker's"),
    "diversity": ("strategies", "effective number of strategies of the library's Nash mixture"),
}
GOALS = ("zero", "min", "max")
#: The loss and violation of a value that could not be measured.
UNMEASURED = 1e9
#: Each measure's default goal.
DEFAULT_GOAL = {"seat0": "zero", "length_change": "zero", HEADLINE: "max", "diversity": "max",
                "skill": "max", "seat_rms": "min", "length": "min", "decisive": "min"}  # fmt: skip
#: The objective keys that only some measures read.
APPLIES = {"round": {"decisive"}, "better": {"skill"}, "weaker": {"skill"},
           "library": {"diversity"}, "games": {"diversity"},
           "field": {HEADLINE, "decisive", "length", "length_change"}}  # fmt: skip


def headline_measure(game: str) -> str:
    """The name of the `HEADLINE` measure in a game: its headline part ("statues")."""
    return load_game(game).INFO.vocabulary["headline_part"]


def measures(game: str) -> dict[str, tuple[str, str]]:
    """The measures of a game's objectives by name, with their unit and meaning."""
    part = headline_measure(game)
    seat = load_game(game).INFO.vocabulary["seat_zero_name"]
    return {(part if k == HEADLINE else k): (u, said.format(part=part, seat=seat))
            for k, (u, said) in MEASURES.items()}  # fmt: skip


def measure_kind(measure: str, game: str) -> str:
    """The key of `MEASURES` a game's measure is (its headline part: `HEADLINE`)."""
    return HEADLINE if measure == headline_measure(game) else measure


#: Names an objective cannot take: the trials table's own columns.
RESERVED = {"trial", "rung", "games", "violation", "loss", "feasible", "pareto", "base",
            "changes", "same_as"}  # fmt: skip
TOP = {"game", "name", "title", "question", "balance", "space", "objectives", "verify", "adapt",
       "sheet"}  # fmt: skip
BALANCE_KEYS = {"players", "fields", "trials", "population", "games", "rungs", "eta", "seed",
                "finalists", "keep_totals", "jobs", "parsimony"}  # fmt: skip
VERIFY_KEYS = {"games", "screen", "screen_values", "screen_depth", "reduce"}
#: The fixed fields that judge every candidate unless `[balance] fields` says: the library
#: pool (L2) and the population loop's Nash mixture (L3). L1 (`greedy` self-play) is the
#: weakest field and only counts when a file names it; L0 plays at random; L4 (search) is
#: no fixed field: about 3 s of CPU per self-play game against L3's 0.0003 s
#: (docs/balance.md, "The fields").
DEFAULT_FIELDS = ("L2", "L3")
#: A changed setting's values the one-change screen plays, for a whole-number or float range
#: unless `[verify] screen_values` says (ends included, evenly spaced).
SCREEN_VALUES = 3
#: The reduction tries every subset of a finalist's changes when it has at most this many.
EXHAUSTIVE = 4


def reduce_bound(k: int) -> int:
    """At most how many subsets the reduction of a finalist of k changes measures: k
    singles, k passes of backward elimination of at most k each, every subset of 4."""
    return k + k * k + 2**EXHAUSTIVE


ADAPT_KEYS = {"generations", "games", "held_out_games", "field_games", "search_games"}
SHEET_KEYS = {"games", "skill_games", "search_games", "deals", "replays", "check_games"}
OBJECTIVE_KEYS = {"measure", "goal", "at_most", "at_least", "within", "field", "round",
                  "better", "weaker", "library", "games"}  # fmt: skip


@dataclass(frozen=True)
class Dimension:
    """One setting the search may change: its name, kind and range (or choices), and what it
    is (`parameter`, `option`, `variant` or `component`)."""

    name: str
    kind: str
    what: str
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    #: the game whose rules the setting is of
    game: str = field(kw_only=True)

    def default(self) -> Any:
        """The base game's value of this setting."""
        if self.what == "variant":
            return "base"
        spec = load_game(self.game)
        if self.what == "option":
            return spec.OPTIONS[self.name][0]
        if self.what == "parameter":
            return spec.PARAMETERS[self.name].value(default_components(self.game))
        return edit_default(self.name, self.game)

    def screened(self, n: int = SCREEN_VALUES) -> list[Any]:
        """The values the one-change screen plays: every choice; a whole-number range of at
        most `n` values at each; a longer one, or a float range, at `n` evenly spaced values,
        both ends included (rounded half up to whole numbers, floats to 3 decimals)."""
        if self.kind == "categorical":
            return list(self.choices)
        low, high = float(self.low), float(self.high)  # type: ignore[arg-type]
        if self.kind == "int" and high - low + 1 <= n:
            return list(range(int(low), int(high) + 1))
        steps = [low + (high - low) * k / (n - 1) for k in range(n)]
        if self.kind == "int":
            return list(dict.fromkeys(int(math.floor(x + 0.5)) for x in steps))
        return list(dict.fromkeys(round(x, 3) for x in steps))

    def describe(self) -> str:
        """'int 1..3', 'float 0.80..1.25' or 'one of base, short'."""
        if self.kind == "categorical":
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind == "float":
            return f"float {self.low:.2f}..{self.high:.2f}"
        return f"int {int(self.low)}..{int(self.high)}"  # type: ignore[arg-type]


@dataclass(frozen=True)
class Objective:
    """One objective: a measure, its goal and hard bounds, and the measure's own settings."""

    name: str
    measure: str
    goal: str
    at_most: float | None = None
    at_least: float | None = None
    within: float | None = None
    field: str | None = None  # statues, decisive: the field measured (default: strongest)
    round: int = 3  # decisive
    better: str = "L3"  # skill
    weaker: str = "L1"  # skill
    library: tuple[str, ...] = ()  # diversity
    games: int | None = None  # diversity: games per composition (None: `DIVERSITY_GAMES`)

    @property
    def unit(self) -> str:
        """The measure's unit ('points', '%', 'rounds', 'strategies')."""
        return MEASURES[self.measure if self.measure in MEASURES else HEADLINE][0]

    def loss(self, x: float) -> float:
        """What the optimiser minimises: |x| for `zero`, x for `min`, -x for `max`; a value
        that could not be measured (nan) is the worst there is (`UNMEASURED`)."""
        if math.isnan(x):
            return UNMEASURED
        return abs(x) if self.goal == "zero" else (x if self.goal == "min" else -x)

    def violation(self, x: float) -> float:
        """How far x is outside the hard bounds (0 inside them), in the measure's unit; a
        value that could not be measured (nan: no game reached the round, a candidate the
        rules refuse) meets no bound."""
        if math.isnan(x):
            return UNMEASURED
        out = 0.0
        if self.at_most is not None:
            out += max(0.0, x - self.at_most)
        if self.at_least is not None:
            out += max(0.0, self.at_least - x)
        if self.within is not None:
            out += max(0.0, abs(x) - self.within)
        return out

    def bounds(self) -> str:
        """The hard bounds in words ('|x| <= 1', 'x >= 25'), or '' without any."""
        parts = []
        if self.within is not None:
            parts.append(f"within ±{self.within:g}")
        if self.at_least is not None:
            parts.append(f"at least {self.at_least:g}")
        if self.at_most is not None:
            parts.append(f"at most {self.at_most:g}")
        return " and ".join(parts)


@dataclass(frozen=True)
class Settings:
    """The search's settings (`[balance]`, `[verify]`, `[adapt]`, `[sheet]`)."""

    players: tuple[int, ...] = (5,)
    fields: tuple[str, ...] = DEFAULT_FIELDS
    trials: int = 200
    population: int = 20
    games: int = 2000
    rungs: int = 3
    eta: int = 2
    seed: int = 2026
    finalists: int = 5
    keep_totals: bool = True
    jobs: int = 2
    parsimony: bool = True  # the number of changed settings is an objective of the search
    verify_games: int = 20_000
    screen: bool = True  # the one-change screen, on the verification's games
    screen_values: int = SCREEN_VALUES
    screen_depth: int = 2  # the screen carried on, changes added to the best, up to this many
    reduce: bool = True  # each finalist reduced to its smallest fix
    adapt: dict[str, int] = field(default_factory=dict)
    sheet: dict[str, int] = field(default_factory=dict)

    def rung_games(self) -> list[int]:
        """Games per field of each rung of successive halving: the top rung plays `games`,
        each rung below `eta` times fewer (at least 10 games: checked on reading)."""
        return [self.games // self.eta ** (self.rungs - 1 - r) for r in range(self.rungs)]


@dataclass(frozen=True)
class Space:
    """A checked balance file: its name, title, question, dimensions, objectives, settings."""

    path: Path
    name: str
    title: str
    question: str
    dimensions: tuple[Dimension, ...]
    objectives: tuple[Objective, ...]
    settings: Settings
    #: whether a setting's value alone changes the game (`changes`), remembered
    memo: dict[tuple[Any, ...], bool] = field(default_factory=dict, compare=False, repr=False)
    #: the game searched (the file's `game`: `recorded_game` for a file that names none)
    game: str = field(kw_only=True)

    def strongest(self) -> str:
        """The strongest fixed field searched (the last in level order)."""
        levels = load_game(self.game).LEVELS
        return max(self.settings.fields, key=lambda name: _level_rank(name, levels))

    def base(self) -> dict[str, Any]:
        """The base game as a candidate: every dimension at its default."""
        return {d.name: d.default() for d in self.dimensions}

    def contains(self, candidate: Mapping[str, Any]) -> bool:
        """Whether a candidate's values all lie in the space."""
        for d in self.dimensions:
            v = candidate[d.name]
            if d.kind == "categorical":
                if v not in d.choices:
                    return False
            elif not d.low <= v <= d.high:  # type: ignore[operator]
                return False
        return True

    def refused(self, candidate: Mapping[str, Any]) -> str | None:
        """Why the rules cannot be built from a candidate's settings (each end of each
        range was checked alone; two settings can still exclude each other, as `short` and
        a removal parameter do), or None."""
        for p in self.settings.players:
            try:
                rules_of(candidate, p, self.settings.keep_totals, game=self.game)
            except UserError as exc:
                return f"refused: {exc}"
        return None

    def game_key(self, candidate: Mapping[str, Any]) -> str:
        """What a candidate's games are made of at every player count, whatever its
        settings say: its rules' digest with the component set's name left out (a height
        scale of 1.02 gives the shipped tiles, so the base game)."""
        parts = []
        for p in self.settings.players:
            r = rules_of(candidate, p, self.settings.keep_totals, game=self.game)
            named = dataclasses.replace(r.components, name="", assumed=())
            parts.append(dataclasses.replace(r, components=named).digest())
        return ",".join(parts)

    def changes(self, candidate: Mapping[str, Any]) -> list[str]:
        """The settings a candidate changes, in the space's order: those whose value differs
        from the base game's and that, set alone on the base game, give other games (a
        height scale of 1.01 rounds back to the shipped tiles: no change)."""
        base = self.base()
        out = []
        for d in self.dimensions:
            v = candidate[d.name]
            if v == base[d.name]:
                continue
            s = self.settings
            key = (type(self), self.game, s.players, s.keep_totals, d.name, repr(v))
            if key not in self.memo:
                try:
                    self.memo[key] = self.game_key({**base, d.name: v}) != self.game_key(base)
                except UserError:  # refused alone: a change all the same
                    self.memo[key] = True
            if self.memo[key]:
                out.append(d.name)
        return out

    def identity(self) -> dict[str, Any]:
        """What a run's trials depend on: a run directory holding another identity is not
        resumed."""
        s = self.settings
        return {
            "dimensions": [[d.name, d.kind, d.low, d.high, list(d.choices)]
                           for d in self.dimensions],
            "objectives": [o.__dict__ | {"library": list(o.library)} for o in self.objectives],
            "players": list(s.players), "fields": list(s.fields), "population": s.population,
            "games": s.games, "rungs": s.rungs, "eta": s.eta, "seed": s.seed,
            "keep_totals": s.keep_totals, "parsimony": s.parsimony,
            # a study made before games had names continues as one
            **identity_game(self.game),
        }  # fmt: skip

    def planned_games(self) -> int:
        """At most how many games the whole study plays, every trial taken to the top rung:
        the search (the base game and each trial, in every field and skill pairing at every
        player count, and each diversity objective's meta-game), the verification (measured
        once: the base game and the finalists, every value of the one-change screen and,
        at most, every subset the reduction can try: `reduce_bound`), the adapted fields (the
        re-tuning, `tuned` with the shipped and re-tuned weights, L4's seat) and the sheets
        (one per finalist and player count, each beside the base game)."""
        s = self.settings
        a = {**ADAPT, **s.adapt}
        popsize = default_popsize(self.game)
        make_rules = load_game(self.game).make_rules
        cfg = {**SHEET, **s.sheet}
        pairings = len(s.fields) + sum(o.measure == "skill" for o in self.objectives)

        def block(games: int) -> int:  # one candidate's games at every player count
            meta = sum(math.comb(len(o.library) + p - 1, p) * (o.games or DIVERSITY_GAMES)
                       for o in self.objectives if o.measure == "diversity"
                       for p in s.players)  # fmt: skip
            return games * pairings * len(s.players) + meta

        setups = (s.finalists + 1) * len(s.players)
        search = (s.trials + 1) * block(s.games)
        singles = sum(len(d.screened(s.screen_values)) for d in self.dimensions)
        screen = singles * s.screen_depth * s.screen  # the singles, then each size grown
        reduce = s.finalists * reduce_bound(len(self.dimensions)) * s.reduce
        verify = (s.finalists + 1 + screen + reduce) * block(s.verify_games)
        retune = s.finalists * sum(
            p * (a["generations"] * popsize * a["games"] + 2 * a["held_out_games"])
            for p in s.players
        )
        adapt = retune + setups * (2 * a["field_games"] + a["search_games"])
        sheets = s.finalists * sum(  # each beside the base game on the same deals
            planned_games(SheetSettings(p, cfg["games"], cfg["skill_games"],
                                        cfg["search_games"], cfg["deals"], cfg["replays"],
                                        against=make_rules(p), check_games=cfg["check_games"],
                                        game=self.game))
            for p in s.players
        )  # fmt: skip
        return search + verify + adapt + sheets


def _level_rank(name: str, levels: tuple[str, ...]) -> int:
    return levels.index(name) if name in levels else -1


# --- the base document and the edits ------------------------------------------------------------


def base_document(game: str) -> dict[str, Any]:
    """The shipped component file as a TOML document (edited per candidate)."""
    return load_game(game).component_document(None)[0]


def default_components(game: str) -> Any:
    """The shipped component set."""
    return load_game(game).components_from_dict(base_document(game), "default.toml")


def edit_default(name: str, game: str) -> Any:
    """A component edit's value in the shipped set (the game's `edit_default`)."""
    return load_game(game).edit_default(default_components(game), name)


def _edit(doc: dict[str, Any], name: str, value: Any, keep_totals: bool,
          game: str) -> None:  # fmt: skip
    """Apply one component edit to a component document (in place: the game's
    `apply_edit`)."""
    load_game(game).apply_edit(doc, name, value, keep_totals)


def candidate_document(candidate: Mapping[str, Any], keep_totals: bool = True,
                       *, game: str) -> dict[str, Any]:  # fmt: skip
    """The component document of a candidate: the shipped file with its rule parameters set
    and its component edits made, named by its edits."""
    spec = load_game(game)
    doc = base_document(game)
    params = {k: int(v) for k, v in candidate.items() if k in spec.PARAMETERS}
    doc = spec.apply_parameters(doc, params) if params else copy.deepcopy(doc)
    edits = [(k, v) for k, v in candidate.items() if k in spec.COMPONENT_EDITS]
    for k, v in edits:
        _edit(doc, k, v, keep_totals, game)
    changed = [f"{k}={value_text(v)}" for k, v in edits if v != edit_default(k, game)]
    doc["name"] = "default" if not changed else ";".join(changed)
    return doc


def value_text(v: Any) -> str:
    """A setting's value as the report writes it (floats with two decimals)."""
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def rules_of(candidate: Mapping[str, Any], players: int, keep_totals: bool = True,
             *, game: str) -> Any:  # fmt: skip
    """The rules of a candidate at `players` (one clear line if they cannot be built): the
    game's `Rules`, its component set edited."""
    spec = load_game(game)
    doc = candidate_document(candidate, keep_totals, game=game)
    try:
        comps = spec.components_from_dict(doc, doc["name"])
        options = {k: str(v) for k, v in candidate.items() if k in spec.OPTIONS}
        variants = spec.parse_variants(str(candidate.get("variant", "base")))
        return spec.Rules(players, comps, variants, **options)
    except UserError as exc:
        raise UserError(f"{_label(candidate)}: {exc}") from None


def _label(candidate: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={value_text(v)}" for k, v in candidate.items())


# --- reading a balance file ----------------------------------------------------------------------


def load_space(path: str | Path) -> Space:
    """Read and check a balance file: one clear `UserError` per mistake (exit code 2),
    before anything is played."""
    path = Path(path)
    try:
        data = tomllib.loads(read_text(path, "balance file"))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None
    try:
        return _space(path, data)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None


def _space(path: Path, data: dict[str, Any]) -> Space:
    for key in data:
        if key not in TOP:
            raise UserError(f"unknown key {key!r} (expected one of {', '.join(sorted(TOP))})")
    game = check_key(data["game"]) if "game" in data else recorded_game()
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip() or "/" in name:
        raise UserError(f"name must be a non-empty string without '/', got {name!r}")
    title, question = data.get("title", name), data.get("question", "")
    if not isinstance(title, str) or not isinstance(question, str):
        raise UserError("title and question must be strings")
    settings = _settings(data, game)
    space = data.get("space")
    if not isinstance(space, dict) or not space:
        raise UserError("[space] must name at least one setting to search")
    dims = tuple(_dimension(k, v, settings.keep_totals, game) for k, v in space.items())
    objectives = data.get("objectives")
    if not isinstance(objectives, dict) or not objectives:
        raise UserError("[objectives] must declare at least one objective")
    objs = tuple(_objective(k, v, settings, game) for k, v in objectives.items())
    for o in objs:
        if o.name in RESERVED or o.name in space or o.name.endswith("_where"):
            raise UserError(f"objectives.{o.name}: the name is taken by a setting or a column "
                            "of the trials table: choose another")  # fmt: skip
    out = Space(path, name, title, question, dims, objs, settings, game=game)
    check_total(out)
    _check_ends(out)
    return out


def check_total(space: Space) -> None:
    """Refuse a study whose games, in all, would take years (`Space.planned_games` above
    `MAX_STUDY_GAMES`), in one line, before anything is played."""
    total = space.planned_games()
    if total > MAX_STUDY_GAMES:
        days = total / 1e4 / 86400
        raise UserError(
            f"the study would play up to {total:,} games, more than {MAX_STUDY_GAMES:,} "
            f"({days:,.0f} days at 10,000 games a second): lower [balance] trials or games, "
            "[verify] games, [adapt] or [sheet]"
        )


def _whole(x: Any, least: int, key: str, most: int | None = None) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or x < least or (most and x > most):
        top = f" to {most:,}" if most else ""
        raise UserError(f"{key} must be a whole number from {least}{top}, got {x!r}")
    return x


def _table(data: dict[str, Any], key: str, keys: set[str]) -> dict[str, Any]:
    t = data.get(key, {})
    if not isinstance(t, dict):
        raise UserError(f"[{key}] must be a table")
    for k in t:
        if k not in keys:
            raise UserError(f"unknown key {key}.{k} (expected one of {', '.join(sorted(keys))})")
    return t


def _settings(data: dict[str, Any], game: str) -> Settings:
    LEVELS = load_game(game).LEVELS  # noqa: N806
    b = _table(data, "balance", BALANCE_KEYS)
    players = b.get("players", [5])
    players = players if isinstance(players, list) else [players]
    if not players or any(not isinstance(p, int) or isinstance(p, bool) or p not in (2, 3, 4, 5)
                          for p in players):  # fmt: skip
        raise UserError(f"balance.players must be player counts from 2 to 5, got {players!r}")
    fields = b.get("fields", list(DEFAULT_FIELDS))
    if (
        not isinstance(fields, list)
        or not fields
        or any(f not in LEVELS[:4] for f in fields)
        or len(set(fields)) != len(fields)
    ):
        raise UserError(f"balance.fields must be distinct fixed levels of L0-L3, got {fields!r}")
    keep = b.get("keep_totals", True)
    v = _table(data, "verify", VERIFY_KEYS)
    flags = {
        "balance.keep_totals": keep,
        "balance.parsimony": b.get("parsimony", True),
        "verify.screen": v.get("screen", True),
        "verify.reduce": v.get("reduce", True),
    }
    for k, x in flags.items():
        if not isinstance(x, bool):
            raise UserError(f"{k} must be true or false, got {x!r}")
    adapt = _table(data, "adapt", ADAPT_KEYS)
    sheet = _table(data, "sheet", SHEET_KEYS)
    for k, x in adapt.items():
        most = {"generations": MAX_GENERATIONS, "search_games": MAX_SEARCH_GAMES}
        _whole(x, 0 if k == "search_games" else 1, f"adapt.{k}", most.get(k, MAX_BLOCK_GAMES))
    for k, x in sheet.items():
        most = {"search_games": MAX_SEARCH_GAMES, "check_games": MAX_SEARCH_GAMES,
                "deals": MAX_DEALS, "replays": 50}  # fmt: skip
        _whole(x, 0, f"sheet.{k}", most.get(k, MAX_SHEET_GAMES))
    s = Settings(
        players=tuple(sorted(set(players))),
        fields=tuple(fields),
        trials=_whole(b.get("trials", 200), 1, "balance.trials", MAX_TRIALS),
        population=_whole(b.get("population", 20), 2, "balance.population", MAX_POPULATION),
        games=_whole(b.get("games", 2000), 10, "balance.games", MAX_BLOCK_GAMES),
        rungs=_whole(b.get("rungs", 3), 1, "balance.rungs", 6),
        eta=_whole(b.get("eta", 2), 2, "balance.eta", 8),
        seed=_whole(b.get("seed", 2026), 0, "balance.seed", 2**62),
        finalists=_whole(b.get("finalists", 5), 1, "balance.finalists", 20),
        keep_totals=keep,
        jobs=_whole(b.get("jobs", 2), 1, "balance.jobs", 256),
        parsimony=flags["balance.parsimony"],
        verify_games=_whole(v.get("games", 20_000), 0, "verify.games", MAX_BLOCK_GAMES),
        screen=flags["verify.screen"],
        screen_values=_whole(
            v.get("screen_values", SCREEN_VALUES), 2, "verify.screen_values", 20
        ),  # fmt: skip
        screen_depth=_whole(v.get("screen_depth", 2), 1, "verify.screen_depth", 5),
        reduce=flags["verify.reduce"],
        adapt=dict(adapt),
        sheet=dict(sheet),
    )
    for p in s.players:  # the finalists' sheets, checked now rather than after the search
        cfg = {**SHEET, **s.sheet}
        try:
            SheetSettings(p, cfg["games"], cfg["skill_games"], cfg["search_games"],
                          cfg["deals"], cfg["replays"], s.seed + 4, None,
                          s.jobs, game=game, check_games=cfg["check_games"]).check()  # fmt: skip
        except UserError as exc:
            raise UserError(f"[sheet]: {exc}") from None
    if s.games // s.eta ** (s.rungs - 1) < 10:
        raise UserError(
            f"balance.games = {s.games} leaves fewer than 10 games at the first of "
            f"{s.rungs} rungs (eta {s.eta}): raise games or lower rungs"
        )
    return s


def _dimension(name: str, spec: Any, keep_totals: bool, game: str) -> Dimension:
    the_game = load_game(game)
    PARAMETERS, OPTIONS = the_game.PARAMETERS, the_game.OPTIONS  # noqa: N806
    COMPONENT_EDITS = the_game.COMPONENT_EDITS  # noqa: N806
    if not isinstance(spec, dict):
        raise UserError(f"space.{name} must be a table such as {{ kind = \"int\", low = 1, "
                        "high = 3 }")  # fmt: skip
    for k in spec:
        if k not in ("kind", "low", "high", "choices"):
            raise UserError(f"unknown key space.{name}.{k} (expected kind, low, high, choices)")
    if name in PARAMETERS:
        what, kinds = "parameter", ("int", "categorical")
    elif name in OPTIONS:
        what, kinds = "option", ("categorical",)
    elif name == "variant":
        what, kinds = "variant", ("categorical",)
    elif name in COMPONENT_EDITS:
        what = "component"
        kinds = (COMPONENT_EDITS[name][0], "categorical")
        if name in the_game.TOTAL_CHANGING and keep_totals:
            raise UserError(
                f"space.{name} changes a published total ({the_game.TOTAL_CHANGING[name]}): set "
                "[balance] keep_totals = false to search it"
            )
    else:
        known = [*PARAMETERS, *OPTIONS, "variant", *COMPONENT_EDITS]
        raise UserError(f"unknown setting space.{name} (settings: {', '.join(known)})")
    kind = spec.get("kind", "categorical" if "choices" in spec else kinds[0])
    if kind not in kinds:
        raise UserError(f"space.{name}: kind {kind!r} does not fit it (use {' or '.join(kinds)})")
    if kind == "categorical":
        choices = spec.get("choices")
        if not isinstance(choices, list) or len(choices) < 2:
            raise UserError(f"space.{name}: choices must list at least two values")
        if len({repr(c) for c in choices}) != len(choices):
            raise UserError(f"space.{name}: a choice is given twice")
        if what == "variant":
            choices = [the_game.variant_label(the_game.parse_variants(str(c))) for c in choices]
        elif what == "option" and any(c not in OPTIONS[name] for c in choices):
            raise UserError(f"space.{name}: choices must be among {', '.join(OPTIONS[name])}")
        elif what in ("parameter", "component"):
            whole = what == "parameter" or COMPONENT_EDITS[name][0] == "int"
            kinds_ok = (int,) if whole else (int, float)
            if any(isinstance(c, bool) or not isinstance(c, kinds_ok) or not math.isfinite(c)
                   for c in choices):  # fmt: skip
                wanted = "whole numbers" if whole else "numbers"
                raise UserError(f"space.{name}: choices must be {wanted}, got {choices!r}")
        return Dimension(name, kind, what, choices=tuple(choices), game=game)
    low, high = spec.get("low"), spec.get("high")
    number = (int,) if kind == "int" else (int, float)
    for k, x in (("low", low), ("high", high)):
        if isinstance(x, bool) or not isinstance(x, number) or not math.isfinite(x):
            what_number = "a whole number" if kind == "int" else "a number"
            raise UserError(f"space.{name}.{k} must be {what_number}, got {x!r}")
    if not low < high:
        raise UserError(f"space.{name}: the range {low}..{high} is empty (low must be below high)")
    return Dimension(name, kind, what, float(low), float(high), game=game)


def _objective(name: str, spec: Any, s: Settings, game: str) -> Objective:
    LEVELS = load_game(game).LEVELS  # noqa: N806
    if not isinstance(spec, dict):
        raise UserError(f"objectives.{name} must be a table with a measure")
    for k in spec:
        if k not in OBJECTIVE_KEYS:
            raise UserError(f"unknown key objectives.{name}.{k} "
                            f"(expected one of {', '.join(sorted(OBJECTIVE_KEYS))})")  # fmt: skip
    measure = spec.get("measure", name)
    known = measures(game)
    if measure not in known:
        raise UserError(f"objectives.{name}: unknown measure {measure!r} "
                        f"(measures: {', '.join(known)})")  # fmt: skip
    kind, part = measure_kind(measure, game), headline_measure(game)
    for k in spec:
        if k in APPLIES and kind not in APPLIES[k]:
            applies = sorted(part if x == HEADLINE else x for x in APPLIES[k])
            raise UserError(f"objectives.{name}.{k} does not apply to the measure {measure} "
                            f"(only to {', '.join(applies)})")  # fmt: skip
    goal = spec.get("goal", DEFAULT_GOAL[kind])
    if goal not in GOALS:
        raise UserError(f"objectives.{name}.goal must be one of {', '.join(GOALS)}, got {goal!r}")
    nums: dict[str, float | None] = {}
    for k in ("at_most", "at_least", "within"):
        x = spec.get(k)
        if x is not None and (isinstance(x, bool) or not isinstance(x, int | float)
                              or not math.isfinite(x)):  # fmt: skip
            raise UserError(f"objectives.{name}.{k} must be a finite number, got {x!r}")
        nums[k] = None if x is None else float(x)
    if nums["within"] is not None and nums["within"] < 0:
        raise UserError(f"objectives.{name}.within must be at least 0")
    if (nums["at_most"] is not None and nums["at_least"] is not None
            and nums["at_most"] < nums["at_least"]):  # fmt: skip
        raise UserError(f"objectives.{name}: at_most is below at_least: no value can meet both")
    fld = spec.get("field")
    if fld is not None and fld not in s.fields:
        raise UserError(f"objectives.{name}.field {fld!r} is not a searched field "
                        f"({', '.join(s.fields)})")  # fmt: skip
    library = spec.get("library", [])
    if measure == "diversity":
        if (not isinstance(library, list) or len(library) < 2
                or not all(isinstance(x, str) for x in library)):  # fmt: skip
            raise UserError(f"objectives.{name}: diversity needs a library of at least two "
                            "strategies (library = [\"tuned\", \"moai\", ...])")  # fmt: skip
        for x in library:
            try:
                load_strategy(x, game)
            except UserError as exc:
                raise UserError(f"objectives.{name}.library: {exc}") from None
    for k in ("at_least", "at_most", "within"):
        _check_target(name, measure, kind, k, nums[k], s.players, library)
    rnd = _whole(spec.get("round", 3), 1, f"objectives.{name}.round", 30)
    better, weaker = spec.get("better", "L3"), spec.get("weaker", "L1")
    if measure == "skill":
        for k, x in (("better", better), ("weaker", weaker)):
            if x not in LEVELS[:4]:
                raise UserError(f"objectives.{name}.{k} must be a level of L0-L3, got {x!r}")
        if better == weaker:
            raise UserError(f"objectives.{name}: better and weaker must be different levels")
    games = spec.get("games")
    if games is not None:
        _whole(games, 2, f"objectives.{name}.games", MAX_BLOCK_GAMES)
    return Objective(name, measure, goal, nums["at_most"], nums["at_least"], nums["within"],
                     fld, rnd, better, weaker, tuple(library), games)  # fmt: skip


def reach(kind: str, players: int, library: int = 0) -> tuple[float, float]:
    """The values a measure of `MEASURES` (`kind`) can take at `players` players, in its
    unit: a win share less the fair 1/P (`seat0`, `skill`), the root mean square of the
    seats' gaps (0 to sqrt(P - 1) / P, one seat winning every game), a share (0 to 100 %),
    rounds (a game lasts one at least), an effective number of the `library`'s strategies
    (1 to its size)."""
    if kind in ("seat0", "skill"):
        return -100 / players, 100 - 100 / players
    if kind == "seat_rms":
        return 0.0, 100 * math.sqrt(players - 1) / players
    if kind in (HEADLINE, "decisive"):
        return 0.0, 100.0
    if kind == "length":
        return 1.0, math.inf
    if kind == "diversity":
        return 1.0, float(max(library, 1))
    return -math.inf, math.inf  # length_change: a difference of rounds


def _check_target(name: str, measure: str, kind: str, key: str, x: float | None,
                  players: Sequence[int], library: Any) -> None:  # fmt: skip
    """A hard bound within what its measure can be at the study's player counts (one line
    naming the target and its range otherwise): `at_least` no higher than the measure can
    reach at every player count, and no lower than it can be at some (else it binds
    nowhere); `at_most` the other way round; `within` from 0 to the largest |value|."""
    if x is None:
        return
    size = len(library) if isinstance(library, list) else 0
    ends = [reach(kind, p, size) for p in players]
    if key == "at_least":
        lo, hi = min(e[0] for e in ends), min(e[1] for e in ends)
    elif key == "at_most":
        lo, hi = max(e[0] for e in ends), max(e[1] for e in ends)
    else:
        lo, hi = 0.0, max(max(abs(e[0]), abs(e[1])) for e in ends)
    if lo <= x <= hi:
        return
    unit = MEASURES[kind][0]
    said = f"at least {lo:.4g} {unit}" if math.isinf(hi) else f"{lo:.4g} to {hi:.4g} {unit}"
    counts = " and ".join(str(p) for p in players)
    at = f" at {counts} players" if kind in ("seat0", "skill", "seat_rms") else ""
    raise UserError(f"objectives.{name}.{key} = {x:g} is outside what {measure} can be{at}: "
                    f"{said}")  # fmt: skip


def _check_ends(space: Space) -> None:
    """Build the rules at both ends of every dimension (the others at their defaults), at
    every player count: a range the components cannot meet is one line now."""
    base = space.base()
    for d in space.dimensions:
        ends = d.choices if d.kind == "categorical" else (d.low, d.high)
        for x in ends:
            value = int(x) if d.kind == "int" else x
            cand = {**base, d.name: value}
            for p in space.settings.players:
                try:
                    rules_of(cand, p, space.settings.keep_totals, game=space.game)
                except UserError as exc:
                    raise UserError(f"space.{d.name} = {value_text(value)} cannot be played "
                                    f"at {p} players: {exc}") from None  # fmt: skip
