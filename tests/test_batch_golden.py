"""Golden results: fixed seeded batches hash to stored SHA-256 digests.

docs/design.md, "Seeds": game i of root seed S is a pure function of (S, i) and the
rules, so a fixed batch's per-seat results (results schema) are fixed too. Any change to the
rules engine, a built-in strategy, the random streams or the component set that changes how
these games play changes the digest. A deliberate change regenerates the digests:

    .venv/bin/python tests/test_batch_golden.py

prints the current digests; paste them into GOLDEN below (and say why in the commit).
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.games.moai.engine.results import COLUMNS

#: name -> (simulate arguments, digest of the results computed from the code when written)
GOLDEN: dict[str, tuple[dict, str]] = {
    "4p-greedy-base-200": (
        dict(
            players=4, games=200, strategies="greedy", variants="base", seed=2026, rotation="none"
        ),
        "9bf16a5c34d8bce3459b9eb35ea6865bed7737a5f0ff616c5a326d5fa38594b9",
    ),
    "3p-mixed-short+fixed-disasters-100": (
        dict(
            players=3,
            games=100,
            strategies="greedy,random,greedy",
            variants="short+fixed-disasters",
            seed=2026,
            rotation="none",
        ),
        "800a2e2ef0856e1c3aee57ac5f02a187159e781b6ddab7d772835d30619621e1",
    ),
}


#: The schema's columns when the digests were written: columns added since (the set-up label,
#: the rule parameters) describe the rules, not how the games went, and are left out.
GOLDEN_COLUMNS: tuple[str, ...] = (
    "game", "seed", "players", "variant", "turn_order", "volcano_after_moai", "spent_wood",
    "rules_digest", "seat", "strategy", "score", "moai_height", "moai_count", "pawns", "wood",
    "rank", "win", "rounds", "births", "starved", "raids_made", "raids_suffered",
    "boats_built", "disasters_aimed", "disasters_suffered", "birdman_rounds", "forest_wood",
    "moai_finished",
)  # fmt: skip


def canonical_bytes(df: pd.DataFrame) -> bytes:
    """The results as bytes independent of pandas' and numpy's versions and of the small-int
    dtypes: column by column in the golden order, its name, then its values (ints and bools as
    little-endian int64, categoricals as their labels joined by NUL)."""
    assert set(GOLDEN_COLUMNS) <= set(COLUMNS)
    out = [f"rows={len(df)}\n".encode()]
    for col in GOLDEN_COLUMNS:
        values = df[col]
        out.append(f"{col}\n".encode())
        if isinstance(values.dtype, pd.CategoricalDtype):
            out.append("\0".join(map(str, values.astype(str))).encode())
        else:
            ints = values.to_numpy()
            assert ints.dtype.kind in "iub", f"column {col} is not integral"
            out.append(np.ascontiguousarray(ints.astype("<i8")).tobytes())
    return b"".join(out)


def digest(df: pd.DataFrame) -> str:
    return hashlib.sha256(canonical_bytes(df)).hexdigest()


def golden_results(name: str) -> pd.DataFrame:
    kwargs = dict(GOLDEN[name][0])
    return moaisim.simulate(kwargs.pop("players"), kwargs.pop("games"), engine="batch", **kwargs)


@pytest.mark.parametrize("name", list(GOLDEN))
def test_golden_batch_results_unchanged(name):
    kwargs, expected = GOLDEN[name]
    df = golden_results(name)
    assert len(df) == kwargs["games"] * kwargs["players"]
    got = digest(df)
    assert got == expected, (
        f"the results of golden batch {name!r} ({kwargs}) changed: digest {got}, stored "
        f"{expected}. The engine, a strategy, the streams or the components now play these "
        "seeded games differently. If that is deliberate, regenerate the digests with "
        "`.venv/bin/python tests/test_batch_golden.py` and update GOLDEN in this file."
    )


def test_digest_sees_every_column_and_row():
    """The hash changes when any single value changes, and not when dtypes are widened."""
    df = golden_results("3p-mixed-short+fixed-disasters-100").head(12)
    base = digest(df)
    wider = df.astype({"score": "int64", "rounds": "int32"})
    assert digest(wider) == base
    for col in ("score", "rounds", "births", "win"):
        changed = df.copy()
        changed.loc[5, col] = (not changed.loc[5, col]) if col == "win" else changed.loc[5, col] + 1
        assert digest(changed) != base, col
    assert digest(df.iloc[::-1].reset_index(drop=True)) != base
    other = df.copy()
    other["strategy"] = other["strategy"].cat.rename_categories(lambda s: s.upper())
    assert digest(other) != base


def test_golden_games_are_the_reference_engines():
    """A few games of each golden batch, replayed by the reference engine, give the same rows
    (so the digests pin games the oracle agrees with)."""
    for name, (kwargs, _) in GOLDEN.items():
        df = golden_results(name)
        p = kwargs["players"]
        games = [0, 61, kwargs["games"] - 1]
        ref = moaisim.simulate(
            p,
            games,
            strategies=kwargs["strategies"],
            variants=kwargs["variants"],
            seed=kwargs["seed"],
            rotation=kwargs["rotation"],
            engine="reference",
        )
        mine = df[df["game"].isin(games)].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, ref)


if __name__ == "__main__":  # print the current digests, to regenerate GOLDEN deliberately
    for key in GOLDEN:
        print(f"{key}: {digest(golden_results(key))}", file=sys.stdout)
