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
BOOKS = {"rules.md": lambda path: "rapa_nui" not in path.as_posix(),
         "rapa-nui-rules.md": lambda path: "rapa_nui" in path.as_posix()}  # fmt: skip


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
