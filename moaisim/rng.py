"""Per-game counter-based random streams (docs/design.md, "Seeds" and "Common random numbers").

Game i of root seed S has one stream per seat for that seat's strategy (stream 1 + s) and one
chance sub-stream per purpose. Value j of a stream is a pure function of (S, i, stream, j): a
SplitMix64-style hash of a per-stream key and the counter j. Nothing depends on how many games
are drawn together, so one game alone and the same game inside any batch get the same numbers.
No global random state is used.

Chance is split by purpose, and each purpose reads fixed positions of its own sub-stream, so a
variant never shifts the chance of the parts of the game it does not change: a seat stream
keeps a counter (a strategy draws what it needs), chance does not. This module is the
mechanism only: a purpose is a number from 0 to `PURPOSES` - 1, and each game names its own
purposes in its package (an `IntEnum`: Moai's in `moaisim.games.moai.engine.chance`, Rapa
Nui's in `moaisim.games.rapa_nui.engine.chance`). A purpose's stream depends on its number
alone, so two games may use the same numbers, and raising `PURPOSES` changes no stream.
"""

from __future__ import annotations

import numpy as np

from moaisim.jit import kernel

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S30, _S27, _S31, _S11 = (np.uint64(k) for k in (30, 27, 31, 11))
_TO_UNIT = 2.0**-53


#: The chance purposes a game may name: the numbers 0 .. PURPOSES - 1 (the keys of each are
#: made with the streams: `Streams.chance_keys` has one column per number).
PURPOSES = 8
#: Stream ids of the chance purposes, apart from the seats' streams 1, 2, ...
CHANCE_BASE = 1 << 32


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser on a uint64 array (wrapping arithmetic)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def seat_stream(seat: int) -> int:
    """Stream id of a seat's strategy."""
    return 1 + seat


def chance_stream(purpose: int) -> int:
    """Stream id of a chance purpose (its number, 0 .. `PURPOSES` - 1)."""
    number = int(purpose)
    if not 0 <= number < PURPOSES:
        raise ValueError(f"a chance purpose is a number from 0 to {PURPOSES - 1}, got {purpose!r}")
    return CHANCE_BASE + number


def stream_keys(root_seed: int | np.ndarray, games: np.ndarray, streams: np.ndarray) -> np.ndarray:
    """Keys [len(games), len(streams)] of the given stream ids of the games of a root seed
    (or of each game's own root seed: a uint64 array, one per game)."""
    if isinstance(root_seed, np.ndarray):
        if root_seed.dtype != np.uint64 or root_seed.shape != (len(games),):
            raise ValueError("root seeds must be a uint64 array, one per game")
        roots = root_seed.reshape(-1, 1)
    elif not 0 <= root_seed < 2**64:
        raise ValueError(f"root seed must be in [0, 2**64), got {root_seed}")
    else:
        roots = np.array([root_seed], dtype=np.uint64)
    g = np.asarray(games, dtype=np.uint64).reshape(-1, 1)
    s = np.asarray(streams, dtype=np.uint64).reshape(1, -1)
    with np.errstate(over="ignore"):
        root = _mix(roots + _GOLDEN)
        return _mix(_mix(root + g * _GOLDEN) + (s + np.uint64(1)) * _M2)


def _uniforms(keys: np.ndarray, start: np.ndarray, k: int) -> np.ndarray:
    """Values start..start+k-1 of the streams with these keys, as uniforms [len(keys), k]."""
    # contiguous writable copies where needed: one layout, so the kernel compiles once
    keys = np.require(keys, dtype=np.uint64, requirements=("C", "W"))
    start = np.require(start, dtype=np.uint64, requirements=("C", "W"))
    return _uniform_kernel(keys, start, int(k))


@kernel
def _uniform_kernel(keys: np.ndarray, start: np.ndarray, k: int) -> np.ndarray:
    """`_uniforms` in one pass: `_mix` of key + (start + j) * golden, top 53 bits scaled to
    [0, 1). Every constant is a uint64, so the arithmetic wraps as numpy's does."""
    n = len(keys)
    out = np.empty((n, k), dtype=np.float64)
    for r in range(n):
        for j in range(k):
            out[r, j] = unit(keys[r], start[r] + np.uint64(j))
    return out


@kernel
def unit(key: np.uint64, j: np.uint64) -> float:
    """Value j of the stream with this key as a uniform in [0, 1): `_mix` of key + j * golden,
    its top 53 bits scaled (both arguments uint64: the arithmetic wraps as numpy's does). The
    compiled path draws a seat's values one at a time with it."""
    z = key + j * _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    z = z ^ (z >> _S31)
    return np.float64(z >> _S11) * _TO_UNIT


