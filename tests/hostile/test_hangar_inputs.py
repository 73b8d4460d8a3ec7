"""Bad input to the hangar and to rosters: unreadable, huge, looping and foreign files in a
library folder; counts of 0, -1, 10^9 and "many"; members outside the roster's folder, of
another ruleset, missing. Each a clear message, never a traceback, nothing rewritten."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from ..conftest import call_shipyard, run_shipyard
from ..test_hangar import samples


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "config").mkdir()
    (tmp_path / "data").mkdir()
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}


def test_hostile_files_in_a_library_folder(tmp_path: Path, env: dict[str, str]) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    good = samples()[0]
    shutil.copyfile(good, lib / "good.ship")
    (lib / "loop-a.ship").symlink_to("loop-b.ship")
    (lib / "loop-b.ship").symlink_to("loop-a.ship")
    (lib / "dangling.ship").symlink_to("nowhere.ship")
    (lib / "up").symlink_to("..")  # a folder link that leads back up
    with (lib / "huge.ship").open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    (lib / "binary.ship").write_bytes(bytes(range(256)) * 10)
    (lib / "list.ship").write_text("[1, 2, 3]")
    (lib / "notes.md").write_text("# not a design")
    (lib / "picture.png").write_bytes(b"\x89PNG\r\n")
    os.mkfifo(lib / "pipe.ship")
    locked = lib / "locked.ship"
    shutil.copyfile(good, locked)
    locked.chmod(0)
    r = run_shipyard("hangar", "add", lib, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    r = run_shipyard("hangar", "scan", "--json", env=env, timeout=60)
    locked.chmod(0o600)
    assert r.returncode == 0 and "Traceback" not in r.stderr
    data = json.loads(r.stdout)
    reasons = {Path(b["file"]).name: b["reason"] for b in data["broken"]}
    assert "loop" in reasons["loop-a.ship"] and "loop" in reasons["loop-b.ship"]
    assert "does not exist" in reasons["dangling.ship"]
    assert "too large" in reasons["huge.ship"]
    assert reasons["binary.ship"] and reasons["list.ship"]
    assert "named pipe" in reasons["pipe.ship"]
    if os.geteuid() != 0:  # root reads any file
        assert "permission denied" in reasons["locked.ship"]
    assert "notes.md" not in reasons and "picture.png" not in reasons
    found = json.loads(run_shipyard("find", "--json", "--no-scan", env=env).stdout)
    assert str(lib / "good.ship") in [f["file"] for f in found]


@pytest.fixture
def roster(tmp_path: Path) -> Path:
    folder = tmp_path / "force"
    folder.mkdir()
    shutil.copyfile(samples()[0], folder / "one.ship")
    r = call_shipyard("roster", "new", folder / "f.roster", "--name", "F")
    assert r.returncode == 0
    assert call_shipyard("roster", "add", folder / "f.roster", folder / "one.ship").returncode in (0, 1)
    return folder / "f.roster"


@pytest.mark.parametrize("count", ["0", "-1", "1000000000", "many", "2.5"])
def test_a_count_a_roster_cannot_take_is_refused_clearly(roster: Path, count: str) -> None:
    before = roster.read_text()
    r = call_shipyard("roster", "add", roster, roster.parent / "one.ship", "--count", count)
    assert r.returncode == 2 and "1 to 999" in r.stderr and "Traceback" not in r.stderr
    assert roster.read_text() == before
    # the same count written into the file by hand: named with its line
    text = before.replace("members:\n- file: one.ship\n", f"members:\n- file: one.ship\n  count: {count}\n")
    assert text != before
    roster.write_text(text)
    r = call_shipyard("roster", "check", roster)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "count" in r.stderr and "1 to 999" in r.stderr and f"{roster}:" in r.stderr
    assert roster.read_text() == text


def test_members_outside_missing_or_of_another_ruleset(roster: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.ship"
    shutil.copyfile(samples()[0], outside)
    before = roster.read_text()
    r = call_shipyard("roster", "add", roster, outside)
    assert r.returncode == 2 and "outside the roster's folder" in r.stderr
    assert roster.read_text() == before
    rid = json.loads(samples()[0].read_text())["ruleset"]
    other = next(f for f in samples() if json.loads(f.read_text())["ruleset"] != rid)
    shutil.copyfile(other, roster.parent / "other.ship")
    r = call_shipyard("roster", "add", roster, roster.parent / "other.ship")
    assert r.returncode == 2 and "this roster takes" in r.stderr and "Nothing was added" in r.stderr
    assert roster.read_text() == before
    # written by hand: a member leading outside, one of another ruleset, one missing
    text = before + "- file: ../elsewhere.ship\n- file: other.ship\n- file: gone.ship\n"
    roster.write_text(text)
    r = call_shipyard("roster", "check", roster, "--json")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    states = [m["state"] for m in json.loads(r.stdout)["members"]]
    assert states[1:] == ["outside", "other-ruleset", "missing"]
    assert roster.read_text() == text


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name: [1, 2\n", "malformed YAML"),
        ("- just\n- a list\n", "holds a mapping"),
        ("name: F\nmembers: []\nsecret: 1\n", "unknown key 'secret'"),
        ("name: F\nlimit: -5\n", "limit"),
        ("name: '   '\n", "blank"),
    ],
)
def test_a_broken_roster_file_is_named_with_its_place(tmp_path: Path, text: str, said: str) -> None:
    file = tmp_path / "bad.roster"
    file.write_text(text)
    r = call_shipyard("roster", "check", file)
    assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr


def test_a_folder_inside_or_around_a_library_folder_is_refused(tmp_path: Path, env: dict[str, str]) -> None:
    inner = tmp_path / "lib" / "inner"
    inner.mkdir(parents=True)
    assert call_shipyard("hangar", "add", tmp_path / "lib", env=env).returncode == 0
    r = call_shipyard("hangar", "add", inner, env=env)
    assert r.returncode == 2 and "is inside the library folder" in r.stderr
    r = call_shipyard("hangar", "add", tmp_path, env=env)
    assert r.returncode == 2 and "holds the library folder" in r.stderr
    listed = json.loads(call_shipyard("hangar", "list", "--json", env=env).stdout)
    assert [f["folder"] for f in listed] == [str(tmp_path / "lib")]
    (tmp_path / "file.txt").write_text("x")
    r = call_shipyard("hangar", "add", tmp_path / "file.txt", env=env)
    assert r.returncode == 2 and "is not a folder" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"{not json", "the hangar's settings are not JSON (Expecting property name"),
        (b"\xff\xfe{not json", "the hangar's settings cannot be read: saved as UTF-16"),
        (b"\xe9t\xe9", "the hangar's settings cannot be read: not UTF-8 text (byte 0 is 0xe9)"),
    ],
)
def test_unreadable_hangar_settings_are_named_not_a_traceback(env: dict[str, str], raw: bytes, said: str) -> None:
    """A file that cannot be read as settings may be removed to start again: the message says
    what that loses."""
    settings = Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json"
    settings.parent.mkdir(parents=True)
    settings.write_bytes(raw)
    r = call_shipyard("hangar", "list", env=env)
    assert r.returncode == 2 and f"{settings}: {said}" in r.stderr, r.stderr
    assert "remove it to start again with no library folders (the list of folders it holds is then lost" in r.stderr
    assert "Traceback" not in r.stderr
    assert settings.read_bytes() == raw  # left for the person to look at


def test_hangar_settings_without_read_permission_are_not_offered_for_removal(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hangar.json at chmod 000 said "remove the file to start again with no folders": advice
    that threw the person's library list away where chmod was the fix."""
    import errno

    settings = Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"folders": [str(tmp_path)]}))
    settings.chmod(0)
    if os.geteuid() == 0:  # root reads any file: the system answers as it does anyone else
        opened = Path.open

        def refused(self: Path, *args: Any, **kwargs: Any) -> Any:
            if self == settings:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return opened(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", refused)
    for command in (["hangar", "list"], ["find"], ["hangar", "add", tmp_path]):
        r = call_shipyard(*command, env=env)
        assert r.returncode == 2, r.stderr
        assert f"{settings}: the hangar's settings cannot be read: permission denied" in r.stderr
        assert f"chmod u+rw {settings})" in r.stderr
        assert "remove" not in r.stderr and "Traceback" not in r.stderr
    monkeypatch.undo()
    settings.chmod(0o600)
    assert json.loads(settings.read_text()) == {"folders": [str(tmp_path)]}  # left as it was


def test_a_folder_in_the_place_of_the_hangar_settings_is_named(env: dict[str, str], tmp_path: Path) -> None:
    """A folder named hangar.json made `hangar list` say "no library folders yet", as if the
    person had chosen none: it is an error naming the path, and the folder is left alone."""
    settings = Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json"
    settings.mkdir(parents=True)
    (settings / "kept.txt").write_text("mine")
    (tmp_path / "lib").mkdir()
    for command in (["hangar", "list"], ["find"], ["hangar", "scan"], ["hangar", "add", tmp_path / "lib"]):
        r = call_shipyard(*command, env=env)
        assert r.returncode == 2, (command, r.stdout, r.stderr)
        assert f"{settings}: this is a folder, not the hangar's settings file; it is left as it is" in r.stderr
        assert "no library folders yet" not in r.stdout and "Traceback" not in r.stderr
    assert [p.name for p in settings.iterdir()] == ["kept.txt"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"folders": 5}', "list the library folders as a number, not a list of folder paths"),
        ('{"folders": "/home/me/designs"}', "list the library folders as a text, not a list"),
        ('["/home/me/designs"]', "must be a JSON object, not a list"),
        ("null", "must be a JSON object, not null"),
    ],
)
def test_hangar_settings_of_the_wrong_shape_are_named_and_kept(
    env: dict[str, str], tmp_path: Path, text: str, said: str
) -> None:
    """``{"folders": 5}`` was an internal error (TypeError); a list of folders at the top was read
    as no folders, and the next ``hangar add`` wrote its one folder over the person's list."""
    settings = Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(text)
    (tmp_path / "lib").mkdir()
    for command in (["hangar", "list"], ["find"], ["hangar", "scan"], ["hangar", "add", tmp_path / "lib"]):
        r = call_shipyard(*command, env=env)
        assert r.returncode == 2, (command, r.stderr)
        assert said in r.stderr and f"{settings}" in r.stderr, r.stderr
        assert '(allowed: a JSON object whose "folders" is a list of folders\' full paths' in r.stderr
        assert "internal error" not in r.stderr and "Traceback" not in r.stderr
        assert settings.read_text() == text  # nothing lost: the file is the person's to correct


