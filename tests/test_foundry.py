"""``shipyard export FILES --format foundry -o DIR``: Foundry VTT actors (Simple Worldbuilding).

Each sample of every ruleset is exported and its actor validated against a schema written
here from the Simple Worldbuilding system's ``template.json`` (foundryvtt/worldbuilding:
``Actor.types`` ["character"], ``Actor.character``: biography, health and power as
value/min/max, attributes, groups; ``Item.types`` ["item"], ``Item.item``: description,
quantity, weight, attributes, groups), the attribute shape its sheet reads
(module/helper.js: ``dtype`` String, Number, Boolean, Formula or Resource; a Resource
with min and max; grouped attributes under ``attributes[group][key]``; no dot or space
in a key) and Foundry's actor document fields (name, type, img, system, prototypeToken,
items, effects, flags; ``system``, not the ``data`` of Foundry before v10).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from PIL import Image
from pydantic import BaseModel, ConfigDict, Field, model_validator

from shipyard.core import registry
from shipyard.core.designfile import load_design, sample_files
from shipyard.core.evaluate import evaluate

from .conftest import call_shipyard

Key = Annotated[str, Field(pattern=r"^[^.\s]+$", min_length=1)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Bounded(_Doc):
    value: int
    min: int
    max: int


class Attribute(_Doc):
    dtype: Literal["String", "Number", "Boolean", "Formula", "Resource"]
    value: Any
    label: str
    group: str | None = None
    min: int | None = None
    max: int | None = None

    @model_validator(mode="after")
    def _typed(self) -> Attribute:
        expected = {"String": str, "Number": (int, float), "Boolean": bool, "Formula": str, "Resource": int}
        assert isinstance(self.value, expected[self.dtype]), (self.dtype, self.value)
        if self.dtype == "Resource":
            assert self.min is not None and self.max is not None and self.min <= self.value <= self.max
        return self


class Group(_Doc):
    key: Key
    label: str
    dtype: Literal["String", "Number", "Boolean", "Formula", "Resource"]


class ActorSystem(_Doc):
    biography: str
    health: Bounded
    power: Bounded
    attributes: dict[Key, dict[Key, Attribute]]
    groups: dict[Key, Group]


class ItemSystem(_Doc):
    description: str
    quantity: int
    weight: int
    attributes: dict[Key, Attribute]
    groups: dict[Key, Group]


class Item(_Doc):
    name: str
    type: Literal["item"]
    img: str
    system: ItemSystem
    effects: list[Any]
    flags: dict[str, Any]


class Texture(_Doc):
    src: str


class Bar(_Doc):
    attribute: str


class PrototypeToken(_Doc):
    name: str
    actorLink: bool
    texture: Texture
    bar1: Bar
    displayName: int
    displayBars: int


class Actor(_Doc):
    name: str
    type: Literal["character"]
    img: str
    system: ActorSystem
    prototypeToken: PrototypeToken
    items: list[Item]
    effects: list[Any]
    flags: dict[str, Any]


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_every_sample_exports_an_actor_the_worldbuilding_system_reads(ruleset: str, tmp_path: Path) -> None:
    info = registry.get(ruleset)
    samples = sample_files(info.samples)
    proc = call_shipyard("export", *samples, "--format", "foundry", "-o", tmp_path, "--no-user-catalog")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    tabletop = info.manifest.tabletop
    assert tabletop is not None
    for file in samples:
        doc = json.loads((tmp_path / f"{file.stem}.json").read_text())
        actor = Actor.model_validate(doc)
        loaded = load_design(file, use_user_folder=False)
        report = evaluate(loaded.design, loaded.catalog)
        assert actor.name == report.name
        # the token PNG beside it, transparent round its shape
        assert actor.img == actor.prototypeToken.texture.src == f"{file.stem}-token.png"
        with Image.open(tmp_path / actor.img) as token:
            assert token.mode == "RGBA" and token.getpixel((1, 1))[3] == 0
        # health: the declared track, undamaged
        track = next((t for t in report.derived.tracks if t.id == tabletop.health), None)
        boxes = len(track.boxes) if track is not None else 0
        assert (actor.system.health.value, actor.system.health.max) == (boxes, boxes)
        # every figure of the report, by its kind; tracks as resources
        figures = actor.system.attributes["figures"]
        assert len(figures) == len(report.derived.figures)
        for fig, attr in zip(report.derived.figures, figures.values(), strict=True):
            if isinstance(fig.value, bool):
                assert (attr.dtype, attr.value) == ("Boolean", fig.value)
            elif isinstance(fig.value, (int, float)):
                assert (attr.dtype, attr.value) == ("Number", fig.value)
            else:
                assert attr.dtype == "String"
        tracks = actor.system.attributes.get("tracks", {})
        assert [(a.dtype, a.max) for a in tracks.values()] == [
            ("Resource", len(t.boxes)) for t in report.derived.tracks
        ]
        assert set(actor.system.groups) == set(actor.system.attributes)
        # the declared tables' rows as items
        rows = sum(len(t.rows) for t in report.derived.tables if t.id in tabletop.items)
        assert len(actor.items) == rows
        assert report.name.split()[0] in actor.system.biography


def test_a_designs_story_is_in_the_biography(tmp_path: Path) -> None:
    sample = sample_files(registry.get("cluster-falk").samples)[0]
    doc = json.loads(sample.read_text())
    doc["design"]["story"] = "Lost with all hands <in> the Kessel shoals & never found."
    design = tmp_path / "story.ship"
    design.write_text(json.dumps(doc))
    proc = call_shipyard("export", design, "--format", "foundry", "-o", tmp_path / "out", "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    # the process ends at once when the files are written (_speedups.end_process_now): what it printed is all there
    out = tmp_path / "out"
    assert proc.stdout.splitlines() == [f"wrote {out / 'story.json'}", f"wrote {out / 'story-token.png'}"]
    actor = Actor.model_validate(json.loads((tmp_path / "out" / "story.json").read_text()))
    assert "Lost with all hands &lt;in&gt; the Kessel shoals &amp; never found." in actor.system.biography


def _full_disk_after(synced: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.fsync`` says the disk is full once ``synced`` files were synced (from any thread)."""
    import errno
    import os
    import threading

    real_fsync = os.fsync
    lock = threading.Lock()
    count = 0

    def fsync(fd: int) -> None:
        nonlocal count
        with lock:
            count += 1
            full = count > synced
        if full:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def test_a_full_disk_during_a_foundry_export_keeps_the_last_export_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ten files (five actors, five tokens) replaced with --force; the disk is full at the 7th:
    every file is the last export's, byte for byte, and no temporary file is left."""
    from shipyard.cli import main

    samples = [str(f) for f in sample_files(registry.get("cluster-falk").samples)]
    out = tmp_path / "vtt"
    assert main(["export", *samples, "--format", "foundry", "-o", str(out), "--no-user-catalog"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert len(before) == 2 * len(samples) == 10
    for name in list(before):  # the new export differs from the last: another story in each actor
        if name.endswith(".json"):
            (out / name).write_bytes(before[name].replace(b'"biography": "', b'"biography": "old '))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    _full_disk_after(6, monkeypatch)
    code = main(["export", *samples, "--format", "foundry", "-o", str(out), "--force", "--no-user-catalog"])
    assert code == 2
    assert "cannot write the file: No space left on device" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_full_disk_during_a_foundry_export_into_a_new_folder_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from shipyard.cli import main

    samples = [str(f) for f in sample_files(registry.get("space-fury").samples)]
    _full_disk_after(13, monkeypatch)
    out = tmp_path / "vtt"
    assert main(["export", *samples, "--format", "foundry", "-o", str(out), "--no-user-catalog"]) == 2
    assert f"{out}" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_designs_with_the_same_token_share_one_drawing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two copies of a ship and a third ship: three token PNGs, the copies' alike, two drawings."""
    from shipyard.exports import foundry_files
    from shipyard.render import tokenimages
    from shipyard.render.printing import load_for_print

    samples = {f.stem: f for f in sample_files(registry.get("cluster-falk").samples)}
    kestrel, corvette = samples["kestrel-fighter"], samples["sentinel-corvette"]
    files = []
    for name, sample in (("first", kestrel), ("second", kestrel), ("third", corvette)):
        files.append(tmp_path / f"{name}.ship")
        files[-1].write_text(sample.read_text())
    real = tokenimages.draw_svgs  # what the picture worker is asked to draw
    drawn: list[str] = []

    def draw(svgs: list[str], dpi: int) -> Any:
        drawn.extend(svgs)
        return real(svgs, dpi)

    monkeypatch.setattr(tokenimages, "draw_svgs", draw)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no token drawn by an earlier test
    loaded = load_for_print([str(f) for f in files], preset=None, catalog_dirs=[], use_user_folder=False)
    pngs = {name: data for name, data in foundry_files(loaded) if name.endswith(".png")}
    assert sorted(pngs) == ["first-token.png", "second-token.png", "third-token.png"]
    assert pngs["first-token.png"] == pngs["second-token.png"] != pngs["third-token.png"]
    assert len(drawn) == 2 and drawn[0] != drawn[1]
    with Image.open(io.BytesIO(pngs["third-token.png"])) as token:
        assert token.mode == "RGBA" and token.getpixel((1, 1))[3] == 0
