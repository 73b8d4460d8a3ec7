"""The hangar: library folders indexed (``shipyard hangar``), searched (``shipyard find``),
and the tags a design file carries; each command run as a person runs it (in this process, but
for the scans, adds and removes at once, which are processes of their own because their locks
are what is tested)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import ROOT, call_shipyard

CATALOGS = ROOT / "catalogs"


def samples() -> list[Path]:
    """Every built-in ruleset's sample designs (found by listing, never by a ruleset's name)."""
    return sorted(CATALOGS.glob("*/examples/*.ship"))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Settings and data of this test's own (the session's sandbox is shared by its tests)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "data").mkdir()
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "designs"
    for f in samples():
        target = folder / f.parent.parent.name / f.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
    (folder / "readme.txt").write_text("not a design\n")
    return folder


def sh(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return call_shipyard(*args, env=env)


def found(env: dict[str, str], *query: str) -> list[dict[str, object]]:
    r = sh(env, "find", *query, "--json")
    assert r.returncode in (0, 1), r.stderr
    assert "Traceback" not in r.stderr
    data: list[dict[str, object]] = json.loads(r.stdout)
    assert (r.returncode == 0) == bool(data)
    return data


def test_add_indexes_every_design_and_ignores_other_files(env: dict[str, str], library: Path) -> None:
    r = sh(env, "hangar", "add", library)
    assert r.returncode == 0, r.stderr
    assert f"added: {library}: {len(samples())} designs" in r.stdout
    listed = json.loads(sh(env, "hangar", "list", "--json").stdout)
    assert listed == [{"folder": str(library), "designs": len(samples()), "broken": 0}]
    everything = found(env)
    assert len(everything) == len(samples())
    assert {Path(str(e["file"])).name for e in everything} == {f.name for f in samples()}
    assert not any(str(e["file"]).endswith(".txt") for e in everything)
    # the index is under the XDG data folder given, the folders in the XDG config folder
    assert (Path(env["XDG_DATA_HOME"]) / "shipyard" / "hangar.sqlite").is_file()
    assert str(library) in (Path(env["XDG_CONFIG_HOME"]) / "shipyard" / "hangar.json").read_text()
    # every entry names its ruleset, kind, verdict and key figures as `check --json` reports them
    one = next(e for e in everything if e["valid"] is False)
    check = json.loads(call_shipyard("check", one["file"], "--json").stdout)[0]
    assert one["name"] == check["name"] and one["ruleset"] == check["ruleset"]
    assert one["findings"] == len(check["findings"])
    assert one["key_figures"]


def test_remove_takes_the_folder_out_and_leaves_its_files(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    r = sh(env, "hangar", "remove", library)
    assert r.returncode == 0 and "removed" in r.stdout
    assert found(env) == []
    assert len(list(library.rglob("*.ship"))) == len(samples())
    r = sh(env, "hangar", "remove", library)
    assert r.returncode == 2 and "is not a library folder" in r.stderr and "Traceback" not in r.stderr
    r = sh(env, "hangar", "add", library / "nowhere")
    assert r.returncode == 2 and "does not exist" in r.stderr


def test_find_filters(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    everything = found(env)
    rulesets = {str(e["ruleset"]) for e in everything}
    assert len(rulesets) >= 2
    from shipyard.core.registry import get
    from shipyard.hangar.query import initials

    for rid in rulesets:
        by_id = found(env, f"ruleset:{rid}")
        assert by_id and {e["ruleset"] for e in by_id} == {rid}
        assert [e["file"] for e in found(env, f"ruleset:{initials(get(rid).name)}")] == [e["file"] for e in by_id]
    failing = [e["file"] for e in everything if not e["valid"]]
    assert failing and sorted(e["file"] for e in found(env, "fails")) == sorted(failing)
    assert len(found(env, "passes")) == len(everything) - len(failing)
    # a figure filter: every design whose key figure (the first) is at least its median
    one = next(e for e in everything if e["key_figures"])
    label, value = next(iter(one["key_figures"].items()))
    from shipyard.hangar.facts import slug

    hits = found(env, f"ruleset:{one['ruleset']}", f"{slug(str(label))}>={value}")
    assert one["file"] in [e["file"] for e in hits]
    assert all(next(iter(e["key_figures"].values())) >= value for e in hits if e["key_figures"])
    assert one["file"] not in [
        e["file"] for e in found(env, f"{slug(str(label))}>{value}", f"ruleset:{one['ruleset']}")
    ]
    # free text: a word of a name, as a prefix
    word = str(one["name"]).split()[0][:4]
    assert one["file"] in [e["file"] for e in found(env, word)]
    kind = str(one["kind"])
    assert all(str(e["kind"]).lower() == kind.lower() for e in found(env, f"kind:{kind}"))
    assert len(found(env, "changed:1d")) == len(everything)
    old = time.time() - 30 * 86400
    os.utime(one["file"], (old, old))
    assert one["file"] not in [e["file"] for e in found(env, "changed:7d")]
    assert found(env, "zzzznothing") == []
    assert sh(env, "find", "zzzznothing").returncode == 1


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("colour:red", "unknown filter 'colour:'"),
        ("ruleset:nosuchgame", "no ruleset matches 'nosuchgame'"),
        ("structure>=ten", "compared with a number, not 'ten'"),
        ("changed:soon", "changed:7d"),
        ("kind:", "says nothing after ':'"),
        (">=5", "'>=5' is not a comparison Shipyard can read: it names no figure before '>='"),
        ("<3", "names no figure before '<'"),
        ("5>3", "'5' is not a figure's name"),
    ],
)
def test_a_bad_query_is_named_with_what_is_allowed(env: dict[str, str], query: str, said: str) -> None:
    r = sh(env, "find", query)
    assert r.returncode == 2
    assert said in r.stderr and "allowed" in r.stderr and "Traceback" not in r.stderr


def test_a_word_of_symbols_finds_the_designs_that_hold_it(env: dict[str, str], library: Path) -> None:
    """``find 🚀`` listed every design (the word table keeps no symbol, so the query had no
    word left): a word of no letter or digit is matched as written in names, notes and tags."""
    first, second, third, *_ = sorted(library.rglob("*.ship"))
    for path, field, value in ((first, "name", "Raptor 🚀"), (second, "notes", "armed ⚓ to the teeth")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["design"][field] = value
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    data = json.loads(third.read_text(encoding="utf-8"))
    third.write_text(json.dumps(data | {"tags": ["☄ (draft)"]}, ensure_ascii=False), encoding="utf-8")
    sh(env, "hangar", "add", library)
    assert [e["file"] for e in found(env, "🚀")] == [str(first)]
    assert [e["file"] for e in found(env, "⚓")] == [str(second)]
    assert [e["file"] for e in found(env, "☄")] == [str(third)]
    assert found(env, "🛸") == []  # in no design: nothing found, exit 1
    assert [e["file"] for e in found(env, "🚀", "Raptor")] == [str(first)]  # with a word: both must match
    assert found(env, "🚀", "⚓") == []


def test_a_mistyped_figure_or_kind_is_refused_with_the_names_there_are(env: dict[str, str], library: Path) -> None:
    """``find 'strucure>=1'`` and ``find kind:figher`` said "0 designs found", as if no design
    matched: the guide promises exit 2 for a query that cannot be read, saying what is allowed."""
    assert sh(env, "find", "strucure>=1").returncode == 1  # an empty hangar knows no figure: it finds none
    sh(env, "hangar", "add", library)
    r = sh(env, "find", "strucure>=1")
    assert r.returncode == 2 and "no design in the hangar has a figure 'strucure'" in r.stderr
    assert "did you mean 'structure'" in r.stderr and "(allowed: structure, " in r.stderr  # the closest first
    assert "Traceback" not in r.stderr
    r = sh(env, "find", "kind:figher")
    assert r.returncode == 2 and "no design is of a kind 'figher'; did you mean 'fighter'" in r.stderr
    assert "(allowed: fighter, starfighter, " in r.stderr
    assert found(env, "structure>=1") and found(env, "kind:fighter")  # the names there are still find
    assert found(env, "structure>=1000") == []  # a figure there is, no design that high: found nothing, exit 1
    # what find shows of each design is searchable: its cost and each pool's spending
    everything = found(env)
    costly = [e for e in everything if e["cost"] is not None and e["cost"] >= 50]
    assert costly and sorted(e["file"] for e in found(env, "cost>=50")) == sorted(e["file"] for e in costly)
    spenders = [e for e in everything if e["key_figures"].get("Weapon Points spent", 0) >= 10]
    assert spenders
    assert sorted(e["file"] for e in found(env, "weapon-points-spent>=10")) == sorted(e["file"] for e in spenders)
    # a kind as the designs show it, with or without its spaces
    big = [e for e in everything if str(e["kind"]).lower() == "starship + 1"]
    assert big and [e["file"] for e in found(env, "kind:starship+1")] == [e["file"] for e in big]


def test_rescan_reads_only_what_changed_and_follows_moves(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    r = sh(env, "hangar", "scan", "--json")
    data = json.loads(r.stdout)
    assert data["unchanged"] == len(samples()) and data["added"] == data["changed"] == 0
    victim = next(library.rglob("*.ship"))
    text = victim.read_text()
    victim.write_text(text.replace("\n", "\n ", 1))  # new bytes, same design
    moved = victim.with_name("moved-" + victim.name)
    gone = sorted(library.rglob("*.ship"))[-1]
    gone.rename(moved)
    data = json.loads(sh(env, "hangar", "scan", "--json").stdout)
    assert data["changed"] == 1 and data["added"] == 1 and data["removed"] == 1
    assert str(moved) in [e["file"] for e in found(env, "--no-scan")]
    assert str(gone) not in [e["file"] for e in found(env, "--no-scan")]


def test_a_library_folder_not_there_keeps_its_designs_with_a_note(
    env: dict[str, str], library: Path, tmp_path: Path
) -> None:
    """An unplugged drive: the scan says so (the Hangar window says the same words) and
    forgets none of its designs."""
    assert sh(env, "hangar", "add", library).returncode == 0
    library.rename(tmp_path / "unplugged")
    r = sh(env, "hangar", "scan")
    assert r.returncode == 0, r.stderr
    note = f"the library folder {library} is not there now; its designs stay listed"
    assert f"shipyard: note: {note}" in r.stderr.splitlines()
    assert len(found(env)) == len(samples())


def test_an_edit_of_the_same_size_with_its_time_set_back_is_read(env: dict[str, str], library: Path) -> None:
    """A rescan compared only the modification time and size: a design renamed to a name of the
    same length, its time set back after (``touch -d``, a checkout), was never read again, and
    ``find`` went on finding it by its old name."""
    sh(env, "hangar", "add", library)
    design = next(f for f in library.rglob("*.ship") if '"name": "Scout"' in f.read_text())
    before = design.stat()
    design.write_text(design.read_text().replace('"Scout"', '"Scuut"', 1))
    os.utime(design, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (design.stat().st_size, design.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    hits = found(env, "scuut")
    assert [(e["file"], e["name"]) for e in hits] == [(str(design), "Scuut")]
    assert str(design) not in [e["file"] for e in found(env, "scout", "--no-scan")]


def test_a_house_rule_changes_the_verdicts_find_shows(env: dict[str, str], library: Path) -> None:
    """A rescan compared only the design files: a house rule raising every weapon's cost (a
    catalog file in the user's folder) left ``find`` showing the old verdicts, and ``hangar
    scan`` called every design unchanged. The designs of that ruleset are checked again, the
    others are not, and nothing is checked again while nothing changed."""
    sh(env, "hangar", "add", library)
    ruleset = "space-fighter-alpha"
    everything = found(env)
    own = [e["file"] for e in everything if e["ruleset"] == ruleset]
    passing = [e["file"] for e in found(env, f"ruleset:{ruleset}", "passes")]
    assert passing
    house = Path(env["XDG_DATA_HOME"]) / "shipyard" / "catalogs" / ruleset / "weapons.yaml"
    house.parent.mkdir(parents=True)
    weapons = (CATALOGS / ruleset / "weapons.yaml").read_text(encoding="utf-8")
    house.write_text(re.sub(r"^(    cost:) \d+$", r"\1 40", weapons, flags=re.M), encoding="utf-8")
    r = sh(env, "hangar", "scan")
    assert r.returncode == 0, r.stderr
    others = len(everything) - len(own)
    assert f": 0 new, 0 changed, 0 gone, {others} unchanged, {len(own)} checked again by changed rules" in r.stdout
    assert found(env, f"ruleset:{ruleset}", "passes", "--no-scan") == []
    assert set(passing) <= {e["file"] for e in found(env, "fails", "--no-scan")}
    data = json.loads(sh(env, "hangar", "scan", "--json").stdout)  # nothing changed since: nothing checked again
    assert (data["unchanged"], data["rechecked"], data["changed"]) == (len(everything), 0, 0)
    house.unlink()  # the house rule dropped: find shows the rules' own verdicts again
    assert sorted(e["file"] for e in found(env, f"ruleset:{ruleset}", "passes")) == sorted(passing)


def test_a_new_shipyard_checks_every_design_again(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the index keeps of a design was worked out by the Shipyard that indexed it; another
    version's rules and code may judge it otherwise."""
    import shipyard
    from shipyard.hangar.index import Index

    with Index(tmp_path / "index.sqlite") as index:
        assert index.scan([library], workers=1).added == len(samples())
        assert index.scan([library], workers=1).unchanged == len(samples())
        monkeypatch.setattr(shipyard, "__version__", f"{shipyard.__version__}.next")
        again = index.scan([library], workers=1)
        assert (again.rechecked, again.unchanged, again.changed) == (len(samples()), 0, 0)


