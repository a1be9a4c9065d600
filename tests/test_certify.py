"""The exploitability certificate (moaisim/studies/certify.py): computed against the exact
shipped mixture file, refused for members nobody can replay, every family built as said, and
a best response outside one CMA-ES start's basin found by another start."""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from moaisim.analysis.stats import wilson
from moaisim.errors import UserError
from moaisim.registry import load_strategy
from moaisim.strategies.moai.heuristic import NAMES
from moaisim.strategies.moai.restrict import FORBID
from moaisim.studies import certify as cf

WEIGHTS = Path(__file__).resolve().parents[1] / "strategies" / "moai" / "weights"
NASH3 = WEIGHTS / "nash-3p.toml"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_wilson_at_any_level_is_statsmodels_wilson_interval():
    for k, n, level in ((7, 20, 0.95), (130.5, 600, 0.99), (3, 400, 1 - 0.05 / 5)):
        lo, hi = wilson(k, n, level)
        want = proportion_confint(k, n, alpha=1 - level, method="wilson")
        assert np.allclose([lo, hi], want, atol=1e-12)


def test_a_mixture_whose_member_is_not_shipped_is_refused(tmp_path):
    mine = write(tmp_path / "mine.toml", "[weights]\nheight = 3.0\n")
    wrapped = f"restrict(strategy=\"heuristic(weights='{mine}')\", forbid=['raid'])"
    members = [f"heuristic(weights={str(mine)!r})", "plugins.cautious:NeverBids", wrapped]
    for member in members:
        key = member.replace("\\", "\\\\").replace('"', '\\"')
        bad = write(tmp_path / "bad.toml", f'players = 3\n[mixture]\n"{key}" = 1.0\n')
        with pytest.raises(UserError, match="is not shipped") as info:
            cf.shipped_mixture(bad, game="moai")
        assert "\n" not in str(info.value)
    nobody = write(tmp_path / "nobody.toml", "[mixture]\ntuned = 0.5\nforester = 0.5\n")
    with pytest.raises(UserError, match="player count"):
        cf.shipped_mixture(nobody, game="moai")
    with pytest.raises(UserError, match="no .mixture. table"):
        cf.shipped_mixture(write(tmp_path / "empty.toml", "players = 3\n"), game="moai")
    moai = str(WEIGHTS / "moai.toml")
    text = f'players = 3\n[mixture]\ntuned = 0.5\n"heuristic(weights={moai!r})" = 0.5\n'
    fine = write(tmp_path / "fine.toml", text)
    assert cf.shipped_mixture(fine, game="moai").players == 3


def test_the_certificate_names_the_mixture_file_and_its_bytes(tmp_path):
    cert = cf.certify(
        NASH3, tmp_path / "c", families=["library"], games=2, held_out_games=2, game="moai"
    )
    assert cert.mixture == str(NASH3.resolve())
    assert cert.digest == hashlib.sha256(NASH3.read_bytes()).hexdigest()
    report = (tmp_path / "c" / "certificate-3p.md").read_text()
    assert "strategies/moai/weights/nash-3p.toml" in report and cert.digest[:16] in report
    t = cert.table()
    assert sorted(t["challenger"]) == sorted(["greedy", "heuristic", "moai", "fisher", "forester",
                                              "breeder", "raider", "bidder", "tuned"])  # fmt: skip
    assert (t["games"] == 2 * 3).all() and (t["held_out_games"] > 0).sum() == 1
    # the same directory with other settings is refused, not mixed
    with pytest.raises(UserError, match="other settings"):
        cf.certify(NASH3, tmp_path / "c", families=["library"], games=2, held_out_games=2,
                   epsilon=0.05, game="moai")  # fmt: skip
    # resumed with the same settings: nothing played again, the same table
    again = cf.certify(
        NASH3, tmp_path / "c", families=["library"], games=2, held_out_games=2, game="moai"
    )
    assert again.table().equals(t)


