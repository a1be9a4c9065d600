"""Strategies by name: built-ins, `module:Class` paths, the entry-point group
`moaisim.strategies`, with parameters (docs/design.md, "Strategies and their defaults").

A spec names a strategy and, optionally, its parameters: `greedy`, `greedy(moai_height=7)`,
`mypackage.module:MyClass(weights=path.toml)`. `load_strategy` turns a spec (or a class) into a
`StrategySpec`: the class, the parameters, checked once, and a label (the spec written the
canonical way, parameters at their default left out), which is what results call the
strategy, so that two parameter settings are two strategies in every table. Calling a
`StrategySpec` makes an instance: the engines make one per seat per batch.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from moaisim.errors import UnknownStrategyError, UserError
from moaisim.files import check_game, game_in_file
from moaisim.games import DEFAULT, load_game
from moaisim.games import available as every_game


@cache
def weights_folder(game: str) -> Path | None:
    """The folder of a game's shipped weights and mixture files (None: the game ships none,
    or cannot be loaded)."""
    try:
        return Path(load_game(game).weights_path("x")).resolve().parent
    except (UserError, AttributeError, ImportError):
        return None


def file_game(path: str | Path) -> str | None:
    """The game a strategy's file (weights, mixture or model file) is of: the game its `game`
    key names (`moaisim.files.GAME_KEY`: every file a study writes says it), else the game
    whose shipped weights folder holds it (those were written before files named their
    game), else None (not known: read as it is, its names checked by its reader)."""
    named = game_in_file(path)
    if named is not None:
        return named
    where = Path(path).resolve().parent
    return next((g for g in every_game() if weights_folder(g) == where), None)


def check_files(name: str, params: dict[str, Any], game: str) -> None:
    """Each file a strategy's parameters name (a .toml or .json path: weights, a mixture, a
    model) is of `game` (`file_game`), or an `UnknownStrategyError` naming the file and
    both games."""
    for key, value in params.items():
        if not isinstance(value, str | Path) or Path(value).suffix not in (".toml", ".json"):
            continue
        try:
            found = Path(value).is_file()
        except OSError:
            continue
        if found:
            check_game(file_game(value), game, value,
                       f"a file (strategy {name!r}, parameter {key})",
                       UnknownStrategyError)  # fmt: skip


def level_spec(level: str, players: int, game: str) -> str:
    """The strategy spec that plays a field of skill `level` at `players` players of `game`
    (the game's `level_spec`)."""
    return load_game(game).level_spec(level, players)


def level_or_spec(strategy: str, players: int, game: str) -> str:
    """A skill level's spec at `players` players (`level_spec`), any other spec as given."""
    name = strategy.strip()
    return level_spec(name, players, game) if name in load_game(game).LEVELS else strategy


def available(game: str) -> dict[str, str]:
    """Every strategy name that `load_strategy` knows for `game`, with the path it loads: the
    game's built-ins, then its entry-point group's."""
    spec = load_game(game)
    found = dict(spec.STRATEGIES)
    for ep in entry_points(group=spec.STRATEGY_GROUP):
        found.setdefault(ep.name, ep.value)
    return dict(sorted(found.items()))


def describe(game: str) -> list[tuple[str, str, str]]:
    """(name, one-line plan, parameters with defaults) of every known strategy; a strategy
    that cannot be loaded says why instead of its plan."""
    out = []
    for name, path in available(game).items():
        try:
            cls = _import(path, name)
        except UnknownStrategyError as exc:
            out.append((name, f"(cannot be loaded: {exc})", ""))
            continue
        doc = (cls.__doc__ or "").strip().splitlines()
        params = getattr(cls, "params", {}) or {}
        listed = ", ".join(f"{k}={v!r}" if not isinstance(v, dict) else f"{k}=<table or TOML file>"
                           for k, v in params.items())  # fmt: skip
        out.append((name, doc[0] if doc else path, listed))
    return out


@dataclass(frozen=True)
class StrategySpec:
    """A strategy class with its parameters; calling it makes an instance."""

    cls: type
    params: tuple[tuple[str, Any], ...]
    label: str

    def __call__(self) -> Any:
        return self.cls(**dict(self.params))

    @property
    def name(self) -> str:
        """The strategy's name in results (its label)."""
        return self.label


def load_strategy(spec: str | type | StrategySpec, game: str = DEFAULT, **params: Any
                  ) -> StrategySpec:  # fmt: skip
    """The `StrategySpec` of a name, a 'module:Class' path, a spec string with parameters
    (`"greedy(moai_height=7)"`) or a class, for `game`; keyword arguments are parameters
    too. The toolkit always names the game; the default is the public API's
    (`moaisim.load_strategy`), and Moai's own strategies load their inner strategies through
    it without naming their game."""
    if isinstance(spec, StrategySpec):
        if not params:
            return spec
        spec, params = spec.cls, {**dict(spec.params), **params}
    if isinstance(spec, type):
        return _spec_of(spec, params, game)
    if not isinstance(spec, str) or not spec.strip():
        raise UnknownStrategyError(
            f"strategy {spec!r}: expected a name, a 'module:Class' path or a class"
        )
    name, given = parse_spec(spec)
    return _spec_of(_resolve(name, spec, game), {**given, **params}, game)


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """`"greedy(moai_height=7, weights=w.toml)"` -> ("greedy", {...}). A value is a Python
    literal (7, 0.5, 'x', True, [1, 2]) or, failing that, the text as written (a path)."""
    text = text.strip()
    if "(" not in text:
        return text, {}
    if not text.endswith(")"):
        raise UnknownStrategyError(f"strategy {text!r}: parameters must end with ')'")
    name, _, inside = text[:-1].partition("(")
    params: dict[str, Any] = {}
    for part in split_top(inside, ","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise UnknownStrategyError(
                f"strategy {text!r}: expected name=value parameters, got {part.strip()!r}"
            )
        try:
            params[key] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            params[key] = value.strip()
    return name.strip(), params


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split at `sep` outside brackets and quotes: "greedy(a=1,b=2),random" -> two parts."""
    parts, depth, quote, start = [], 0, "", 0
    for k, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return parts


def strategy_class(name: str, game: str) -> type:
    """The class a strategy name stands for in `game`, not instantiated (its parameters
    unchecked); an `UnknownStrategyError` for a name the game does not know."""
    return _resolve(name, name, game)


def _resolve(name: str, spec: str, game: str) -> type:
    if ":" in name:
        return _import(name, spec)
    known = available(game)
    if name not in known:
        raise UnknownStrategyError(
            f"unknown strategy {name!r} (known: {', '.join(known)}; or give 'module:Class')"
        )
    return _import(known[name], spec)


#: Whether a 'module:Class' spec may import its module from the current directory: yes for
#: what the user types (the command line, the Python API); an experiment file only with
#: `trust_local_code = true` (`local_code`).
_LOCAL = {"allowed": True}


@contextlib.contextmanager
def local_code(allowed: bool) -> Iterator[None]:
    """Within this block, 'module:Class' specs import from the current directory only if
    `allowed` (an experiment file's strategies are not the user's typing)."""
    before = _LOCAL["allowed"]
    _LOCAL["allowed"] = allowed
    try:
        yield
    finally:
        _LOCAL["allowed"] = before


def _import_module(name: str) -> Any:
    """Import a strategy's module: from the current directory too when local code is
    allowed (the directory then stays on sys.path, so parallel workers find it), never from
    it otherwise."""
    here = {"", ".", os.getcwd()}
    if _LOCAL["allowed"]:
        if os.getcwd() not in sys.path and importlib.util.find_spec(name.split(".")[0]) is None:
            sys.path.insert(0, os.getcwd())
        return importlib.import_module(name)
    if name in sys.modules:
        return sys.modules[name]
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if p not in here]
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = saved


def _import(path: str, spec: str) -> type:
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise UnknownStrategyError(f"strategy {spec!r}: expected a name or 'module:Class'")
    try:
        module = _import_module(module_name)
    except ImportError as exc:
        if not _LOCAL["allowed"]:
            raise UnknownStrategyError(
                f"strategy {spec!r}: cannot import {module_name!r} as an installed module "
                f"({exc}); an experiment file imports code from the current directory only "
                "with trust_local_code = true"
            ) from None
        raise UnknownStrategyError(
            f"strategy {spec!r}: cannot import {module_name!r} ({exc})"
        ) from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the module's own code failed as it was imported
        raise UnknownStrategyError(
            f"strategy {spec!r}: importing {module_name!r} raised {type(exc).__name__}: "
            f"{' '.join(str(exc).split())}"
        ) from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UnknownStrategyError(f"strategy {spec!r}: {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise UnknownStrategyError(f"strategy {spec!r}: {attr!r} is not a class")
    return obj


def _default_name(cls: type) -> str:
    """What results call a strategy class: the `name` it sets itself, else its class path
    ('module:Class'). A subclass that does not set `name` is another strategy than its
    parent, so it must not borrow the parent's name (its rows would be counted as the
    parent's)."""
    name = cls.__dict__.get("name")
    if isinstance(name, str) and name.strip() and name != "base":
        return name
    return f"{cls.__module__}:{cls.__qualname__}"


def _spec_of(cls: type, params: dict[str, Any], game: str) -> StrategySpec:
    """Check a class and its parameters once (a strategy of `game`: a method per decision
    kind); the spec, with its label."""
    name = _default_name(cls)
    kinds = load_game(game).Kind
    missing = [k.value for k in kinds if not callable(getattr(cls, k.value, None))]
    if missing:
        raise UnknownStrategyError(
            f"strategy {name!r}: {cls.__name__} is not a strategy (it has no "
            f"{', '.join(missing)} method; subclass moaisim.Strategy)"
        )
    resolve = getattr(cls, "resolve_params", None)
    if resolve is None:
        if params:
            raise UnknownStrategyError(f"strategy {name!r} takes no parameters")
        given: dict[str, Any] = {}
    else:
        resolve(params, name)  # one clear line per mistake, before any game starts
        check_files(name, params, game)  # another game's file is refused, not played
        defaults = getattr(cls, "params", {})
        given = {k: params[k] for k in defaults if k in params and params[k] != defaults[k]}
    label = name + (f"({', '.join(f'{k}={v!r}' for k, v in given.items())})" if given else "")
    spec = StrategySpec(cls, tuple(given.items()), label)
    try:
        spec()
    except UnknownStrategyError:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # its constructor failed (SystemExit included)
        raise UnknownStrategyError(
            f"strategy {name!r}: {cls.__name__}() cannot be made with these parameters "
            f"({type(exc).__name__}: {' '.join(str(exc).split())})"
        ) from None
    return spec


def strategy_name(spec: StrategySpec | type) -> str:
    """The name results use for a strategy (a spec's label, or a class's name)."""
    return spec.label if isinstance(spec, StrategySpec) else _default_name(spec)


def parse_lineup(
    strategies: str | type | StrategySpec | Sequence[str | type | StrategySpec],
    players: int,
    game: str = DEFAULT,  # transitional: tests/test_compiled.py (edited elsewhere) names none
) -> list[StrategySpec]:
    """One strategy per seat. A string may list seats separated by commas
    ("greedy,random,greedy"); a lineup shorter than the player count repeats to fill the
    seats ("greedy,random" at 5 players: greedy, random, greedy, random, greedy). A skill
    level (L0-L4, `level_spec`) stands for the field of that level at this player count; a
    level last in the lineup fills every seat left ("tuned,L3": one tuned seat against the
    Nash mixture)."""
    if isinstance(strategies, str):
        specs: list[Any] = [s for s in split_top(strategies, ",")]
    elif isinstance(strategies, type | StrategySpec):
        specs = [strategies]
    elif isinstance(strategies, Sequence):
        specs = list(strategies)
    else:
        raise UnknownStrategyError(
            f"strategies must be a name, a spec, a class or a list of them, got {strategies!r}"
        )
    for s in specs:
        if not isinstance(s, str | type | StrategySpec):
            what = "an instance" if hasattr(s, "work") else repr(s)
            raise UnknownStrategyError(
                f"strategies: got {what} of {type(s).__name__}; give its class, name or spec "
                "(moaisim makes one instance per seat per batch)"
            )
    if not specs:
        raise UnknownStrategyError("strategies: the lineup is empty")
    if len(specs) > players:
        raise UnknownStrategyError(
            f"{len(specs)} strategies given for {players} players (give at most one per seat)"
        )
    last = specs[-1]
    spec_game = load_game(game)
    LEVELS, MIXTURE_LEVELS = spec_game.LEVELS, spec_game.MIXTURE_LEVELS  # noqa: N806
    if isinstance(last, str) and last.strip() in LEVELS and len(specs) < players:
        specs = specs[:-1] + [last] * (players - len(specs) + 1)  # the field fills the rest
    levels = [s.strip() if isinstance(s, str) and s.strip() in LEVELS else None for s in specs]
    loaded = [load_strategy(s if lv is None else level_spec(lv, players, game), game)
              for s, lv in zip(specs, levels, strict=True)]  # fmt: skip
    # a mixture level keeps its name as its label ("L3", not the mixture file's path):
    # results, tables and reports name the field, and the label parses back to the same spec
    loaded = [dataclasses.replace(spec, label=lv) if lv in MIXTURE_LEVELS else spec
              for spec, lv in zip(loaded, levels, strict=True)]  # fmt: skip
    for spec in loaded:  # a mixture file of another player count, before any game
        check = getattr(spec(), "check_players", None)
        if check is not None:
            check(players)
    return [loaded[k % len(loaded)] for k in range(players)]
