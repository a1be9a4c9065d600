"""Strategy parameters, for every game's strategies: a class declares `params` (name ->
default, the value's type is the default's) and `bounds` (name -> lowest, highest), and
`Parameterised` checks what a lineup gives (`"greedy(moai_height=7)"`, the registry) with one
clear line per mistake. A subclass's tables add to its parents'."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any, ClassVar

from moaisim.errors import UnknownStrategyError
from moaisim.files import read_text


class Parameterised:
    """A strategy class with checked parameters, set as attributes when it is made."""

    name = "base"
    #: Parameters and their defaults; a value's type is its default's type. A table (dict)
    #: parameter also takes the path of a TOML file, which is read into it.
    params: ClassVar[dict[str, Any]] = {}
    #: The range (lowest, highest; None: no bound) of numeric parameters.
    bounds: ClassVar[dict[str, tuple[float | None, float | None]]] = {}

    def __init__(self, **params: Any) -> None:
        for key, value in self.resolve_params(params, self.name).items():
            setattr(self, key, value)

    @classmethod
    def resolve_params(cls, given: dict[str, Any], name: str) -> dict[str, Any]:
        """Every parameter's value: the given ones, checked against their defaults' types
        (one clear line per mistake), the others at their defaults."""
        out = dict(cls.params)
        for key, value in given.items():
            if key not in cls.params:
                known = ", ".join(cls.params) or "none"
                raise UnknownStrategyError(
                    f"strategy {name!r}: unknown parameter {key!r} (parameters: {known})"
                )
            out[key] = checked(name, key, value, cls.params[key])
            low, high = cls.bounds.get(key, (None, None))
            if (low is not None and out[key] < low) or (high is not None and out[key] > high):
                span = " to ".join("..." if x is None else f"{x:g}" for x in (low, high))
                raise UnknownStrategyError(
                    f"strategy {name!r}: parameter {key} must be from {span}, got {value!r}"
                )
        return out

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # a subclass's own `params` and `bounds` add to its parents' (a subclass of `tuned`
        # that declares one parameter keeps tuned's weights): declared here, merged over theirs
        for table in ("params", "bounds"):
            if table in cls.__dict__:
                inherited: dict[str, Any] = {}
                for parent in reversed(cls.__mro__[1:]):
                    inherited.update(parent.__dict__.get(table, {}))
                setattr(cls, table, {**inherited, **cls.__dict__[table]})


def checked(name: str, key: str, value: Any, default: Any) -> Any:
    """A parameter value of the default's type (int, float, bool, str, table), or an error."""

    def wrong(what: str) -> UnknownStrategyError:
        return UnknownStrategyError(
            f"strategy {name!r}: parameter {key} must be {what}, got {value!r}"
        )

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise wrong("True or False")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong("an integer")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong("a number")
        if not math.isfinite(value):
            raise wrong("a finite number")
        return float(value)
    if isinstance(default, dict):
        if isinstance(value, dict):
            return value
        if not isinstance(value, str | Path):
            raise wrong("a table or the path of a TOML file")

        text = read_text(value, f"TOML file (strategy {name!r}, parameter {key})",
                         UnknownStrategyError)  # fmt: skip
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UnknownStrategyError(
                f"strategy {name!r}: parameter {key}: {str(value)!r} is not valid TOML ({exc})"
            ) from None
    if isinstance(default, str) and not isinstance(value, str):
        raise wrong("a string")
    return value
