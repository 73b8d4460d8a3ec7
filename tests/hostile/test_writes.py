"""Hostile writes: many writers at once on one design, and a file the user write-protected.

Twenty ``shipyard set --in-place`` at once on one file each said "wrote" while all but two
changes were lost (each read the file before the others' writes and wrote its own copy
over theirs); a write-protected (0444) design was replaced and the command said it wrote it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, call_shipyard

SAMPLE = ROOT / "catalogs" / "wing-commander" / "examples" / "rapier.ship"

# twenty different text places of one design: each writer changes one
PLACES = [
    "name",
    "class",
    "pilot.name",
    *(f"compartments[{c}].name" for c in range(3)),
    *(f"compartments[0].components[{i}].name" for i in range(4)),
    *(f"compartments[1].components[{i}].name" for i in range(4)),
    *(f"compartments[2].components[{i}].name" for i in range(6)),
]


def _value_at(data: object, path: str) -> object:
    from shipyard.core.paths import parse_path

    for part in parse_path(path):
        data = data[part]  # type: ignore[index]
    return data


def test_twenty_parallel_sets_on_one_file_keep_every_change(tmp_path: Path) -> None:
    assert len(PLACES) == 20
    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"}
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "shipyard", "set", str(ship), f"{place}=Changed {i}", "--in-place"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i, place in enumerate(PLACES)
    ]
    outputs = [(p.wait(timeout=300), *p.communicate()) for p in runs]
    said_wrote = sum(1 for code, out, _ in outputs if code == 0 and f"wrote {ship}" in out)
    design = json.loads(ship.read_text(encoding="utf-8"))["design"]
    kept = sum(1 for i, place in enumerate(PLACES) if _value_at(design, place) == f"Changed {i}")
    assert [err for _, _, err in outputs if err] == []
    assert (kept, said_wrote) == (20, 20), f"changes kept {kept} / runs that said wrote {said_wrote}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rapier.ship"]  # no temporary or lock file left


def test_a_write_waits_for_the_lock_and_then_says_who_holds_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program holding the file's lock past the wait: a clear error, the file as it was."""
    import fcntl

    from shipyard.core import atomicwrite
    from shipyard.core.errors import InputError

    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    before = ship.read_bytes()
    monkeypatch.setattr(atomicwrite, "LOCK_WAIT", 0.2)
    with ship.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(InputError) as caught:
            atomicwrite.atomic_write_bytes(ship, b"{}")
        result = call_shipyard("set", ship, "drv=2", "--in-place")
    assert result.returncode == 2 and "holds its lock" in result.stderr, result.stderr
    problem = caught.value.problems[0]
    assert problem.file == str(ship)
    assert "holds its lock" in problem.message and "nothing was written" in problem.message
    assert ship.read_bytes() == before


def _read_only(path: Path) -> None:
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)  # 0444


def test_set_in_place_refuses_a_write_protected_file(tmp_path: Path) -> None:
    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    _read_only(ship)
    before = ship.read_bytes()
    result = call_shipyard("set", ship, "drv=2", "--in-place")
    assert result.returncode == 2, result.stdout + result.stderr
    assert str(ship) in result.stderr
    assert "read-only" in result.stderr and "chmod u+w" in result.stderr
    assert "wrote" not in result.stdout
    assert "this is a bug" not in result.stderr
    assert ship.read_bytes() == before
    assert stat.S_IMODE(ship.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rapier.ship"]


@pytest.mark.parametrize(
    "argv",
    [
        ("set", "{ship}", "drv=2", "-o", "{out}", "--force"),
        ("fix", "{ship}", "--apply", "1", "-o", "{out}", "--force"),
        ("export", "foundry", "{ship}", "-o", "{folder}", "--force"),
        ("print", "{ship}", "-o", "{out_pdf}", "--force"),
    ],
    ids=["set -o", "fix -o", "export foundry", "print"],
)
def test_forced_outputs_never_replace_a_write_protected_file(tmp_path: Path, argv: tuple[str, ...]) -> None:
    """--force replaces a file that exists, never one the user write-protected."""
    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    out, out_pdf, folder = tmp_path / "out.ship", tmp_path / "out.pdf", tmp_path / "foundry"
    if argv[0] == "fix":  # a design with an error a proposal cures
        call_shipyard("set", ship, "pilot.dex=99", "--in-place")
    if argv[0] == "export":
        first = call_shipyard(*[a.format(ship=ship, folder=folder) for a in argv])
        assert first.returncode == 0, first.stderr
        protected = sorted(folder.iterdir())
    else:
        protected = [out_pdf if argv[0] == "print" else out]
        protected[0].write_bytes(b"kept as it was")
    for p in protected:
        _read_only(p)
    before = {p: p.read_bytes() for p in protected}
    result = call_shipyard(*[a.format(ship=ship, out=out, out_pdf=out_pdf, folder=folder) for a in argv])
    assert result.returncode == 2, result.stdout + result.stderr
    assert "read-only" in result.stderr and "this is a bug" not in result.stderr
    assert {p: p.read_bytes() for p in protected} == before


def test_the_editor_save_refuses_a_write_protected_file(tmp_path: Path) -> None:
    """The save the editor calls (designfile.save_design) refuses the same way, for root too."""
    from shipyard.core.designfile import load_design, save_design
    from shipyard.core.errors import InputError

    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    loaded = load_design(ship)
    _read_only(ship)
    before = ship.read_bytes()
    with pytest.raises(InputError) as caught:
        save_design(loaded, ship)
    assert "read-only" in caught.value.problems[0].message
    assert caught.value.problems[0].file == str(ship)
    assert ship.read_bytes() == before


def _held(path: Path) -> contextlib.AbstractContextManager[object]:
    """Another program's write lock on ``path`` (an ``flock`` on its own open file)."""
    import fcntl

    @contextlib.contextmanager
    def hold() -> Iterator[object]:
        with path.open("rb") as file:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX)
            yield file

    return hold()