def test_a_folder_entry_that_is_no_full_path_is_left_out_with_a_note(env: dict[str, str], tmp_path: Path) -> None:
    """An empty or relative entry in hangar.json was read against the current folder, so ``find``
    indexed and found whatever designs lay where it was started."""
    here, lib, more = tmp_path / "here", tmp_path / "lib", tmp_path / "more"
    for folder in (here, lib, more):
        folder.mkdir()
    shutil.copyfile(samples()[0], here / "stray.ship")
    shutil.copyfile(samples()[1], lib / "kept.ship")
    settings = Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json"
    settings.parent.mkdir(parents=True)
    entries: list[object] = ["", "stray", 7, str(lib)]
    settings.write_text(json.dumps({"folders": entries}))
    r = call_shipyard("find", "--json", env=env, cwd=here)
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert [f["file"] for f in json.loads(r.stdout)] == [str(lib / "kept.ship")]
    for entry, why in (("''", "empty"), ("'stray'", "a relative path"), ("7", "a number")):
        assert f"{settings} list {entry} at folders[" in r.stderr
        assert f"which is {why}, not a folder's full path" in r.stderr
    assert "`shipyard hangar remove 'stray'` takes it out" in r.stderr
    listed = json.loads(call_shipyard("hangar", "list", "--json", env=env, cwd=here).stdout)
    assert [f["folder"] for f in listed] == [str(lib)]
    # a folder added keeps what the file listed (nothing lost); an entry is taken out by its text
    assert call_shipyard("hangar", "add", more, env=env, cwd=here).returncode == 0
    assert json.loads(settings.read_text())["folders"] == [*entries, str(more)]
    r = call_shipyard("hangar", "remove", "", "stray", env=env, cwd=here)
    assert r.returncode == 0 and "removed: ''" in r.stdout and "removed: 'stray'" in r.stdout
    assert json.loads(settings.read_text())["folders"] == [7, str(lib), str(more)]


