"""Design files: round trips, migrations, atomic saves, schema."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from shipyard.core import atomicwrite
from shipyard.core.designfile import (
    FORMAT_VERSION,
    design_from_document,
    load_design,
    new_design,
    save_design,
    schema_for,
)
from shipyard.core.errors import InputError

from .conftest import EXAMPLES, ROOT, SAMPLES, sample


@pytest.mark.parametrize("name", SAMPLES)
def test_save_then_load_gives_an_equal_design(name: str, tmp_path: Path) -> None:
    loaded = sample(name)
    out = tmp_path / f"{name}.ship"
    save_design(loaded, out)
    again = load_design(out, use_user_folder=False)
    assert again.design == loaded.design
    assert (again.ruleset, again.preset) == (loaded.ruleset, loaded.preset)
    assert json.loads(out.read_text())["format_version"] == FORMAT_VERSION


def test_format_1_files_are_migrated() -> None:
    v1 = json.loads((EXAMPLES / "rebel-fighter.ship").read_text())
    flat = {"format_version": 1, "ruleset": v1["ruleset"], **v1["design"]}
    migrated = design_from_document(flat, use_user_folder=False)
    assert migrated.design == sample("rebel-fighter").design


def test_a_format_1_file_keeps_its_tags_and_preset_through_a_save(tmp_path: Path) -> None:
    """The tags of a format-1 file were neither in its design nor its envelope once migrated:
    read as none, and gone from the file at its next save."""
    v1 = json.loads((EXAMPLES / "rebel-fighter.ship").read_text())
    old = tmp_path / "old.ship"
    flat = {"format_version": 1, "ruleset": v1["ruleset"], "preset": v1["preset"], "tags": ["keep-me"], **v1["design"]}
    old.write_text(json.dumps(flat))
    loaded = load_design(old, use_user_folder=False)
    assert (loaded.tags, loaded.preset) == (["keep-me"], v1["preset"])
    assert loaded.design == sample("rebel-fighter").design
    save_design(loaded, old)
    saved = json.loads(old.read_text())
    assert (saved["format_version"], saved["tags"]) == (FORMAT_VERSION, ["keep-me"])


def test_a_newer_format_is_refused_with_a_clear_message() -> None:
    with pytest.raises(InputError) as exc:
        design_from_document({"format_version": FORMAT_VERSION + 1, "ruleset": "space-fighter-alpha"})
    assert "newer Shipyard" in str(exc.value) and "format_version" in str(exc.value)


def test_atomic_save_keeps_the_old_file_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "ship.ship"
    target.write_text("old contents")

    def fail(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomicwrite.os, "replace", fail)
    with pytest.raises(InputError) as exc:
        save_design(sample("rebel-fighter"), target)
    assert str(exc.value) == f"{target}: cannot write the file: No space left on device"
    assert target.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ship.ship"]  # no temp file left


def test_writing_into_a_missing_folder_says_so_and_the_cli_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from shipyard.cli import main

    target = tmp_path / "no-such-folder" / "red.ship"
    assert main(["new", "Red Five", "--scale", "starfighter", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"{target}: cannot write the file: the folder '" in err and "internal error" not in err
    assert "does not exist: make it first, or write into a folder that does" in err  # said before any work
    assert not target.parent.exists()
    # where the folder goes while the file is written, the system's words and the folder's
    with pytest.raises(InputError) as exc:
        save_design(sample("rebel-fighter"), target)
    said = str(exc.value)
    assert said.startswith(f"{target}: cannot write the file: No such file or directory (the folder '")
    assert said.endswith("does not exist: make it first, or write into a folder that does)")


def test_save_replaces_in_place_and_keeps_permissions(tmp_path: Path) -> None:
    target = tmp_path / "ship.ship"
    target.write_text("{}")
    target.chmod(0o600)
    save_design(sample("rebel-fighter"), target)
    assert (target.stat().st_mode & 0o777) == 0o600
    assert load_design(target, use_user_folder=False).design.name == "Rebel Fighter"


def test_new_design_starts_at_base_values() -> None:
    loaded = new_design("space-fighter-alpha", "Red Five", "starfighter")
    d = loaded.design
    assert (d.name, d.scale, d.structure, d.handling, d.crew) == ("Red Five", "starfighter", 10, 0, 1)


def test_committed_schema_matches_the_models() -> None:
    committed = json.loads((ROOT / "docs" / "design-file.schema.json").read_text())
    assert committed == json.loads(json.dumps(schema_for())), (
        "docs/design-file.schema.json is out of date: run `shipyard schema > docs/design-file.schema.json`"
    )


def test_schema_describes_the_envelope_and_design() -> None:
    schema = schema_for()
    text = json.dumps(schema)
    for key in ("format_version", "ruleset", "preset", "weapons", "fire_link", "budgets", "forms"):
        assert key in text


def test_many_files_are_each_synced_before_any_is_renamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The files of one write are synced side by side; a crash before the renames leaves every
    target as it was, and after them each target is whole: all syncs come before any rename."""
    import threading

    events: list[str] = []
    lock = threading.Lock()
    real_fsync, real_replace, real_link = os.fsync, os.replace, os.link

    def fsync(fd: int) -> None:
        real_fsync(fd)
        with lock:
            events.append("sync")

    def replace(src: str | Path, dst: str | Path) -> None:
        events.append("rename")
        real_replace(src, dst)

    def link(src: str | Path, dst: str | Path) -> None:
        events.append("link")  # the old file's copy, to put it back if a later rename fails
        real_link(src, dst)

    (tmp_path / "old-3.json").write_bytes(b"old")
    files = [(tmp_path / (f"old-{n}.json" if n == 3 else f"new-{n}.png"), bytes([n]) * 5000) for n in range(40)]
    monkeypatch.setattr(atomicwrite.os, "fsync", fsync)
    monkeypatch.setattr(atomicwrite.os, "replace", replace)
    monkeypatch.setattr(atomicwrite.os, "link", link)
    atomicwrite.atomic_write_many(files)
    assert events[:40] == ["sync"] * 40  # every file's data on the disk first
    assert sorted(events[40:-1]) == ["link"] + ["rename"] * 40
    assert events[-1] == "sync"  # then the folder, so the new names last too
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {t.name: data for t, data in files}
