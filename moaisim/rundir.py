"""A run directory on disk: its manifest, its Parquet parts, their checksums and its lock.

```
RUN/manifest.json       the game, the study, the fingerprint of the code that plays it, totals
RUN/parts.jsonl         one line per finished chunk: cell, games, rows, bytes, SHA-256
RUN/parts/*.parquet     the results of each chunk (rounds/*.parquet: the per-round table)
RUN/.lock               held by the run writing the directory (released if it dies)
```

Parts are written under a temporary name and renamed, and recorded in `parts.jsonl` only
once whole, so a run stopped at any moment (Ctrl-C, SIGTERM, SIGKILL, a full disk) holds only
whole parts, each with its checksum. Every part is checked against its record before it is
used: its bytes (size and SHA-256), and its rows, which must be the games its record names (the
run's seed, the record's cell and games, one row per seat), with no game in two parts. Resuming
replays a part that is missing, truncated, changed, copied from another run or whose record
was rewritten (and says so); loading or reporting refuses it (one line naming the part). The
record of a part names its file, which must be the part's own name in the run directory: a
manifest cannot make moaisim read a file elsewhere.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock, Timeout

from moaisim.errors import UserError
from moaisim.files import GAME_KEY, named_game, write_atomic
from moaisim.games import DEFAULT

#: Format of a run directory (2: parts recorded in parts.jsonl with their checksums).
FORMAT = 2
LOCK = ".lock"
PART_KINDS = {"file": "parts", "rounds_file": "rounds"}
#: Names a run leaves in a directory that hold nothing (an early error may leave them).
IGNORED = {LOCK}
#: The exit status of a process forked from a run that reached the run's writes (`guard`).
FORKED_EXIT = 70


class RunDir:
    """A run directory (see the module's docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.manifest_path = self.path / "manifest.json"
        self.parts_path = self.path / "parts.jsonl"
        self.owner: int | None = None  # the pid of the process that holds the run (`locked`)

    def guard(self) -> None:
        """Only the process that holds the run (`locked` records its pid) writes it. A
        process forked from it (a strategy that calls os.fork(): its child returns into the
        engine and plays on, then into the runner) is ended here, at once, before it writes
        a part, a record or the manifest, removes the directory or releases the lock (its
        records once showed negative CPU seconds: the child's clock starts at 0).
        os._exit runs none of the parent's cleanup (no `finally`, no atexit, no flush of the
        output buffers copied from it), which would write, print or unlock in its name."""
        if self.owner is not None and os.getpid() != self.owner:
            os._exit(FORKED_EXIT)

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
        self.guard()
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
        self.guard()
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
        """Write a table as a part atomically (`serialize`, `write_part`); its record."""
        return self.write_part(kind, serialize(df), cell, start, end)

    def write_part(
        self, kind: str, part: SerializedPart, cell: int, start: int, end: int
    ) -> dict[str, Any]:
        """Write a serialized part atomically, whole and on disk before its record can be
        (`record`); its record: file, rows, bytes and SHA-256."""
        self.guard()
        name = self.part_name(kind, cell, start, end)
        path = self.path / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot write the part {path} ({exc.strerror or exc})") from None
        # whole or not at all: a full disk is one line, and neither it nor Ctrl-C leaves a
        # temporary file
        write_atomic(path, part.data, "part")
        return {"file": name, "rows": part.rows, "bytes": len(part.data), "sha256": part.sha256}

    def record(self, entry: dict[str, Any]) -> None:
        """Append a finished part's record to parts.jsonl (one line, flushed). Its part was
        synced to disk first (`write_part`), so a record never names a part that a crash can
        lose; the record itself is not synced (a sync per chunk costs the run more than the
        chunk's write): a record a crash loses only has its games played again."""
        self.guard()
        try:
            with open(self.parts_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, sort_keys=True) + "\n")
                f.flush()
        except OSError as exc:  # a line cut short is left out when the run is read
            raise UserError(f"cannot write {self.parts_path} ({exc.strerror or exc})") from None

    def rewrite(self, entries: list[dict[str, Any]]) -> None:
        """Replace parts.jsonl by these records (atomically): a resumed run starts from the
        parts it verified, with no bad or torn line left behind."""
        self.guard()
        lines = "".join(json.dumps(e, sort_keys=True) + "\n" for e in entries)
        write_atomic(self.parts_path, lines.encode("utf-8"), "parts list")

    def parts(
        self,
        manifest: dict[str, Any],
        strict: bool = True,
        say: Callable[[str], None] | None = None,
    ) -> list[dict[str, Any]]:
        """The records of the finished parts, one per chunk (a later record of the same
        chunk replaces an earlier one). strict: a malformed record, a record of another
        study or one whose games overlap another part's is an error (loading); else it is
        left out and `say` is told (resuming then plays its games again, and says so). A
        last line cut short by a crash is left out either way (that part never finished)."""
        try:
            text = self.parts_path.read_text("utf-8")
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"{self.parts_path}: cannot read the run's parts ({exc})") from None
        lines = text.split("\n")
        torn = lines.pop()  # "" when the file ends with a newline
        del torn  # a line cut short by a crash: that part never finished
        found: dict[tuple[int, int, int], tuple[int, dict[str, Any]]] = {}
        study = study_digest(manifest["study"])

        def left_out(number: int, problem: str, then: str) -> None:
            if strict:
                raise UserError(f"{self.parts_path}, line {number}: {problem}")
            if say is not None:
                say(f"warning: {self.parts_path}, line {number}: {problem}: {then}")

        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
                problem = self._bad_record(entry, manifest)
            except json.JSONDecodeError:
                entry, problem = None, "not JSON"
            if problem:
                left_out(number, problem, "the record is left out (the study's games it "
                         "names are played again)")  # fmt: skip
                continue
            key = _key(entry)
            if entry.get("study") != study:
                problem = "the part was played for another study than manifest.json describes"
                left_out(number, problem, f"playing {_games(key)} again")
                continue
            found[key] = (number, entry)
        # no game in two parts: a record added for games another part holds is left out
        out, last = [], {}
        for key in sorted(found):
            number, entry = found[key]
            cell, start, _ = key
            if cell in last and start < last[cell][2]:
                _, a, b = last[cell]
                problem = f"{_games(key)} overlap games {a}-{b - 1} of another part"
                left_out(number, problem, "left out (a game is never counted twice)")
                continue
            last[cell] = key
            out.append(entry)
        return out

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

    def check(
        self, entry: dict[str, Any], key: str = "file", *, manifest: dict[str, Any]
    ) -> tuple[bytes | None, str | None]:
        """The bytes of a part and what is wrong with it (None: it is the part recorded):
        its bytes must be those recorded (size and SHA-256) and its rows the games its
        record names (`_rows_problem`: a checksum alone holds for a part copied in with its
        record, or renamed with its record's games). A part that is whole but not this
        run's is said to be so, not 'cut short'."""
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
        if len(data) != size or hashlib.sha256(data).hexdigest() != entry[prefix + "sha256"]:
            ids = _ids(data, key)
            foreign = None if ids is None else _rows_problem(entry, key, ids, manifest)
            if foreign:
                return None, f"does not match its checksum: copied from another run, it {foreign}"
            if ids is None and isinstance(size, int) and len(data) < size:
                return None, f"has {len(data)} of its {size} bytes (cut short)"
            return None, "does not match its checksum (changed, corrupt or from another run)"
        ids = _ids(data, key)
        if ids is None:
            return None, "is not a part of a run (its game columns cannot be read)"
        problem = _rows_problem(entry, key, ids, manifest)
        return (None, problem) if problem else (data, None)

    def read_part(
        self,
        entry: dict[str, Any],
        key: str = "file",
        columns: list[str] | None = None,
        *,
        manifest: dict[str, Any],
    ) -> pd.DataFrame:
        """A part's table, checked against its record and the run's manifest first (one
        clear line if it is not the part the run wrote)."""
        data, problem = self.check(entry, key, manifest=manifest)
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
        """Hold the directory's lock (created if needed); another holder is an error. The
        process that holds it owns the run: only it writes (`guard`)."""

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
        self.owner = os.getpid()
        try:
            yield
        finally:
            self.guard()  # a forked child would release the parent's lock (one flock)
            lock.release()


