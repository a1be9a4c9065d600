"""The games moaisim plays, found by name (docs/design.md, "Two layers").

A game is a package whose module is its `GameSpec` (`moaisim.games.base`). The built-in games
are listed in `BUILTIN`; another package adds one through the entry-point group
`moaisim.games` (`name = "package.module"`, or `"package.module:OBJECT"`). The toolkit reaches
a game only through `load_game(name)`, never through the game's own modules (tests/test_layout.py
checks the imports), as pgx's `make(name)` and OpenSpiel's `load_game(name)` do.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from moaisim.errors import UserError
from moaisim.games.base import GameSpec, spec_names

#: The entry-point group of games.
GROUP = "moaisim.games"
#: The game every command plays unless told otherwise (`--game`).
DEFAULT = "moai"
#: The games that ship with moaisim: name -> the package that is its `GameSpec`.
BUILTIN: dict[str, str] = {"moai": "moaisim.games.moai", "rapa-nui": "moaisim.games.rapa_nui",
                           "kaivai": "moaisim.games.kaivai"}  # fmt: skip


class UnknownGameError(UserError):
    """A game name the registry does not know."""


def available() -> dict[str, str]:
    """Every game name `load_game` knows, with what it loads (built-ins first)."""
    found = dict(BUILTIN)
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep.value)
    return found


def check_name(name: Any) -> str:
    """A known game's name, or a one-line `UnknownGameError` (a number says what it is
    probably meant for: `play --index`)."""
    text = str(name).strip()
    known = available()
    if text in known:
        return text
    if text.lstrip("-").isdigit():
        raise UnknownGameError(
            f"--game names a game ({', '.join(known)}), not a number: the game number "
            f"of a run is --index {text}"
        )
    raise UnknownGameError(f"unknown game {text!r} (games: {', '.join(known)})")


def check_key(value: Any) -> str:
    """A game's name as a study file gives it (its `game` key: an experiment or balance
    file), or a one-line `UnknownGameError` in the file's words: the file and the key are
    named by the caller, not the command line's --game (`check_name` speaks of that)."""
    known = available()
    if isinstance(value, str) and value.strip() in known:
        return value.strip()
    raise UnknownGameError(f"game must be a game's name, one of {', '.join(known)}, "
                           f"got {value!r}")  # fmt: skip


@cache
def load_game(name: str = DEFAULT) -> GameSpec:
    """The game called `name` (`moaisim games` lists them): its `GameSpec`."""
    target = available()[check_name(name)]
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownGameError(f"game {name!r} cannot be loaded: {exc}") from None
    game = getattr(module, attr) if attr else module
    missing = [k for k in spec_names(GameSpec) if k not in dir(game)]
    if missing:
        raise UnknownGameError(f"game {name!r} lacks {', '.join(missing)} (moaisim.games.base)")
    return game  # type: ignore[return-value]


def game_of(rules: Any) -> GameSpec:
    """The game a rules object belongs to (`rules.game`)."""
    return load_game(getattr(rules, "game", DEFAULT))


__all__ = ["BUILTIN", "DEFAULT", "GROUP", "GameSpec", "UnknownGameError", "available",
           "check_key", "check_name", "game_of", "load_game"]  # fmt: skip