def test_broken_and_duplicate_files_are_listed_with_a_reason(env: dict[str, str], library: Path) -> None:
    (library / "half.ship").write_text('{"format_version": 2, "ruleset": ')
    (library / "other.ship").write_text('{"format_version": 2, "ruleset": "no-such-game", "design": {}}')
    first = sorted(library.glob("*/*.ship"))[0]
    shutil.copyfile(first, library / "copy.ship")
    sh(env, "hangar", "add", library)
    r = sh(env, "hangar", "scan")
    assert r.returncode == 0 and "Traceback" not in r.stderr + r.stdout
    assert "half.ship: line 1: malformed JSON" in r.stdout
    assert "other.ship: ruleset: " in r.stdout
    # the counts add up: every file the scan looked at, the two it cannot read among them
    designs = len(list(library.rglob("*.ship"))) - 2
    assert r.stdout.startswith(f"{designs} designs and 2 files that cannot be read: 0 new, 0 changed, 0 gone, ")
    assert f", {designs + 2} unchanged" in r.stdout.splitlines()[0]
    assert "the same content" in r.stdout and str(library / "copy.ship") in r.stdout
    data = json.loads(sh(env, "hangar", "scan", "--json").stdout)
    groups = [set(d["files"]) for d in data["duplicates"]]
    assert {str(first), str(library / "copy.ship")} in groups
    assert str(library / "half.ship") not in [e["file"] for e in found(env)]


