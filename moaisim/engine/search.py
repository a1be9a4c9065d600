"""`search`, written once for every game: look-ahead by determinized rollouts on the game's
forward model (docs/strategies.md, "search"; docs/design.md, "The forward model").

At each decision it searches, the strategy samples `worlds` full games consistent with its
view (the game's `determinize`: what the seat cannot see, drawn), tries candidate actions in
each world and plays on with a rollout policy for itself and an opponent model for the rivals
(to the end of the game, or for a game played in rounds to the end of the current round and
`horizon` more), all in one batch of the game's machine: candidate x world rows, each world's
copies drawing the same chance (common random numbers), so candidates differ by their action,
not their luck. Candidates are cut by successive halving: all of them on the first worlds,
the better half on twice as many, the best on all of them. A rollout is worth its share of the
win if the game ends in it, else a logistic of the seat's score lead over the best rival
(`lead` points of lead worth e). The candidates are the rollout policy's answer and the
proposers' (`propose`), or without proposers other legal actions drawn at random; a decision
where they all agree is not searched.

A decision that several seats take at once (Moai's sealed bid) draws its answer from a softmax
over the values (`temperature`), a mixed rule a rival cannot read off, and the rivals' answers
in the rollouts are the opponent model's. Every draw comes from the seat's stream (two values
per game and decision seed that game's worlds and rollouts), so a game plays the same alone
or in any batch, in either engine.

A game gets it by naming what is its own (`Search`'s class attributes and hooks): its game,
its defaults, the kinds answered by a row of numbers and taken at once, the round a view is
in (for `horizon`), and candidates of a row of numbers when there are no proposers.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, NamedTuple

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games import load_game
from moaisim.mixture_parts import sub_view
from moaisim.registry import StrategySpec, level_spec, load_strategy, split_top
from moaisim.rng import DRAWS_STREAM, Draws, SeatRandom, stream_keys

#: `rollout` / `opponents` value: the strongest shipped field below search at the game's
#: player count (`strongest_below`).
AUTO = "auto"
#: The root seed of the proposers' stream space (the purpose tag "propose").
PROPOSE_SEED = int.from_bytes(b"propose", "big")
#: Points of score lead worth e (logistic scale of a rollout cut short by the horizon).
LEAD_SCALE = 3.0
#: Every parameter of `search`, with the defaults a game may override (`Search.params`).
PARAMS: dict[str, Any] = {
    "worlds": 12,  # worlds sampled per decision: the skill (and cost) knob
    "rollout": AUTO,  # own play in rollouts and at decisions not searched
    "opponents": AUTO,  # the rivals' play in rollouts (the opponent model)
    "horizon": 1,  # rounds played after the current one (-1: to the end of the game)
    "candidates": 8,  # most actions tried per decision (the rollout policy's among them)
    "search": "every",  # the decisions searched (comma-separated kinds, "every" or "": none)
    "temperature": 0.05,  # decisions taken at once: softmax temperature (0: the best)
    "lead": LEAD_SCALE,  # points of score lead worth e in a rollout cut short (logistic)
    # the candidates: strategies (comma-separated specs; a learned policy: its experts) whose
    # answers are the candidates beside the rollout policy's (a decision where all agree is
    # not searched); "" the rollout policy's and random legal actions
    "propose": "",
}
BOUNDS: dict[str, tuple[float | None, float | None]] = {
    "worlds": (1, 100_000),
    "horizon": (-1, 100),
    "candidates": (2, 256),
    "temperature": (0, None),
    "lead": (0.1, 1000),
}


class Searched(NamedTuple):
    """One searched game-decision (`Search.record`): the game's number, the decision's kind,
    the candidates (each as a list of numbers: an action, or a row of numbers), who proposed
    each (bit 0: the rollout policy; bit 1 + k: proposer k), each candidate's mean rollout
    value over the worlds it was tried in and how many (successive halving tries the
    survivors in more), and the candidate chosen."""

    game: int
    kind: str
    candidates: list[list[int]]
    proposed_by: list[int]
    means: np.ndarray
    worlds: np.ndarray
    chosen: int


class Search:
    """Look-ahead: tries candidate actions in sampled worlds by batched rollouts (a mixin: a
    game's `SearchStrategy` is `Search` and its `Strategy`, with its `game` and defaults)."""

    #: The game searched (its registry name).
    game: ClassVar[str]
    #: The decision kinds answered by a row of numbers (Moai's bid), and those taken by
    #: several seats at once (a softmax over the values, the rivals' answers modelled).
    VECTOR_KINDS: ClassVar[frozenset[str]] = frozenset()
    AT_ONCE: ClassVar[frozenset[str]] = frozenset()

    name = "search"
    reads: ClassVar[dict[str, tuple[str, ...]]] = {}  # full views: worlds need every field
    params: ClassVar[dict[str, Any]] = PARAMS
    bounds: ClassVar[dict[str, tuple[float | None, float | None]]] = BOUNDS

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)  # type: ignore[call-arg]
        spec = load_game(self.game)
        self._spec = spec
        every = frozenset(k.value for k in spec.Kind)
        kinds = {k.strip() for k in str(self.search).split(",") if k.strip()}
        kinds = set(every) if kinds == {"every"} else kinds
        unknown = sorted(kinds - every)
        if unknown:
            raise UnknownStrategyError(
                f"strategy 'search': search names {', '.join(unknown)}, not decision kinds "
                f"({', '.join(sorted(every))})"
            )
        self.kinds = frozenset(kinds)
        self.proposers = proposers(str(self.propose), self.game)
        self.own_spec: StrategySpec | None = None
        self.rival_spec: StrategySpec | None = None
        self.policy: Any = None
        self._specs: dict[int, tuple[StrategySpec, StrategySpec]] = {}
        if AUTO not in (self.rollout, self.opponents):
            self._use(self._specs_for(0))
        else:  # checked now for the named one; "auto" is resolved by player count
            for name in (self.rollout, self.opponents):
                if name != AUTO:
                    _checked(load_strategy(name, self.game))
        self.rules: Any = None
        self.seat = 0
        self._players: list[Any] | None = None
        self.rollouts = 0  # rollouts played so far (one game copy each)
        self.searched = 0  # game-decisions searched so far
        self.agreed = 0  # game-decisions not searched: every proposal was the rollout policy's
        self._asked: list[Any] | None = None  # the proposers' instances
        #: when a list: each searched game-decision appended as a `Searched` (what a learned
        #: policy is trained on: the candidates, who proposed them, their values)
        self.record: list[Searched] | None = None
        self._who: dict[int, list[int]] = {}
        self._means: list[tuple[np.ndarray, np.ndarray]] = []

    # the game's own: the round a view's game is in (games played in rounds), and candidates
    # of a kind answered by a row of numbers where there are no proposers
    def round_of(self, view: Any, row: int) -> int:
        """The round game `row` of the view is in (0: a game not played in rounds)."""
        return 0

    def row_candidates(self, view: Any, row: int, base: np.ndarray, limit: int) -> list:
        """Candidate rows of numbers (a kind of `VECTOR_KINDS`): the rollout policy's."""
        return [np.asarray(base, dtype=np.int64)]

    def _specs_for(self, players: int) -> tuple[StrategySpec, StrategySpec]:
        """The rollout policy's and the opponent model's specs at this player count
        (`auto`: `strongest_below`)."""
        if players not in self._specs:
            own, rivals = (load_strategy(strongest_below(players, self.game), self.game)
                           if name == AUTO else load_strategy(name, self.game)
                           for name in (self.rollout, self.opponents))  # fmt: skip
            self._specs[players] = (_checked(own), _checked(rivals))
        return self._specs[players]

    def _use(self, specs: tuple[StrategySpec, StrategySpec]) -> None:
        """Play with these rollout and opponent specs (a new rollout policy instance when
        they change)."""
        if (self.own_spec, self.rival_spec) != specs or self.policy is None:
            self.own_spec, self.rival_spec = specs
            self.policy = specs[0]()
            self._players = None

    def check_players(self, players: int) -> None:
        """The rollout and opponent strategies' player counts."""
        for spec in self._specs_for(players):
            spec().check_players(players)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """Forget the rollout players of another set-up or seat; start the rollout policy
        (the one for this player count when it is `auto`)."""
        if self.rules is not rules or self.seat != seat:
            self._players = None
        self.rules, self.seat = rules, seat
        self._use(self._specs_for(rules.players))
        hook = getattr(self.policy, "start", None)
        if hook is not None:
            hook(rules, seat, games)

    # --- one decision ------------------------------------------------------------------
    def _decide(self, view: Any) -> np.ndarray:
        kind = view.kind
        if self.policy is None:  # asked before any start hook: its player count's policy
            self._use(self._specs_for(view.rules.players))
        base = np.asarray(getattr(self.policy, kind.value)(view))
        if kind.value not in self.kinds:
            return base
        u = view.rng.uniform(2)  # one seed per game: its worlds, rollouts and choices
        seeds = (u[:, 0] * 2**32).astype(np.uint64) << np.uint64(32)
        seeds |= (u[:, 1] * 2**32).astype(np.uint64)
        tasks = (self._proposed(view, base, seeds) if self.proposers
                 else self._drawn(view, base, seeds))  # fmt: skip
        out = base.copy()
        if tasks:
            chosen = self._search(view, tasks, [int(seeds[t[0]]) for t in tasks])
            for k, ((row, cands, draws), values) in enumerate(zip(tasks, chosen, strict=True)):
                pick = self._choose(kind.value, values, draws)
                out[row] = cands[pick]
                if self.record is not None:
                    means, worlds = self._means[k]
                    who = self._who.get(row, [1] + [0] * (len(cands) - 1))
                    listed = [np.ravel(c).tolist() for c in cands]
                    self.record.append(
                        Searched(int(view.games[row]), kind.value, listed, who, means, worlds, pick)
                    )
        return out

    def _drawn(self, view: Any, base: np.ndarray, seeds: np.ndarray) -> list:
        """The games to search without proposers: the rollout policy's answer and other
        legal actions (`_candidates`), a game with one candidate left out."""
        tasks = []
        for row in range(len(view)):
            draws = Draws(int(seeds[row]))
            cands = self._candidates(view, row, base[row], draws)
            if len(cands) > 1:
                tasks.append((row, cands, draws))
        return tasks

    def _proposed(self, view: Any, base: np.ndarray, seeds: np.ndarray) -> list:
        """The games to search with `propose`: each game's candidates are the rollout
        policy's answer and the proposers' answers on the seat's view (distinct, at most
        `candidates`); a game where they all agree takes that answer unsearched (no world
        drawn; `agreed` counts them)."""
        proposed = self._proposals(view)
        vector = view.kind.value in self.VECTOR_KINDS
        tasks = []
        self._who = {}
        for row in range(len(view)):
            cands = [np.asarray(base[row])]
            seen = {tuple(np.ravel(cands[0]).tolist())}
            for a in proposed[row]:
                key = tuple(np.ravel(a).tolist())
                if key not in seen and len(cands) < int(self.candidates):
                    seen.add(key)
                    cands.append(np.asarray(a) if vector else int(a))
            if len(cands) > 1:
                if not vector:
                    cands[0] = int(cands[0])
                tasks.append((row, cands, Draws(int(seeds[row]))))
                if self.record is not None:  # bit 0: the rollout policy's; 1 + k: proposer k's
                    keys = [tuple(np.ravel(a).tolist()) for a in proposed[row]]
                    self._who[row] = [
                        (j == 0) | sum(2 << k for k, key in enumerate(keys)
                                       if key == tuple(np.ravel(c).tolist()))
                        for j, c in enumerate(cands)
                    ]  # fmt: skip
            else:
                self.agreed += 1
        return tasks

    def _worlds(self, view: Any, rows: list[int], seeds: list[int]) -> Any:
        """`worlds` determinized worlds of each game of `rows` (game k's: rows k x worlds
        onward), all drawn in one call, each game's from its own seed (the worlds it would
        get alone). The view is the engine's own, so its rows are not checked one by one."""
        return self._spec.determinize(view, seeds, int(self.worlds), rows=rows, check_rows=False)

    def _proposals(self, view: Any) -> list[list[Any]]:
        """Each game's proposers' answers, asked on the seat's own view (all they read is what
        the seat sees), each proposer drawing from a stream of its own (`proposer_stream`):
        the seat's stream moves as it would without them."""
        if self._asked is None:
            self._asked = [spec() for spec in self.proposers]
        out: list[list[Any]] = [[] for _ in range(len(view))]
        rows = np.arange(len(view))
        for k, proposer in enumerate(self._asked):
            acts = getattr(proposer, view.kind.value)(
                sub_view(view, rows, proposer_stream(view, k))
            )
            for row, a in enumerate(np.asarray(acts)):
                out[row].append(a)
        return out

    def _candidates(self, view: Any, row: int, base: np.ndarray, draws: Draws) -> list:
        """The actions tried: the rollout policy's first, then others (at most `candidates`;
        a row of numbers: the game's `row_candidates`)."""
        limit = int(self.candidates)
        if view.kind.value in self.VECTOR_KINDS:
            return self.row_candidates(view, row, base, limit)
        legal = np.flatnonzero(view.legal[row])
        others = legal[legal != int(base)]
        if len(others) + 1 > limit:
            others = np.sort(others[draws.permutation(len(others))[: limit - 1]])
        return [int(base)] + others.tolist()

    def _search(self, view: Any, tasks: list, seeds: list[int]) -> list[np.ndarray]:
        """Each task's candidate values: successive halving over worlds drawn from `seeds`,
        every round's rollouts of every game in one batch."""
        w_total = int(self.worlds)
        worlds = self._worlds(view, [row for row, _, _ in tasks], seeds)
        alive = [np.arange(len(c)) for _, c, _ in tasks]
        sums = [np.zeros(len(c)) for _, c, _ in tasks]
        counts = [np.zeros(len(c)) for _, c, _ in tasks]
        # each task's own plan (its candidates, not the batch's: a game plays the same in any
        # batch), the plans aligned on their last round
        plans = [halving(len(c), w_total) for _, c, _ in tasks]
        rounds = max(len(p) for p in plans)
        done = [0] * len(tasks)
        for r in range(rounds):
            fresh = []
            for k, plan in enumerate(plans):
                j = r - (rounds - len(plan))
                upto = plan[j] if j >= 0 else done[k]
                fresh.append(np.arange(done[k], max(upto, done[k])))
                done[k] = max(upto, done[k])
            if any(len(f) for f in fresh):
                values = self._rollouts(view, tasks, alive, worlds, fresh)
                for k, v in enumerate(values):
                    sums[k][alive[k]] += v.sum(axis=1)
                    counts[k][alive[k]] += len(fresh[k])
            for k, plan in enumerate(plans):
                if 0 <= r - (rounds - len(plan)) < len(plan) - 1:
                    mean = sums[k][alive[k]] / counts[k][alive[k]]
                    order = np.argsort(-mean, kind="stable")  # ties: the earlier candidate
                    alive[k] = np.sort(alive[k][order[: math.ceil(len(order) / 2)]])
        out = []
        for k in range(len(tasks)):
            mean = np.full(len(sums[k]), -np.inf)
            mean[alive[k]] = sums[k][alive[k]] / counts[k][alive[k]]
            out.append(mean)
        if self.record is not None:  # every candidate's mean over the worlds it was tried in
            self._means = [(s / np.maximum(c, 1), c.astype(np.int64))
                           for s, c in zip(sums, counts, strict=True)]  # fmt: skip
        self.searched += len(tasks)
        return out

    def _rollouts(self, view: Any, tasks: list, alive: list[np.ndarray], worlds: Any,
                  fresh: list[np.ndarray]) -> list[np.ndarray]:  # fmt: skip
        """Play candidate x world copies: each task k's alive candidates in its worlds
        `fresh[k]` (world w of task k is row k * worlds + w); returns [alive, fresh] values
        per task. The games of a batch may stand in different rounds at one decision: each
        round's tasks are played apart, to their own horizon."""
        out: list[np.ndarray] = [np.zeros((len(a), 0)) for a in alive]
        rounds = [self.round_of(view, row) for row, _, _ in tasks]
        for now in sorted(set(rounds)):
            group = [k for k, r in enumerate(rounds) if r == now and len(fresh[k])]
            if group:
                for k, v in zip(group, self._play(view, tasks, alive, worlds, fresh, group, now),
                                strict=True):  # fmt: skip
                    out[k] = v
        return out

    def _play(self, view: Any, tasks: list, alive: list[np.ndarray], worlds: Any,
              fresh: list[np.ndarray], group: list[int], now: int) -> list[np.ndarray]:  # fmt: skip
        """`_rollouts` of the tasks `group`, whose games stand in round `now`."""
        w_total, q = int(self.worlds), self.seat
        numbered = getattr(view, "games", None)
        rows, chosen, spans, numbers = [], [], [], []
        for k in group:
            row, cands, _ = tasks[k]
            start = len(rows)
            game = int(numbered[row]) if numbered is not None else row
            first = game * int(self.candidates) * w_total
            for c in alive[k].tolist():
                rows.extend((k * w_total + fresh[k]).tolist())
                numbers.extend((first + c * w_total + fresh[k]).tolist())
                chosen.extend([cands[c]] * len(fresh[k]))
            spans.append((start, len(rows)))
        # copies of one world: the same chance; each numbered by its game, candidate and
        # world alone (a mixture's per-game draw reads the number), whatever the batch holds
        copies = worlds.clone(rows=np.asarray(rows), games=np.asarray(numbers))
        rules = self.rules or view.rules
        if self._players is None:  # one instance per seat, kept for every rollout
            self._players = [self.own_spec() if s == q else self.rival_spec()
                             for s in range(rules.players)]  # fmt: skip
        players = self._players
        [pend] = copies.pending()  # every copy at the decision searched
        own = pend.seat == q
        if view.kind.value in self.AT_ONCE:  # taken at once: only the searching seat's answer
            # is given; the rivals answer as the model says when the copies play on (compiled,
            # where the model has a compiled form: the same answers as asked through views)
            mine = pend.subset(np.flatnonzero(own))
            copies.apply(mine, np.stack([chosen[r] for r in mine.rows.tolist()]))
        else:
            copies.apply(pend, np.asarray([chosen[r] for r in pend.rows.tolist()],
                                          dtype=np.int64))  # fmt: skip
        if copies.ROUNDS:  # a game played in rounds: to the horizon
            last = None if int(self.horizon) < 0 else now + int(self.horizon)
            copies.play(players, last_round=last)
        else:
            copies.play(players)
        self.rollouts += len(rows)
        values = rollout_values(copies, q, float(self.lead))
        return [
            values[a:b].reshape(len(alive[k]), len(fresh[k]))
            for k, (a, b) in zip(group, spans, strict=True)
        ]

    def _choose(self, kind: str, values: np.ndarray, draws: Draws) -> int:
        """The best candidate; a decision taken at once by softmax over the values."""
        t = float(self.temperature)
        if kind not in self.AT_ONCE or t == 0:
            return int(np.argmax(values))  # ties: the earlier (the rollout policy's first)
        z = np.where(np.isfinite(values), values / t, -np.inf)
        p = np.exp(z - z.max())
        p /= p.sum()
        return int(min(np.searchsorted(np.cumsum(p), draws.uniform(1)[0], side="right"),
                       len(p) - 1))  # fmt: skip


