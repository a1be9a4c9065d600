"""The reference engine asking the floor's strategies (`ReferenceGame`): each decision of a
reference game (`reference.Game`) put to a floor strategy as the `SeatView` the compiled
machine would show at the same decision, built from the reference game's own state (its
board, seats and where it stands), the options listed as the machine lists them. The floor's
conformance suite plays both engines with the same strategies and compares their games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from moaisim.engine.answers import BadAnswer, check
from moaisim.errors import IllegalActionError, StrategyError
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import geometry, hex_number
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.reference import ACTIONS, PARTS, PASS, Game, View
from moaisim.games.kaivai.engine.views import SeatView
from moaisim.games.kaivai.rules.board import HUT_KINDS

#: The land kinds as the machine numbers them (`machine.BOAT_HUT` ...).
LAND = {kind: k for k, kind in enumerate(HUT_KINDS)} | {"site": m.SITE}
#: The reference engine's decision names that the floor names otherwise.
KIND_OF = {kind.value: kind for kind in Kind} | {"continue": Kind.ANOTHER_BOAT}


class _Logged(Game):
    """The reference game, its events also written to the toolkit's log (`events.EVENTS`:
    `e` names the kind); its decisions are logged by the seats that answer them (`_Asker`),
    the secret ones too."""

    def __init__(self, log: list[dict[str, Any]], *args: Any) -> None:
        self.toolkit_log = log
        super().__init__(*args)

    def log(self, kind: str, **fields: Any) -> None:
        super().log(kind, **fields)
        if kind != "decision":
            self.toolkit_log.append({"e": kind, "round": self.round, **plain(fields)})


class ReferenceGame:
    """One game on the reference engine, seat q's decisions put to `strategies[q]` (a floor
    strategy: a method per `Kind`, a view in, an index into the options out). `events` is
    the game's log in the toolkit's form (`events.EVENTS`), `state` the reference game (what
    `results.seat_rows` reads)."""

    def __init__(self, rules: Any, strategies: Sequence[Any], seed: int = 0, game: int = 0,
                 names: Sequence[str] | None = None) -> None:  # fmt: skip
        self.rules, self.strategies = rules, list(strategies)
        self.seed, self.index = int(seed), int(game)
        self.names = list(names) if names is not None else [
            getattr(s, "name", type(s).__name__) for s in self.strategies]  # fmt: skip
        self.number = hex_number(rules.components.radius)
        self.geo = geometry(rules.components.radius)
        self.events: list[dict[str, Any]] = []
        seats = [_Asker(self, q) for q in range(rules.players)]
        self.game = _Logged(self.events, rules, seats, seed, game)
        self.scores: list[int] | None = None

    @property
    def state(self) -> Game:
        """The reference game itself (its board and seats)."""
        return self.game

    def play(self) -> list[dict[str, Any]]:
        """The game to its end; its log (`events`)."""
        for q, strategy in enumerate(self.strategies):
            if hasattr(strategy, "start"):  # a strategy that picks its weights by the rules
                strategy.start(self.rules, q, np.array([self.index]))
        self.game.play()
        self.scores = self.final_scores()
        return self.events

    def final_scores(self) -> list[int]:
        return [seat.glory for seat in self.game.seats]

    # --- what a seat sees ----------------------------------------------------------------------
    def code(self, kind: str, option: Any) -> int:
        """An option as the machine lists it (`batch.Batch.option` read back)."""
        n = self.number
        if kind in ("bid", "island_bid"):
            return int(option)
        if kind in ("found", "build"):
            return n[option[0]] * 3 + LAND[option[1]]
        if kind == "god":
            return n[option]
        if kind == "action":
            return (*ACTIONS, PASS).index(option)
        if kind == "continue":
            return ("stop", "continue").index(option)
        if kind.endswith("_step"):
            return n[option[0]] * len(n) + n[option[1]]
        if kind == "deliver":
            end, base, code = n[self.game.end], self.rules.components.hut_fish_capacity + 1, 0
            slots = [int(x) for x in self.geo.nbr[end]]
            for h, count in option:
                code += count * base ** slots.index(n[h])
            return code
        return self.game.board.island_of(option)  # an island, by name

    def seen(self, seat: int, kind: str) -> dict[str, np.ndarray]:
        """The `views.FIELDS` of `seat` at a decision of `kind`, one game, as the machine
        shows them (`views.arrays_seen`)."""
        g, rules, n = self.game, self.rules, self.number
        p, hexes = rules.players, len(n)
        islands = len(rules.components.printed_cult_sites) + rules.extra_sites
        cells = {k: np.full(hexes, -1, dtype=np.int64) for k in ("land", "owner", "island")}
        fish = np.zeros(hexes, dtype=np.int64)
        for h, x in g.board.land.items():
            i = n[h]
            cells["land"][i], cells["owner"][i] = LAND[x.kind], x.owner
            cells["island"][i] = x.island
            fish[i] = x.fish
        boat = np.full(hexes, -1, dtype=np.int64)
        on_hut = np.zeros(hexes, dtype=np.int64)
        for h, o in g.board.boats.items():
            boat[n[h]] = o
            on_hut[n[h]] = int(h in g.board.on_hut)
        boating = g.acting in ("build", "fish", "deliver", "move")
        acted_hexes, start_hexes = np.zeros(hexes, np.int64), np.zeros(hexes, np.int64)
        if boating:
            acted_hexes[[n[h] for h in g.acted_hexes]] = 1
            start_hexes[[n[h] for h in g.start_hexes]] = 1
        first, size, sites = (np.full(islands, v, np.int64) for v in (-1, 0, 0))
        left, temples = np.zeros(islands, np.int64), np.zeros((islands, p), np.int64)
        for i, where in enumerate(g.board.islands):
            first[i], size[i], sites[i] = n[where[0]], len(where), len(g.board.sites(i))
            left[i] = int(i in g.left)
            for s in range(p):
                temples[i, s] = g.temples(s, i)
        view = View(seat, g)
        seats = g.seats
        influence = [x if (x := view.influence(s)) is not None else -1 for s in range(p)]
        values = m.VALUES
        shells = np.zeros((p, values), np.int64)
        fishes = np.zeros((p, values), np.int64)
        for s, x in enumerate(seats):
            np.add.at(shells[s], x.shells, 1)
            np.add.at(fishes[s], x.fish, 1)
        secret = [-1] * p
        secret[seat] = 0  # its own bid is made at its decision (R10.4)
        acts = (*ACTIONS, PASS)
        out = {
            **cells, "fish": fish, "boat": boat, "on_hut": on_hut, "acted_hexes": acted_hexes,
            "start_hexes": start_hexes, "first": first, "size": size, "sites": sites,
            "left": left, "temples": temples, "round": g.round, "tiles": g.tiles,
            "god": -1 if g.god is None else n[g.god], "fishing": g.fishing_steps,
            "islands": len(g.board.islands), "spaces": [g.spaces[a] for a in ACTIONS],
            "order": g.order, "turns": g.turns or [-1] * p, "influence": influence,
            "huts": [x.huts for x in seats], "boats": [x.boats for x in seats],
            "statues": [x.statues for x in seats], "glory": [x.glory for x in seats],
            "bonus": [x.bonus for x in seats], "bid": [g.bids.get(s, 0) for s in range(p)],
            "passed": [int(s in g.passed) for s in range(p)],
            "acted": [int(s in g.acted_seats) for s in range(p)], "secret": secret,
            "parts": [[x.parts[k] for k in PARTS] for x in seats], "shells": shells,
            "fishes": fishes, "act": -1 if g.acting is None else acts.index(g.acting),
            "end": -1 if g.end is None or kind.endswith("_step") else n[g.end],
            "scoring": g.scoring if kind == "island_bid" else -1,
        }  # fmt: skip
        return {k: np.asarray(v, dtype=np.int64)[None] for k, v in out.items()}


class _Asker:
    """A reference seat (`reference.Strategy`) that puts each decision to a floor strategy."""

    def __init__(self, owner: ReferenceGame, seat: int) -> None:
        self.owner, self.seat = owner, seat

    def choose(self, view: View, kind: str, options: Sequence[Any]) -> int:
        own, q = self.owner, self.seat
        legal = np.ones((1, len(options)), dtype=bool)
        codes = np.array([[own.code(kind, x) for x in options]], dtype=np.int64)
        streams, rows = own.game.streams, np.array([0])
        rng = streams.seat(q, rows)
        what = KIND_OF[kind]
        seat_view = SeatView(own.rules, q, what, legal, {"options": codes}, rng,
                             np.array([own.index]), **own.seen(q, kind))  # fmt: skip
        strategy = own.strategies[q]
        try:
            answer = getattr(strategy, what.value)(seat_view)
        except Exception as exc:
            raise StrategyError(own.names[q], what.value, own.index, own.seed, q,
                                f"raised {type(exc).__name__}: {exc}") from exc  # fmt: skip
        try:
            action = int(check(answer, legal)[0])
        except BadAnswer as bad:
            raise IllegalActionError(own.names[q], what.value, own.index, own.seed,
                                     q, bad.shown, bad.problem) from None  # fmt: skip
        streams.advance(q, rows, rng)
        own.events.append(
            {
                "e": "decision",
                "round": own.game.round,
                "seat": q,
                "kind": what.value,
                "action": action,
                "choice": plain(options[action]),
                "legal": plain(list(options)),
            }
        )
        return action


def plain(x: Any) -> Any:
    """Tuples as lists, all the way down: what JSON keeps of a value."""
    if isinstance(x, tuple | list):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    return x