def _key(entry: dict[str, Any]) -> tuple[int, int, int]:
    """A part record's chunk: (cell, start, end)."""
    return entry["cell"], entry["start"], entry["end"]


def _games(key: tuple[int, int, int]) -> str:
    """A part's games in words: 'games 0-9 of cell 0'."""
    cell, start, end = key
    return f"games {start}-{end - 1} of cell {cell}"


#: The column in which a part's rows carry the digest of the rules they were played under
#: (`Rules.digest`), checked against their cell's in the manifest (`_rows_problem`).
RULES_COLUMN = "rules_digest"


def _ids(data: bytes, key: str) -> dict[str, np.ndarray] | None:
    """The columns of a part that say which games it holds (cell, game, and the root seed
    for the results) and the distinct rules digests its rows carry, read straight from the
    Parquet bytes; None when the bytes are not such a table (a file cut short)."""

    columns = ["cell", "game", "seed"] if key == "file" else ["cell", "game"]
    try:
        part = pq.ParquetFile(pa.BufferReader(data))
        rules = RULES_COLUMN in part.schema_arrow.names  # parts since the rules' check
        table = part.read([*columns, RULES_COLUMN] if rules else columns,
                          use_pandas_metadata=False)  # fmt: skip
        out = {c: table.column(c).to_numpy() for c in columns}
        if rules:  # the digests the rows carry, each once (a short dictionary)
            digests = table.column(RULES_COLUMN).unique()
            if isinstance(digests, pa.DictionaryArray):
                digests = digests.dictionary_decode()
            out[RULES_COLUMN] = np.asarray(digests.to_pylist(), dtype=object)
        return out
    except (OSError, ValueError, KeyError, pa.ArrowException):
        return None


