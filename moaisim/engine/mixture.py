"""`mixture` and the meta-game's `dispatch`, written once for every game: a seat that plays,
game by game, one of several strategies (docs/strategies.md, "mixture").

`mixture(weights={'greedy': 0.5, 'forester': 0.5})`, or a TOML file given as `weights=` or
`file=`: a `[mixture]` table of `"strategy spec" = probability` lines, beside optional
metadata keys (`players`, the player count(s) it is meant for, checked when a game starts;
`source`, or anything else, kept as it is). Probabilities are at least 0 and sum to 1 within
1e-9; a mistake is one clear line.

**The draw.** In each game, each seat that plays the mixture draws one component, once, from
a uniform of a stream of its own: a pure function of the run's root seed, the game number and
the seat (the key of the seat's stream, docs/design.md "Seeds and per-game streams", hashed
with the purpose tag `DRAW_SEED`). It reads neither the game's chance nor the seat's stream,
nor anything of the cell, the other seats or the batch: game i of a root seed draws the same
component for the same seat in every cell of a study (pairing kept), in both engines and at
any batch size. Components are ordered by their labels before the draw, so a file that lists
them in another order draws the same.

**The play.** Each component with a positive probability has one instance per seat per batch,
and at each decision it is asked about the games that drew it, through a view of just those
games that draws from that seat's own stream where the component left it. So a game in which
a seat drew C is exactly the game with C in that seat: a mixture with weight 1 on C plays C's
games. When every component has a compiled form, the seat is a `Choice` of them, which the
game's fast machine plays game by game (the same draws).

A game gets these by subclassing them with its `Strategy` base and naming its `game` and its
decision `kinds` (each kind's method answers through `_decide`); a game whose compiled form
of a component is not the component's own `compiled(rules)` overrides `component_form`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from moaisim.engine.answers import BadAnswer, check
from moaisim.errors import UnknownStrategyError
from moaisim.files import GAME_COLUMN
from moaisim.games import load_game
from moaisim.mixture_parts import Choice, draw_uniforms, sub_view, view_with
from moaisim.registry import load_strategy
from moaisim.rng import SeatRandom, seat_stream, stream_keys

#: Largest distance of the probabilities' sum from 1.
TOLERANCE = 1e-9
#: How deep mixtures may nest (a mixture of mixtures...), and the mixtures being made now,
#: by their entries: a mixture that lists itself is found, not followed forever.
MAX_DEPTH = 8
_LOADING: list[str] = []


def seat_keys(seed: int, games: np.ndarray | list[int], seat: int) -> np.ndarray:
    """[n] the keys of seat `seat`'s stream in games `games` of root seed `seed` (what a
    view's `rng` draws from in a run)."""
    ids = np.array([seat_stream(seat)], dtype=np.uint64)
    return stream_keys(int(seed), np.asarray(games, dtype=np.int64), ids)[:, 0]


def stream_of(rng: SeatRandom) -> tuple[np.ndarray, np.ndarray]:
    """The keys and the current positions [n] of a view's seat stream (copies: a strategy
    cannot move them); the mixture hands each component a handle on the same stream, over
    its own games, where that component left it."""
    if not isinstance(rng, SeatRandom):
        raise TypeError("mixture needs its view's seat stream (a moaisim.rng.SeatRandom)")
    return rng.keys, rng.position


