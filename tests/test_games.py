"""The game boundary (docs/design.md, "Two layers"): the registry finds games by name, a game
exports every name of the `GameSpec` protocol, and the toolkit plays it through them."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

import moaisim
from moaisim.games import DEFAULT, GROUP, UnknownGameError, available, check_name, load_game
from moaisim.games.base import GameSpec, RulesLike


def test_moai_is_registered_and_the_default():
    assert DEFAULT == "moai"
    assert "moai" in available()
    # the installed package declares it in the entry-point group too
    assert "moai" in {ep.name for ep in entry_points(group=GROUP)}
    assert load_game() is load_game("moai")


def test_a_game_exports_every_name_of_the_protocol():
    game = load_game("moai")
    missing = [name for name in GameSpec.__annotations__ if not hasattr(game, name)]
    assert not missing
    assert isinstance(game, GameSpec)  # the module satisfies the protocol structurally
    assert game.INFO.name == "moai" and game.INFO.title == "Moai"
    assert list(game.INFO.players) == [2, 3, 4, 5]


def test_the_games_rules_say_which_game_they_are():
    game = load_game("moai")
    rules = game.Rules.make(3)
    assert isinstance(rules, RulesLike)
    assert rules.game == "moai"
    # the game's name is not part of the set-up: the digest of Moai's rules is unchanged
    assert "game" not in rules.setup


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("nosuch", "unknown game 'nosuch' (games: moai"),
        ("3", "the game number of a run is --index 3"),
        (" 12 ", "the game number of a run is --index 12"),
    ],
)
def test_a_wrong_game_name_is_one_clear_line(given, said):
    with pytest.raises(UnknownGameError) as info:
        check_name(given)
    message = str(info.value)
    assert said in message and "\n" not in message
    assert isinstance(info.value, moaisim.UserError)  # the CLI's exit code 2


def test_the_public_api_names_the_default_games_parts():
    game = load_game("moai")
    assert moaisim.Rules is game.Rules
    assert moaisim.Strategy is game.Strategy
    assert moaisim.Games is game.Games
    assert moaisim.load_game("moai") is game
    # the package's `games` is the registry's module, not shadowed by a name of the API
    assert moaisim.games.available()["moai"] == "moaisim.games.moai"
    with pytest.raises(AttributeError):
        moaisim.NoSuchName  # noqa: B018


def test_strategies_are_a_games_own():
    """The registry resolves a strategy name within a game; the skill levels are the game's."""
    from moaisim.registry import available as strategies
    from moaisim.registry import level_spec, load_strategy

    names = strategies("moai")
    assert {"random", "greedy", "tuned", "search", "mixture"} <= set(names)
    assert level_spec("L1", 3, "moai") == "greedy"
    assert load_strategy("greedy", "moai").cls.__module__ == "moaisim.strategies.moai.greedy"
    with pytest.raises(UnknownGameError):
        load_strategy("greedy", "nosuch")
