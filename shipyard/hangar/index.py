"""The hangar's index: an SQLite database of the design files in the library folders.

It is a cache of the files, never their only copy: deleting it loses nothing, and one that
is corrupt or was made by a newer Shipyard (a higher ``PRAGMA user_version``) is moved
aside and built again, with a note; a row of it that cannot be read (its entry not the JSON
of its file) is left out of every search and its file indexed again by the next scan. Two
Shipyard processes may use it at once: it is in WAL mode with a busy timeout, and each scan
writes in short transactions.

A rescan reads only what changed: a file whose status stamp is as indexed (its
modification and change times, size, inode and device), and whose ruleset's rules are as
they were when it was indexed (its catalog with the user's house rules, the code that
judges it: :mod:`shipyard.hangar.freshness`), is not opened; one whose content hash and
rules are unchanged keeps its entry. Files that are not design files (``*.ship``) are
ignored; a design file that cannot be read or checked is kept with the reason, never a
traceback.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import sqlite3
import stat
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, overload

from shipyard.core.designfile import EXTENSION, MAX_DESIGN_BYTES
from shipyard.core.errors import InputError
from shipyard.hangar.facts import Facts
from shipyard.hangar.freshness import RulesStamps, file_stamp

# 2: each file's entry kept as find prints it; 3: entries apart, art, thumbnails, filter indexes;
# 4: the cost and each pool's spending searchable as figures; 5: each file's whole status stamp;
# 6: the stamp of the rules each file was checked by
SCHEMA = 6
BUSY_TIMEOUT_MS = 15_000
BATCH = 200  # files written per transaction: another process waits at most one batch

_TABLES = """
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  folder TEXT NOT NULL,
  mtime_ns INTEGER NOT NULL,
  size INTEGER NOT NULL,
  stamp TEXT NOT NULL,
  rules TEXT NOT NULL,
  hash TEXT,
  name TEXT NOT NULL,
  ruleset TEXT,
  ruleset_name TEXT,
  kind TEXT,
  valid INTEGER,
  errors INTEGER,
  findings INTEGER,
  cost REAL,
  cost_unit TEXT,
  key TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  tagline TEXT NOT NULL DEFAULT '',
  problem TEXT,
  art TEXT
);
CREATE INDEX files_ruleset ON files(ruleset, valid);
CREATE INDEX files_valid ON files(valid);
CREATE INDEX files_hash ON files(hash);
CREATE INDEX files_mtime ON files(mtime_ns);
CREATE TABLE figures (file INTEGER NOT NULL, key TEXT NOT NULL, value REAL NOT NULL);
CREATE INDEX figures_key ON figures(key, value);
CREATE INDEX figures_file ON figures(file);
CREATE TABLE figure_keys (key TEXT NOT NULL, slug TEXT NOT NULL, PRIMARY KEY (key, slug)) WITHOUT ROWID;
CREATE TABLE entries (file INTEGER PRIMARY KEY, entry TEXT NOT NULL);
CREATE TABLE thumbs (key TEXT PRIMARY KEY, hash TEXT NOT NULL, png BLOB, problem TEXT) WITHOUT ROWID;
CREATE INDEX thumbs_hash ON thumbs(hash);
CREATE VIRTUAL TABLE words USING fts5(name, notes, tags, tokenize = 'unicode61 remove_diacritics 2');
"""


def index_file() -> Path:
    """Where the index lives: ``$XDG_DATA_HOME/shipyard/hangar.sqlite``."""
    from shipyard.core.resources import user_data_folder

    return user_data_folder() / "hangar.sqlite"


class Known(NamedTuple):
    """A file as the index holds it: what a scan compares it by."""

    stamp: str
    hash: str | None
    id: int
    ruleset: str | None
    rules: str
    readable: bool = True  # its entry is one find can show: read again when it is not


# An entry find can show: a JSON object of its own file (a row spoilt by hand or by a disk
# error, '{not json' or '{}', was an internal error in every find, and a scan kept it). Not an
# object: no "$.file" in it, NULL; json_valid first, as json_extract fails on text not JSON.
_READABLE = "CASE WHEN json_valid(entries.entry) THEN json_extract(entries.entry, '$.file') IS files.path ELSE 0 END"
_KNOWN = (
    f"SELECT path, stamp, hash, id, ruleset, rules, {_READABLE} FROM files LEFT JOIN entries ON entries.file = files.id"
)


def _known(rows: Any) -> dict[str, Known]:
    return {row[0]: Known(row[1], row[2], row[3], row[4], row[5], bool(row[6])) for row in rows}


@dataclass
class ScanResult:
    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    rechecked: int = 0  # the file as it was, checked again because its rules changed
    broken: int = 0
    folders_missing: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        """What the scan tells beside its counts: each library folder not there now (an
        unplugged drive), whose designs the index keeps. ``shipyard hangar scan`` and the
        Hangar window say the same words."""
        return [f"the library folder {f} is not there now; its designs stay listed" for f in self.folders_missing]


class Index:
    """An open index; ``notes`` says what happened to one that had to be rebuilt."""

    def __init__(self, file: Path | None = None) -> None:
        self.file = file or index_file()
        self.notes: list[str] = []
        self.db = self._open()

    # --- opening ---------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        from shipyard.core.atomicwrite import make_folder

        make_folder(self.file.parent)
        db = sqlite3.connect(self.file, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        return db

    def _open(self) -> sqlite3.Connection:
        why = "; ".join(w for part in self._parts() if (w := self._unusable(part)) is not None)
        if not why:
            db = None
            try:
                db = self._connect()
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version == SCHEMA:
                    db.execute("SELECT count(*) FROM files").fetchone()
                    return db
                if version == 0 and not db.execute("SELECT name FROM sqlite_master").fetchall():
                    self._create(db)
                    return db
                why = (
                    f"it was made by a newer Shipyard (index schema {version}; this one writes {SCHEMA})"
                    if version > SCHEMA
                    else f"it has an older layout (schema {version})"
                )
            except sqlite3.DatabaseError as exc:
                if _disk_full(exc, self.file.parent):  # not an index that cannot be read
                    if db is not None:
                        db.close()
                    raise self.cannot_write(exc, "made") from None
                why = f"it cannot be read ({exc})"
            if db is not None:
                db.close()
        moved = self._set_aside()
        self.notes.append(f"the hangar index {self.file} was rebuilt: {why}; it is a cache, nothing is lost{moved}")
        db = None
        try:
            db = self._connect()
            self._create(db)
        except (sqlite3.Error, OSError) as exc:
            if db is not None:
                db.close()
            raise self.cannot_write(exc, "made") from None
        return db

    def cannot_write(self, exc: sqlite3.Error | OSError, done: str = "written") -> InputError:
        """Why the index cannot be made or written, in words: a full disk said as that, with
        the folder it is in (SQLite's own rollback error hid it: "cannot rollback - no
        transaction is active"), and what to do."""
        why = _cannot_write(exc) or (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc))
        if _disk_full(exc, self.file.parent):
            why = f"the disk is full (no space left in {self.file.parent})"
            todo = "free some space on it, or set XDG_DATA_HOME to a folder on another disk"
        else:
            todo = "it is a cache: Shipyard makes it again once it can"
        return InputError.single(f"the hangar index cannot be {done}: {why}; {todo}", file=self.file)

    def _parts(self) -> list[Path]:
        """The index file and the two SQLite keeps beside it while it is open."""
        return [Path(f"{self.file}{suffix}") for suffix in ("", "-wal", "-shm")]

    def _unusable(self, part: Path) -> str | None:
        """Why SQLite must not open ``part`` (the index or a file beside it) and write there;
        None when it may: it is not there, a regular file, or a link to one in the index's own
        folder. A link leading out of that folder would have Shipyard write where it leads (a
        file of the person's, another program's); a folder, a pipe or a device in its place
        made every hangar command an internal error, or wait forever on the pipe."""
        from shipyard.core.safepaths import kind_of

        try:
            st = part.lstat()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"{part.name} cannot be looked at ({exc.strerror or exc})"
        if stat.S_ISLNK(st.st_mode):
            target = Path(os.path.realpath(part))
            home = Path(os.path.realpath(self.file.parent))
            if not target.is_relative_to(home):
                return f"{part.name} is a link to {target}, outside {home}, and Shipyard does not write through it"
            try:
                st = target.stat()
            except FileNotFoundError:  # a link to a file to be made, in the index's folder
                return None
            except OSError as exc:
                return f"{part.name} leads to {target}, which cannot be looked at ({exc.strerror or exc})"
        if not stat.S_ISREG(st.st_mode):
            return f"{part.name} is {kind_of(st.st_mode)}, not an index file"
        return None

    def _set_aside(self) -> str:
        """Remove the index and the files beside it, to build it again: a file or a link (the
        link alone, never what it leads to) is removed, as a cache; a folder in its place is
        kept, moved aside under a name of its own. What became of a folder, for the note."""
        moved = []
        for part in self._parts():
            try:
                st = part.lstat()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise self._cannot_set_aside(part, exc) from None
            try:
                if stat.S_ISDIR(st.st_mode):
                    aside = _free_name(part)
                    part.rename(aside)
                    moved.append(f"; the folder {part} is kept, moved to {aside}")
                else:
                    part.unlink()
            except OSError as exc:
                raise self._cannot_set_aside(part, exc) from None
        return "".join(moved)

    def _cannot_set_aside(self, part: Path, exc: OSError) -> InputError:
        return InputError.single(
            f"the hangar index cannot be built again: {part} is in its way and cannot be moved or removed "
            f"({exc.strerror or exc})",
            file=self.file,
            allowed="move or remove it, and run the command again",
        )

    def _create(self, db: sqlite3.Connection) -> None:
        with _transaction(db):
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:  # another process may have made it
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA}")

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; a full disk (or another reason the index cannot be written
        now) is an InputError saying so, the transaction rolled back."""
        try:
            with _transaction(self.db):
                yield self.db
        except (sqlite3.OperationalError, OSError) as exc:
            if isinstance(exc, sqlite3.OperationalError) and _cannot_write(exc) is None:
                raise  # a mistake of Shipyard's own SQL, not of the disk
            raise self.cannot_write(exc) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- scanning --------------------------------------------------------------------

    def scan(self, folders: list[Path], workers: int | None = None) -> ScanResult:
        """Bring the index up to date with ``folders``: new, changed and removed design files,
        and those whose rules changed.

        The files to read (new, their status stamp or their rules changed) are read and
        checked in ``workers`` processes at once (:func:`read_designs`) and written in batches."""
        result = ScanResult()
        stamps = RulesStamps()
        known = _known(self.db.execute(_KNOWN))
        seen: set[str] = set()
        pending: list[tuple[str, str, Any]] = []
        to_read: list[tuple[Path, Path, os.stat_result]] = []
        for folder in folders:
            if not folder.is_dir():
                result.folders_missing.append(str(folder))
                # a folder gone for now (an unplugged drive) keeps its entries until it is removed
                seen.update(p for p in known if Path(p).is_relative_to(folder))
                continue
            for path in design_files(folder):
                key = str(path)
                seen.add(key)
                looked = self._stat(path, folder, known.get(key), result, stamps)
                if looked is GONE:  # moved or deleted since it was listed: left out, its old entry removed
                    seen.discard(key)
                elif isinstance(looked, os.stat_result):
                    to_read.append((path, folder, looked))
                elif looked is not None:
                    pending.append(looked)
        if to_read:
            stamps(None)  # the rules as they are before any file is read by them
        records = read_designs([(path, st) for path, _, st in to_read], workers)
        for (path, folder, _), record in zip(to_read, records, strict=True):
            if record.gone:  # moved or deleted between its status and its reading
                seen.discard(str(path))
                continue
            pending.append(self._read(path, folder, known.get(str(path)), record, result, stamps))
            if len(pending) >= BATCH:
                self._write(pending, known)
                pending = []
        self._write(pending, known)
        gone = [p for p in known if p not in seen]
        result.removed = len(gone)
        self._remove(gone, known)
        if result.removed or result.changed:
            self.forget_thumbnails()
        result.broken = self.db.execute("SELECT count(*) FROM files WHERE problem IS NOT NULL").fetchone()[0]
        return result

    def _stat(
        self, path: Path, folder: Path, before: Known | None, result: ScanResult, stamps: RulesStamps
    ) -> tuple[str, str, Any] | os.stat_result | None:
        """What to write for one file without reading it (None: it is as indexed, by the
        rules as they are), its status when it must be read, or :data:`GONE` when it is not
        there now (moved or deleted since its folder was listed: not a problem of the file)."""
        try:
            st = path.stat()
        except OSError as exc:
            if _vanished(exc, path):
                return GONE
            if before is not None and before.hash is None:
                result.unchanged += 1
                return None
            result.added += before is None
            result.changed += before is not None
            return ("problem", str(path), (str(folder), 0, 0, _os_reason(exc, path)))
        if (
            before is not None
            and before.readable
            and before.stamp == file_stamp(st)
            and before.rules == stamps(before.ruleset)
        ):
            result.unchanged += 1
            return None
        return st

    def _read(
        self,
        path: Path,
        folder: Path,
        before: Known | None,
        record: Record,
        result: ScanResult,
        stamps: RulesStamps,
    ) -> tuple[str, str, Any]:
        """What to write for a file read as ``record``: only its status when its content and
        its rules are as indexed (and its entry can be read)."""
        same = before is not None and before.readable and record.hash is not None and record.hash == before.hash
        if same and before is not None and before.rules == stamps(before.ruleset):
            result.unchanged += 1
            return ("touch", str(path), (record.mtime_ns, record.size, record.stamp))
        result.added += before is None
        result.rechecked += same
        result.changed += before is not None and not same
        record.rules = stamps(record.facts.ruleset if record.facts else None)
        return ("record", str(path), (str(folder), record))

    def _look(
        self, path: Path, folder: Path, before: Known | None, result: ScanResult, stamps: RulesStamps
    ) -> tuple[str, str, Any] | None:
        """What to write for one file, read here: None when it is as indexed."""
        looked = self._stat(path, folder, before, result, stamps)
        if looked is GONE:  # written, then moved or deleted at once: the next scan leaves it out
            return None
        if not isinstance(looked, os.stat_result):
            return looked
        stamps(None)  # the rules as they are before the file is read by them
        record = read_design(path, looked)
        return None if record.gone else self._read(path, folder, before, record, result, stamps)

    def _write(self, pending: list[tuple[str, str, Any]], known: dict[str, Known]) -> None:
        if not pending:
            return
        with self._writing() as db:
            for what, path, data in pending:
                if what == "touch":
                    row = db.execute(
                        "SELECT id, entry FROM files JOIN entries ON entries.file = files.id WHERE path = ?", (path,)
                    ).fetchone()
                    if row is not None:
                        try:
                            entry = json.loads(row[1]) | {"modified": modified(data[0]), "size": data[1]}
                        except (ValueError, TypeError):  # spoilt since it was looked at: the next scan reads it
                            continue
                        db.execute("UPDATE files SET mtime_ns = ?, size = ?, stamp = ? WHERE id = ?", (*data, row[0]))
                        db.execute(
                            "UPDATE entries SET entry = ? WHERE file = ?",
                            (json.dumps(entry, ensure_ascii=False), row[0]),
                        )
                    continue
                self._delete_path(path)  # as the index holds it now: another process may have written it
                if what == "problem":
                    folder, mtime, size, reason = data
                    record = Record(mtime, size, None, None, [], reason)
                else:
                    folder, record = data
                ruleset = record.facts.ruleset if record.facts else None
                known[path] = Known(
                    record.stamp, record.hash, self._insert(path, folder, record), ruleset, record.rules
                )

    def _insert(self, path: str, folder: str, r: Record) -> int:
        f = r.facts
        name = f.name if f else Path(path).stem
        tagline = "".join(f"|{t.lower()}" for t in r.tags) + ("|" if r.tags else "")
        row = (
            path, folder, r.mtime_ns, r.size, r.stamp, r.rules, r.hash, name,
            f.ruleset if f else None, f.ruleset_name if f else None, f.kind if f else None,
            (1 if f.valid else 0) if f else None, f.errors if f else None, f.findings if f else None,
            f.cost if f else None, f.cost_unit if f else None, json.dumps(f.key) if f else None,
            json.dumps(r.tags, ensure_ascii=False), tagline, r.problem, art_shown(f.art) if f else None,
        )  # fmt: skip
        entry = {
            "file": path, "folder": folder, "name": name, "ruleset": row[8], "ruleset_name": row[9], "kind": row[10],
            "valid": None if f is None else f.valid, "errors": row[12], "findings": row[13], "cost": row[14],
            "cost_unit": row[15], "key_figures": f.key if f else {}, "tags": r.tags, "modified": modified(r.mtime_ns),
            "size": r.size, "hash": r.hash, "problem": r.problem, "art": row[20],
        }  # fmt: skip
        cur = self.db.execute(
            "INSERT INTO files (path, folder, mtime_ns, size, stamp, rules, hash, name, ruleset, ruleset_name, kind, "
            "valid, errors, findings, cost, cost_unit, key, tags, tagline, problem, art) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        rowid = int(cur.lastrowid or 0)
        self.db.execute(
            "INSERT INTO entries (file, entry) VALUES (?, ?)", (rowid, json.dumps(entry, ensure_ascii=False))
        )
        if f is not None:
            from shipyard.hangar.facts import slug

            self.db.executemany(
                "INSERT INTO figures (file, key, value) VALUES (?, ?, ?)", [(rowid, k, v) for k, _, v in f.numbers]
            )
            # every figure's id once with each label it has, as a filter names it: a filter finds its ids here
            self.db.executemany(
                "INSERT OR IGNORE INTO figure_keys (key, slug) VALUES (?, ?)", [(k, slug(lb)) for k, lb, _ in f.numbers]
            )
        self.db.execute(
            "INSERT INTO words (rowid, name, notes, tags) VALUES (?, ?, ?, ?)",
            (rowid, name, f.notes if f else "", " ".join(r.tags)),
        )
        return rowid

    def _delete_path(self, path: str) -> None:
        row = self.db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is not None:
            self._delete(row[0])

    def _delete(self, rowid: int) -> None:
        self.db.execute("DELETE FROM files WHERE id = ?", (rowid,))
        self.db.execute("DELETE FROM figures WHERE file = ?", (rowid,))
        self.db.execute("DELETE FROM entries WHERE file = ?", (rowid,))
        self.db.execute("DELETE FROM words WHERE rowid = ?", (rowid,))

    def _remove(self, paths: list[str], known: dict[str, Known]) -> None:
        if not paths:
            return
        with self._writing():
            for p in paths:
                known.pop(p, None)
                self._delete_path(p)

    def forget_thumbnails(self) -> None:
        """Drop the thumbnails of designs no longer indexed (changed or gone)."""
        with self._writing():
            self.db.execute("DELETE FROM thumbs WHERE hash NOT IN (SELECT hash FROM files WHERE hash IS NOT NULL)")

    def forget_folder(self, folder: Path | str) -> int:
        """Drop what the index holds of a folder taken out of the library; how many files."""
        rows = [r[0] for r in self.db.execute("SELECT id FROM files WHERE folder = ?", (str(folder),))]
        with self._writing():
            for rowid in rows:
                self._delete(rowid)
        return len(rows)

    # --- reading ---------------------------------------------------------------------

    def rows(self, where: str = "1", params: tuple[Any, ...] = ()) -> Entries:
        """The files ``where`` holds, by name, as ``find --json`` prints them (:class:`Entries`); a
        row whose entry cannot be read is left out (the next scan indexes its file again)."""
        cur = self.db.execute(
            f"SELECT entry FROM files JOIN entries ON entries.file = files.id WHERE ({where}) AND {_READABLE} "
            "ORDER BY name COLLATE NOCASE, path",
            params,
        )
        return Entries([r[0] for r in cur])

    def has_figure(self, name: str, key: str, like_name: str, like_key: str) -> bool | None:
        """Whether a figure of the indexed designs is named ``name`` (its id) or ``key`` (its
        label's slug), or starts so (``LIKE`` patterns): as ``find``'s figure filter matches
        them (:mod:`shipyard.hangar.query`). None when no design is indexed with any figure."""
        if self.db.execute("SELECT 1 FROM figure_keys LIMIT 1").fetchone() is None:
            return None
        row = self.db.execute(
            "SELECT 1 FROM figure_keys WHERE key = ? OR slug = ? OR key LIKE ? ESCAPE '\\' "
            "OR slug LIKE ? ESCAPE '\\' LIMIT 1",
            (name, key, like_name, like_key),
        ).fetchone()
        return row is not None

    def figure_names(self) -> list[str]:
        """Every figure id and label slug the indexed designs have had, for a refusal's list."""
        return sorted({str(n) for pair in self.db.execute("SELECT key, slug FROM figure_keys") for n in pair})

    def kinds(self) -> list[str]:
        """The kinds of the indexed designs, lower case."""
        return [
            str(k)
            for (k,) in self.db.execute(
                "SELECT DISTINCT lower(kind) FROM files WHERE problem IS NULL AND kind IS NOT NULL AND kind != ''"
            )
        ]

    def count(self, folder: Path) -> tuple[int, int]:
        """Designs and broken design files indexed in ``folder``."""
        row = self.db.execute(
            "SELECT count(*) - count(problem), count(problem) FROM files WHERE folder = ?", (str(folder),)
        ).fetchone()
        return int(row[0]), int(row[1])

    def broken(self) -> Entries:
        return self.rows("problem IS NOT NULL")

    def duplicates(self) -> list[tuple[str, Entries]]:
        """Groups of files that are the same design: the same content, or one name in one ruleset."""
        out: list[tuple[str, Entries]] = []
        for (digest,) in self.db.execute(
            "SELECT hash FROM files WHERE problem IS NULL GROUP BY hash HAVING count(*) > 1 ORDER BY min(name)"
        ).fetchall():
            out.append(("the same content", self.rows("hash = ? AND problem IS NULL", (digest,))))
        for ruleset, name in self.db.execute(
            "SELECT ruleset, lower(name) FROM files WHERE problem IS NULL GROUP BY ruleset, lower(name) "
            "HAVING count(DISTINCT hash) > 1 ORDER BY lower(name)"
        ).fetchall():
            group = self.rows("ruleset = ? AND lower(name) = ? AND problem IS NULL", (ruleset, name))
            out.append((f"the same name in {group[0]['ruleset_name']}", group))
        return out

    def by_hash(self, digest: str) -> Entries:
        return self.rows("hash = ? AND problem IS NULL", (digest,))


class Entries(Sequence[dict[str, Any]]):
    """Files found, each as ``find --json`` prints it. Each is kept in the index as that JSON
    when indexed; a search hands over the texts and each is read when it is first looked
    at, so finding thousands costs no work for each one nobody looks at (a window shows a
    screenful; ``--json`` passes the texts on as they are: :meth:`json_text`)."""

    def __init__(self, texts: list[str]) -> None:
        self._texts = texts
        self._read: dict[int, dict[str, Any]] = {}

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self._texts)
        if i not in self._read:
            entry: dict[str, Any] = json.loads(self._texts[i])
            self._read[i] = entry
        return self._read[i]

    def __eq__(self, other: object) -> bool:
        return list(self) == (list(other) if isinstance(other, Entries) else other)

    __hash__ = None  # type: ignore[assignment]

    def json_text(self) -> str:
        """Every entry as one JSON list, without reading any."""
        return "[" + ",".join(self._texts) + "]"


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception, which is raised as it
    was: SQLite rolls back itself on some errors (a full disk), and a ROLLBACK then raised
    "cannot rollback - no transaction is active" in place of the error that said why."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