def _replaced_behind(path: Path, old: str, new: str) -> None:
    """Another program's write of ``path`` (``old`` text made ``new``), by a rename over it and
    without Shipyard's lock: what a second command or the editor does while the first waits."""
    tmp = path.with_name(path.name + ".other")
    tmp.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    tmp.replace(path)


def _while_held(path: Path, *argv: str | Path, change: tuple[str, str]) -> subprocess.CompletedProcess[str]:
    """``shipyard ARGV`` started while another program holds ``path``'s lock and, meanwhile,
    writes ``change`` into it; the command's result once the lock is free. A command that read
    the file before taking the lock writes its stale copy over that change."""
    import threading

    results: list[subprocess.CompletedProcess[str]] = []
    with _held(path):
        run = threading.Thread(target=lambda: results.append(call_shipyard(*argv)))
        run.start()
        time.sleep(0.5)  # the command has started: it reads, or waits for the lock
        _replaced_behind(path, *change)
    run.join(timeout=60)
    assert results, "the command did not finish"
    return results[0]


ROSTER_CHANGES = [
    ("add", "{design}", "--callsign", "Two"),
    ("remove", "1"),
    ("limit", "500"),
    ("preset", "wing-commander", "as-written"),
]


@pytest.mark.parametrize("change", ROSTER_CHANGES, ids=[c[0] for c in ROSTER_CHANGES])
def test_a_roster_change_waits_for_the_roster_s_lock_before_it_reads(change: tuple[str, ...], tmp_path: Path) -> None:
    """``roster add`` and the other changes read the roster, change it and write it back: two at
    once each said "wrote" and one change was lost. Each now takes the roster's lock before it
    reads (as ``set`` does for a design), so it changes what the other program wrote."""
    shutil.copy(SAMPLE, tmp_path / "rapier.ship")
    roster = tmp_path / "wing.roster"
    assert call_shipyard("roster", "new", roster, "--name", "Wing", "--ruleset", "wing-commander").returncode == 0
    assert call_shipyard("roster", "add", roster, tmp_path / "rapier.ship", "--callsign", "One").returncode in (0, 1)
    argv = [a.format(design=tmp_path / "rapier.ship") for a in change]
    result = _while_held(roster, "roster", argv[0], roster, *argv[1:], change=("name: Wing", "name: Renamed wing"))
    assert result.returncode in (0, 1) and f"wrote {roster}" in result.stdout, result.stderr
    from shipyard.hangar.roster import load_roster

    after = load_roster(roster)
    assert after.name == "Renamed wing"  # the other program's change, kept
    made = {
        "add": lambda: [m.callsign for m in after.members] == ["One", "Two"],
        "remove": lambda: after.members == [],
        "limit": lambda: after.limit == 500,
        "preset": lambda: after.presets == {"wing-commander": "as-written"},
    }[change[0]]
    assert made(), after