def proposer_stream(view: Any, k: int) -> SeatRandom:
    """Proposer k's draws at this decision: its own stream (id `DRAWS_STREAM` + 1 + k) in a
    stream space of its own (`PROPOSE_SEED`) keyed by each game's seat stream, read from
    where the seat's stream stands (a new place at every decision), so that no game's
    chance or seat stream is read and a game draws the same alone or in any batch."""
    ids = np.array([DRAWS_STREAM + 1 + k], dtype=np.uint64)
    keys = stream_keys(PROPOSE_SEED, view.rng.keys, ids)[:, 0]
    return SeatRandom(keys, view.rng.position)


def strongest_below(players: int, game: str) -> str:
    """What `auto` plays at this player count: the strongest shipped field below search, the
    game's L3 where one ships for this count, else `tuned` (docs/running.md, "Skill
    levels")."""
    try:
        return level_spec("L3", players, game)
    except UnknownStrategyError:
        return "tuned"


def proposers(text: str, game: str) -> list[StrategySpec]:
    """`propose`'s strategies: comma-separated specs (a spec's own commas kept), a learned
    policy standing for its experts; none may search."""
    out: list[StrategySpec] = []
    for part in (x.strip() for x in split_top(text, ",")):
        if not part:
            continue
        spec = _checked(load_strategy(part, game))
        experts = getattr(spec(), "experts", None) if spec.cls.name == "learned" else None
        out += [_checked(e) for e in experts] if experts else [spec]
    return out


