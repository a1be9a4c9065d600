"""The game is an object inside the toolkit (docs/design.md, "Two layers"): the default game
is applied at the edges only (the command line, the public API), every results row names its
game (`game_name`), also in a run's Parquet parts and with the attrs lost, each game declares
its own chance purposes (`moaisim.rng` is the mechanism and names none) and its decisions'
shapes (`ACTION_WIDTHS`), which distill and learn read instead of any game's kinds."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim import rng
from moaisim.analysis.source import Source, game_of_table
from moaisim.errors import UserError
from moaisim.files import GAME_COLUMN
from moaisim.fingerprint import fingerprint
from moaisim.games import load_game
from moaisim.games.moai.engine.chance import Chance as MoaiChance
from moaisim.games.rapa_nui.engine.chance import Chance as RapaNuiChance
from moaisim.registry import load_strategy
from moaisim.rundir import serialize
from moaisim.studies import distill as d
from moaisim.studies import learn

ROOT = Path(__file__).parents[1]
GAMES = ("moai", "rapa-nui")

# --- the default game at the edges only -------------------------------------------------------

#: The edges, where the default game is applied: the command line and the public API.
EDGES = ("moaisim/cli/", "moaisim/api.py", "moaisim/__init__.py")
#: (module, the top-level definition) that name the default game outside the edges, and why.
OUTSIDE_EDGES: dict[tuple[str, str], str] = {
    ("moaisim/rundir.py", "UNNAMED_FILES_GAME"): (
        "the game of a file written before files named their game (`recorded_game`)"
    ),
    ("moaisim/registry.py", "load_strategy"): (
        "the public API's `moaisim.load_strategy`; Moai's strategies (strategies/moai, not "
        "the toolkit's) load their inner strategies through it without naming their game"
    ),
    ("moaisim/registry.py", "parse_lineup"): (
        "transitional: tests/test_compiled.py, edited elsewhere, calls it without a game"
    ),
    ("moaisim/studies/certify.py", "learned_files"): (
        "transitional: tests/test_reliability_five.py, edited elsewhere, calls it without a game"
    ),
}


def default_game_references(source: str) -> list[tuple[str, int]]:
    """(the top-level definition it lies in, line) of each reference of a module's code to the
    default game: the name `DEFAULT` (its import aside) and `load_game()` without a name."""
    found = []
    for top in ast.parse(source).body:
        if isinstance(top, ast.Import | ast.ImportFrom):
            continue
        if isinstance(top, ast.FunctionDef | ast.ClassDef):
            owner = top.name
        elif isinstance(top, ast.Assign | ast.AnnAssign):
            targets = top.targets if isinstance(top, ast.Assign) else [top.target]
            owner = ", ".join(ast.unparse(t) for t in targets)
        else:
            owner = f"line {top.lineno}"
        for node in ast.walk(top):
            named = isinstance(node, ast.Name) and node.id == "DEFAULT"
            bare = (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("load_game")
                    and not node.args and not node.keywords)  # fmt: skip
            if named or bare:
                found.append((owner, node.lineno))
    return found


def toolkit_references() -> dict[str, list[tuple[str, int]]]:
    """Each toolkit module (moaisim outside moaisim/games) with its references to the default
    game."""
    out = {}
    for path in sorted((ROOT / "moaisim").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith("moaisim/games/"):
            continue
        refs = default_game_references(path.read_text(encoding="utf-8"))
        if refs:
            out[name] = refs
    return out


def test_the_toolkit_names_the_default_game_only_at_its_edges():
    """Outside the command line and the public API, the toolkit names the default game in
    exactly the places listed, each once, each with its reason (at most 4)."""
    outside = [(name, owner) for name, refs in toolkit_references().items()
               if not name.startswith(EDGES) for owner, _ in refs]  # fmt: skip
    assert sorted(outside) == sorted(OUTSIDE_EDGES)
    assert len(outside) == 4


def test_the_scan_finds_the_default_game_and_leaves_its_import():
    source = ("from moaisim.games import DEFAULT, load_game\n"
              "GAME = DEFAULT\n"
              "def f(game: str = DEFAULT) -> None:\n    load_game()\n    load_game(game)\n"
              "class A:\n    game: str = DEFAULT\n")  # fmt: skip
    assert default_game_references(source) == [("GAME", 2), ("f", 3), ("f", 4), ("A", 7)]


# --- every results row names its game ---------------------------------------------------------


def parts(run: Path, kind: str) -> pd.DataFrame:
    """A run's Parquet parts of one kind ("parts", "rounds") read as they are, no attrs."""
    return pd.concat([pd.read_parquet(p) for p in sorted((run / kind).glob("*.parquet"))],
                     ignore_index=True)  # fmt: skip