def test_relinking_a_roster_takes_its_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``roster check --relink`` may write the roster it read: it holds the lock meanwhile."""
    from shipyard.core import atomicwrite

    roster = tmp_path / "wing.roster"
    assert call_shipyard("roster", "new", roster, "--name", "Wing", "--ruleset", "wing-commander").returncode == 0
    monkeypatch.setattr(atomicwrite, "LOCK_WAIT", 0.2)
    with _held(roster):
        result = call_shipyard("roster", "check", roster, "--relink")
    assert result.returncode == 2 and "holds its lock" in result.stderr, result.stdout + result.stderr
    assert call_shipyard("roster", "check", roster).returncode == 0  # reading alone takes no lock


def test_fix_writing_over_the_file_it_read_waits_for_its_lock_like_in_place(tmp_path: Path) -> None:
    """``fix FILE -o FILE --force`` is a read-modify-write of FILE: it took no lock before it
    read, so a ``set`` between its read and its write was lost and both said "wrote"."""
    ship = tmp_path / "one-gun-link.ship"
    shutil.copy(ROOT / "tests" / "corpus" / "bad" / "wc-link-group-of-one.ship", ship)
    name = json.loads(ship.read_text(encoding="utf-8"))["design"]["name"]
    result = _while_held(ship, "fix", ship, "--apply", "1", "-o", ship, "--force", change=(name, "Renamed meanwhile"))
    assert result.returncode in (0, 1) and f"wrote {ship}" in result.stdout, result.stderr
    assert json.loads(ship.read_text(encoding="utf-8"))["design"]["name"] == "Renamed meanwhile"
    assert call_shipyard("check", ship).returncode == 0  # and the fix is there too


def test_two_names_of_one_file_are_one_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``set A B --in-place`` where B is a hard link to A (or a symlink) waited 30 s for its
    own lock and then blamed "another program": a file is locked once, whatever its names."""
    from shipyard.core import atomicwrite

    ship = tmp_path / "rapier.ship"
    shutil.copy(SAMPLE, ship)
    os.link(ship, tmp_path / "hard.ship")
    (tmp_path / "soft.ship").symlink_to(ship)
    monkeypatch.setattr(atomicwrite, "LOCK_WAIT", 0.2)
    with atomicwrite.locked([ship, tmp_path / "hard.ship", tmp_path / "soft.ship"]):
        assert len(atomicwrite._HELD) == 1
    result = call_shipyard("set", ship, tmp_path / "hard.ship", "name=Linked", "--in-place")
    assert result.returncode in (0, 1) and "holds its lock" not in result.stderr, result.stderr
    assert json.loads(ship.read_text(encoding="utf-8"))["design"]["name"] == "Linked"


def test_fix_into_another_file_only_reads_and_takes_no_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``fix FILE -o NEW`` only reads FILE: it waits for no lock of it. Taking one made 16 such
    fixes of one file at once wait in turn, and on a busy machine some gave up after 30 s."""
    from shipyard.core import atomicwrite

    ship = tmp_path / "one-gun-link.ship"
    shutil.copy(ROOT / "tests" / "corpus" / "bad" / "wc-link-group-of-one.ship", ship)
    monkeypatch.setattr(atomicwrite, "LOCK_WAIT", 0.2)
    with _held(ship):
        result = call_shipyard("fix", ship, "--apply", "1", "-o", tmp_path / "fixed.ship")
    assert result.returncode in (0, 1) and "holds its lock" not in result.stderr, result.stderr
    assert (tmp_path / "fixed.ship").is_file()


KILLED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
from shipyard.core import atomicwrite

# killed between its backup link and its rename: the moment that leaves the most behind
atomicwrite._place = lambda tmp, target: os.kill(os.getpid(), signal.SIGKILL)
atomicwrite.atomic_write_bytes(Path(sys.argv[1]), b"never placed")
"""


def _ended_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.Popen([sys.executable, "-c", ""])
    done.wait()
    return done.pid


@contextlib.contextmanager
def _running_pid() -> Iterator[int]:
    """The id of a process that runs until the block ends (another Shipyard, mid-write)."""
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        yield alive.pid
    finally:
        alive.kill()
        alive.wait()


