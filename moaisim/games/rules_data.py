"""What every game's rules data does the same way: read a component file's TOML document,
set rule parameters in it, check a rule option's value, and check a rules object given
beside other settings against them (`agreeing`). Each game's `rules/` gives its names."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from moaisim.errors import RulesError
from moaisim.games.parameters import Parameters


def component_document(path: str | Path | None, default: tuple[str, str]
                       ) -> tuple[dict[str, Any], str]:  # fmt: skip
    """A component file's TOML document and its name for messages (None: the shipped one,
    `default` as (package, file name))."""
    if path is None:
        package, name = default
        text = resources.files(package).joinpath(name).read_text("utf-8")
        source = name
    else:
        source = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except FileNotFoundError:
            raise RulesError(f"component file {source!r} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesError(f"component file {source!r} cannot be read: {exc}") from None
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"component file {source!r} is not valid TOML: {exc}") from None


def apply_parameters(document: dict[str, Any], params: Mapping[str, int],
                     table: Parameters) -> dict[str, Any]:  # fmt: skip
    """The document with rule parameters set at their keys (a copy), each checked against
    its record of `table`."""
    table.check_names(params)
    out = copy.deepcopy(document)
    for name, value in params.items():
        p = table[name]
        value = table.check_value(name, value)
        section = out.setdefault(p.key[0], {})
        if not isinstance(section, dict):
            raise RulesError(f"component file: [{p.key[0]}] must be a table")
        if p.index is None:
            section[p.key[1]] = value
        else:
            held = list(section.get(p.key[1], []))
            if len(held) <= p.index:
                raise RulesError(f"component file: {'.'.join(p.key)} has no entry {p.index}")
            held[p.index] = value
            section[p.key[1]] = held
    return out


def check_option(game: str, options: Mapping[str, tuple[str, ...]], name: str,
                 value: str) -> str:  # fmt: skip
    """A rule option's value, checked against its values (one line otherwise)."""
    if name not in options:
        raise RulesError(f"unknown rule option {name!r} of {game} (its options: "
                         f"{', '.join(options)})")  # fmt: skip
    if value not in options[name]:
        raise RulesError(f"rule option {name} = {value!r} is not one of "
                         f"{', '.join(options[name])}")  # fmt: skip
    return value


def agreeing(rules: Any, players: int, params: Mapping[str, int] | None,
             components: str | Path | None, chosen: Mapping[str, str], *,
             check: Callable[[str, str], str], load: Callable[[Any], Any],
             table: Parameters) -> Any:  # fmt: skip
    """A rules object given beside a player count, rule parameters, a component file and
    rule options, each of which must agree with it (one line for the first that does not):
    `make_rules(..., rules=...)` of every game (`check` a game's option check, `load` its
    component reader)."""
    if rules.players != players:
        raise RulesError(f"rules are for {rules.players} players, not {players}")
    if params:
        table.check_names(params)
        held = rules.params()
        differ = [k for k, v in params.items() if held[k] != v]
        if differ:
            raise RulesError(f"rule parameter {differ[0]}={params[differ[0]]!r} disagrees with "
                             f"the Rules object's {held[differ[0]]}")  # fmt: skip
    if components is not None and load(components) != rules.components:
        raise RulesError(f"the component file {str(components)!r} disagrees with the Rules "
                         "object's components: give one or the other")  # fmt: skip
    for name, value in chosen.items():
        check(name, value)
        if getattr(rules, name) != value:
            raise RulesError(f"{name}={value!r} disagrees with the Rules object's "
                             f"{name}={getattr(rules, name)!r}")  # fmt: skip
    return rules
