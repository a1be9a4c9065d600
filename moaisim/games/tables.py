"""What every game's results table does the same way (docs/design.md, "Results schema"): a
DataFrame in the game's column order and types from one value per column, each row naming
its game. Each game's `engine/results.py` gives its columns, categoricals and types."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.files import GAME_COLUMN


def frame(columns: Mapping[str, Any], *, game: str, order: Sequence[str],
          categories: Sequence[str], dtypes: Mapping[str, str]) -> pd.DataFrame:  # fmt: skip
    """A results DataFrame with the columns `order` in their `dtypes` (those of `categories`
    as pandas categoricals), from one value per column: a sequence (one entry per row), or a
    scalar that every row shares (a provenance column: a one-category column at once, not a
    list of copies). Every row names its game (`GAME_COLUMN`: `game`, whatever `columns`
    holds)."""
    n = next(len(v) for v in columns.values() if is_rows(v))
    cols: dict[str, Any] = {}
    for name in order:
        value = game if name == GAME_COLUMN else columns[name]
        if name in categories:
            cols[name] = category(value, n)
        elif is_rows(value):
            cols[name] = np.asarray(value).astype(dtypes[name], copy=False)
        else:
            cols[name] = np.full(n, value, dtype=dtypes[name])
    return pd.DataFrame(cols, copy=False)


def is_rows(value: Any) -> bool:
    """One value per row (a sequence), not a constant of every row."""
    return isinstance(value, list | tuple | np.ndarray | pd.Categorical | pd.Series)


def category(value: Any, n: int) -> pd.Categorical:
    """A categorical column of n rows: a constant as codes into one category."""
    if isinstance(value, pd.Categorical):
        return value
    if is_rows(value):
        return pd.Categorical(value)
    return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), [value])


def float_columns(results: pd.DataFrame, columns: Mapping[str, str]) -> pd.DataFrame:
    """Some results columns as floats under new names (`columns`: name -> results column),
    on the results' index: a game's score parts and seat measures."""
    return pd.DataFrame(
        {name: results[column].to_numpy(dtype=float) for name, column in columns.items()},
        index=results.index,
    )
