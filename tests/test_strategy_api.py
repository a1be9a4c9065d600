"""The strategy API a stranger builds on (docs/design.md, "Strategy lifetime", "Strategies and
their defaults", "Illegal actions and user errors"): one instance per seat per batch with a
`start` hook, parameters, packaging, and errors that say what happened."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.errors import IllegalActionError, StrategyError, UnknownStrategyError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy, parse_lineup
from moaisim.strategies.moai.greedy import GreedyStrategy

ROOT = Path(__file__).parents[1]


# --- one lifetime in both engines ----------------------------------------------------------


class Grudge(GreedyStrategy):
    """Remembers, game by game, who hit it with a disaster (the seat holding the disaster
    card when it chooses its loss) and aims its own disasters at that seat. Its memory is
    keyed by the game indices its views carry."""

    name = "grudge"
    starts: ClassVar[list[tuple[int, list[int]]]] = []

    def start(self, rules: Rules, seat: int, games: np.ndarray) -> None:
        Grudge.starts.append((seat, games.tolist()))
        self.enemy: dict[int, int] = {}
        self.seat = seat

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        for k, game in enumerate(view.games.tolist()):
            holders = np.flatnonzero(view.held[k] == view.info["card"][k])
            if len(holders) and holders[0] != self.seat:
                self.enemy[game] = int(holders[0])
        return super().disaster_loss(view)

    def disaster_target(self, view: SeatView) -> np.ndarray:
        out = super().disaster_target(view)
        for k, game in enumerate(view.games.tolist()):
            if game in self.enemy:
                out[k] = self.enemy[game]
        return out


Grudge.reads = {}


def test_a_strategy_with_memory_plays_the_same_games_in_both_engines_and_any_batch():
    rules = Rules.make(4, "base")
    games = list(range(40))
    lineup = [Grudge, "greedy", Grudge, "random"]
    kw = dict(strategies=lineup, seed=77, rules=rules, rotation="none")  # seats as given
    ref = moaisim.simulate(4, games, engine="reference", **kw)
    for size in (1, 7, 1000):
        Grudge.starts.clear()
        got = moaisim.simulate(4, games, batch_size=size, **kw)
        pd.testing.assert_frame_equal(got, ref)
        # the hook: once per seat per batch, before the first decision, with its games
        batches = [games[k : k + size] for k in range(0, len(games), size)]
        assert Grudge.starts == [(seat, b) for b in batches for seat in (0, 2)]
    # the memory mattered: without it, the grudge seats aim differently
    plain = moaisim.simulate(4, games, strategies=["greedy", "greedy", "greedy", "random"],
                             seed=77, rules=rules)  # fmt: skip
    assert not plain["disasters_suffered"].equals(ref["disasters_suffered"])


def test_the_reference_engine_plays_a_batch_of_one():
    Grudge.starts.clear()
    g = ReferenceGame(Rules.make(3), [Grudge(), Grudge(), Grudge()], seed=1, game=12)
    assert Grudge.starts == [(0, [12]), (1, [12]), (2, [12])]
    g.play()
    assert len(Grudge.starts) == 3


# --- parameters ------------------------------------------------------------------------------


def test_parameters_from_python_and_spec_strings_label_the_results():
    by_kw = load_strategy("greedy", moai_height=9)
    by_text = load_strategy("greedy(moai_height=9)")
    assert by_kw.label == by_text.label == "greedy(moai_height=9)"
    assert by_kw().moai_height == 9 and by_kw().keep_cards == 4  # the rest at defaults
    assert load_strategy("greedy(moai_height=7)").label == "greedy"  # 7 is the default
    df = moaisim.simulate(3, 30, strategies="greedy(moai_height=9),greedy", seed=4)
    assert sorted(df["strategy"].unique()) == ["greedy", "greedy(moai_height=9)"]
    # a different parameter plays differently
    tall = df[df.strategy == "greedy(moai_height=9)"]["moai_finished"].mean()
    usual = df[df.strategy == "greedy"]["moai_finished"].mean()
    assert tall != usual


def test_lineups_with_parameters_split_at_the_top_level_and_repeat():
    specs = parse_lineup("greedy(moai_height=8, keep_cards=3),random", 5)
    assert [s.label for s in specs] == [
        "greedy(moai_height=8, keep_cards=3)", "random", "greedy(moai_height=8, keep_cards=3)",
        "random", "greedy(moai_height=8, keep_cards=3)",
    ]  # fmt: skip


class Weighted(moaisim.Strategy):
    """A strategy with a table parameter: a TOML file's path or a dict."""

    name = "weighted"
    params: ClassVar[dict[str, Any]] = {"weights": {"bid": 0.0}, "boldness": 1.5}


