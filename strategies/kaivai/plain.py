"""Kaivai's `greedy` in plain words, as the reference engine asks a seat (`choose(view, kind,
options)`): a baseline that takes the immediate gain each decision offers, by simple fixed
preferences (docs/kaivai-rules.md): the longest reach it can afford when bidding, huts it can
pay for, fish to sell to rivals' huts, feasts where its own fish lie, and its influence on the
islands where it is present. Deterministic: it draws nothing.

The toolkit's `greedy` (`greedy.GreedyStrategy`) is the compiled form of these words
(`machine.greedy`); this plain form, written apart, is what the tests hold the compiled one
to, decision by decision (tests/test_kaivai_machine.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moaisim.games.kaivai.engine.reference import PASS, View
from moaisim.games.kaivai.rules.board import BOAT_HUT, MEETING, TEMPLE

#: D4: the actions in the order greedy prefers them when they are legal.
PREFERENCE = ("deliver", "fish", "build", "celebrate", "increase")
#: D6: the hut kinds in the order greedy builds them (a temple is a die on that island).
HUTS = (TEMPLE, MEETING, BOAT_HUT)


class PlainGreedy:
    """Fixed preferences, one decision at a time."""

    def choose(self, view: View, kind: str, options: Sequence[Any]) -> int:
        # a step (D5) and an island to fish (D7): the first option; `continue` is a keyword
        pick = getattr(self, "continue_" if kind == "continue" else kind, None)
        return 0 if pick is None else pick(view, options)

    def bid(self, view: View, options: Sequence[int]) -> int:
        """D1: the free bid of longest reach (bid distance 5 at bid 5), the cheaper first."""
        track = view.rules.components.bid_distance
        return max(range(len(options)), key=lambda i: (track[options[i] - 1], -options[i]))

    def found(self, view: View, options: Sequence[tuple]) -> int:
        """D2: a temple first (a die on that island from the start), then the boat hut."""
        for want in (TEMPLE, BOAT_HUT):
            for i, (_, k) in enumerate(options):
                if k == want:
                    return i
        return 0

    def god(self, view: View, options: Sequence[tuple]) -> int:
        """D3: next to the island where it has most huts (its temples fish with the god)."""
        b, me = view.board, view.seat

        def mine(h: tuple) -> int:
            island = next(iter(b.adjacent_islands(h)))
            return sum(1 for x in b.islands[island] if b.land[x].owner == me)

        return max(range(len(options)), key=lambda i: (mine(options[i]), -i))

    def action(self, view: View, options: Sequence[str]) -> int:
        """D4: the first legal action of `PREFERENCE`, a feast only where its own fish are the
        most and the bonus only up to position 2; else pass (greedy never just moves)."""
        for want in PREFERENCE:
            if want not in options:
                continue
            if want == "celebrate" and not self._feast_pays(view):
                continue
            if want == "increase" and view.bonus(view.seat) >= 2:
                continue
            return list(options).index(want)
        return list(options).index(PASS)

    def continue_(self, view: View, options: Sequence[str]) -> int:
        """D10: another step whenever one is legal (each boat's gain is its own)."""
        return list(options).index("continue")

    def _feast_pays(self, view: View) -> bool:
        """A feast where its own fish are at least as many as anybody's."""
        for island in view.board.islands:
            own = sum(
                view.board.land[h].fish for h in island if view.board.land[h].owner == view.seat
            )
            other = sum(view.board.land[h].fish for h in island) - own
            if own and own >= other:
                return True
        return False

    def celebrate(self, view: View, options: Sequence[tuple]) -> int:
        """D9: the island with the most of its own fish on huts."""
        b = view.board

        def own(name: tuple) -> int:
            island = b.islands[b.land[name].island]
            return sum(b.land[h].fish for h in island if b.land[h].owner == view.seat)

        return max(range(len(options)), key=lambda i: (own(options[i]), -i))

    def build(self, view: View, options: Sequence[tuple]) -> int:
        for want in HUTS:
            for i, (_, k) in enumerate(options):
                if k == want:
                    return i
        return 0

    def deliver(self, view: View, options: Sequence[tuple]) -> int:
        """D8: the most fish onto rivals' huts (shells now), then the most fish."""
        b = view.board

        def value(plan: tuple) -> tuple[int, int]:
            sold = sum(c for h, c in plan if b.land[h].owner != view.seat)
            return sold, sum(c for _, c in plan)

        return max(range(len(options)), key=lambda i: (value(options[i]), -i))

    def island_bid(self, view: View, options: Sequence[int]) -> int:
        """D12: the least bid that beats any rival's presence + influence on this island,
        when it can pay it (influence left is kept for the islands still to come); else
        nothing. With a rival's influence hidden (O6) greedy cannot tell, and bids it all."""
        island, me = view.scoring, view.seat
        assert island is not None
        mine = view.presence(me, island)
        need = 0
        for t in range(view.rules.players):
            if t != me:
                other = view.influence(t)
                if other is None:
                    return len(options) - 1
                need = max(need, view.presence(t, island) + other - mine + 1)
        return need if need < len(options) else 0