@pytest.mark.parametrize(
    "spoil",
    [
        "UPDATE entries SET entry = '{not json' WHERE file = ?",
        "UPDATE entries SET entry = '{}' WHERE file = ?",
        "UPDATE entries SET entry = '[1, 2]' WHERE file = ?",
        "DELETE FROM entries WHERE file = ?",
    ],
)
def test_an_index_row_that_cannot_be_read_is_indexed_again(tmp_path: Path, env: dict[str, str], spoil: str) -> None:
    """A row of hangar.sqlite whose entry was not JSON made every ``find`` an internal error
    (JSONDecodeError, exit 70), and ``hangar scan`` kept it: the file looked unchanged."""
    import sqlite3

    lib = tmp_path / "lib"
    lib.mkdir()
    for f in samples()[:2]:
        shutil.copyfile(f, lib / f.name)
    assert call_shipyard("hangar", "add", lib, env=env).returncode == 0
    index = Path(env["XDG_DATA_HOME"]) / "shipyard" / "hangar.sqlite"
    victim = str(lib / samples()[0].name)
    with sqlite3.connect(index) as db:
        (rowid,) = db.execute("SELECT id FROM files WHERE path = ?", (victim,)).fetchone()
        db.execute(spoil, (rowid,))
    db.close()
    # as the index is: the row is left out, never an internal error
    r = call_shipyard("find", "--no-scan", "--json", env=env)
    assert r.returncode == 0 and "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert [f["file"] for f in json.loads(r.stdout)] == [str(lib / samples()[1].name)]
    r = call_shipyard("hangar", "scan", "--json", env=env)
    assert r.returncode == 0, r.stderr
    assert (json.loads(r.stdout)["changed"], json.loads(r.stdout)["unchanged"]) == (1, 1)
    r = call_shipyard("find", "--no-scan", "--json", env=env)
    assert sorted(f["file"] for f in json.loads(r.stdout)) == sorted(str(lib / f.name) for f in samples()[:2])
    assert r.returncode == 0 and "internal error" not in r.stderr