# SQLite's result codes (their lowest byte) that say the index cannot be written now, each
# in words; any other error is a mistake of Shipyard's (SQL that cannot run) and stays one.
_WRITE_FAILURES = {
    sqlite3.SQLITE_FULL: "the disk is full",
    sqlite3.SQLITE_IOERR: "the disk reported an error while it was written (disk I/O error)",
    sqlite3.SQLITE_READONLY: "it is read-only",
    sqlite3.SQLITE_CANTOPEN: "the file cannot be opened",
    sqlite3.SQLITE_BUSY: f"another program (another Shipyard?) held it for more than {BUSY_TIMEOUT_MS // 1000} s",
    sqlite3.SQLITE_LOCKED: "another program (another Shipyard?) holds it",
    sqlite3.SQLITE_PERM: "permission denied",
}


def _cannot_write(exc: BaseException) -> str | None:
    """Why ``exc`` says the index cannot be written now, in words; None when it says no such thing."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            return _WRITE_FAILURES.get(code & 0xFF)
        return "the disk is full" if "disk is full" in str(exc) else None
    return None


def _disk_full(exc: BaseException, folder: Path) -> bool:
    """Whether ``exc`` comes of a full disk: SQLite or the system says so, or an I/O error
    where ``folder`` has next to no space left (SQLite says only "disk I/O error" when the
    file beside the index it maps into memory cannot grow)."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    if isinstance(exc, sqlite3.Error):
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
        if code == sqlite3.SQLITE_FULL or "disk is full" in str(exc):
            return True
        if code == sqlite3.SQLITE_IOERR:
            try:
                st = os.statvfs(folder)
            except (OSError, AttributeError):
                return False
            return st.f_bavail * st.f_frsize < FULL_BELOW
    return False


