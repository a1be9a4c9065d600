"""Measurements the README and docs/ quote, made again and kept as records.

A figure a document states ("-0.107 [-0.122, -0.092]") must come from a file the checkout
ships (tests/test_doc_figures.py). Reports, sheets and certificates cover the studies; this
script covers the one-off commands a document shows (a `versus` run, a search benchmark): it
runs each command named in `reports/records/records.toml` from the checkout's root and writes
`reports/records/<name>.md` with the command, the commit, the date, the time it took and its
output as printed. Run it again after a change that moves a figure, then write the sentence
that quotes it again from the record.

    .venv/bin/python benchmarks/records.py                 # every record (tens of minutes)
    .venv/bin/python benchmarks/records.py readme-challenger-3p   # one record
    .venv/bin/python benchmarks/records.py --list          # names, documents, commands
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "reports" / "records"
LIST = RECORDS / "records.toml"
#: What each record must say: the question it answers, where it is quoted, its command.
KEYS = {"title", "quoted_in", "command"}


def load(path: Path = LIST) -> dict[str, dict[str, str]]:
    """The records by name, each checked for its keys."""
    records = tomllib.loads(path.read_text("utf-8"))
    for name, rec in records.items():
        missing = KEYS - set(rec)
        if missing:
            raise SystemExit(f"records.py: record {name!r} lacks {', '.join(sorted(missing))}")
    return records


def commit() -> str:
    """The checkout's commit, marked when the tree has changes beside it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True).stdout.strip() or "unknown"  # fmt: skip
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           text=True, capture_output=True).stdout.strip()  # fmt: skip
    return f"{head} (with uncommitted changes)" if dirty else head


def run(name: str, rec: dict[str, str]) -> Path:
    """Run one record's command and write its page; the page is written only if it succeeds."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               PYTHONHASHSEED="0")  # fmt: skip
    started, cpu0 = time.time(), os.times()
    done = subprocess.run(rec["command"], shell=True, cwd=ROOT, env=env, text=True,
                          capture_output=True)  # fmt: skip
    wall, cpu1 = time.time() - started, os.times()
    if done.returncode:
        raise RuntimeError(f"{name}: the command failed ({done.returncode}):\n"
                           f"{done.stderr.strip()[-2000:]}")  # fmt: skip
    cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
    made = datetime.fromtimestamp(started, UTC).strftime("%Y-%m-%d %H:%M UTC")
    quoted = ", ".join(f"`{d.strip()}`" for d in rec["quoted_in"].split(","))
    page = "\n".join([
        f"# {rec['title']}", "",
        f"Quoted in {quoted}. Made {made} at commit {commit()}, {wall:.0f} s wall clock and "
        f"{cpu:.0f} s of CPU on {os.cpu_count()} cores; `benchmarks/records.py {name}` makes it "
        "again. Command (from the checkout's root):", "",
        "```sh", rec["command"].strip(), "```", "",
        *(["Note: " + rec["note"].strip(), ""] if rec.get("note") else []),
        "Output, as printed:", "",
        "```", done.stdout.rstrip(), "```", "",
    ])  # fmt: skip
    out = RECORDS / f"{name}.md"
    out.write_text(page, "utf-8")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="records to make (default: every one)")
    parser.add_argument("--list", action="store_true", help="list the records and stop")
    args = parser.parse_args(argv)
    records = load()
    unknown = [n for n in args.names if n not in records]
    if unknown:
        raise SystemExit(f"records.py: no record named {', '.join(unknown)} in {LIST.name} "
                         f"(known: {', '.join(records)})")  # fmt: skip
    if args.list:
        for name, rec in records.items():
            print(f"{name}  [{rec['quoted_in']}]  {rec['command'].strip()}")
        return
    failed = []
    for name in args.names or list(records):
        print(f"records.py: {name} ...", file=sys.stderr, flush=True)
        try:
            page = run(name, records[name])
        except RuntimeError as e:  # the others are still made; the page of this one is kept
            print(f"records.py: {e}", file=sys.stderr)
            failed.append(name)
            continue
        print(f"records.py: wrote {page.relative_to(ROOT)}", file=sys.stderr)
    if failed:
        raise SystemExit(f"records.py: failed, their pages unchanged: {', '.join(failed)}")


if __name__ == "__main__":
    main()