def named_rows(df: pd.DataFrame, game: str) -> None:
    """Every row of the table names `game` in its `GAME_COLUMN`, a categorical of one name."""
    assert isinstance(df[GAME_COLUMN].dtype, pd.CategoricalDtype)
    assert df[GAME_COLUMN].astype(str).tolist() == [game] * len(df) and len(df)


def without_attrs(df: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Some columns of a table in a new table: nothing of its attrs comes along."""
    out = pd.DataFrame({c: df[c].to_numpy() for c in columns})
    assert out.attrs == {}
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_row_names_its_game_in_memory_in_parquet_and_with_attrs_lost(tmp_path, game):
    kw = dict(players=3, games=4, strategies="greedy,random", seed=3, rounds=True, game_name=game)
    res, rounds = moaisim.simulate(**kw)
    named_rows(res, game)
    named_rows(rounds, game)
    record = moaisim.play(3, seed=3, strategies="greedy", game_name=game)
    named_rows(record.result, game)
    assert list(record.result.columns[:2]) == ["game", GAME_COLUMN]
    run = tmp_path / "run"
    moaisim.simulate(**kw, out=run, chunk_size=2)
    for kind in ("parts", "rounds"):  # the Parquet parts themselves
        raw = parts(run, kind)
        assert raw.attrs == {}
        assert raw[GAME_COLUMN].astype(str).tolist() == [game] * len(raw) and len(raw)
    loaded = moaisim.load_results(run)
    named_rows(loaded, game)
    named_rows(moaisim.load_results(run, "rounds"), game)
    pd.testing.assert_frame_equal(loaded[res.columns], res)
    cut = without_attrs(loaded, ["cell", "game", GAME_COLUMN, "seat", "score", "win"])
    assert game_of_table(cut) == game and Source.of(cut).game == game
    nameless = without_attrs(loaded, ["cell", "game", "seat", "score", "win"])
    with pytest.raises(UserError) as info:
        game_of_table(nameless)
    assert str(info.value) == (
        "the results table names no game: give it the game_name column its rows had "
        "(moaisim.simulate and moaisim.load_results write it)"
    )


def drop_game_column(run: Path) -> None:
    """Make a run look written before rows named their game: each part rewritten without its
    `GAME_COLUMN` and recorded again (its size and checksum), and a Moai manifest without its
    `game` (as Moai's were then; another game's always named it)."""
    lines = []
    for line in (run / "parts.jsonl").read_text().splitlines():
        entry = json.loads(line)
        for key, prefix in (("file", ""), ("rounds_file", "rounds_")):
            path = run / entry[key]
            old = pd.read_parquet(path).drop(columns=[GAME_COLUMN])
            part = serialize(old)
            path.write_bytes(part.data)
            entry[prefix + "bytes"] = len(part.data)
            entry[prefix + "sha256"] = hashlib.sha256(part.data).hexdigest()
        lines.append(json.dumps(entry, sort_keys=True))
    (run / "parts.jsonl").write_text("\n".join(lines) + "\n")
    manifest = json.loads((run / "manifest.json").read_text())
    if manifest["game"] == "moai":
        del manifest["game"]
        (run / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize("game", GAMES)
def test_a_run_written_before_rows_named_their_game_loads_as_its_manifest_s(tmp_path, game):
    run = tmp_path / "run"
    kw = dict(players=2, games=4, strategies="greedy", seed=5, rounds=True, game_name=game)
    moaisim.simulate(**kw, out=run, chunk_size=2)
    new, new_rounds = moaisim.load_results(run), moaisim.load_results(run, "rounds")
    drop_game_column(run)
    assert GAME_COLUMN not in parts(run, "parts") and GAME_COLUMN not in parts(run, "rounds")
    old, old_rounds = moaisim.load_results(run), moaisim.load_results(run, "rounds")
    pd.testing.assert_frame_equal(old, new)
    pd.testing.assert_frame_equal(old_rounds, new_rounds)
    named_rows(old, game)
    assert Source.of(run).game == game


# --- each game's chance purposes ---------------------------------------------------------------


def code_names(source: str) -> set[str]:
    """The identifiers and the words of the string constants of a module's code (docstrings
    left out)."""
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}  # fmt: skip
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.update(re.findall(r"\w+", node.value) if id(node) not in docs else [])
    return out


#: What still imports a purpose from `moaisim.rng` (Rapa Nui's engine, edited elsewhere): the
#: transitional `rng.Chance` (its one purpose, number 0) stays until none does.
def test_each_game_declares_its_own_chance_purposes_and_rng_names_none():
    moai = {p.name: int(p) for p in MoaiChance}
    rapa_nui = {p.name: int(p) for p in RapaNuiChance}
    # Moai's numbers are its streams: the same as before the games had their own
    assert moai == {"DEAL": 0, "EPOCH_1": 1, "EPOCH_2": 2, "EPOCH_3": 3, "SHORT": 4,
                    "BID_ORDER": 5, "RESHUFFLE": 6}  # fmt: skip
    assert rapa_nui == {"DEAL": 0}  # the number its deal has always read
    for purposes in (moai, rapa_nui):  # distinct numbers, each a stream of the mechanism
        assert len(set(purposes.values())) == len(purposes)
        assert set(purposes.values()) <= set(range(rng.PURPOSES))
    names = code_names((ROOT / "moaisim" / "rng.py").read_text(encoding="utf-8"))
    sources = [*(ROOT / "moaisim").rglob("*.py"), *(ROOT / "strategies").rglob("*.py")]
    imports = re.compile(r"from moaisim\.rng import [^\n]*\bChance\b")
    importers = {p.relative_to(ROOT).as_posix() for p in sources if imports.search(p.read_text())}
    assert importers == set()  # every game reads its purposes from its own package
    assert not hasattr(rng, "Chance")
    assert not names & {*moai, *rapa_nui}  # rng names no purpose at all


def test_a_purpose_is_a_number_of_the_mechanism():
    streams = rng.Streams(7, [3], 2)
    assert streams.chance_keys.shape == (1, rng.PURPOSES)
    first = streams.chance(MoaiChance.RESHUFFLE, [0], 3)
    assert np.array_equal(first, streams.chance(6, [0], 3))  # the enum is its number
    keys = rng.stream_keys(7, np.array([3]), np.array([rng.CHANCE_BASE + 6], dtype=np.uint64))
    assert np.array_equal(streams.chance_keys[:, 6], keys[:, 0])
    for bad in (-1, rng.PURPOSES):
        with pytest.raises(ValueError, match=f"a chance purpose is a number from 0 to "
                                             f"{rng.PURPOSES - 1}, got {bad}"):  # fmt: skip
            streams.chance(bad, [0], 1)


# --- each game's decisions: distill and learn name none ----------------------------------------


def test_each_game_declares_its_decision_widths_and_action_sizes():
    moai, rapa_nui = load_game("moai"), load_game("rapa-nui")
    assert dict(moai.ACTION_WIDTHS) == {k: 6 if k.value == "bid" else 1 for k in moai.Kind}
    assert dict(rapa_nui.ACTION_WIDTHS) == dict.fromkeys(rapa_nui.Kind, 1)
    assert (d.answer_width("moai"), d.answer_width("rapa-nui")) == (6, 1)
    rules = rapa_nui.make_rules(3)
    assert rapa_nui.action_size(rules, rapa_nui.Kind.TAKE) == rules.components.columns
    assert moai.action_size(moai.make_rules(3), moai.Kind.BID) == 6


def test_distill_keeps_rapa_nui_positions_in_rapa_nui_s_kinds_and_widths():
    rapa_nui, moai = load_game("rapa-nui"), load_game("moai")
    kinds = {k.value for k in rapa_nui.Kind}
    assert not kinds & {k.value for k in moai.Kind}
    pos = d.collect(2, "greedy", "random", 3, 1, game="rapa-nui")
    counts = pos.counts()
    assert pos.game == "rapa-nui" and set(counts) <= kinds
    assert sum(counts.values()) == len(pos) > 0
    for seat, games, answers in pos.parts:
        assert answers.shape == (len(answers), 1)  # one action an answer: no Moai bid's six
        for pend in games.pending():  # each copy waits for a real choice of the teacher's
            mine = pend.seat == seat
            assert (pend.legal[mine].sum(axis=1) > 1).all()
    share, by_kind = d.agreement(pos, load_strategy("greedy", "rapa-nui"))
    assert share == 1.0 and set(by_kind) == set(counts) and set(by_kind.values()) == {1.0}
    with pytest.raises(UserError, match=r"^unknown decision kinds bid \(kinds: bonus, "):
        d.collect(2, "greedy", "random", 1, 1, kinds=["bid"], game="rapa-nui")


def test_learn_asks_each_game_s_own_kinds():
    rapa_nui, moai = load_game("rapa-nui"), load_game("moai")
    probe = learn._probe(rapa_nui.Strategy, lambda view: np.zeros(1), rapa_nui.Kind)  # noqa: SLF001
    asked = set(type(probe).__dict__)
    assert {k.value for k in rapa_nui.Kind} <= asked
    assert not {k.value for k in moai.Kind} & asked
    assert learn.learned_class("rapa-nui").MODES == ("ranker",)  # Rapa Nui's ranks only
    with pytest.raises(UserError, match=r"^rapa-nui's learned policy is a ranker only"):
        learn.learn(3, "unused", ["tuned", "greedy"], game="rapa-nui")


def test_a_positions_file_of_moai_keeps_its_name_and_another_game_s_differs(tmp_path):
    """Distill's and learn's kept positions are keyed by their settings and their game: a
    Moai key is the one it was before games had names (its files are reused), another
    game's names it."""
    said: list[str] = []

    def keep(game: str) -> d.Positions:
        key = {"players": 2, "teacher": "greedy", "field": "random", "kinds": [], "games": 1,
               "seed": 1}  # fmt: skip
        return d._positions(tmp_path, key, lambda: d.Positions(2, "greedy", game=game),  # noqa: SLF001
                            said.append, game)  # fmt: skip

    def named(key: dict[str, object], game: str) -> str:
        """The file name a key gives (the digest of the key and the strategies' code)."""
        code = fingerprint(d._specs("greedy", "random", game))  # noqa: SLF001
        whole = json.dumps({**key, "code": code}, sort_keys=True, default=str)
        return f"positions-{hashlib.sha256(whole.encode()).hexdigest()[:12]}.pkl"

    assert keep("moai").game == "moai" and keep("rapa-nui").game == "rapa-nui"
    key = {"players": 2, "teacher": "greedy", "field": "random", "kinds": [], "games": 1,
           "seed": 1}  # fmt: skip
    assert sorted(p.name for p in tmp_path.glob("positions-*.pkl")) == sorted(
        [named(key, "moai"), named({**key, "game": "rapa-nui"}, "rapa-nui")])  # fmt: skip
    assert said[0].startswith("distill: 0 decisions kept from 1 games")
    assert keep("moai").game == "moai"  # made once, then reused
    assert said[-1].startswith("distill: 0 positions reused from ") and len(said) == 3