def test_a_certificate_of_other_member_weights_is_refused_not_resumed(tmp_path, monkeypatch):
    # nash-<P>p.toml may stay the same while the `tuned` file it names changes: the state
    # records the shipped strategies' digest, and a run after new weights ship is refused
    cf.certify(NASH3, tmp_path / "c", families=["library"], games=2, held_out_games=2, game="moai")
    monkeypatch.setattr(cf, "play_digest", lambda: "new tuned weights")
    with pytest.raises(UserError, match=r"other settings \(strategies\)"):
        cf.certify(
            NASH3, tmp_path / "c", families=["library"], games=2, held_out_games=2, game="moai"
        )


def test_restrict_and_deviation_families_cover_every_member_mechanism_and_weight(tmp_path):
    # a mixture of `tuned` and a shipped weights file (the shipped L3's members change)
    mixture = tmp_path / "mix-3p.toml"
    mixture.write_text(
        "players = 3\n[mixture]\ntuned = 0.6\n\"heuristic(shipped='l3-3p-r3-1.toml')\" = 0.4\n"
    )
    mix = cf.shipped_mixture(mixture, game="moai")
    found = cf.challengers(mix, ["restrict", "deviations"], tmp_path, step=0.5)
    restrict = [c for c in found if c.family == "restrict"]
    assert len(restrict) == len(mix.members) * len(FORBID)
    assert "restrict(strategy='tuned', forbid=['raid'])" in {c.spec for c in restrict}
    dev = [c for c in found if c.family == "deviations"]
    # tuned, the plans and heuristic(...) members are weight vectors: every weight, up and down
    family = {"tuned", "heuristic", "moai", "forester", "breeder", "raider", "bidder"}
    vectors = [m for m in mix.members if m.split("(")[0] in family]
    assert "tuned" in vectors and len(dev) == len(vectors) * len(NAMES) * 2
    for c in dev:  # every file is a weights file heuristic plays (zero weights moved too)
        assert load_strategy(c.spec)().name == "heuristic"
    tuned = tomllib.loads((WEIGHTS / "tuned-3p.toml").read_text())["weights"]
    name = next(k for k, v in tuned.items() if v != 0)
    ups = [c for c in dev if c.made.startswith(f"tuned with {name} ")]
    assert len(ups) == 2
    for c in ups:
        path = Path(c.spec.split("weights=")[1].strip(")'"))
        moved = tomllib.loads(path.read_text())["weights"]
        changed = [k for k in moved if not np.isclose(moved[k], tuned.get(k, moved[k]))]
        assert changed == [name]
        assert np.isclose(abs(moved[name] / tuned[name] - 1), 0.5)


@pytest.mark.slow
def test_a_best_response_outside_one_starts_basin_is_found_by_another_start(tmp_path):
    """Planted with shipped files: against a 2-player field of `forester` alone, one CMA-ES
    generation from forester's own weights stays near the field (gain near 0), while the
    2-player `tuned` weights sit in another basin (they beat forester at about 0.74, docs/
    strategies.md, "Tuning"). The multi-start family's best comes from that start, its
    held-out gain clearly above fair."""
    field = write(tmp_path / "forester-2p.toml", "players = 2\n[mixture]\nforester = 1.0\n")
    cert = cf.certify(field, tmp_path / "c", families=["cma"], games=60, held_out_games=150,
                      cma_generations=1, cma_games=30, cma_popsize=4, random_starts=0,
                      starts=[WEIGHTS / "forester.toml", WEIGHTS / "tuned-2p.toml"],
                      game="moai")  # fmt: skip
    best = cert.best().loc["cma"]
    assert "from tuned-2p" in best["made"]
    assert best["held_out_lo"] > 0.1, best.to_dict()
    near = next(c for c in cert.challengers if "from forester" in c.made)
    assert abs(near.share - 0.5) < 0.15  # the member's own basin: about fair


def test_bad_settings_get_one_line_and_write_nothing(tmp_path):
    for kw, match in ((dict(families=["libary"]), "unknown challenger family 'libary'"),
                      (dict(games=0), "games must be"), (dict(epsilon=1.5), "epsilon"),
                      (dict(step=0), "step"),
                      (dict(families=["files", "learned"], files=str(tmp_path / "none/*.toml"),
                            learned=str(tmp_path / "none/*.json")),
                       "no challenger of the files and learned families")):  # fmt: skip
        # at 2 players no learned policy ships (at 3-5 a ranker does: ranker-3p.json...)
        with pytest.raises(UserError, match=match):
            cf.certify(WEIGHTS / "nash-2p.toml", tmp_path / "x", **kw, game="moai")
    assert not (tmp_path / "x").exists()


