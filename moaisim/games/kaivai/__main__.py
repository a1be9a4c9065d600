"""One seeded game of Kaivai in the reference engine, told in plain lines or as its record
(JSON lines), until Kaivai joins `moaisim play --game`:

    .venv/bin/python -m moaisim.games.kaivai -p 4 --seed 1            # greedy in every seat
    .venv/bin/python -m moaisim.games.kaivai -p 3 --seed 2 --random   # random bots
    .venv/bin/python -m moaisim.games.kaivai -p 4 --seed 1 --json > game.jsonl
"""

from __future__ import annotations

import argparse
import sys

from moaisim.errors import RulesError
from moaisim.games.kaivai.engine.record import narrate, to_jsonl
from moaisim.games.kaivai.engine.reference import Game, RandomStrategy
from moaisim.games.kaivai.rules.model import Rules
from moaisim.strategies.kaivai.plain import PlainGreedy


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m moaisim.games.kaivai",
                                 description=__doc__.split("\n\n")[0])  # fmt: skip
    ap.add_argument("-p", "--players", type=int, default=4, help="3 or 4")
    ap.add_argument("-s", "--seed", type=int, default=0, help="the game's root seed")
    ap.add_argument("--random", action="store_true", help="random bots instead of greedy")
    ap.add_argument("--json", action="store_true", help="print the record (JSON lines)")
    a = ap.parse_args(argv)
    try:
        rules = Rules.make(a.players)
    except RulesError as e:
        print(f"kaivai: error: {e}", file=sys.stderr)
        return 2
    seats = [RandomStrategy(s) if a.random else PlainGreedy() for s in range(a.players)]
    game = Game(rules, seats, a.seed)
    game.play()
    print(to_jsonl(game, a.seed) if a.json else "\n".join(narrate(game)), end="" if a.json
          else "\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
