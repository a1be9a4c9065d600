"""What search (L4) costs: CPU seconds per searching seat and game, for every game and player
count, one searching seat against the game's L3 (as `versus` and a study's strongest check
play it), and in L4 self-play (a check field: every seat searches).

Each setting plays `--games` games in one batch (a study plays search's games in chunks of
thousands; a small batch costs more a game, since each decision's Python is shared by the
games at it), after a two-game warm-up that loads the kernels. The win share of seat 0 is
printed beside the cost, so two runs that should play the same games can be compared.

`--against SPEC` plays a second searching spec on the very same games (the same deals, the
searching seat rotated through every seat, the rivals the same: L3, or `--field`), and
prints each one's cost and win share and the paired difference of their win shares, game by
game, with its 95 % interval (Student's t, scipy): whether a cheaper search is as strong.

    .venv/bin/python benchmarks/search_cost.py                       # both games, 300 games
    .venv/bin/python benchmarks/search_cost.py --game moai --players 4 --games 100 --self-play
    .venv/bin/python benchmarks/search_cost.py --game moai --against "search(worlds=8)" --games 1200
    .venv/bin/python benchmarks/search_cost.py --game rapa-nui --against "search(rollout=auto)" \
        --field tuned
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

from moaisim.analysis.stats import wilson
from moaisim.errors import UnknownStrategyError
from moaisim.games import load_game
from moaisim.registry import level_spec, load_strategy


def played(game: str, players: int, lineup: list[str], numbers: np.ndarray,
           seed: int) -> tuple[float, np.ndarray]:  # fmt: skip
    """CPU seconds of games `numbers` of `seed` played by `lineup` in one batch (after a
    two-game warm-up that loads the kernels), and each game's shares of the win [n, P]."""
    spec = load_game(game)
    rules = spec.make_rules(players)
    spec.Games.new(rules, seed + 1, np.arange(2)).play([load_strategy(s, game)() for s in lineup])
    seated = [load_strategy(s, game)() for s in lineup]
    batch = spec.Games.new(rules, seed, numbers)
    start = time.process_time()
    batch.play(seated)
    return time.process_time() - start, batch.returns()


def cost(game: str, players: int, lineup: list[str], games: int, seed: int) -> tuple[float, float]:
    """CPU seconds per searching seat and game of `games` games of `lineup`, and seat 0's
    win share."""
    cpu, shares = played(game, players, lineup, np.arange(games), seed)
    searching = sum(1 for s in lineup if s.split("(")[0] == "search")
    return cpu / games / searching, float(shares[:, 0].mean())


def rotated(game: str, players: int, spec: str, rivals: str, games: int,
            seed: int) -> tuple[float, np.ndarray]:  # fmt: skip
    """CPU seconds per game of `spec` in one seat against `rivals`, and its share of each
    game: games 0..games-1 of `seed`, game g with the searching seat at g % players."""
    mine_shares = np.zeros(games)
    cpu = 0.0
    for seat in range(players):
        mine = np.arange(seat, games, players)
        lineup = [rivals] * players
        lineup[seat] = spec
        spent, shares = played(game, players, lineup, mine, seed)
        cpu += spent
        mine_shares[mine] = shares[:, seat]
    return cpu / games, mine_shares


def compare(game: str, counts: list[int], spec: str, other: str, games: int, seed: int,
            field: str = "L3") -> None:  # fmt: skip
    """The paired table of `--against` (the rivals: `field`, L3 by default)."""
    print(f"| game | players | games | {spec} CPU s | {other} CPU s | {spec} wins | {other} "
          "wins | difference [95 %] |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for p in counts:
        try:
            rivals = level_spec("L3", p, game) if field == "L3" else field
        except UnknownStrategyError:
            rivals = "tuned"
        c1, a = rotated(game, p, spec, rivals, games, seed)
        c2, b = rotated(game, p, other, rivals, games, seed)
        d = b - a
        lo, hi = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
        print(f"| {game} | {p} | {games} | {c1:.3f} | {c2:.3f} | {a.mean():.3f} | "
              f"{b.mean():.3f} | {d.mean():+.3f} [{lo:+.3f}, {hi:+.3f}] |", flush=True)  # fmt: skip


def main() -> None:
    """One table row per game, player count and field."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="moai,rapa-nui", help="games, comma-separated")
    ap.add_argument("--players", default="", help="player counts (default: every count)")
    ap.add_argument("--games", type=int, default=300, help="games per setting (one batch)")
    ap.add_argument("--search", default="search", help="the searching seat's spec")
    ap.add_argument("--self-play", action="store_true", help="also L4 in every seat")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--against", default="", help="a second searching spec, on the same games")
    ap.add_argument("--field", default="L3", help="the rivals of --against (default L3)")
    a = ap.parse_args()
    if a.against:
        for game in a.game.split(","):
            counts = ([int(x) for x in a.players.split(",")] if a.players
                      else list(load_game(game).INFO.players))  # fmt: skip
            compare(game, counts, a.search, a.against, a.games, a.seed, a.field)
        return
    print("| game | players | field | games | CPU s a searching seat and game | seat 0 wins "
          "[95 % Wilson] |")  # fmt: skip
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    for game in a.game.split(","):
        counts = ([int(x) for x in a.players.split(",")] if a.players
                  else list(load_game(game).INFO.players))  # fmt: skip
        for p in counts:
            try:
                rivals, name = level_spec("L3", p, game), "L3"
            except UnknownStrategyError:
                rivals, name = "tuned", "tuned"
            fields = [(f"{name}, one searching seat", [a.search] + [rivals] * (p - 1))]
            if a.self_play:
                fields.append(("L4 self-play", [a.search] * p))
            for label, lineup in fields:
                c, w = cost(game, p, lineup, a.games, a.seed)
                lo, hi = wilson(w * a.games, a.games)
                print(f"| {game} | {p} | {label} | {a.games} | {c:.3f} | {w:.3f} "
                      f"[{float(lo):.3f}, {float(hi):.3f}] |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
