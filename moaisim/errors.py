"""Errors. `UserError` and its subclasses are user mistakes: the CLI prints one line, exits 2."""

from __future__ import annotations


class MoaisimError(Exception):
    """Base class of every error this package raises on purpose."""


class UserError(MoaisimError):
    """A mistake in what the user asked for (bad rules file, unknown name, bad count...)."""


class RulesError(UserError):
    """A rules file, variant, option or player count that is not valid."""


class UnknownStrategyError(UserError):
    """A strategy name that no registry, module path or entry point provides."""


class IllegalActionError(MoaisimError):
    """A strategy returned an action that the legal mask forbids (docs/design.md)."""

    def __init__(
        self, strategy: str, kind: str, game: int, seed: int, seat: int, action: object
    ) -> None:
        self.strategy, self.kind, self.game, self.seed = strategy, kind, game, seed
        self.seat, self.action = seat, action
        super().__init__(
            f"illegal action {action!r} by strategy {strategy!r} (seat {seat}) "
            f"for decision {kind!r} in game {game} of seed {seed}"
        )