def test_the_verdict_says_certified_beaten_or_too_wide_from_the_held_out_bounds():
    def cert(held: list[tuple[float, int]]) -> cf.Certificate:
        c = cf.Certificate(
            "m.toml", "0" * 64, 3, 0.02, 10, 100, 0, ["library", "restrict"], game="moai"
        )
        for fam, (share, n) in zip(c.families, held, strict=True):
            c.challengers.append(cf.Challenger(fam, f"{fam}-best", "", 0.4, 30, share, n))
            c.challengers.append(cf.Challenger(fam, f"{fam}-other", "", 0.3, 30))
        return c

    # 1/3 - 0.05 over 30 000 games: the simultaneous upper bound is about -0.04, below 0.02
    assert cert([(1 / 3 - 0.05, 30_000), (1 / 3 - 0.06, 30_000)]).certified
    beaten = cert([(0.5, 3000), (1 / 3 - 0.06, 30_000)])
    assert not beaten.certified
    assert "beaten by library-best (library): +0.167" in beaten.verdict()
    wide = cert([(1 / 3, 60), (1 / 3 - 0.06, 30_000)])
    assert not wide.certified and "no challenger is shown to gain" in wide.verdict()
    assert list(beaten.best()["challenger"]) == ["library-best", "restrict-best"]


def test_heuristic_shipped_names_a_shipped_weights_file_from_any_directory(tmp_path, monkeypatch):
    from moaisim.errors import UnknownStrategyError
    from moaisim.registry import load_strategy
    from moaisim.strategies.moai import heuristic as h

    monkeypatch.chdir(tmp_path)  # not the checkout: a path would not resolve, a name does
    four = load_strategy("heuristic(shipped='tuned-4p.toml')")()
    assert np.array_equal(four.w, h.vector(h.shipped("tuned-4p.toml")))
    over = load_strategy("heuristic(shipped='tuned-4p.toml', weights={'wood': 1.25})")()
    assert over.w[h.INDEX["wood"]] == 1.25
    assert np.array_equal(np.delete(over.w, h.INDEX["wood"]), np.delete(four.w, h.INDEX["wood"]))
    for bad, message in (("x.toml", "no shipped weights file 'x.toml'"),
                         ("../moai.toml", "by its name"), ("nash-3p.toml", "by its name"),
                         ("tuned-4p", "by its name")):  # fmt: skip
        with pytest.raises(UnknownStrategyError, match=message):
            load_strategy(f"heuristic(shipped={bad!r})")()
    with pytest.raises(UnknownStrategyError, match="heuristic's parameter"):
        load_strategy("tuned(shipped='moai.toml')")()
    # a mixture file naming shipped members by name is certifiable
    text = "players = 3\n[mixture]\n\"heuristic(shipped='tuned-4p.toml')\" = 0.5\ntuned = 0.5\n"
    mix = cf.shipped_mixture(write(tmp_path / "m.toml", text), game="moai")
    assert mix.members == {"heuristic(shipped='tuned-4p.toml')": 0.5, "tuned": 0.5}


def test_restrict_family_widens_a_member_that_is_already_a_restriction(tmp_path):
    # the 5-player L3 is a ranker that never raids: forbidding raid again is the member
    # itself, so its restrictions keep 'raid' and add each other mechanism once
    mixture = tmp_path / "mix-3p.toml"
    mixture.write_text(
        "players = 3\n[mixture]\n\"restrict(strategy='tuned', forbid=['raid'])\" = 1.0\n"
    )
    mix = cf.shipped_mixture(mixture, game="moai")
    specs = {c.spec for c in cf.challengers(mix, ["restrict"], tmp_path, step=0.5)}
    assert len(specs) == len(FORBID) - 1
    assert "restrict(strategy='tuned', forbid=['raid', 'boat'])" in specs
    assert all("'raid'" in s and "restrict(strategy='restrict" not in s for s in specs)