def _rows_problem(
    entry: dict[str, Any], key: str, ids: dict[str, np.ndarray], manifest: dict[str, Any]
) -> str | None:
    """What shows that a part's rows are not the games its record names (None: they are):
    another root seed (a part of another study), another cell, other rules than the cell's
    (a part of a study with the same seed and grid but another rule set), or other games than the
    record's range with one row per seat (the per-round table: rows of exactly the record's
    games). Reads only the ids, so it costs little beside the checksum (about a millisecond
    for 10 000 four-player games)."""
    cell, start, end = entry["cell"], entry["start"], entry["end"]
    seed = manifest["seed"]
    if "seed" in ids:
        other = ids["seed"][ids["seed"] != seed]
        if len(other):
            return f"is from another study (played with seed {other[0]}, this run with seed {seed})"
    cells = ids["cell"][ids["cell"] != cell]
    if len(cells):
        return f"holds games of cell {cells[0]}, not of its record's cell {cell}"
    games = ids["game"].astype(np.int64, copy=False)
    inside = len(games) == 0 or (games.min() >= start and games.max() < end)
    rules = _rules_problem(ids, manifest["study"]["cells"][cell].get(RULES_COLUMN))
    if key != "file":  # rows per game vary (rounds); an empty table: the reference engine
        if inside and (len(games) == 0 or np.unique(games).size == end - start):
            return rules
        return (
            f"holds other games than its record names: games {games.min()}-{games.max()}, "
            f"not games {start}-{end - 1}"
        )
    players = manifest["study"]["cells"][cell]["players"]
    if (
        len(games) == (end - start) * players
        and inside
        and bool((np.bincount(games - start, minlength=end - start) == players).all())
    ):
        return rules  # the right games: played under the cell's rules?
    if not len(games):
        return f"holds no game, not games {start}-{end - 1}"
    counts = np.unique(games, return_counts=True)[1]
    rows = f"{counts[0]} rows each" if (counts == counts[0]).all() else f"{len(games)} rows"
    return (
        f"holds other games than its record names: games {games.min()}-{games.max()} with "
        f"{rows}, not games {start}-{end - 1} with {players} (one per seat)"
    )