def _checked(spec: StrategySpec) -> StrategySpec:
    """A rollout or opponent spec: anything but a search (rollouts cannot search)."""
    if issubclass(spec.cls, Search):
        raise UnknownStrategyError(
            "strategy 'search': rollouts cannot search (give another strategy as rollout "
            "and opponents)"
        )
    return spec


def halving(candidates: int, worlds: int) -> list[int]:
    """Successive halving's plan: after each round the better half of the candidates goes
    on; round r evaluates them on the first plan[r] worlds (each candidate keeps its earlier
    rollouts), the last round on all `worlds`. ceil(log2(candidates)) rounds (at least 1);
    the first on worlds / 2**(rounds - 1) worlds (at least 1), doubling."""
    rounds = max(1, math.ceil(math.log2(max(candidates, 1))))
    return [max(1, math.ceil(worlds / 2 ** (rounds - 1 - r))) for r in range(rounds)]


def rollout_values(games: Any, seat: int, lead: float = LEAD_SCALE) -> np.ndarray:
    """[B] what each rollout is worth to `seat`: its share of the win where the game ended,
    else a logistic of its score lead over the best rival (`lead` points worth e)."""
    scores = games.scores().astype(float)
    mine = scores[:, seat]
    rivals = np.delete(scores, seat, axis=1).max(axis=1)
    value = 1.0 / (1.0 + np.exp(-(mine - rivals) / lead))
    return np.where(games.over(), np.nan_to_num(games.returns()[:, seat]), value)
