"""Known challengers and the certificate history (moaisim/studies/certify.py's `files`
family, moaisim/studies/certificate_history.py): every field study's challenger file is tried
against a mixture, and a mixture's certificate page shows the largest gain any run measured
against its very bytes, whichever run came last."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from moaisim.cli import main
from moaisim.errors import UserError
from moaisim.studies import certificate_history as ch
from moaisim.studies import certify as cf

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = ROOT / "strategies" / "moai" / "weights"
RAPA = ROOT / "strategies" / "rapa_nui" / "weights"


def mixture(tmp_path: Path) -> Path:
    """A shipped 3-player mixture copied (its members are shipped; its history is the test's)."""
    path = tmp_path / "nash-3p.toml"
    shutil.copy(WEIGHTS / "nash-3p.toml", path)
    return path


def table(rows: list[tuple[str, str, float, float, float, int]], epsilon: float = 0.03
          ) -> pd.DataFrame:  # fmt: skip
    """A certificate table: (family, challenger, screened gain, held-out gain, lo, held-out
    games) per family best, one other screened challenger per family."""
    out = []
    for fam, who, gain, held, lo, n in rows:
        out.append({"family": fam, "challenger": who, "gain": gain, "held_out_gain": held,
                    "held_out_lo": lo, "held_out_hi": held + (held - lo), "held_out_games": n,
                    "epsilon": epsilon})  # fmt: skip
        out.append({"family": fam, "challenger": f"{who}-other", "gain": gain - 0.05,
                    "held_out_gain": float("nan"), "held_out_lo": float("nan"),
                    "held_out_hi": float("nan"), "held_out_games": 0,
                    "epsilon": epsilon})  # fmt: skip
    return pd.DataFrame(out)


def test_the_files_family_takes_every_challenger_file_of_the_game_and_only_those(tmp_path):
    folder = tmp_path / "reports" / "field-x" / "challengers"
    folder.mkdir(parents=True)
    shutil.copy(WEIGHTS / "moai.toml", folder / "4p-cma.toml")
    shutil.copy(WEIGHTS / "fisher.toml", folder / "5p-deviations.toml")
    shutil.copy(RAPA / sorted(p.name for p in RAPA.glob("tuned-*.toml"))[0], folder / "2p-rn.toml")
    (folder / "notes.toml").write_text("this is = not TOML [", encoding="utf-8")
    (folder / "empty.toml").write_text("# nothing\n", encoding="utf-8")
    pattern = str(tmp_path / "reports" / "*" / "challengers" / "*.toml")
    assert [p.name for p in cf.challenger_files(pattern, game="moai")] == [
        "4p-cma.toml",
        "5p-deviations.toml",
    ]
    assert [p.name for p in cf.challenger_files(pattern, game="rapa-nui")] == ["2p-rn.toml"]
    mix = cf.shipped_mixture(WEIGHTS / "nash-3p.toml", game="moai")
    found = cf.challengers(mix, ["files"], tmp_path, 0.5, pattern)
    assert [c.family for c in found] == ["files", "files"]
    assert found[0].spec == f"heuristic(weights={str((folder / '4p-cma.toml').resolve())!r})"


def test_the_learned_family_takes_every_model_of_the_player_count_and_only_those(tmp_path):
    # the round's 3-player learned policy, a copy of it, a JSON file that is no model and a
    # model whose player count says 4: the 3-player family holds the two 3-player models
    model = ROOT / "reports" / "field-round3" / "learned" / "learned-3p.json"
    folder = tmp_path / "reports" / "round-x" / "learned"
    folder.mkdir(parents=True)
    shutil.copy(model, folder / "a-3p.json")
    doc = json.loads(model.read_text(encoding="utf-8"))
    (folder / "b-4p.json").write_text(json.dumps({**doc, "players": 4}), encoding="utf-8")
    (folder / "c.json").write_text('{"not": "a model"}', encoding="utf-8")
    pattern = str(tmp_path / "reports" / "*" / "learned" / "*.json")
    # the pattern's 3-player model and the shipped 3-player ranker (the weights folder)
    assert [p.name for p in cf.learned_files(3, pattern)] == ["a-3p.json", "ranker-3p.json"]
    assert [p.name for p in cf.learned_files(4, pattern)] == ["b-4p.json", "ranker-4p.json"]
    assert cf.learned_files(3, pattern, game="rapa-nui") == []  # no Rapa Nui model among them
    mix = cf.shipped_mixture(WEIGHTS / "nash-3p.toml", game="moai")
    found = cf.challengers(mix, ["learned"], tmp_path, 0.5, learned=pattern)
    ranker = (WEIGHTS / "ranker-3p.json").resolve()
    assert [(c.family, c.spec) for c in found] == [
        ("learned", f"learned(model={str((folder / 'a-3p.json').resolve())!r})"),
        ("learned", f"learned(model={str(ranker)!r})"),
    ]
    # the round's own model is known from the checkout's default glob
    assert cf.learned_files(3, str(ROOT / cf.LEARNED_FILES)) == [model, ranker]


def test_the_project_s_own_challenger_files_are_all_known():
    # every field study's challengers, both games: the 4- and 5-player CMA-ES weights that
    # exploit the first L3 among them (reports/field-seed7026)
    moai = {f"{p.parent.parent.name}/{p.name}" for p in cf.challenger_files(
        str(ROOT / cf.CHALLENGER_FILES), game="moai")}  # fmt: skip
    assert {"field-seed7026/4p-cma.toml", "field-seed7026/5p-cma.toml", "field/2p-cma.toml"} <= moai
    assert not any(name.startswith("rapa-nui") for name in moai)


def test_a_run_s_best_is_its_family_best_with_the_largest_held_out_gain():
    run = ch.run_from_table(
        table(
            [
                ("library", "tuned", 0.02, 0.01, -0.01, 3000),
                ("cma", "cma-a", 0.15, 0.136, 0.12, 4000),
                ("files", "f", 0.09, 0.08, 0.06, 4000),
            ]
        ),
        "run-a",
        "ab" * 8,
    )
    assert run.best.challenger == "cma-a" and run.best.held_out_gain == 0.136
    assert [f.challengers for f in run.families] == [2, 2, 2]
    assert not run.certified
    ok = ch.run_from_table(table([("library", "tuned", 0.0, -0.02, -0.04, 3000)]), "r", "ab" * 8)
    assert ok.certified  # upper bound 0.0 < 0.03
    with pytest.raises(UserError, match="no challenger was measured"):
        ch.run_from_table(table([("library", "t", 0.0, 0.0, 0.0, 0)]), "r", "ab" * 8)
    with pytest.raises(UserError, match="not a certificate table"):
        ch.run_from_table(pd.DataFrame({"family": ["x"]}), "r", "ab" * 8)


def test_the_page_shows_the_largest_gain_ever_even_when_a_later_run_finds_less(tmp_path):
    mix = mixture(tmp_path)
    digest = hashlib.sha256(mix.read_bytes()).hexdigest()[:16]
    # runs 1 and 0 kept their tables (files that exist); run 2's files were not kept
    r1, r0 = (tmp_path / f"run-{k}.csv" for k in (1, 0))
    for kept in (r1, r0):
        kept.write_text("kept\n")
    first = ch.run_from_table(table([("cma", "strong", 0.15, 0.136, 0.12, 4000)]), str(r1),
                              digest, "2026-12-02")  # fmt: skip
    later = ch.run_from_table(table([("cma", "weak", 0.05, 0.02, -0.01, 4000)]), "out/run-2",
                              digest, "2026-12-04")  # fmt: skip
    old = ch.run_from_table(table([("cma", "ancient", 0.4, 0.3, 0.28, 4000)]), str(r0),
                            "0" * 16, "2026-11-30")  # fmt: skip
    ch.add(mix, 3, first, game="moai")
    got = ch.add(mix, 3, old, later, game="moai")
    assert ch.history_path(mix).name == "nash-3p.certificate-history.json"
    page = ch.page(mix, got, "the latest run's section\n")
    head = page.split("\n\n")[2]
    assert "`strong` (cma) gains +0.136 [+0.120, +0.152]" in head and f"in `{r1}`" in head
    assert head.startswith("**beaten at epsilon 0.03") and "(2 runs)" in head
    mine = page[page.index("## Every run") : page.index("## The latest")]
    # issue 60: a page cites only files that ship; a run whose files were not kept says so
    assert "out/run-2" not in page
    assert mine.index(f"`{r1}`") < mine.index(ch.NOT_KEPT) and "run-0" not in mine
    assert "ancient" in page[page.index("## Runs against earlier versions") :]
    # recording a run again replaces it, keeping the day it was first recorded; the history
    # reloads as saved
    ch.add(mix, 3, ch.run_from_table(table([("cma", "strong", 0.15, 0.10, 0.09, 4000)]),
                                     str(r1), digest, "2026-12-06"), game="moai")  # fmt: skip
    again = ch.load(mix, 3, game="moai")
    assert len(again.runs) == 3
    run1 = next(r for r in again.runs if r.source == str(r1))
    assert run1.best.held_out_gain == 0.10 and run1.recorded == "2026-12-02"
    # a challenger whose weights file was not kept is named so
    assert ch.challenger_said("heuristic(weights='out/cert/x.toml')") == (
        "`heuristic(weights='out/cert/x.toml')` (its weights file was not kept)"
    )
    assert ch.challenger_said("heuristic(shipped='l3-4p-r6-1.toml')") == (
        "`heuristic(shipped='l3-4p-r6-1.toml')`"
    )
    with pytest.raises(UserError, match="3-player mixture, not 4 players"):
        ch.load(mix, 4, game="moai")


def test_certify_files_family_records_its_run_and_the_page_keeps_it(tmp_path):
    mix = mixture(tmp_path)
    folder = tmp_path / "challengers"
    folder.mkdir()
    shutil.copy(WEIGHTS / "moai.toml", folder / "3p-cma.toml")
    cert = cf.certify(mix, tmp_path / "c", ["library", "files"], games=2, held_out_games=2,
                      files=str(folder / "*.toml"), game="moai")  # fmt: skip
    assert set(cert.best().index) == {"library", "files"}
    page = cf.record_run(cert, tmp_path / "c")
    said = page.read_text("utf-8")
    assert page == tmp_path / "nash-3p.certificate.md"
    assert "## The latest certify run" in said and cert.verdict() in said
    assert cert.digest[:16] in said and ("(1 run)" in said or "by 1 run:" in said)
    assert (tmp_path / "nash-3p.certificate.csv").is_file()
    # the page written again from the history alone keeps the latest run's section
    ch.write_page(mix, ch.load(mix, 3, game="moai"))
    assert "## The latest certify run" in page.read_text("utf-8")
    # the run's own directory is a source too: recorded again, it is the same run
    assert (
        len(ch.add(mix, 3, ch.run_of(mix, 3, tmp_path / "c", game="moai"), game="moai").runs) == 1
    )


def test_the_command_records_field_reports_and_says_bad_sources_in_one_line(tmp_path, capsys):
    mix = mixture(tmp_path)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["certificate-history", str(mix), *args])
        out, err = capsys.readouterr()
        return code, out, err

    code, _, err = run("--add", str(tmp_path))
    assert code == 2 and "no certificate at 3 players" in err and len(err.splitlines()) == 1
    assert not ch.history_path(mix).exists()
    report = tmp_path / "field"
    report.mkdir()
    table([("cma", "w", 0.1, 0.08, 0.05, 3000)]).to_csv(report / "certificate_families-3p.csv",
                                                        index=False)  # fmt: skip
    (report / "report.md").write_text("Mixture file: `x/nash-3p.toml` (SHA-256 "
                                      "`0123456789abcdef`).\n", encoding="utf-8")  # fmt: skip
    code, out, _ = run("--add", str(report))
    assert code == 0
    assert "no run has measured this version of the mixture yet" in out
    assert "`0123456789abcdef`" in out  # an earlier version of the file
    assert ch.page_path(mix).read_text("utf-8") in out
    (report / "report.md").write_text("nothing named\n", encoding="utf-8")
    code, _, err = run("--add", str(report))
    assert code == 2 and "does not name the mixture nash-3p.toml" in err
    assert "Traceback" not in err
    code, out, _ = run()  # printed, not written
    assert code == 0 and "0123456789abcdef" in out