def test_tags_are_set_kept_and_found(env: dict[str, str], library: Path, tmp_path: Path) -> None:
    design = next(library.rglob("*.ship"))
    r = call_shipyard("set", design, "tags=pirates, raiders", "--in-place")
    assert r.returncode in (0, 1), r.stderr
    doc = json.loads(design.read_text())
    assert doc["tags"] == ["pirates", "raiders"]
    # get reads what set wrote ("no such place ... tags" before)
    got = call_shipyard("get", design, "tags", "name", "--json")
    assert got.returncode == 0 and json.loads(got.stdout)["tags"] == ["pirates", "raiders"], got.stderr
    assert call_shipyard("get", design, "tags").stdout == '["pirates", "raiders"]\n'
    # a later change of the design keeps the tags
    r = call_shipyard("set", design, "name=Renamed", "--in-place")
    assert json.loads(design.read_text())["tags"] == ["pirates", "raiders"]
    sh(env, "hangar", "add", library)
    assert [e["file"] for e in found(env, "tag:pirates")] == [str(design)]
    assert [e["file"] for e in found(env, "raiders")] == [str(design)]
    bad = call_shipyard("set", design, 'tags=["x", 3]', "--in-place")
    assert bad.returncode == 2 and "a tag must be a word" in bad.stderr
    assert json.loads(design.read_text())["tags"] == ["pirates", "raiders"]
    doc["tags"] = "pirates"
    broken = tmp_path / "broken.ship"
    broken.write_text(json.dumps(doc))
    r = call_shipyard("check", broken)
    assert r.returncode == 2 and "tags" in r.stderr and "a list" in r.stderr


