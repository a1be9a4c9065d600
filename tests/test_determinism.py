"""Seeds (docs/design.md): game i of seed S is a pure function of (S, i)."""

from __future__ import annotations

import numpy as np

import moaisim
from moaisim.games.moai.engine.chance import Chance
from moaisim.rng import Streams


def test_game_i_alone_equals_game_i_after_others():
    alone = moaisim.play(4, seed=99, game=5, strategies="random").events
    for g in range(5):
        moaisim.play(4, seed=99, game=g, strategies="random")
    assert moaisim.play(4, seed=99, game=5, strategies="random").events == alone


def test_different_games_and_seeds_differ():
    a = moaisim.play(3, seed=1, game=0, strategies="random").events
    assert moaisim.play(3, seed=1, game=1, strategies="random").events != a
    assert moaisim.play(3, seed=2, game=0, strategies="random").events != a


def test_streams_vectorised_equal_one_game():
    many = Streams(12345, np.arange(50), 5)
    rows = np.arange(50)
    many.seat(3, rows[::2]).uniform(7)  # other games and streams advance first
    chance = many.chance(Chance.DEAL, rows, 4)
    seat = many.seat(0, rows).uniform(4)
    for g in (0, 17, 49):
        one = Streams(12345, [g], 5)
        assert np.array_equal(one.chance(Chance.DEAL, [0], 4)[0], chance[g])
        assert np.array_equal(one.seat(0, np.zeros(1, dtype=np.int64)).uniform(4)[0], seat[g])


def test_seat_streams_do_not_shift_chance():
    s1 = Streams(7, [3], 4)
    s2 = Streams(7, [3], 4)
    s2.seat(2, np.zeros(1, dtype=np.int64)).uniform(1000)  # a strategy draws a lot
    for purpose in Chance:
        assert np.array_equal(s1.chance(purpose, [0], 10), s2.chance(purpose, [0], 10))


def test_chance_sub_streams_and_seat_streams_are_distinct():
    s = Streams(7, [3], 4)
    row = np.zeros(1, dtype=np.int64)
    draws = [s.chance(p, row, 8)[0] for p in Chance]
    draws += [Streams(7, [3], 4).seat(q, row).uniform(8)[0] for q in range(4)]
    assert len({d.tobytes() for d in draws}) == len(draws)


def test_a_chance_draw_at_an_offset_continues_the_sub_stream():
    s = Streams(5, [0, 1], 2)
    whole = s.chance(Chance.RESHUFFLE, [0, 1], 30)
    assert np.array_equal(
        s.chance(Chance.RESHUFFLE, [0, 1], 10, start=[20, 5]),
        np.stack([whole[0, 20:30], whole[1, 5:15]]),
    )


def test_streams_are_uniform_enough():
    u = Streams(0, np.arange(1000), 1).chance(Chance.DEAL, np.arange(1000), 200).ravel()
    assert abs(u.mean() - 0.5) < 0.005
    hist, _ = np.histogram(u, bins=10, range=(0, 1))
    assert hist.min() > 0.9 * len(u) / 10


def test_stream_values_match_splitmix64_in_python_integers():
    """The compiled uniforms equal SplitMix64's finaliser worked out in Python's unbounded
    integers (mod 2**64): value j of a stream with key K is mix(K + j * golden) >> 11, over
    2**53."""
    from moaisim.rng import _uniforms

    mask = (1 << 64) - 1

    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    keys = [0, 1, 0x0123456789ABCDEF, mask]
    starts = [0, 5, 2**40, mask - 1]
    got = _uniforms(np.array(keys, dtype=np.uint64), np.array(starts, dtype=np.uint64), 3)
    for r, (key, start) in enumerate(zip(keys, starts, strict=True)):
        for j in range(3):
            z = mix((key + ((start + j) & mask) * 0x9E3779B97F4A7C15) & mask)
            assert got[r, j] == (z >> 11) / 2**53
