"""`mixture` and the meta-game's `dispatch` for Moai (docs/strategies.md, "mixture"): the
toolkit's (`moaisim.engine.mixture`: the draw, the play, `components`, `drawn`) over Moai's
strategies, each seat compiled as a `Choice` of its components' policies when every one has a
policy (the batch machine plays each game's own, `compiled.policy`).

`mixture(weights={'greedy': 0.5, 'forester': 0.5})`, or a TOML file given as `weights=` or
`file=`:

```toml
players = 4
source = "an equilibrium of the 4-player win-share table"
[mixture]
greedy = 0.25
forester = 0.5
"greedy(moai_height=8)" = 0.25
```
"""

from __future__ import annotations

from typing import Any

from moaisim.engine import mixture
from moaisim.games.moai.engine.compiled.policy import Choice, Form, Policy
from moaisim.games.moai.engine.decisions import Kind
from moaisim.strategies.moai.base import Strategy


class PerGame(mixture.PerGame, Strategy):
    """Moai's seat that plays one strategy per game: its components' compiled forms are
    policies (or choices of them)."""

    game, kinds = "moai", Kind

    def component_form(self, inst: Any, rules: Any) -> Form | None:
        """The component's compiled form, when it is one the batch machine plays."""
        form = super().component_form(inst, rules)
        return form if isinstance(form, Policy | Choice) else None


class MixtureStrategy(mixture.Mixture, PerGame):
    """Each game, a strategy drawn from a mixture (per seat, paired across cells)."""

    name = "mixture"


class DispatchStrategy(mixture.Dispatch, PerGame):
    """Each game, the strategy a table names (the meta-game's compositions side by side)."""

    name = "dispatch"