class Streams:
    """The random streams of a set of games: the chance sub-streams and one stream per seat.

    `chance(purpose, rows, k, start)` returns values start..start+k-1 of a chance sub-stream
    for each selected game (row). `seat(s, rows)` is the handle a strategy gets on seat s's
    stream, whose counter advances as the strategy draws.
    """

    def __init__(self, root_seed: int | np.ndarray, games: np.ndarray | list[int],
                 players: int) -> None:  # fmt: skip
        """The streams of `games` of root seed `root_seed`, or of each game's own root seed
        (a uint64 array, one per game: game i's streams those of `Streams(root_seed[i],
        [games[i]], players)`, as a search's worlds of many games need)."""
        self.root_seed = root_seed if isinstance(root_seed, np.ndarray) else int(root_seed)
        self.games = np.asarray(games, dtype=np.int64)
        ids = [seat_stream(s) for s in range(players)] + [chance_stream(c) for c in range(PURPOSES)]
        keys = stream_keys(self.root_seed, self.games, np.array(ids, dtype=np.uint64))
        self.seat_keys = keys[:, :players]
        self.chance_keys = keys[:, players:]
        # one counter array per seat, so a seat's handle holds its own stream only
        self.counters = [np.zeros(len(self.games), dtype=np.uint64) for _ in range(players)]

    def take(self, rows: np.ndarray) -> Streams:
        """The streams of the games at `rows` (a row may repeat), where they stand: a copy's
        chance and seat streams go on exactly as the original's."""
        out = Streams.__new__(Streams)
        out.root_seed, out.games = self.root_seed, self.games[rows]
        out.seat_keys, out.chance_keys = self.seat_keys[rows], self.chance_keys[rows]
        out.counters = [c[rows] for c in self.counters]
        return out

    @staticmethod
    def concat(parts: list[Streams]) -> Streams:
        """The streams of several sets of games, one after the other (each keeps its own
        keys, so games of different root seeds can share a batch)."""
        out = Streams.__new__(Streams)
        out.root_seed = parts[0].root_seed
        out.games = np.concatenate([p.games for p in parts])
        out.seat_keys = np.concatenate([p.seat_keys for p in parts])
        out.chance_keys = np.concatenate([p.chance_keys for p in parts])
        out.counters = [np.concatenate(c) for c in zip(*(p.counters for p in parts), strict=True)]
        return out

    def chance(
        self, purpose: int, rows: np.ndarray, k: int, start: np.ndarray | int = 0
    ) -> np.ndarray:
        """[len(rows), k] uniforms: values start..start+k-1 of the chance sub-stream of a
        purpose (its number: a member of the game's own purposes enum)."""
        rows = np.asarray(rows, dtype=np.int64)
        first = np.broadcast_to(np.asarray(start, dtype=np.uint64), rows.shape)
        chance_stream(purpose)  # a number outside 0 .. PURPOSES - 1 is refused
        return _uniforms(self.chance_keys[rows, int(purpose)], first, k)

    def seat(self, seat: int, rows: np.ndarray) -> SeatRandom:
        """A handle on seat `seat`'s strategy stream for the games at `rows`, holding copies
        only; `advance` then moves the stream on by what the handle drew."""
        return SeatRandom(self.seat_keys[rows, seat].copy(), self.counters[seat][rows].copy())

    def advance(self, seat: int, rows: np.ndarray, handle: SeatRandom) -> None:
        """Move seat `seat`'s stream of the games at `rows` past the values `handle` drew."""
        if handle.drawn:
            self.counters[seat][rows] += np.uint64(handle.drawn)


class SeatRandom:
    """A seat's strategy stream for the games of one view: `uniform(k)` -> [n, k].

    It holds its own copies of that stream's keys and positions only: a strategy cannot read
    or shift the game's chance, another seat's stream or another game's.
    """

    def __init__(self, keys: np.ndarray, start: np.ndarray) -> None:
        self.__keys, self.__start = keys, start
        self.__drawn = 0

    @property
    def drawn(self) -> int:
        """Values drawn per game so far."""
        return self.__drawn

    @property
    def keys(self) -> np.ndarray:
        """[n] the stream's keys (a copy): what identifies this seat's stream in each game,
        for draws of a stream space of one's own (the `mixture` strategy's component draw)."""
        return self.__keys.copy()

    @property
    def position(self) -> np.ndarray:
        """[n] where the next value of each game's stream is (a copy): a handle made with
        `SeatRandom(keys, position)` over some of the games draws what this one would."""
        return self.__start + np.uint64(self.__drawn)

    def uniform(self, k: int = 1) -> np.ndarray:
        """k uniforms in [0, 1) per game of the view."""
        k = int(k)
        out = _uniforms(self.__keys, self.__start + np.uint64(self.__drawn), k)
        self.__drawn += k
        return out

    def choice(self, legal: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per game (one value drawn per game).

        legal is [n, A] bool with at least one True per row; returns [n] action indices.
        """
        u = self.uniform(1)[:, 0]
        rows, cols = np.nonzero(legal)  # the legal actions, row by row, each row's ascending
        counts = np.bincount(rows, minlength=len(legal))
        k = np.minimum((u * counts).astype(np.int64), counts - 1)
        first = np.cumsum(counts) - counts  # where each row's legal actions start in `cols`
        out = np.zeros(len(legal), dtype=np.int64)  # a row with nothing legal: 0, as before
        has = counts > 0
        out[has] = cols[(first + k)[has]]
        return out


#: The stream id of `Draws` (apart from the seats' and the chance purposes' ids).
DRAWS_STREAM = CHANCE_BASE + 1024


class Draws:
    """A counter-based stream of uniforms of its own, for what a strategy samples (a search's
    worlds and rollouts): value j is a pure function of (seed, j), so a search seeded from
    its seat's stream (`SeatRandom.uniform`) is as reproducible as the game."""

    def __init__(self, seed: int) -> None:
        seed = int(seed) % 2**64
        self.__key = stream_keys(seed, np.zeros(1, dtype=np.int64),
                                 np.array([DRAWS_STREAM], dtype=np.uint64))[:, 0]  # fmt: skip
        self.__pos = 0

    def uniform(self, k: int = 1) -> np.ndarray:
        """k uniforms in [0, 1)."""
        out = _uniforms(self.__key, np.array([self.__pos], dtype=np.uint64), int(k))[0]
        self.__pos += int(k)
        return out

    def permutation(self, n: int) -> np.ndarray:
        """A uniformly random order of 0..n-1 (the argsort of n uniforms)."""
        return np.argsort(self.uniform(n), kind="stable")

    def seed(self) -> int:
        """A new 64-bit seed (for a stream space of its own: `Streams(seed, ...)`)."""
        u = self.uniform(2)
        return int(u[0] * 2**32) * 2**32 + int(u[1] * 2**32)