FULL_BELOW = 1024 * 1024
"""Bytes free under which a disk I/O error writing the index is said to be a full disk."""


def _free_name(part: Path) -> Path:
    """A name beside ``part`` that nothing has, to keep what was in the way of the index."""
    for n in range(1, 1000):
        aside = part.with_name(f"{part.name}.set-aside{'' if n == 1 else f'-{n}'}")
        if not os.path.lexists(aside):
            return aside
    raise FileExistsError(errno.EEXIST, "every name to set it aside under is taken", str(part))


def art_shown(ref: str | None) -> str | None:
    """A design's ``art`` as the index keeps it: its path, or "embedded" for a picture kept in the design."""
    if ref is None:
        return None
    return "embedded" if ref.startswith("data:") else ref


def modified(mtime_ns: int) -> str:
    """A file's modification time as ``find`` shows it: local time, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(mtime_ns / 1e9))


# --- files --------------------------------------------------------------------------------


def design_files(folder: Path) -> Iterator[Path]:
    """Every ``*.ship`` file under ``folder``, following links to folders once each (a link
    that leads back up is not followed again), in a stable order."""
    return (path for path, is_folder in library_tree(folder) if not is_folder)


def library_tree(folder: Path) -> Iterator[tuple[Path, bool]]:
    """``folder``, every folder under it and every ``*.ship`` file in them, each with whether
    it is a folder: what :func:`design_files` walks, so that the editor can watch the folders
    the scan reads (one holding no design yet among them) and no others. A folder comes
    before what it holds; hidden ones are left out and a link to a folder is followed once."""
    visited: set[tuple[int, int]] = set()

    def walk(at: Path) -> Iterator[tuple[Path, bool]]:
        try:
            st = at.stat()
        except OSError:
            return
        if (st.st_dev, st.st_ino) in visited:
            return
        visited.add((st.st_dev, st.st_ino))
        try:
            entries = sorted(os.scandir(at), key=lambda e: e.name)
        except OSError:
            return
        yield at, True
        for e in entries:
            p = Path(e.path)
            try:
                is_dir = e.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not e.name.startswith("."):
                    yield from walk(p)
            elif e.name.endswith(EXTENSION) and not e.name.startswith("."):
                yield p, False

    yield from walk(folder)


@dataclass
class Record:
    mtime_ns: int
    size: int
    hash: str | None
    facts: Facts | None
    tags: list[str]
    problem: str | None
    stamp: str = ""  # the status it was read with (:func:`~shipyard.hangar.freshness.file_stamp`); none: unread
    rules: str = ""  # the stamp of the rules it was checked by (:class:`~shipyard.hangar.freshness.RulesStamps`)
    gone: bool = False  # not there when it was opened (moved or deleted since it was listed): not indexed


# What a look at a file answers when it is not there now: a file moved or deleted while a
# scan ran is left out (as if the scan had listed its folder a moment later), not kept as
# a problem of the file; only a link to a file that does not exist is one.
GONE: tuple[str, str, Any] = ("gone", "", None)


def _vanished(exc: OSError, path: Path) -> bool:
    """Whether ``exc`` says ``path`` is not there now (a file moved or deleted meanwhile), as
    against a link whose target does not exist, which is there and is a problem."""
    return exc.errno == errno.ENOENT and not path.is_symlink()


def _os_reason(exc: OSError, path: Path) -> str:
    if exc.errno == errno.ELOOP:
        return "a link that leads round in a loop; it leads to no file"
    if exc.errno == errno.ENOENT:
        return "a link to a file that does not exist"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "cannot be read: permission denied"
    return f"cannot be read: {exc.strerror or exc}"


def hash_bytes(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def file_hash(path: Path) -> str:
    """The content hash rosters keep of a design file (what the index keeps too)."""
    from shipyard.core.usertext import read_limited

    return hash_bytes(read_limited(path, str(path), MAX_DESIGN_BYTES, "a design file"))


def read_design(path: Path, st: os.stat_result) -> Record:
    """One design file read, checked and summed up; a problem is kept as its reason."""
    record = _read_design(path, st)
    record.stamp = file_stamp(st)
    return record


def _read_design(path: Path, st: os.stat_result) -> Record:
    if not stat.S_ISREG(st.st_mode):
        from shipyard.core.safepaths import kind_of

        return Record(st.st_mtime_ns, st.st_size, None, None, [], f"not a design file: it is {kind_of(st.st_mode)}")
    if st.st_size > MAX_DESIGN_BYTES:
        return Record(
            st.st_mtime_ns,
            st.st_size,
            None,
            None,
            [],
            f"too large for a design file ({st.st_size / 1024 / 1024:.1f} MB; "
            f"at most {MAX_DESIGN_BYTES // 1024 // 1024} MB)",
        )
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_DESIGN_BYTES + 1)
    except OSError as exc:
        if _vanished(exc, path):
            return Record(st.st_mtime_ns, st.st_size, None, None, [], None, gone=True)
        return Record(st.st_mtime_ns, st.st_size, None, None, [], _os_reason(exc, path))
    digest = hash_bytes(raw)
    try:
        facts, tags = evaluate_bytes(raw, path)
    except InputError as exc:
        problem = exc.problems[0]
        where = f"{problem.path}: " if problem.path else (f"line {problem.line}: " if problem.line else "")
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        return Record(st.st_mtime_ns, st.st_size, digest, None, [], f"{where}{problem.message}{more}")
    except (RecursionError, MemoryError, ValueError, TypeError, KeyError, AttributeError) as exc:
        return Record(
            st.st_mtime_ns, st.st_size, digest, None, [], f"could not be checked: {type(exc).__name__}: {exc}"
        )
    return Record(st.st_mtime_ns, st.st_size, digest, facts, tags, None)


WORKERS_ENV = "SHIPYARD_HANGAR_WORKERS"
"""How many processes read design files at once in a scan (a number; 1: all in this one);
unset: this one and one more for each core no other program is using now, at most
:data:`MAX_WORKERS`. On a machine whose cores are all busy, more processes would only
share the same cores and spend more starting."""
MAX_WORKERS = 8
PARALLEL_FROM = 64  # fewer files to read than this are read here: starting the workers would cost more
CHUNK = 32  # files a worker reads per request: the slower worker is never left with much


def scan_workers() -> int:
    """The processes a scan reads in (:data:`WORKERS_ENV`, else what the cores free now allow)."""
    import sys

    said = os.environ.get(WORKERS_ENV, "").strip()
    if said.isdigit() and int(said) >= 1:
        return min(int(said), 64)
    if getattr(sys, "frozen", False):  # a frozen app has no interpreter of its own to start workers in
        return 1
    from shipyard.core.cores import free_cores

    return max(1, min(MAX_WORKERS, free_cores()))


def _read_chunk(items: list[tuple[str, os.stat_result]]) -> list[Record]:
    from shipyard.core.catalog import catalogs_held

    with catalogs_held():
        return [read_design(Path(path), st) for path, st in items]


def read_designs(items: list[tuple[Path, os.stat_result]], workers: int | None = None) -> Iterator[Record]:
    """Each file read and checked (:func:`read_design`), in order: in ``workers`` processes
    (default :func:`scan_workers`) when there are many, each a new interpreter (never forked
    from the editor's threads); each catalog checked against its files once
    (:func:`~shipyard.core.catalog.catalogs_held`). When a worker dies, what was not
    answered is read here."""
    n = scan_workers() if workers is None else workers
    done = 0
    if n > 1 and len(items) >= PARALLEL_FROM:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        chunks = [[(str(p), st) for p, st in items[i : i + CHUNK]] for i in range(0, len(items), CHUNK)]
        try:
            with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn")) as pool:
                for records in pool.map(_read_chunk, chunks):
                    for record in records:
                        done += 1
                        yield record
        except (BrokenProcessPool, OSError, RuntimeError):
            pass
    from shipyard.core.catalog import catalogs_held

    with catalogs_held():
        for path, st in items[done:]:
            yield read_design(path, st)


def evaluate_bytes(raw: bytes, path: Path) -> tuple[Facts, list[str]]:
    """A design file's facts and tags from its bytes (read once: hashed and evaluated)."""
    from shipyard.core.designfile import design_from_document, parse_document
    from shipyard.core.designreport import design_report
    from shipyard.core.usertext import decode

    text = decode(raw, str(path))
    if not text.strip():
        raise InputError.single("file is empty", file=path)
    loaded = design_from_document(parse_document(text, str(path)), file=str(path))
    return facts_for(loaded, design_report(loaded.design, loaded.catalog, loaded.file)), loaded.tags


def facts_for(loaded: Any, report: Any) -> Facts:
    """A loaded design's facts, with its ruleset's key figure and health track."""
    from shipyard.core.registry import get
    from shipyard.hangar.facts import facts_of

    tabletop = get(loaded.ruleset).manifest.tabletop
    health = tabletop.health if tabletop else None
    if health is not None and not isinstance(health, str):  # a bar: the figure or track it is read from
        health = health.rating or health.track or health.value
    return facts_of(report, loaded.design, tabletop.key_figure if tabletop else None, health)


def note_saved(paths: list[Path]) -> None:
    """Bring the index up to date with design files Shipyard just wrote (the editor's Save,
    ``shipyard set``), when they lie in a library folder. The index is a cache: when it
    cannot be updated now (busy past the timeout, a disk error), the next scan does it, and
    the save it follows has succeeded all the same.

    A file is indexed under the name the scan gives it: its folder's real path (a path
    written through ``..`` or a link to the library folder names the same file) and its own
    name. A path taken as written made a second row for one file (``fighters/../scout.ship``)
    or none at all (a link to the library), until the next scan."""
    from shipyard.hangar import library

    try:
        folders = library.folders()
    except InputError:
        return
    wanted = []
    for p in paths:
        given = Path(p)
        try:
            # its folder resolved, not the file: a design that is itself a link is named as the scan names it
            real = given.absolute().parent.resolve() / given.name
        except (OSError, RuntimeError):  # a folder that loops, or cannot be read: the next scan names it
            continue
        folder = next((f for f in folders if real.is_relative_to(f)), None)
        if folder is not None and real.name.endswith(EXTENSION):
            wanted.append((real, folder))
    if not wanted:
        return
    try:
        with Index() as index:
            known = _known(
                index.db.execute(
                    f"{_KNOWN} WHERE path IN ({', '.join('?' * len(wanted))})", [str(p) for p, _ in wanted]
                )
            )
            stamps = RulesStamps()
            pending = [index._look(p, f, known.get(str(p)), ScanResult(), stamps) for p, f in wanted]
            index._write([e for e in pending if e is not None], known)
    except (sqlite3.Error, OSError, InputError):  # the index cannot be made or written now (a full disk)
        return
