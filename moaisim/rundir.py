"""A run directory on disk: its manifest, its Parquet parts, their checksums and its lock.

```
RUN/manifest.json       the study, the fingerprint of the code that plays it, totals
RUN/parts.jsonl         one line per finished chunk: cell, games, rows, bytes, SHA-256
RUN/parts/*.parquet     the results of each chunk (rounds/*.parquet: the per-round table)
RUN/.lock               held by the run writing the directory (released if it dies)
```

Parts are written under a temporary name and renamed, and recorded in `parts.jsonl` only
once whole, so a run stopped at any moment (Ctrl-C, SIGTERM, SIGKILL, a full disk) holds only
whole parts, each with its checksum. Every part is checked against its record before it is
used: resuming replays a part that is missing, truncated, changed or copied from another run
(and says so); loading or reporting refuses it (one line naming the part). The record of a part
names its file, which must be the part's own name in the run directory: a manifest cannot make
moaisim read a file elsewhere.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from moaisim.errors import UserError
from moaisim.files import write_atomic

#: Format of a run directory (2: parts recorded in parts.jsonl with their checksums).
FORMAT = 2
LOCK = ".lock"
PART_KINDS = {"file": "parts", "rounds_file": "rounds"}
#: Names a run leaves in a directory that hold nothing (an early error may leave them).
IGNORED = {LOCK}


class RunDir:
    """A run directory (see the module's docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.manifest_path = self.path / "manifest.json"
        self.parts_path = self.path / "parts.jsonl"

    # --- the manifest ------------------------------------------------------------------
    def exists(self) -> bool:
        """The directory holds a run (a report directory, which keeps a copy of its run's
        manifest, does not)."""
        return self.manifest_path.is_file() and not is_report(self.path)

    def read(self) -> dict[str, Any]:
        """The manifest, checked for shape (one clear line if it is not a run's)."""
        try:
            manifest = json.loads(self.manifest_path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise UserError(f"{self.manifest_path}: not a readable run manifest ({exc})") from None
        if not isinstance(manifest, dict):
            raise UserError(f"{self.manifest_path}: not a run manifest (not a JSON object)")
        fmt = manifest.get("format")
        if fmt != FORMAT:
            if isinstance(fmt, int) and fmt < FORMAT:
                raise UserError(
                    f"{self.path} was written by an older moaisim (run format {fmt}, without "
                    "checksums of its parts): play it again with this version"
                )
            raise UserError(f"{self.manifest_path}: unknown run format {fmt!r}")
        study = manifest.get("study")
        if (
            not isinstance(study, dict)
            or not isinstance(study.get("cells"), list)
            or not all(isinstance(c, dict) for c in study["cells"])
            or not isinstance(manifest.get("games"), int)
            or not isinstance(manifest.get("seed"), int)
        ):
            raise UserError(f"{self.manifest_path}: not a run manifest (study, games or seed)")
        for k, cell in enumerate(study["cells"]):
            players = cell.get("players")
            if (
                cell.get("cell") != k
                or not isinstance(players, int)
                or not 2 <= players <= 5
                or not all(isinstance(cell.get(x), str) for x in ("variant", "lineup"))
            ):
                raise UserError(f"{self.manifest_path}: cell {k} of the study is not a cell")
        if not study["cells"]:
            raise UserError(f"{self.manifest_path}: the study has no cell")
        return manifest

    def write(self, manifest: dict[str, Any]) -> None:
        """Write the manifest atomically (a temporary file, then a rename)."""
        data = json.dumps(manifest, indent=1, default=str).encode()
        write_atomic(self.manifest_path, data, "run manifest")

    def holds_nothing(self) -> bool:
        """The directory is missing, empty, or holds only what an early error leaves (a
        lock, temporary files, a manifest with no finished part)."""
        if not self.path.is_dir():
            return not self.path.exists() and not self.path.is_symlink()
        for entry in self.path.iterdir():
            name = entry.name
            if name in IGNORED or name.endswith(".tmp"):
                continue
            if name in ("manifest.json", "parts.jsonl") and not self._has_parts():
                continue
            if name in PART_KINDS.values() and entry.is_dir() and not any(entry.iterdir()):
                continue
            return False
        return True

    def _has_parts(self) -> bool:
        try:
            return self.parts_path.stat().st_size > 0
        except OSError:
            return False

    def clear(self) -> None:
        """Remove what `holds_nothing` ignores (before a fresh run starts in the directory)."""
        for name in ("manifest.json", "parts.jsonl"):
            with contextlib.suppress(FileNotFoundError):
                (self.path / name).unlink()
        for sub in PART_KINDS.values():
            with contextlib.suppress(OSError):
                (self.path / sub).rmdir()

    # --- the parts ---------------------------------------------------------------------
    def part_name(self, kind: str, cell: int, start: int, end: int) -> str:
        """The file of a part, relative to the run directory (its only allowed name)."""
        return f"{kind}/cell{cell:04d}-games{start:012d}-{end:012d}.parquet"

    def save(self, kind: str, df: pd.DataFrame, cell: int, start: int, end: int) -> dict[str, Any]:
        """Write a part atomically; its record: file, rows, bytes and SHA-256."""
        name = self.part_name(kind, cell, start, end)
        path = self.path / name
        buffer = io.BytesIO()
        df.to_parquet(buffer, index=False)
        data = buffer.getvalue()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot write the part {path} ({exc.strerror or exc})") from None
        # whole or not at all: a full disk is one line, and neither it nor Ctrl-C leaves a
        # temporary file
        write_atomic(path, data, "part")
        return {"file": name, "rows": len(df), "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest()}  # fmt: skip

    def record(self, entry: dict[str, Any]) -> None:
        """Append a finished part's record to parts.jsonl (one line, flushed to disk)."""
        try:
            with open(self.parts_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, sort_keys=True) + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:  # a line cut short is left out when the run is read
            raise UserError(f"cannot write {self.parts_path} ({exc.strerror or exc})") from None

    def rewrite(self, entries: list[dict[str, Any]]) -> None:
        """Replace parts.jsonl by these records (atomically): a resumed run starts from the
        parts it verified, with no bad or torn line left behind."""
        lines = "".join(json.dumps(e, sort_keys=True) + "\n" for e in entries)
        write_atomic(self.parts_path, lines.encode("utf-8"), "parts list")

    def parts(self, manifest: dict[str, Any], strict: bool = True) -> list[dict[str, Any]]:
        """The records of the finished parts, one per chunk (a later record of the same
        chunk replaces an earlier one). strict: a malformed record is an error (loading);
        else it is left out (resuming then plays its games again). A last line cut short by
        a crash is left out either way."""
        try:
            text = self.parts_path.read_text("utf-8")
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"{self.parts_path}: cannot read the run's parts ({exc})") from None
        lines = text.split("\n")
        torn = lines.pop()  # "" when the file ends with a newline
        del torn  # a line cut short by a crash: that part never finished
        found: dict[tuple[int, int, int], dict[str, Any]] = {}
        study = study_digest(manifest["study"])
        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
                problem = self._bad_record(entry, manifest)
            except json.JSONDecodeError:
                entry, problem = None, "not JSON"
            if not problem and entry.get("study") != study:
                problem = "the part was played for another study than manifest.json describes"
            if problem:
                if strict:
                    raise UserError(f"{self.parts_path}, line {number}: {problem}")
                continue
            found[(entry["cell"], entry["start"], entry["end"])] = entry
        return [found[k] for k in sorted(found)]

    def _bad_record(self, entry: Any, manifest: dict[str, Any]) -> str | None:
        if not isinstance(entry, dict):
            return "not a part record"
        ints = ("cell", "start", "end", "rows", "bytes")
        if any(not isinstance(entry.get(k), int) or isinstance(entry.get(k), bool) for k in ints):
            return "a part record needs cell, start, end, rows and bytes (integers)"
        cells = len(manifest["study"]["cells"])
        if not (
            0 <= entry["cell"] < cells and 0 <= entry["start"] < entry["end"] <= manifest["games"]
        ):
            return f"cell {entry['cell']}, games {entry['start']}-{entry['end']}: not in the study"
        for key, kind in PART_KINDS.items():
            if key not in entry and key == "rounds_file":
                continue
            want = self.part_name(kind, entry["cell"], entry["start"], entry["end"])
            if entry.get(key) != want:
                return f"the part's file must be {want!r}, not {entry.get(key)!r}"
            prefix = "" if key == "file" else "rounds_"
            if not isinstance(entry.get(prefix + "sha256"), str):
                return f"{want}: no checksum"
        return None

    def check(self, entry: dict[str, Any], key: str = "file") -> tuple[bytes | None, str | None]:
        """The bytes of a part and what is wrong with it (None: it is the part recorded)."""
        prefix = "" if key == "file" else "rounds_"
        path = self.path / entry[key]
        try:
            if not path.resolve().is_relative_to(self.path.resolve()):
                return None, "lies outside the run directory"
            data = path.read_bytes()
        except FileNotFoundError:
            return None, "is missing"
        except OSError as exc:
            return None, f"cannot be read ({exc.strerror})"
        size = entry.get(prefix + "bytes")
        if isinstance(size, int) and len(data) < size:
            return None, f"has {len(data)} of its {size} bytes (cut short)"
        if len(data) != size or hashlib.sha256(data).hexdigest() != entry[prefix + "sha256"]:
            return None, "does not match its checksum (changed, corrupt or from another run)"
        return data, None

    def read_part(
        self, entry: dict[str, Any], key: str = "file", columns: list[str] | None = None
    ) -> pd.DataFrame:
        """A part's table, checked against its record first (one clear line if it is not
        the part the run wrote)."""
        data, problem = self.check(entry, key)
        if problem:
            raise UserError(
                f"{self.path / entry[key]} {problem}: the run cannot be trusted; resume it "
                "(simulate ... --resume) to play that part again"
            )
        assert data is not None
        df = pd.read_parquet(io.BytesIO(data), columns=columns)
        rows = entry.get("rows" if key == "file" else "rounds_rows")
        if rows is not None and len(df) != rows:  # pragma: no cover - the checksum agreed
            raise UserError(f"{self.path / entry[key]}: {len(df)} rows, {rows} recorded")
        return df

    # --- the lock ----------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(self, what: str = "run") -> Iterator[None]:
        """Hold the directory's lock (created if needed); another holder is an error."""
        from filelock import FileLock, Timeout

        make_dir(self.path)
        try:
            open(self.path / LOCK, "a").close()  # refused: no lock held elsewhere, no access
        except OSError as exc:
            raise UserError(f"cannot write into {self.path} ({exc.strerror or exc})") from None
        lock = FileLock(str(self.path / LOCK), timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise UserError(
                f"{self.path} is in use by another moaisim {what} (it holds {self.path / LOCK}): "
                "wait for it to end, or choose another directory"
            ) from None
        except OSError as exc:
            raise UserError(f"cannot lock {self.path} ({exc.strerror or exc})") from None
        try:
            yield
        finally:
            lock.release()


def study_digest(study: dict[str, Any]) -> str:
    """SHA-256 of a study's identity: each part record carries it, so a manifest edited
    after its parts were written (another player count, another lineup...) is caught."""
    blob = json.dumps(study, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def is_report(path: Path) -> bool:
    """A directory written by `moaisim report` (it has report.json, or report.md)."""
    return (path / "report.json").is_file() or (path / "report.md").is_file()


def is_run(path: Path) -> bool:
    """A directory that holds a run, or the parts of one."""
    return RunDir(path).exists() or (path / "parts.jsonl").exists() or (path / "parts").is_dir()


def make_dir(path: Path) -> None:
    """Create a directory (and its parents), with one clear line for what can go wrong."""
    if path.is_symlink() and not path.exists():
        raise UserError(f"{path} is a symbolic link to nothing: remove it or choose another")
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} is a file, not a directory: choose another")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the directory {path} ({exc.strerror or exc})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UserError(f"cannot write into {path} (permission denied)")


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S %Z")