def test_a_corrupt_or_newer_index_is_rebuilt_with_a_note(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    index = Path(env["XDG_DATA_HOME"]) / "shipyard" / "hangar.sqlite"
    with sqlite3.connect(index) as db:
        db.execute("PRAGMA user_version = 99")
    r = sh(env, "find", "--json")
    assert r.returncode == 0 and "newer Shipyard" in r.stderr and "rebuilt" in r.stderr
    assert len(json.loads(r.stdout)) == len(samples())
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"this is not a database at all" * 100)
    r = sh(env, "find", "--json")
    assert r.returncode == 0 and "cannot be read" in r.stderr and "Traceback" not in r.stderr
    assert len(json.loads(r.stdout)) == len(samples())
    index.unlink()
    assert len(found(env)) == len(samples())  # a cache: deleting it loses nothing


def test_two_processes_scan_at_once(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    for f in list(library.rglob("*.ship"))[:5]:
        f.write_text(f.read_text() + "\n")
    full = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | env
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "shipyard", "hangar", "scan", "--json"],
            env=full,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert json.loads(out)["designs"] == len(samples())
    assert len(found(env, "--no-scan")) == len(samples())


# A command started in a process of its own that waits, after its imports, until the test says go:
# the commands then run at the same moment however long each process took to start.
_AT_ONCE = """
import sys, time
from pathlib import Path
from shipyard.cli import main
ready, go = Path(sys.argv[1]), Path(sys.argv[2])
ready.touch()
while not go.exists():
    time.sleep(0.005)
sys.exit(main(sys.argv[3:]))
"""