def test_what_a_killed_write_left_is_removed_by_the_next_write_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``shipyard set many/*.ship ... --in-place`` killed at random moments left hidden
    ``.shipyard-*.tmp`` files and ``.old`` backup links in the design folder, and nothing
    ever removed them. A write into the folder now removes those of writers that have ended,
    once they are old; a live writer's, a fresh one and every other name are left."""
    from shipyard.core import atomicwrite

    ship, other = tmp_path / "rapier.ship", tmp_path / "other.ship"
    shutil.copy(SAMPLE, ship)
    shutil.copy(SAMPLE, other)
    before = other.read_bytes()
    env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | {"PYTHONPATH": str(ROOT)}
    killed = subprocess.Popen([sys.executable, "-c", KILLED_MID_WRITE, str(other)], env=env)
    assert killed.wait(timeout=120) == -9
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".shipyard-"))
    assert sorted(n.rsplit(".", 1)[1] for n in left) == ["old", "tmp"]  # its backup link and its temporary file
    assert all(n.startswith(f".shipyard-{killed.pid}-") for n in left)  # each names its writer
    dead = _ended_pid()
    look_alikes = [
        ".shipyard-notes.tmp",  # not the exact pattern: someone else's file
        f".shipyard-{dead}-abcdefgh.tmp.bak",
        f"shipyard-{dead}-abcdefgh.tmp",
        f".shipyard-{dead}-ABCDEFGH.tmp",
        f".shipyard-{dead}-abcdefg.old",
    ]
    for name in look_alikes:
        (tmp_path / name).write_text("keep me")
    (tmp_path / f".shipyard-{dead}-folder00.tmp").mkdir()  # a folder of that name: not Shipyard's file
    (tmp_path / f".shipyard-{dead}-link0000.tmp").symlink_to(ship)  # a link: never followed nor removed
    with _running_pid() as live:
        in_use = tmp_path / f".shipyard-{live}-livewrtr.tmp"  # another Shipyard's, mid-write
        in_use.write_text("being written")
        mine = tmp_path / f".shipyard-{os.getpid()}-thisproc.tmp"
        mine.write_text("this process's own")
        # a write now: the leftovers are fresh, so they are kept
        r = call_shipyard("set", ship, "name=First", "--in-place")
        assert r.returncode == 0, r.stderr
        assert {*left, in_use.name, mine.name} <= {p.name for p in tmp_path.iterdir()}
        # fifteen minutes on (the wait set to nothing, and the folder looked at again)
        monkeypatch.setattr(atomicwrite, "STALE_AFTER", 0)
        r = call_shipyard("set", ship, "name=Second", "--in-place")
        assert r.returncode == 0, r.stderr
        names = {p.name for p in tmp_path.iterdir()}
        assert not set(left) & names  # the killed writer's leftovers are gone
        assert {in_use.name, mine.name, *look_alikes} <= names  # a live writer's, and every other name, kept
        assert {f".shipyard-{dead}-folder00.tmp", f".shipyard-{dead}-link0000.tmp"} <= names
    assert other.read_bytes() == before  # the file the killed write was replacing is whole, as it was
    assert ship.exists() and json.loads(ship.read_text(encoding="utf-8"))["design"]["name"] == "Second"


def test_a_leftover_is_stale_by_its_change_time_and_its_writer(tmp_path: Path) -> None:
    """The age is the file's status change time, which a backup link's inode gets when it is
    made and which no one can set back: a backup link of an old file is as fresh as its link,
    and a leftover with its modification time set back is not taken for an old one."""
    from shipyard.core.atomicwrite import STALE_AFTER, STALE_UNKNOWN_AFTER, remove_stale

    dead = _ended_pid()
    design = tmp_path / "old.ship"
    design.write_text("{}")
    os.utime(design, (0, 0))  # a design last changed long ago
    backup = tmp_path / f".shipyard-{dead}-0123456789ab.old"
    os.link(design, backup)
    temp = tmp_path / f".shipyard-{dead}-abcdefgh.tmp"
    temp.write_text("half")
    os.utime(temp, (0, 0))
    older = tmp_path / ".shipyard-0123456789ab.old"  # a name of an older Shipyard: no writer's id
    older.write_text("x")
    now = time.time()
    assert remove_stale(tmp_path, now=now) == []
    assert sorted(remove_stale(tmp_path, now=now + STALE_AFTER + 60)) == sorted([backup, temp])
    assert {p.name for p in tmp_path.iterdir()} == {design.name, older.name}
    assert design.read_text() == "{}"
    assert remove_stale(tmp_path, now=now + STALE_UNKNOWN_AFTER + 60) == [older]