@pytest.mark.parametrize("what", ["folder", "link out", "dangling link out", "wal link out", "pipe"])
def test_an_index_that_is_no_index_file_is_set_aside_and_what_it_led_to_kept(
    tmp_path: Path, env: dict[str, str], what: str
) -> None:
    """hangar.sqlite as a folder was an internal error (IsADirectoryError, as the index was set
    aside); as a link out of the data folder, every scan wrote through it into the file it
    led to. Each is set aside with a note, and the index built again: nothing it held or led
    to is lost or written."""
    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copyfile(samples()[0], lib / "one.ship")
    index = Path(env["XDG_DATA_HOME"]) / "shipyard" / "hangar.sqlite"
    index.parent.mkdir(parents=True)
    precious = tmp_path / "precious.txt"
    precious.write_text("the person's own file\n")
    from shipyard.hangar.index import Index

    elsewhere = tmp_path / "elsewhere" / "hangar.sqlite"  # another index: a scan would write its designs there
    Index(elsewhere).close()
    before = elsewhere.read_bytes()
    said = {
        "folder": "hangar.sqlite is a folder, not an index file",
        "link out": f"hangar.sqlite is a link to {elsewhere}, outside",
        "dangling link out": f"hangar.sqlite is a link to {tmp_path / 'nothing-yet.sqlite'}, outside",
        "wal link out": f"hangar.sqlite-wal is a link to {precious}, outside",
        "pipe": "hangar.sqlite is a named pipe (FIFO), not an index file",
    }[what]
    if what == "folder":
        index.mkdir()
        (index / "kept.txt").write_text("kept\n")
    elif what == "link out":
        index.symlink_to(elsewhere)
    elif what == "dangling link out":
        index.symlink_to(tmp_path / "nothing-yet.sqlite")
    elif what == "wal link out":
        assert call_shipyard("hangar", "scan", env=env).returncode == 0  # an index of its own, then the link
        Path(f"{index}-wal").unlink(missing_ok=True)
        Path(f"{index}-wal").symlink_to(precious)
    else:
        os.mkfifo(index)
    r = run_shipyard("hangar", "add", lib, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert f"the hangar index {index} was rebuilt: {said}" in r.stderr and "nothing is lost" in r.stderr
    assert "added: " in r.stdout and ": 1 design" in r.stdout
    found = json.loads(call_shipyard("find", "--json", env=env).stdout)
    assert [f["file"] for f in found] == [str(lib / "one.ship")]
    assert index.is_file() and not index.is_symlink()
    assert precious.read_text() == "the person's own file\n"
    assert elsewhere.read_bytes() == before and sorted(elsewhere.parent.iterdir()) == [elsewhere]
    assert not (tmp_path / "nothing-yet.sqlite").exists()
    if what == "folder":
        aside = index.with_name("hangar.sqlite.set-aside")
        assert f"the folder {index} is kept, moved to {aside}" in r.stderr
        assert (aside / "kept.txt").read_text() == "kept\n"


def test_files_moved_or_deleted_during_a_scan_are_left_out_not_called_dangling_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scan lists a folder, then reads its files: one moved away after the listing (before
    its status is taken) and one deleted between its status and its reading were kept as
    "a link to a file that does not exist". They are gone: left out of the index (an old
    entry of one removed), never a problem; a real link to nothing still is one."""
    from shipyard.hangar import index as index_module
    from shipyard.hangar.index import Index

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    lib = tmp_path / "lib"
    lib.mkdir()
    for name in ("kept.ship", "moved.ship", "deleted.ship"):
        shutil.copyfile(samples()[0], lib / name)
    (lib / "dangling.ship").symlink_to("nowhere.ship")
    with Index() as index:
        index.scan([lib])  # "deleted.ship" is indexed as it was
    (lib / "deleted.ship").write_bytes((lib / "deleted.ship").read_bytes() + b"\n")  # changed: read again

    listed = index_module.design_files

    def moved_after_listing(folder: Path) -> Any:
        for path in listed(folder):
            if path.name == "moved.ship":
                path.rename(tmp_path / "elsewhere.ship")  # listed, then moved before the scan takes its status
            yield path

    reading = index_module.read_designs

    def deleted_before_reading(items: list[tuple[Path, Any]], workers: int | None = None) -> Any:
        (lib / "deleted.ship").unlink()  # its status taken, not yet read
        return reading(items, workers)

    monkeypatch.setattr(index_module, "design_files", moved_after_listing)
    monkeypatch.setattr(index_module, "read_designs", deleted_before_reading)
    with Index() as index:
        index.scan([lib])
        rows = dict(index.db.execute("SELECT path, problem FROM files").fetchall())
    names = {Path(p).name: problem for p, problem in rows.items()}
    assert "moved.ship" not in names and "deleted.ship" not in names, names
    assert names["kept.ship"] is None
    assert "does not exist" in (names["dangling.ship"] or "")


class FullDisk:
    """An index connection whose disk fills at the first statement that starts with ``at``:
    SQLite rolls the transaction back itself, as it does on a full disk, and the statement
    raises what SQLite raises then."""

    def __init__(self, db: Any, at: str) -> None:
        self._db, self._at = db, at

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().startswith(self._at):
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            import sqlite3

            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@pytest.mark.parametrize(("at", "done"), [("CREATE TABLE", "made"), ("INSERT INTO files", "written")])
def test_a_full_disk_is_said_and_the_folder_not_added(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str, done: str
) -> None:
    """A full disk under the index said "the hangar index cannot be made (cannot rollback - no
    transaction is active)": SQLite had rolled back already, and the ROLLBACK's own error hid
    the real one. And hangar.json listed the folder the error said could not be indexed."""
    from shipyard.hangar.index import Index

    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copyfile(samples()[0], lib / "one.ship")
    connect = Index._connect
    monkeypatch.setattr(Index, "_connect", lambda self: FullDisk(connect(self), at))
    r = call_shipyard("hangar", "add", lib, env=env)
    index = Path(env["XDG_DATA_HOME"]) / "shipyard" / "hangar.sqlite"
    assert r.returncode == 2, r.stderr
    assert f"{index}: the hangar index cannot be {done}: the disk is full (no space left in {index.parent})" in r.stderr
    assert "rollback" not in r.stderr and "internal error" not in r.stderr and "Traceback" not in r.stderr
    settings = Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json"
    assert not settings.exists() or json.loads(settings.read_text())["folders"] == []
    if done == "written":
        assert f"{lib} was not added to the library" in r.stderr
    monkeypatch.undo()  # room again: the folder is added and indexed
    r = call_shipyard("hangar", "add", lib, env=env)
    assert r.returncode == 0 and f"added: {lib}: 1 design" in r.stdout, r.stderr


def test_a_full_disk_while_finding_is_said_not_an_internal_error(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shipyard.hangar.index import Index

    lib = tmp_path / "lib"
    lib.mkdir()
    assert call_shipyard("hangar", "add", lib, env=env).returncode == 0
    shutil.copyfile(samples()[0], lib / "one.ship")  # the next scan has a file to write
    connect = Index._connect
    monkeypatch.setattr(Index, "_connect", lambda self: FullDisk(connect(self), "INSERT INTO files"))
    for command in (["find"], ["hangar", "scan"]):
        r = call_shipyard(*command, env=env)
        assert r.returncode == 2, r.stderr
        assert "the hangar index cannot be written: the disk is full" in r.stderr
        assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert json.loads((Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json").read_text())["folders"] == [
        str(lib)
    ]  # a scan leaves the library as it is