def at_once(env: dict[str, str], folder: Path, commands: list[list[str]]) -> list[str]:
    """Each of ``commands`` (a shipyard command line) in a process of its own, all let go at
    the same moment; what each printed, once each has exited 0."""
    full = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | env
    folder.mkdir()
    go = folder / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _AT_ONCE, str(folder / f"ready-{n}"), str(go), *command],
            env=full,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, command in enumerate(commands)
    ]
    deadline = time.monotonic() + 120
    while not all((folder / f"ready-{n}").exists() for n in range(len(procs))) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append(out)
    return outs


def test_adds_and_removes_at_once_all_land(env: dict[str, str], tmp_path: Path) -> None:
    """``hangar add`` and ``hangar remove`` run at once (a script's ``&``) each read the folders,
    changed them and wrote them back, over what the others wrote: folders were lost (or came
    back) while every command said "added" or "removed"."""
    folders = tmp_path / "folders"
    first = [[folders / f"first-{n}-{i}" for i in range(4)] for n in range(3)]
    gone = [[folders / f"gone-{n}-{i}" for i in range(6)] for n in range(2)]
    new = [[folders / f"new-{n}-{i}" for i in range(6)] for n in range(2)]
    for f in (f for group in first + gone + new for f in group):
        f.mkdir(parents=True)

    def listed() -> set[str]:
        return {f["folder"] for f in json.loads(sh(env, "hangar", "list", "--json").stdout)}

    # the first adds, with no settings file yet: each makes it, or finds the one another made
    outs = at_once(env, tmp_path / "first", [["hangar", "add", *map(str, group)] for group in first])
    assert [out.count("added: ") for out in outs] == [4, 4, 4]
    assert listed() == {str(f) for group in first for f in group}
    assert sh(env, "hangar", "add", *gone[0], *gone[1]).returncode == 0
    commands = [["hangar", "add", *map(str, group)] for group in new]
    commands += [["hangar", "remove", *map(str, group)] for group in gone]
    outs = at_once(env, tmp_path / "then", commands)
    assert [out.count("added: ") for out in outs[:2]] == [6, 6]
    assert [out.count("removed: ") for out in outs[2:]] == [6, 6]
    assert listed() == {str(f) for group in first + new for f in group}


