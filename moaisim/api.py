"""The public Python API (ARCHITECTURE.md section 3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from moaisim.engine.record import GameRecord
from moaisim.engine.reference import Game
from moaisim.engine.results import frame, seat_rows
from moaisim.errors import UserError
from moaisim.registry import parse_lineup, strategy_name
from moaisim.rules import Rules

ENGINES = ("reference",)


def make_rules(
    players: int,
    variants: str | Iterable[str] | None = None,
    rules: Rules | str | Path | None = None,
    **options: str,
) -> Rules:
    """A `Rules` from a player count, variants, an optional TOML file and rule options.

    A `Rules` object passed as `rules` is used as it is (its player count must match).
    """
    if isinstance(rules, Rules):
        if rules.players != players:
            raise UserError(f"rules are for {rules.players} players, not {players}")
        return rules
    return Rules.make(players, variants, rules, **options)


def play(
    players: int,
    seed: int,
    game: int = 0,
    strategies: str | Sequence[str | type] = "greedy",
    variants: str | Iterable[str] | None = ("base",),
    rules: Rules | str | Path | None = None,
    engine: str = "reference",
    **options: str,
) -> GameRecord:
    """Play game `game` of root seed `seed` and return its record (events, text, result).

    strategies: one spec for every seat or one per seat (names, 'module:Class', classes).
    options: rule options, e.g. turn_order="clockwise", volcano_after_moai="camp".
    """
    if engine not in ENGINES:
        raise UserError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise UserError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < 2**63:
        raise UserError(f"game must be an integer from 0 to 2**63-1, got {game!r}")
    r = make_rules(players, variants, rules, **options)
    classes = parse_lineup(strategies, r.players)
    names = [strategy_name(c) for c in classes]
    g = Game(r, [c() for c in classes], seed=seed, game=game, names=names)
    events = g.play()
    result = frame(seat_rows(g.state, seed, game, names))
    return GameRecord(r, seed, game, names, events, result)
