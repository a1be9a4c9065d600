"""A game that cannot end (issue 57, item 3). A Rapa Nui component set whose deck leaves no
draw pile once the display is dealt is refused before any game, with its counts (R8.1); and
every engine of every game stops a game that passes its rules' bound on a game's length with
one clear `GameLengthError` (the game, the root seed and the bound) instead of looping.

The bounds are lowered here (monkeypatched) so that an ordinary game trips them; that no legal
game reaches the real ones is what every equivalence and golden test shows by ending."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import moaisim
from moaisim.cli import main
from moaisim.errors import EngineError, GameLengthError, RulesError
from moaisim.games.moai.engine import reference as moai_reference
from moaisim.games.moai.engine.compiled import arrays as moai_arrays
from moaisim.games.moai.engine.steps import round_bound
from moaisim.games.moai.rules import Rules as MoaiRules
from moaisim.games.rapa_nui.engine import batch as rn_batch
from moaisim.games.rapa_nui.engine import machine as rn_machine
from moaisim.games.rapa_nui.engine import reference as rn_reference
from moaisim.games.rapa_nui.engine.batch import Batch
from moaisim.games.rapa_nui.engine.forward import Game
from moaisim.games.rapa_nui.engine.reference import ReferenceGame, turn_bound
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.registry import load_strategy
from moaisim.strategies.rapa_nui.base import Strategy, random_choice

#: The shipped component file's deck (C1: 12 lumberjacks, 9 priests, 9 Moai, 5 H&G a type).
DECK = "lumberjack = 12\npriest = 9\nmoai = 9\n"
HG = "hunter_gatherer = [5, 5, 5, 5]"


def component_file(tmp_path: Path, lumberjacks: int, hg: int, display: str = "") -> Path:
    """A copy of Rapa Nui's shipped component file whose deck holds `lumberjacks` lumberjacks,
    4 priests, 4 Moai and `hg` H&G of each food type (`display`: its [display] replaced)."""
    text = resources.files("moaisim.games.rapa_nui.rules").joinpath("default.toml").read_text()
    assert DECK in text and HG in text
    text = text.replace(DECK, f"lumberjack = {lumberjacks}\npriest = 4\nmoai = 4\n")
    text = text.replace(HG, f"hunter_gatherer = [{hg}, {hg}, {hg}, {hg}]")
    if display:
        start = text.index("[display]")
        end = text.index("[costs]")
        text = text[:start] + display + "\n\n" + text[end:]
    path = tmp_path / "short.toml"
    path.write_text(text)
    return path


def refusal(path: Path, cards: int, display: int, columns: int, depth: int) -> str:
    """The one-line refusal of a component file whose deck leaves no draw pile (R8.1)."""
    return (f"component file {str(path)!r}: the deck's {cards} Rapa Nui cards leave no draw "
            f"pile once the display's {display} ({columns} columns of {depth}) are dealt: such a "
            "game never ends (R8.1)")  # fmt: skip


def stopped(game: int, seed: int, bound: int, unit: str) -> str:
    """The one-line message of a game stopped past its bound."""
    return (f"game {game} of seed {seed} did not end within {bound} {unit}, more than any legal "
            "game lasts: the engine stopped it")  # fmt: skip


# --- R8.1: a deck that leaves no draw pile is refused ------------------------------------------
@pytest.mark.parametrize(
    ("lumberjacks", "hg", "display", "cards", "shown", "columns", "depth"),
    [
        (4, 1, "", 16, 16, 4, 4),  # the set: the deck is exactly the display
        (2, 1, "", 14, 16, 4, 4),  # fewer cards than the display
        (4, 1, "[display]\ncolumns = 2\ndepth = 8\nhand = 3", 16, 16, 2, 8),
        (5, 2, "[display]\ncolumns = 7\ndepth = 3\nhand = 3", 21, 21, 7, 3),
    ],
)
def test_r8_1_a_deck_that_leaves_no_draw_pile_is_refused_with_its_counts(
    tmp_path, lumberjacks, hg, display, cards, shown, columns, depth
):
    path = component_file(tmp_path, lumberjacks, hg, display)
    message = refusal(path, cards, shown, columns, depth)
    with pytest.raises(RulesError) as made:
        Rules.make(2, components=path)
    assert str(made.value) == message
    with pytest.raises(RulesError) as played:
        moaisim.play(2, seed=0, game_name="rapa-nui", components=path)
    assert str(played.value) == message
    out = tmp_path / "run"
    with pytest.raises(RulesError) as simulated:
        moaisim.simulate(2, 3, strategies="random", game_name="rapa-nui", components=path,
                         out=out)  # fmt: skip
    assert str(simulated.value) == message and not out.exists()


def test_r8_1_a_component_set_made_by_hand_is_refused_too():
    c = Rules.make(2).components
    short = dataclasses.replace(c, lumberjacks=4, priests=4, moai=4, hunter_gatherers=(1,) * 4)
    with pytest.raises(RulesError) as refused:
        Rules(players=2, components=short)
    assert str(refused.value) == (
        "components 'Rapa Nui (Kosmos 2011)': the deck's 16 Rapa Nui cards leave no draw pile "
        "once the display's 16 (4 columns of 4) are dealt: such a game never ends (R8.1)"
    )


def test_r8_1_the_command_line_refuses_it_in_one_line_and_writes_nothing(tmp_path, capsys):
    path = component_file(tmp_path, 4, 1)
    code = main(["play", "--game", "rapa-nui", "--components", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == f"moaisim: error: {refusal(path, 16, 16, 4, 4)}\n"
    run = tmp_path / "run"
    code = main(["simulate", "--game", "rapa-nui", "-p", "2", "-n", "3", "--components",
                 str(path), "--out", str(run), "--quiet"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err == f"moaisim: error: {refusal(path, 16, 16, 4, 4)}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.toml"]


def test_r8_1_a_draw_pile_of_one_card_ends_the_game_in_both_engines(tmp_path):
    """17 cards for a display of 16 leave a draw pile of one card: the first refill uses it
    up and the game ends (R8.1, R8.2), the same game in both engines."""
    path = component_file(tmp_path, 5, 1)
    rules = Rules.make(2, components=path)
    assert rules.components.n_cards == 17
    kwargs = dict(strategies="random", game_name="rapa-nui", rules=rules, seed=3,
                  rotation="none")  # fmt: skip
    fast = moaisim.simulate(2, 20, engine="batch", **kwargs)
    slow = moaisim.simulate(2, 20, engine="reference", **kwargs)
    assert fast["score"].tolist() == slow["score"].tolist()
    assert fast["game_turns"].tolist() == slow["game_turns"].tolist()


# --- the bounds ----------------------------------------------------------------------------------
def test_the_bounds_are_twice_the_most_a_legal_game_can_take():
    """Rapa Nui: 2 x (P + 1) x (H + 2) turns, H = the 50 cards of the deck and 3 start H&G a
    seat; Moai: 2 x ((E - 1) // (P + 1) + 1) rounds, E = the 36 epoch cards."""
    assert [turn_bound(Rules.make(p)) for p in (2, 3, 4)] == [2 * 3 * 58, 2 * 4 * 61, 2 * 5 * 64]
    assert [round_bound(MoaiRules.make(p)) for p in (2, 3, 4, 5)] == [24, 18, 16, 12]


def test_the_error_is_an_engine_error_that_crosses_processes_whole():
    err = GameLengthError(7, 2026, 640, "turns")
    assert isinstance(err, EngineError) and not isinstance(err, moaisim.UserError)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is GameLengthError and str(back) == stopped(7, 2026, 640, "turns")
    assert (back.game, back.seed, back.bound, back.unit) == (7, 2026, 640, "turns")


# --- Rapa Nui: both engines stop a game past its bound ------------------------------------------
@pytest.fixture
def rapa_nui_bound(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Lower Rapa Nui's bound on a game's length, in both engines, to `turns`."""

    def lower(turns: int) -> None:
        monkeypatch.setattr(rn_reference, "turn_bound", lambda rules: turns)
        monkeypatch.setattr(rn_batch, "turn_bound", lambda rules: turns)

    return lower


class PythonSeat(Strategy):
    """Random play written in Python: the machine pauses for its every decision."""

    name = "python"

    def play(self, view):  # noqa: ANN001, ANN201
        return random_choice(view)


def rapa_nui_seats(players: int, python: bool = False) -> list[Strategy]:
    """`greedy` at every seat (`python`: seat 1 a Python seat)."""
    seats = [load_strategy("greedy", "rapa-nui")() for _ in range(players)]
    if python:
        seats[1] = PythonSeat()
    return seats


def test_the_reference_engine_stops_a_rapa_nui_game_at_its_bound(rapa_nui_bound):
    rapa_nui_bound(5)
    game = ReferenceGame(Rules.make(3), rapa_nui_seats(3), seed=11, game=3)
    with pytest.raises(GameLengthError) as stop:
        game.play()
    assert str(stop.value) == stopped(3, 11, 5, "turns")
    assert game.t.turn == 5 and not game.over


def test_the_machine_stops_rapa_nui_games_at_their_bound(rapa_nui_bound):
    """Every game of the batch stopped at its 5th turn; the error names the first."""
    rapa_nui_bound(5)
    batch = Batch(Rules.make(3), 11, [4, 2, 9])
    with pytest.raises(GameLengthError) as stop:
        batch.play(rapa_nui_seats(3))
    assert str(stop.value) == stopped(4, 11, 5, "turns")
    assert batch.g.turn.tolist() == [5, 5, 5]
    assert (batch.g.cur[:, rn_machine.C_STEP] == rn_machine.TOO_LONG).all()


def test_the_machine_stops_a_rapa_nui_game_with_a_python_seat_at_its_bound(rapa_nui_bound):
    rapa_nui_bound(5)
    batch = Batch(Rules.make(3), 11, [2])
    with pytest.raises(GameLengthError) as stop:
        batch.play(rapa_nui_seats(3, python=True))
    assert str(stop.value) == stopped(2, 11, 5, "turns") and batch.g.turn.tolist() == [5]


def test_the_forward_model_stops_a_rapa_nui_game_at_its_bound(rapa_nui_bound):
    rapa_nui_bound(5)
    game = Game.new(Rules.make(2), seed=11, game=6)
    with pytest.raises(GameLengthError) as stop:
        for _ in range(1000):
            _, _, masks = game.legal()
            game.apply(int(np.flatnonzero(masks[0])[0]))
    assert str(stop.value) == stopped(6, 11, 5, "turns")


def test_a_rapa_nui_game_that_cannot_end_stops_at_the_real_bound_in_the_reference_engine():
    """The issue's game: a deck of exactly the display (let past the component check) never
    ends; it stops at 2 x 3 x (16 + 6 + 2) = 144 turns (2 players) instead of 10 000."""
    rules = Rules.make(2)
    c = rules.components
    short = dataclasses.replace(c, lumberjacks=4, priests=4, moai=4, hunter_gatherers=(1,) * 4)
    object.__setattr__(rules, "components", short)  # past the check, as a stale set would be
    game = ReferenceGame(rules, rapa_nui_seats(2), seed=11, game=3)
    with pytest.raises(GameLengthError) as stop:
        game.play()
    assert str(stop.value) == stopped(3, 11, 144, "turns") and game.t.turn == 144


#: The same game on the machine, in a process of its own (a machine that loops forever is
#: killed by the timeout, a failure rather than a hung test run).
FOREVER = """
import dataclasses
from moaisim.games.rapa_nui.engine.batch import Batch
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.registry import load_strategy
rules = Rules.make(2)
c = rules.components
short = dataclasses.replace(c, lumberjacks=4, priests=4, moai=4, hunter_gatherers=(1,) * 4)
object.__setattr__(rules, "components", short)
Batch(rules, 11, [3, 5]).play([load_strategy("greedy", "rapa-nui")() for _ in range(2)])
"""


def test_a_rapa_nui_game_that_cannot_end_stops_at_the_real_bound_on_the_machine():
    done = subprocess.run([sys.executable, "-c", FOREVER], capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1
    assert last == f"moaisim.errors.GameLengthError: {stopped(3, 11, 144, 'turns')}"


# --- Moai: both engines stop a game past its bound ----------------------------------------------
@pytest.fixture
def moai_bound(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[int], None]]:
    """Lower Moai's bound on a game's length, in both engines, to `rounds` (the machine's
    constants are cached by rules: made again with it, and again after the test)."""

    def lower(rounds: int) -> None:
        monkeypatch.setattr(moai_reference, "round_bound", lambda rules: rounds)
        monkeypatch.setattr(moai_arrays, "round_bound", lambda rules: rounds)
        moai_arrays.consts.cache_clear()

    yield lower
    moai_arrays.consts.cache_clear()


def test_the_reference_engine_stops_a_moai_game_at_its_bound(moai_bound):
    moai_bound(2)
    seats = [moaisim.load_strategy("greedy")() for _ in range(3)]
    game = moai_reference.ReferenceGame(MoaiRules.make(3), seats, seed=11, game=3)
    with pytest.raises(GameLengthError) as stop:
        game.play()
    assert str(stop.value) == stopped(3, 11, 2, "rounds")
    assert game.state.round == 2 and not game.state.last_round


class Asks(moaisim.Strategy):
    """Moai's random play asked through views (a Python seat: the machine pauses for it)."""

    def work(self, view):  # noqa: ANN001, ANN201
        return super().work(view)


@pytest.mark.parametrize(("strategies", "games"), [("greedy", [5, 8]),
                                                   (["greedy", "random", Asks], [5])])  # fmt: skip
def test_the_machine_stops_moai_games_at_their_bound(moai_bound, strategies, games):
    """Compiled seats, and a Python seat the machine pauses for; the error names the first
    game stopped."""
    moai_bound(2)
    with pytest.raises(GameLengthError) as stop:
        moaisim.simulate(3, games, strategies=strategies, seed=11, rotation="none")
    assert str(stop.value) == stopped(5, 11, 2, "rounds")


def test_the_moai_forward_model_stops_a_game_at_its_bound(moai_bound):
    moai_bound(1)
    games = moaisim.Games.new(MoaiRules.make(2), 11, [6])
    with pytest.raises(GameLengthError) as stop:
        for _ in range(10_000):
            for pend in games.pending():
                games.apply(pend, pend.legal.astype(np.int64) * 0 if pend.kind.value == "bid"
                            else pend.legal.argmax(axis=1))  # fmt: skip
    assert str(stop.value) == stopped(6, 11, 1, "rounds")


# --- every game, every engine, through the public API and the command line ------------------
@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_the_public_api_raises_it_for_both_games(moai_bound, rapa_nui_bound, engine):
    moai_bound(2)
    rapa_nui_bound(7)
    with pytest.raises(GameLengthError) as moai:
        moaisim.simulate(2, 3, strategies="random", seed=5, engine=engine)
    assert str(moai.value) == stopped(0, 5, 2, "rounds")
    with pytest.raises(GameLengthError) as rapa_nui:
        moaisim.play(2, seed=5, game=4, strategies="random", engine=engine, game_name="rapa-nui")
    assert str(rapa_nui.value) == stopped(4, 5, 7, "turns")


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_the_command_line_prints_it_in_one_line(moai_bound, rapa_nui_bound, capsys, engine):
    for game in ("rapa-nui", "moai"):  # the kernels compiled first (said on stderr)
        moaisim.play(2, seed=5, game=4, engine=engine, game_name=game)
    capsys.readouterr()
    moai_bound(2)
    rapa_nui_bound(7)
    bug = " (a bug in moaisim: run again with --debug for the traceback, and report it)\n"
    for game, line in (("rapa-nui", stopped(4, 5, 7, "turns")),
                       ("moai", stopped(4, 5, 2, "rounds"))):  # fmt: skip
        code = main(["play", "--game", game, "-p", "2", "--seed", "5", "--index", "4",
                     "--engine", engine])  # fmt: skip
        out, err = capsys.readouterr()
        assert code == 70 and out == ""
        assert err == f"moaisim: internal error: GameLengthError: {line}{bug}"