def test_a_design_shipyard_writes_is_indexed_at_once(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    design = sorted(library.glob("*/*.ship"))[0]
    r = call_shipyard("set", design, "name=Quasar Lancer", "--in-place", env=env)
    assert r.returncode in (0, 1), r.stderr
    hits = found(env, "quasar", "--no-scan")  # no scan: the write itself updated the index
    assert [e["file"] for e in hits] == [str(design)] and hits[0]["name"] == "Quasar Lancer"


def test_a_design_written_through_dotdot_or_a_link_is_indexed_under_its_real_path(
    env: dict[str, str], library: Path, tmp_path: Path
) -> None:
    """`shipyard set` run from a subfolder on ``../scout.ship``, or through a link to the
    library folder: the index is updated under the file's real path, the name the scan
    gives it; neither a second row for the same file nor an old row left as it was."""
    sh(env, "hangar", "add", library)
    designs = sorted(library.glob("*/*.ship"))
    first, second = designs[0], designs[1]
    (first.parent / "deeper").mkdir()
    r = call_shipyard(
        "set", Path("..") / first.name, "name=Quasar Lancer", "--in-place", env=env, cwd=first.parent / "deeper"
    )
    assert r.returncode in (0, 1), r.stderr
    hits = found(env, "quasar", "--no-scan")
    assert [e["file"] for e in hits] == [str(first)], hits
    link = tmp_path / "link-to-designs"
    link.symlink_to(library, target_is_directory=True)
    through = link / second.relative_to(library)
    r = call_shipyard("set", through, "name=Nova Wasp", "--in-place", env=env)
    assert r.returncode in (0, 1), r.stderr
    hits = found(env, "nova", "--no-scan")
    assert [e["file"] for e in hits] == [str(second)], hits
    assert len(found(env, "--no-scan")) == len(designs)
    scan = sh(env, "hangar", "scan")
    assert scan.returncode == 0 and "0 new" in scan.stdout and "0 changed" in scan.stdout, scan.stdout


def test_new_and_fix_write_designs_the_index_has_at_once(env: dict[str, str], library: Path) -> None:
    sh(env, "hangar", "add", library)
    indexed = found(env, "--no-scan")
    fresh = library / "fresh.ship"
    r = call_shipyard("new", "Nova Wasp", "--ruleset", str(indexed[0]["ruleset"]), "-o", fresh, env=env)
    assert r.returncode == 0, r.stderr
    assert [e["file"] for e in found(env, "nova", "--no-scan")] == [str(fresh)]
    # a design that fails, fixed in place by its first proposal: the index holds the fixed one
    for failing in found(env, "fails", "--no-scan"):
        fixed = call_shipyard("fix", failing["file"], "--apply", "1", "--in-place", env=env)
        if fixed.returncode in (0, 1):
            break
    else:
        raise AssertionError("no failing sample has a proposal to apply")
    after = next(e for e in found(env, "--no-scan") if e["file"] == failing["file"])
    assert after["hash"] != failing["hash"]
    assert after["hash"] == hashlib.sha256(Path(str(failing["file"])).read_bytes()).hexdigest()


def test_a_scan_in_worker_processes_indexes_what_one_process_does(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shipyard.hangar import index as hangar_index
    from shipyard.hangar.index import Index

    (library / "broken.ship").write_text("{ not json", encoding="utf-8")
    monkeypatch.setattr(hangar_index, "PARALLEL_FROM", 2)  # the samples are fewer than a library: workers all the same
    monkeypatch.setattr(hangar_index, "CHUNK", 3)
    with Index(tmp_path / "one.sqlite") as one, Index(tmp_path / "two.sqlite") as two:
        alone = one.scan([library], workers=1)
        shared = two.scan([library], workers=2)
        assert (alone.added, alone.broken) == (shared.added, shared.broken) == (len(samples()) + 1, 1)
        keep = ("file", "name", "ruleset", "kind", "valid", "findings", "key_figures", "hash", "problem", "tags")
        assert [{k: e[k] for k in keep} for e in one.rows()] == [{k: e[k] for k in keep} for e in two.rows()]


def test_the_scan_workers_follow_the_setting_and_the_free_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    from shipyard.core import cores
    from shipyard.hangar.index import MAX_WORKERS, WORKERS_ENV, scan_workers

    monkeypatch.setenv(WORKERS_ENV, "3")
    assert scan_workers() == 3
    monkeypatch.delenv(WORKERS_ENV)
    monkeypatch.setattr(cores, "usable_cores", lambda: 4)
    for running, wanted in ((1, 4), (3, 2), (9, 1)):  # /proc/loadavg's running tasks count this one
        monkeypatch.setattr(cores, "_running", lambda r=running: r)
        assert scan_workers() == min(wanted, MAX_WORKERS)
