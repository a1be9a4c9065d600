"""The project stands on its own: every document it cites is in the repository, the rules book
names every rule id the code and tests cite, and the generated documents are up to date."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from moaisim.cli import main
from moaisim.games.moai.engine.events import EVENTS, schema_markdown
from moaisim.games.moai.rules import Rules, load_components

ROOT = Path(__file__).parents[1]


def tracked_files() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / f for f in out if (ROOT / f).suffix in {".py", ".md", ".toml", ".txt", ""}]


def test_nothing_points_outside_the_repository():
    outside = re.compile(r"\.\./shared|RULES\.md|ARCHITECTURE\.md|STYLE\.md")
    offenders = [
        str(p.relative_to(ROOT))
        for p in tracked_files()
        if p.is_file() and p.name != "test_docs.py" and outside.search(p.read_text("utf-8"))
    ]
    assert offenders == []


def test_every_document_cited_by_name_is_a_file_of_the_repository():
    cited = set()
    for p in tracked_files():
        if p.is_file():
            cited |= set(re.findall(r"\bdocs/[a-z_-]+\.md\b", p.read_text("utf-8")))
    assert cited >= {"docs/rules.md", "docs/design.md", "docs/events.md"}
    assert [c for c in sorted(cited) if not (ROOT / c).is_file()] == []


#: Each game's rules book, and how to tell its code and tests (by path) from the others'.
BOOKS = {"rules.md": lambda path: not {"rapa_nui", "kaivai"} & set(path.stem.split("_"))
         and "rapa_nui" not in path.as_posix() and "kaivai" not in path.as_posix(),
         "rapa-nui-rules.md": lambda path: "rapa_nui" in path.as_posix(),
         "kaivai-rules.md": lambda path: "kaivai" in path.as_posix()}  # fmt: skip


def test_the_rules_book_defines_every_rule_id_the_code_and_tests_cite():
    """Each game's code and tests cite rule ids of that game's rules book only."""
    for name, mine in BOOKS.items():
        book = (ROOT / "docs" / name).read_text()
        defined = set(re.findall(r"\b(R\d+(?:\.\d+)?|V[1-5]|C[1-9]|A[1-7])\b", book))
        cited: set[str] = set()
        for p in tracked_files():
            if p.suffix == ".py" and p.is_file() and mine(p):
                text = p.read_text("utf-8")
                cited |= set(re.findall(r"\b(R[1-9]\.\d+)\b", text))
                cited |= {f"R{a}.{b}" for a, b in re.findall(r"\br([1-9])_(\d+)_", text)}
        assert cited and cited <= defined, (name, sorted(cited - defined))


def test_the_event_schema_document_is_up_to_date():
    assert (ROOT / "docs" / "events.md").read_text() == schema_markdown()
    for kind in EVENTS:
        assert f"## `{kind}`" in schema_markdown()


def test_moaisim_rules_prints_the_book_its_path_and_the_components(capsys, tmp_path):
    assert main(["rules"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "rules.md").read_text()
    assert main(["rules", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == ROOT / "docs" / "rules.md"
    assert main(["rules", "--components"]) == 0
    text = capsys.readouterr().out
    tomllib.loads(text)
    copy = tmp_path / "mine.toml"
    copy.write_text(text)
    assert load_components(copy) == load_components()
    assert Rules.make(4, None, copy).digest() == Rules.make(4).digest()


def test_moaisim_events_prints_the_schema(capsys):
    assert main(["events"]) == 0
    assert capsys.readouterr().out == schema_markdown()


def test_every_decision_kind_s_actions_are_documented_for_bot_writers():
    """Issue 60: Moai's `finish_moai` actions were found only in the code. Each game's docs
    give a table row per decision kind (its method, in backquotes, first in the row), with
    what its actions encode; the widths the rows state match the codecs."""
    from moaisim.games.moai.engine.decisions import BIRTH_STOP, Kind, action_sizes, work_codec
    from moaisim.games.rapa_nui.engine.decisions import Kind as RapaKind

    for doc, kinds in (("strategies.md", Kind), ("rapa-nui.md", RapaKind)):
        text = (ROOT / "docs" / doc).read_text()
        table = text.split("### Actions, decision by decision" if doc == "strategies.md"
                           else "## Actions, decision by decision", 1)[1]  # fmt: skip
        rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", table, re.M)}
        assert {k.value for k in kinds} <= rows, (doc, {k.value for k in kinds} - rows)
    # the numbers the Moai table states: work's targets F+V+2 and pass at 3 x that, birth's
    # stop at 21, finish_moai's stop at V, boat's 2 actions
    rules = Rules.make(4)
    lay, codec, sizes = rules.layout, work_codec(rules), action_sizes(rules)
    f, v = lay.forest, lay.volcano  # F and V: the forest's spaces and the volcano's
    assert (lay.fields, lay.volcano0, lay.ocean0) == (f, f + 1, f + v + 1)  # the location codes
    assert codec.targets == f + v + 2 and codec.pass_action == 3 * codec.targets
    assert codec.boat_target == f + v + 1
    assert codec.decode(codec.place(2, f)) == ("place", 2, f)
    assert codec.decode(codec.pass_action) == ("pass", 0, 0)
    assert BIRTH_STOP == 21 and sizes[Kind.FINISH_MOAI] == lay.volcano + 1
    assert sizes[Kind.BOAT] == 2