def test_a_table_parameter_takes_a_toml_file(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text("bid = 2.5\nwork = 1\n")
    spec = load_strategy(Weighted, weights=str(path))
    assert spec().weights == {"bid": 2.5, "work": 1}
    assert spec.label == f"weighted(weights={str(path)!r})"
    assert load_strategy(Weighted, boldness=2).label == "weighted(boldness=2)"
    assert load_strategy(Weighted, boldness=2)().boldness == 2.0


@pytest.mark.parametrize(
    ("spec", "kwargs", "message"),
    [
        ("greedy(moai_heigth=3)", {}, "unknown parameter 'moai_heigth' .parameters: bid_cards"),
        ("greedy", {"moai_height": "tall"}, "parameter moai_height must be an integer"),
        ("greedy(moai_height=2.5)", {}, "must be an integer, got 2.5"),
        ("greedy(keep_cards=True)", {}, "must be an integer, got True"),
        ("greedy(moai_height=8", {}, "parameters must end with"),
        ("greedy(8)", {}, "expected name=value parameters"),
        ("random(x=1)", {}, "unknown parameter 'x' .parameters: none"),
    ],
)
def test_parameter_mistakes_are_one_clear_line(spec, kwargs, message):
    with pytest.raises(UnknownStrategyError, match=message) as info:
        load_strategy(spec, **kwargs)
    assert "\n" not in str(info.value)


def test_table_parameter_mistakes(tmp_path):
    with pytest.raises(UnknownStrategyError, match="no such TOML file"):
        load_strategy(Weighted, weights=str(tmp_path / "none.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("bid = = 1")
    with pytest.raises(UnknownStrategyError, match="not valid TOML"):
        load_strategy(Weighted, weights=str(bad))
    with pytest.raises(UnknownStrategyError, match="a table or the path of a TOML file"):
        load_strategy(Weighted, weights=3)


class NotAStrategy:
    def bid(self, view):  # type: ignore[no-untyped-def]
        return view.legal * 0


class NeedsArgs(moaisim.Strategy):
    def __init__(self, depth: int) -> None:
        super().__init__()
        self.depth = depth


@pytest.mark.parametrize(
    ("strategies", "message"),
    [
        (NotAStrategy, "is not a strategy .it has no order_ties, pick_epoch"),
        (NeedsArgs, r"NeedsArgs\(\) cannot be made with these parameters"),
        ([GreedyStrategy()], "got an instance of GreedyStrategy; give its class, name or spec"),
        (5, "strategies must be a name, a spec, a class or a list of them, got 5"),
        ([], "the lineup is empty"),
        ("greedy,greedy,greedy,greedy", "4 strategies given for 3 players"),
    ],
)
def test_what_is_not_a_strategy_is_one_clear_line(strategies, message):
    with pytest.raises(UnknownStrategyError, match=message):
        moaisim.simulate(3, 2, strategies=strategies)


def test_reads_declarations_are_checked():
    class Typo(GreedyStrategy):
        reads: ClassVar[dict[str, tuple[str, ...]]] = {"work": ("own_locs",)}

    class Wrong(GreedyStrategy):
        reads: ClassVar[dict[str, tuple[str, ...]]] = {"works": ()}

    with pytest.raises(UnknownStrategyError, match="reads\\['work'\\] names 'own_locs'"):
        moaisim.simulate(3, 2, strategies=Typo)
    with pytest.raises(UnknownStrategyError, match="reads names 'works', not a decision kind"):
        moaisim.simulate(3, 2, strategies=Wrong)


def test_an_undeclared_field_read_says_so():
    class Sloppy(GreedyStrategy):
        reads: ClassVar[dict[str, tuple[str, ...]]] = {"rest": ()}

        def rest(self, view: SeatView) -> np.ndarray:
            return super().rest(view)  # reads own_loc, not declared

    with pytest.raises(StrategyError, match="this rest view lacks .*own_loc.*`reads`"):
        moaisim.simulate(3, 2, strategies=Sloppy)


# --- packaging ----------------------------------------------------------------------------


def test_strategies_install_as_moaisim_strategies_and_moaisim_exports_strategy(tmp_path):
    assert moaisim.Strategy.__module__ == "moaisim.strategies.moai.base"
    # a user's own `strategies/` folder is theirs: nothing installed shadows it
    own = tmp_path / "strategies"
    own.mkdir()
    (own / "__init__.py").write_text("")
    (own / "base.py").write_text("HELLO = 'mine'\n")
    (own / "mine.py").write_text(
        textwrap.dedent(
            """
            import numpy as np
            import moaisim
            from strategies.base import HELLO

            class Mine(moaisim.Strategy):
                name = "mine-" + HELLO

                def bid(self, view):
                    return np.zeros_like(view.legal)
            """
        )
    )
    out = subprocess.run(
        [sys.executable, "-m", "moaisim.cli", "play", "-p", "2", "--strategies",
         "strategies.mine:Mine,random"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "P0:mine-mine" in out.stdout


def test_a_module_in_the_current_directory_is_found_by_the_command_line(tmp_path):
    (tmp_path / "mymodule.py").write_text(
        "import moaisim\n\nclass MyClass(moaisim.Strategy):\n    name = 'my-class'\n"
    )
    out = subprocess.run(
        [str(Path(sys.executable).parent / "moaisim"), "play", "-p", "2", "--strategies",
         "mymodule:MyClass"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "P0:my-class, P1:my-class" in out.stdout


# --- errors that say what happened --------------------------------------------------------


class Raises(GreedyStrategy):
    name = "raises"

    def pick_epoch(self, view: SeatView) -> np.ndarray:
        raise ValueError("no such\nthing")


class Floats(GreedyStrategy):
    name = "floats"

    def rest(self, view: SeatView) -> np.ndarray:
        return super().rest(view).astype(float)


class Shapeless(GreedyStrategy):
    name = "shapeless"

    def birth(self, view: SeatView) -> np.ndarray:
        return super().birth(view)[:0]


class Nothing(GreedyStrategy):
    name = "nothing"

    def work(self, view: SeatView) -> Any:
        return None


class AllIllegal(GreedyStrategy):
    name = "all-illegal"

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        return np.argmin(view.legal, axis=1)  # an illegal item in every game


for _cls in (Raises, Floats, Shapeless, Nothing, AllIllegal):
    _cls.reads = {}


@pytest.mark.parametrize("engine", ["reference", "batch"])
@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (Raises, StrategyError, "'pick_epoch', game \\d+.* raised ValueError: no such thing"),
        (Floats, IllegalActionError, "decision 'rest'.*returned float64 values; expected an"),
        (Shapeless, IllegalActionError, r"returned an array of shape \(0,\); expected"),
        (Nothing, IllegalActionError, "decision 'work'.*returned None; expected an integer"),
    ],
)
def test_a_strategy_failure_says_what_happened(engine, bad, error, message):
    games = [3] if engine == "reference" else list(range(200))
    with pytest.raises(error, match=message) as info:
        moaisim.simulate(3, games, strategies=[bad, "greedy", "greedy"], seed=2, engine=engine)
    text = str(info.value)
    assert "\n" not in text and len(text) < 300 and "strategy '" + bad.name + "' (seat 0)" in text


def test_an_illegal_answer_in_a_big_batch_names_the_first_game_and_counts_the_others():
    with pytest.raises(IllegalActionError) as info:
        moaisim.simulate(4, 10_000, strategies=[AllIllegal, "greedy"], seed=1)
    err = info.value
    text = str(err)
    assert err.kind == "disaster_loss" and err.others > 10
    assert f"game {err.game} (and {err.others} other games of the batch)" in text
    assert "illegal action" in text and len(text) < 300


@pytest.mark.parametrize(
    ("args", "code", "first"),
    [
        (["--strategies", "tests.test_strategy_api:Raises,greedy"], 1, "moaisim: strategy error:"),
        (["--strategies", "greedy(depth=2)"], 2, "moaisim: error: strategy 'greedy': unknown"),
    ],
)
def test_the_command_line_exit_codes_and_one_line(args, code, first):
    out = subprocess.run(
        [sys.executable, "-m", "moaisim.cli", "play", "-p", "3", *args],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == code
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(first)
    debug = subprocess.run(
        [sys.executable, "-m", "moaisim.cli", "play", "-p", "3", *args, "--debug"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert debug.returncode == code and "Traceback (most recent call last)" in debug.stderr


def test_help_with_dash_h_and_whole_command_summaries():
    out = subprocess.run(
        [sys.executable, "-m", "moaisim.cli", "-h"], capture_output=True, text=True, check=True
    )
    commands = out.stdout.split("Commands:")[1].strip().splitlines()
    assert len(commands) >= 6 and not any(line.endswith("...") for line in commands)
    assert "--install-completion" in out.stdout  # shell completion is on


def test_kinds_without_an_override_copy_no_field():
    """The random defaults read nothing; greedy's policy reads every field (docs: reads)."""
    assert moaisim.load_strategy("random").cls.reads == {k.value: () for k in Kind}
    assert GreedyStrategy.reads == {}
    assert Grudge.reads == {}  # redeclared: full views


def test_batch_game_checks_reads_before_playing():
    class Typo(GreedyStrategy):
        reads: ClassVar[dict[str, tuple[str, ...]]] = {"bid": ("hands",)}

    with pytest.raises(UnknownStrategyError):
        Games.new(Rules.make(2), 0, [0]).play([Typo(), Typo()])


def test_a_subclass_declaring_params_keeps_its_parents_params():
    """Issue 41: a subclass of `tuned` that declared `params` lost tuned's own ('LookAhead'
    object has no attribute 'weights'). A subclass's params and bounds add to its parents'."""
    from moaisim.strategies.moai.tuned import TunedStrategy

    class Deeper(TunedStrategy):
        name = "deeper"
        params: ClassVar[dict[str, Any]] = {"depth": 2}
        bounds: ClassVar[dict[str, tuple[float | None, float | None]]] = {"depth": (1, 5)}

    assert Deeper.params == {**TunedStrategy.params, "depth": 2}
    assert set(TunedStrategy.params) == {"weights", "shipped", "retuned"}  # the parent unchanged
    s = Deeper(depth=3)
    assert s.depth == 3 and s.weights == {} and s.retuned == ""
    with pytest.raises(UnknownStrategyError, match="depth must be from 1 to 5"):
        Deeper(depth=9)
    # it plays as tuned does (no decision overridden: tuned's compiled form, the same games)
    ours = moaisim.simulate(3, 6, strategies=[Deeper], seed=3)
    theirs = moaisim.simulate(3, 6, strategies=["tuned"], seed=3)
    assert ours["score"].tolist() == theirs["score"].tolist()
