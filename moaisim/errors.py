"""Errors.

`UserError` and its subclasses are mistakes in what the user asked for: the CLI prints one
line and exits with code 2. `StrategyError` and its subclasses are a strategy's failures
(an exception in its code, a malformed or illegal answer): one line, exit code 1.
`EngineError` and its subclasses are moaisim's own failures (a game that passes its rules'
bound on its length, `GameLengthError`): one line, as an internal error, exit code 70.
"""

from __future__ import annotations


class MoaisimError(Exception):
    """Base class of every error this package raises on purpose."""


class UserError(MoaisimError):
    """A mistake in what the user asked for (bad rules file, unknown name, bad count...)."""


class RulesError(UserError):
    """A rules file, variant, option or player count that is not valid."""


class UnknownStrategyError(UserError):
    """A strategy name, spec or class that cannot give a strategy (unknown, not a strategy
    class, a bad parameter)."""


class StrategyError(MoaisimError):
    """A strategy failed during a game: its code raised, or its answer was malformed or
    illegal. Names the strategy, seat, decision kind, game (the first one concerned, and how
    many others of the batch were) and root seed (docs/design.md, "Illegal actions and user
    errors")."""

    def __init__(
        self,
        strategy: str,
        kind: str,
        game: int,
        seed: int,
        seat: int,
        problem: str,
        others: int = 0,
    ) -> None:
        self.strategy, self.kind, self.game, self.seed = strategy, kind, game, seed
        self.seat, self.problem, self.others = seat, problem, others
        more = (
            f" (and {others} other game{'s' if others > 1 else ''} of the batch)" if others else ""
        )
        super().__init__(
            f"strategy {strategy!r} (seat {seat}), decision {kind!r}, game {game}{more} "
            f"of seed {seed}: {problem}"
        )

    def __reduce__(self) -> tuple:
        # rebuilt from its fields, so it crosses process boundaries (loky, dask) whole
        fields = (self.strategy, self.kind, self.game, self.seed, self.seat, self.problem)
        return (type(self), (*fields, self.others))


class IllegalActionError(StrategyError):
    """A strategy answered an action that the legal mask forbids (or no action at all)."""

    def __init__(self, strategy: str, kind: str, game: int, seed: int, seat: int, action: object,
                 problem: str | None = None, others: int = 0) -> None:  # fmt: skip
        """`StrategyError`'s fields, the action answered, and the problem (by default: the
        action is illegal)."""
        self.action = action
        problem = problem or f"illegal action {action!r}"
        super().__init__(strategy, kind, game, seed, seat, problem, others)

    def __reduce__(self) -> tuple:
        fields = (self.strategy, self.kind, self.game, self.seed, self.seat, self.action)
        return (type(self), (*fields, self.problem, self.others))


class EngineError(MoaisimError, RuntimeError):
    """An engine broke its own rules: a bug in moaisim, neither the user's mistake nor a
    strategy's failure. The command line prints it as an internal error, on one line
    (exit code 70)."""


class GameLengthError(EngineError):
    """A game passed its rules' bound on its length (`bound` turns or rounds, `unit`) without
    ending. A component set whose game cannot end is refused before any game is played, so
    no legal game reaches the bound: the engine stopped the game rather than loop forever.
    Names the game, the root seed and the bound."""

    def __init__(self, game: int, seed: int, bound: int, unit: str) -> None:
        self.game, self.seed, self.bound, self.unit = game, seed, bound, unit
        super().__init__(
            f"game {game} of seed {seed} did not end within {bound} {unit}, more than any "
            "legal game lasts: the engine stopped it"
        )

    def __reduce__(self) -> tuple:
        # rebuilt from its fields, so it crosses process boundaries (loky, dask) whole
        return (type(self), (self.game, self.seed, self.bound, self.unit))