def _rules_problem(ids: dict[str, np.ndarray], want: str | None) -> str | None:
    """A part whose rows carry another rules digest than their cell's (None: they do not,
    or the part is older than the digest's check)."""
    if RULES_COLUMN not in ids or want is None:
        return None
    other = [d for d in ids[RULES_COLUMN].tolist() if d != want]
    if not other:
        return None
    return (
        f"was played under other rules than its cell's (rules digest {str(other[0])[:12]}, "
        f"the cell's {str(want)[:12]}): a part of another study"
    )


@dataclass(frozen=True)
class SerializedPart:
    """A table as a part's bytes (Parquet), its rows and checksum: made where the chunk was
    played (a worker), written by the run's process (`RunDir.write_part`)."""

    data: bytes
    rows: int
    sha256: str


def serialize(df: pd.DataFrame) -> SerializedPart:
    """A table as the bytes of a part (Parquet, no index), with its rows and SHA-256."""
    buffer = io.BytesIO()
    df.to_parquet(buffer, index=False)
    data = buffer.getvalue()
    return SerializedPart(data, len(df), hashlib.sha256(data).hexdigest())


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


#: The files that mark a directory as another command's output (a report, a balance, a sheet).
OTHER_MARKS = ("report.json", "report.md", "balance.json", "sheet.json")


def check_own_dir(out: Path, what: str, owns: Callable[[Path], bool]) -> None:
    """An output directory `out` for a `what` (a certificate, a knob search) may be new, empty
    or hold what that command writes (`owns(out)`); a run, a report or anything else there is
    refused in one line, before anything is written."""
    out = Path(out)
    if not out.is_dir() or not any(out.iterdir()):
        return  # new, or not a directory (`make_dir` says so)
    if is_run(out):
        raise UserError(f"{out} holds a run of moaisim simulate, not {what}: choose another --out")
    if any((out / m).exists() for m in OTHER_MARKS):
        raise UserError(f"{out} holds a report, not {what}: choose another --out")
    if not owns(out):
        raise UserError(f"{out} holds something other than {what}: choose another --out or "
                        "remove it")  # fmt: skip


#: The game of a file written before files named their game: Moai, the only game then. The
#: one place below the command line and the public API that names a game: only what reads an
#: old file (`recorded_game`) or keeps an identity equal to an old file's (`identity_game`)
#: asks for it.
UNNAMED_FILES_GAME = DEFAULT


def recorded_game(*docs: Any) -> str:
    """The game a file records: the first name given by `docs` (the file's documents,
    outermost first, each naming it under `GAME_KEY`; or a name already read from the file;
    None: nothing); a file written before files named their game names none and is
    `UNNAMED_FILES_GAME`'s."""
    for doc in docs:
        found = doc if isinstance(doc, str) and doc else named_game(doc)
        if found:
            return found
    return UNNAMED_FILES_GAME


def identity_game(game: str) -> dict[str, str]:
    """What an identity (a run's study, a tuner's, a search's or a distillation's settings)
    records of its game: nothing for `UNNAMED_FILES_GAME`, so that the identity a file wrote
    before games had names is still the same, and `{GAME_KEY: game}` for any other game."""
    return {} if game == UNNAMED_FILES_GAME else {GAME_KEY: game}


def manifest_game(manifest: dict[str, Any]) -> str:
    """The game a run's manifest records (its `game`, and its study's for a game other than
    the unnamed files' game: `recorded_game`)."""
    return recorded_game(manifest, manifest.get("study"))


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
    """The time now, UTC, as a run's manifest records it."""
    return time.strftime("%Y-%m-%d %H:%M:%S %Z")