def read_mixture(table: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the `[mixture]` entries, the metadata) of a mixture table: a file's whole TOML
    (entries under `[mixture]`, other keys metadata), or an inline table of entries."""
    if "mixture" in table:
        entries = table["mixture"]
        meta = {k: v for k, v in table.items() if k != "mixture"}
        if not isinstance(entries, dict):
            raise UnknownStrategyError(
                "strategy 'mixture': [mixture] must be a table of 'strategy spec = probability'"
            )
        return entries, meta
    return dict(table), {}


class PerGame:
    """A seat that plays, game by game, one of several strategies (its components): which
    one is `_assign`'s choice, made the first time a game is seen. Mixed in before a game's
    `Strategy` base, which names the game (`game`) and its decision kinds (`kinds`)."""

    #: The registry's name of the game, and its decision kinds (an enum of method names).
    game: ClassVar[str]
    kinds: ClassVar[Any]
    #: the components' labels, their instances (by index; only those that can play), and
    #: game number -> the label of the component played (games seen so far)
    labels: tuple[str, ...]
    instances: dict[int, Any]
    drawn: dict[int, str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for kind in cls.__dict__.get("kinds", ()):  # each decision answers through `_decide`
            setattr(cls, kind.value, PerGame._decide)

    def _assign(self, games: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """[n] the component each game plays (its number, its seat stream key)."""
        raise NotImplementedError(f"{type(self).__name__} names no component per game")

    def _setup(self, instances: dict[int, Any]) -> None:
        """Hold the components' instances, what they read, and no game yet."""
        self.instances = instances
        self.reads = self._union_reads()
        self.drawn = {}
        self._reset()

    def check_players(self, players: int) -> None:
        """Each component's own player counts (`Strategy.check_players`)."""
        for inst in self.instances.values():
            inst.check_players(players)

    def _union_reads(self) -> dict[str, tuple[str, ...]]:
        """Per kind, the fields any component reads (a kind some component leaves
        undeclared: every field)."""
        out: dict[str, tuple[str, ...]] = {}
        for kind in self.kinds:
            fields: list[str] = []
            for inst in self.instances.values():
                reads = getattr(inst, "reads", None) or {}
                if kind.value not in reads:
                    break
                fields.extend(reads[kind.value])
            else:
                out[kind.value] = tuple(dict.fromkeys(fields))
        return out

    # --- lifetime ------------------------------------------------------------------------
    def _reset(self) -> None:
        """Forget the games: each entry is a game number, its seat stream key, the
        component it drew and the values that component has drawn from the stream."""
        self._games = np.zeros(0, dtype=np.int64)
        self._keys = np.zeros(0, dtype=np.uint64)
        self._known = np.zeros(0, dtype=bool)
        self._comp = np.zeros(0, dtype=np.int64)
        self._used = np.zeros(0, dtype=np.uint64)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """Check the player count, forget the games of an earlier batch and start every
        component."""
        self.check_players(rules.players)
        self._reset()  # a new batch (a search's rollouts reuse an instance batch after batch)
        self.drawn = {}
        for inst in self.instances.values():
            hook = getattr(inst, "start", None)
            if hook is not None:
                hook(rules, seat, games)

    def _slots(self, games: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The entries of games `games` (adding new ones), each game's component drawn the
        first time it is seen with these stream keys."""
        g = np.asarray(games, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self._games, g), max(len(self._games) - 1, 0))
        if not len(self._games) or (self._games[pos] != g).any():
            new = np.setdiff1d(g, self._games)
            order = np.argsort(np.concatenate([self._games, new]), kind="stable")
            grow = len(new)
            self._games = np.concatenate([self._games, new])[order]
            self._keys = np.concatenate([self._keys, np.zeros(grow, dtype=np.uint64)])[order]
            self._known = np.concatenate([self._known, np.zeros(grow, dtype=bool)])[order]
            self._comp = np.concatenate([self._comp, np.zeros(grow, dtype=np.int64)])[order]
            self._used = np.concatenate([self._used, np.zeros(grow, dtype=np.uint64)])[order]
            pos = np.searchsorted(self._games, g)
        fresh = ~self._known[pos] | (self._keys[pos] != keys)
        if fresh.any():
            p = pos[fresh]
            self._keys[p], self._known[p], self._used[p] = keys[fresh], True, 0
            self._comp[p] = self._assign(g[fresh], keys[fresh])
            for game, k in zip(g[fresh].tolist(), self._comp[p].tolist(), strict=True):
                self.drawn[game] = self.labels[k]
        return pos

    # --- compiled ------------------------------------------------------------------------
    #: The methods besides the decisions that the compiled form plays as written here.
    HELPERS: ClassVar[tuple[str, ...]] = ("_decide", "_slots")

    def component_form(self, inst: Any, rules: Any) -> Any:
        """A component's compiled form in the game's machine (None: it has none): its own
        `compiled(rules)`; a game whose machine reads more than that overrides this."""
        make = getattr(inst, "compiled", None)
        return make(rules) if make is not None else None

    def compiled(self, rules: Any) -> Choice | None:
        """The compiled form (`Choice`): each component's own (`component_form`), and
        `_pick`, which assigns each game its component as `_decide` does (`_slots`, the same
        draws); None unless every component has one, or for a subclass that overrides a
        decision or a helper."""
        for name in (*(k.value for k in self.kinds), *self.HELPERS):
            mine = getattr(getattr(self, name, None), "__func__", None)
            if mine is not getattr(PerGame, name if name in self.HELPERS else "_decide"):
                return None
        forms: dict[int, Any] = {}
        for k, inst in self.instances.items():
            form = self.component_form(inst, rules)
            if form is None:
                return None
            forms[k] = form
        return Choice(forms, self._pick)

    def _pick(self, games: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`Choice.pick`: the component of each game (its number, its seat stream key), and
        the values that component has drawn in it by views (the stream's positions go on
        from there when the games are played compiled; here they start again at 0)."""
        slots = self._slots(games, keys)
        used = self._used[slots].copy()
        self._used[slots] = 0
        return self._comp[slots].copy(), used

    # --- one decision --------------------------------------------------------------------
    def _decide(self, view: Any) -> np.ndarray:
        """Each component's answers for the games it plays, through a view of just those
        games drawing from the seat's stream where that component left it in each."""
        kind, n = view.kind, len(view)
        legal = np.array(view.legal, copy=True)
        keys, start = stream_of(view.rng)
        slots = self._slots(view.games, keys)
        comp = self._comp[slots]
        width = load_game(self.game).ACTION_WIDTHS.get(kind, 1)
        width = width if width > 1 else 0
        out = np.zeros((n, width) if width else (n,), dtype=np.int64)
        for k in np.unique(comp).tolist():
            rows = np.flatnonzero(comp == k)
            at = slots[rows]
            handle = SeatRandom(keys[rows].copy(), start[rows] + self._used[at])
            # every game drew it: the view itself, with the handle; else those games' view
            sub = view_with(view, rng=handle) if len(rows) == n else sub_view(view, rows, handle)
            given = getattr(self.instances[k], kind.value)(sub)
            try:
                out[rows] = check(given, legal[rows], width)
            except BadAnswer as bad:
                raise ValueError(f"component {self.labels[k]!r} {bad.problem}") from None
            self._used[at] += np.uint64(handle.drawn)
        return out


class Mixture(PerGame):
    """Each game, a strategy drawn from a mixture (per seat, paired across cells)."""

    name = "mixture"
    params: ClassVar[dict[str, Any]] = {
        "weights": {},  # {spec: probability}, or a TOML file with a [mixture] table
        "file": {},  # the same, for a TOML file: mixture(file=sigma.toml)
    }
    weights: dict[str, Any]
    file: dict[str, Any]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if bool(self.weights) == bool(self.file):
            raise UnknownStrategyError(
                "strategy 'mixture': give weights={spec: probability, ...} or file=FILE.toml"
                + (" (not both)" if self.weights else "")
            )
        entries, self.meta = read_mixture(self.weights or self.file)
        if not entries:
            raise UnknownStrategyError("strategy 'mixture': the mixture has no strategy")
        identity = repr(sorted(entries.items(), key=repr))
        if identity in _LOADING or len(_LOADING) >= MAX_DEPTH:
            raise UnknownStrategyError(
                "strategy 'mixture': the mixture lists itself (a mixture file naming its own "
                f"file, or mixtures nested more than {MAX_DEPTH} deep)"
            )
        _LOADING.append(identity)
        try:
            self._load(entries)
        finally:
            _LOADING.pop()

    def _load(self, entries: dict[str, Any]) -> None:
        """The components and their probabilities (`__init__`)."""
        specs: dict[str, Any] = {}
        probs: dict[str, float] = {}
        for key, p in entries.items():
            if isinstance(p, bool) or not isinstance(p, int | float) or not math.isfinite(p):
                raise UnknownStrategyError(
                    f"strategy 'mixture': the probability of {key!r} must be a finite number, "
                    f"got {p!r}"
                )
            if p < 0:
                raise UnknownStrategyError(
                    f"strategy 'mixture': the probability of {key!r} is {p!r}, below 0"
                )
            try:
                spec = load_strategy(key, self.game)
            except UnknownStrategyError as exc:
                said = str(exc)  # a nested mixture's error already names the strategy
                prefix = "" if said.startswith("strategy 'mixture': ") else "strategy 'mixture': "
                raise UnknownStrategyError(prefix + said) from None
            if spec.label in specs:
                raise UnknownStrategyError(
                    f"strategy 'mixture': {spec.label!r} is listed twice ({key!r})"
                )
            specs[spec.label], probs[spec.label] = spec, float(p)
        total = math.fsum(probs.values())
        if abs(total - 1.0) > TOLERANCE:
            raise UnknownStrategyError(
                f"strategy 'mixture': the probabilities sum to {total!r}, not 1 "
                f"(within {TOLERANCE:g})"
            )
        self._check_players_meta()
        #: the components' labels, sorted (the order of the draw), and their probabilities
        self.labels = tuple(sorted(specs))
        self.probs = np.array([probs[x] for x in self.labels]) / total
        self.specs = [specs[x] for x in self.labels]
        self._cum = np.cumsum(self.probs)
        self._last = int(np.flatnonzero(self.probs > 0)[-1])
        # one instance per component that can be drawn
        self._setup({k: self.specs[k]() for k in range(len(self.labels)) if self.probs[k] > 0})

    def _check_players_meta(self) -> None:
        players = self.meta.get("players")
        counts = players if isinstance(players, list) else [players]
        allowed = load_game(self.game).INFO.players
        low, high = allowed[0], allowed[-1]
        if players is not None and not all(
            isinstance(p, int) and not isinstance(p, bool) and p in allowed for p in counts
        ):
            raise UnknownStrategyError(
                f"strategy 'mixture': players must be a player count ({low}-{high}) or a list "
                f"of them, got {players!r}"
            )
        self.players = None if players is None else [int(p) for p in counts]

    # --- the draw ------------------------------------------------------------------------
    def draw(self, keys: np.ndarray) -> np.ndarray:
        """[n] the component index each seat stream key draws (see the module docstring)."""
        k = np.searchsorted(self._cum, draw_uniforms(keys), side="right")
        return np.minimum(k, self._last)

    def components(self, seed: int, games: np.ndarray | list[int], seat: int) -> list[str]:
        """The component label seat `seat` draws in each game `games` of root seed `seed`,
        in any cell, engine or batch (without playing)."""
        return [self.labels[k] for k in self.draw(seat_keys(seed, games, seat))]

    def _assign(self, games: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The component each game draws from its seat stream key (`draw`)."""
        return self.draw(keys)

    def check_players(self, players: int) -> None:
        """The file's `players` (`Strategy.check_players`), and each component's own."""
        if self.players is not None and players not in self.players:
            raise UnknownStrategyError(
                f"strategy 'mixture': the mixture is for {' or '.join(map(str, self.players))} "
                f"players, this game has {players}"
            )
        super().check_players(players)


class Dispatch(PerGame):
    """Each game, the strategy a table names (game number -> component): the seat of a
    batch that holds many lineups at once (a meta-game's compositions side by side, each
    row its own composition's game, numbered by its place), playing in each game exactly as
    that component would alone."""

    name = "dispatch"

    def __init__(self, specs: Sequence[Any], table: np.ndarray) -> None:
        super().__init__()
        self.labels = tuple(spec.label for spec in specs)
        self.table = np.asarray(table, dtype=np.int64)
        used = np.unique(self.table).tolist()
        if used and not 0 <= used[0] <= used[-1] < len(specs):
            raise UnknownStrategyError("strategy 'dispatch': the table names no component")
        self._setup({k: specs[k]() for k in used})

    def _assign(self, games: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The component the table names for each game (by its number in the batch)."""
        return self.table[games]


def drawn_components(results: Any) -> Any:
    """The strategy each row of a results table played: for a row of a mixture, the
    component its seat drew in its game (from its game's name, root seed, game number and
    seat), else the row's own strategy. A pandas Series aligned with `results`."""
    out = results["strategy"].astype(str).copy()
    mixed = out.str.startswith(f"{Mixture.name}(")
    part = results.loc[mixed, [GAME_COLUMN, "strategy", "seed", "game", "seat"]]
    for (game, label, seed, seat), group in part.groupby(
        [GAME_COLUMN, "strategy", "seed", "seat"], observed=True
    ):
        mix = load_strategy(str(label), str(game))()
        out.loc[group.index] = mix.components(int(seed), group["game"].to_numpy(), int(seat))
    return pd.Series(out, index=results.index, name="component")
