"""Every interval figure the README and docs/ state ("-5.4 [-6.4, -4.3]") comes from a shipped
report, sheet, certificate or benchmark record, as it is written there: a report made again
that moves a figure fails this test until the sentence that quoted it is written again
(issue 60: "a changed report that leaves a stale sentence fails the tests").

The figures measured by one-off commands whose output no shipped file keeps are listed, each
with its document, in `UNSOURCED` (tests/doc_figures_unsourced.txt): a figure may leave the
list (its output shipped, or the sentence gone) but never join it silently, and the test
fails on an entry that no longer holds."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: A figure with its interval, as reports and documents write them: "+0.036 [+0.017, +0.055]".
FIGURE = re.compile(r"[+-]?\d+(?:\.\d+)? \[[+-]?\d+(?:\.\d+)?, [+-]?\d+(?:\.\d+)?\]")
UNSOURCED = ROOT / "tests" / "doc_figures_unsourced.txt"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def shipped_text() -> str:
    """The text of every shipped file a figure may come from."""
    files = [*ROOT.glob("reports/**/*.md"), *ROOT.glob("strategies/*/weights/*.md"),
             ROOT / "benchmarks" / "README.md"]  # fmt: skip
    return "\n".join(" ".join(p.read_text("utf-8").split()) for p in files)


def figures(doc: Path) -> list[str]:
    """The interval figures of a document, line breaks read as spaces."""
    return FIGURE.findall(" ".join(doc.read_text("utf-8").split()))


def register() -> set[tuple[str, str]]:
    out = set()
    for line in UNSOURCED.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            doc, _, figure = line.partition(": ")
            out.add((doc, figure))
    return out


def test_every_figure_in_the_readme_and_docs_is_one_a_shipped_file_states():
    shipped = shipped_text()
    listed = register()
    stale = []
    for doc in documents():
        name = doc.relative_to(ROOT).as_posix()
        for figure in figures(doc):
            if figure not in shipped and (name, figure) not in listed:
                stale.append(f"{name}: {figure}")
    assert not stale, (
        "figures no shipped report, sheet or certificate states (a report made again moved "
        "them, or they were never shipped):\n" + "\n".join(sorted(set(stale)))
    )


def test_the_register_of_unsourced_figures_only_shrinks():
    shipped = shipped_text()
    wrong = []
    for doc, figure in sorted(register()):
        if figure in shipped:
            wrong.append(f"{doc}: {figure} is now in a shipped file: remove it from the list")
        elif figure not in figures(ROOT / doc):
            wrong.append(f"{doc}: {figure} is no longer in {doc}: remove it from the list")
    assert not wrong, "\n".join(wrong)


def test_the_check_catches_a_stale_figure(tmp_path):
    # a figure a shipped report states passes; the same sentence with one digit moved does not
    shipped = shipped_text()
    assert "-5.4 [-6.4, -4.3]" in shipped  # reports/fixed-disasters, 4 players, in L3
    assert "-5.4 [-6.4, -4.2]" not in shipped
    doc = tmp_path / "doc.md"
    doc.write_text("lowers it by 5.4 (-5.4\n[-6.4, -4.2]) at 4 players\n")
    assert figures(doc) == ["-5.4 [-6.4, -4.2]"]


def test_every_record_has_its_page_and_names_a_document_that_exists():
    # benchmarks/records.py keeps the one-off measurements the documents quote: each record
    # of records.toml has its page (made by the script), each page its record, and each
    # document it is quoted in exists
    import tomllib

    records = tomllib.loads((ROOT / "reports" / "records" / "records.toml").read_text("utf-8"))
    pages = {p.stem for p in (ROOT / "reports" / "records").glob("*.md")}
    assert pages == set(records), sorted(pages ^ set(records))
    for name, rec in records.items():
        page = (ROOT / "reports" / "records" / f"{name}.md").read_text("utf-8")
        assert rec["command"].strip() in page and f"benchmarks/records.py {name}" in page
        for doc in rec["quoted_in"].split(","):
            assert (ROOT / doc.strip()).is_file(), (name, doc)
