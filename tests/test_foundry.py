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
from shipyard.core.shown import design_table

from .conftest import call_shipyard

Key = Annotated[str, Field(pattern=r"^[^.\s]+$", min_length=1)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9]{16}$")]


class Bounded(_Doc):
    value: int
    min: int
    max: int

    @model_validator(mode="after")
    def _inside(self) -> Bounded:
        assert self.min <= self.value <= self.max or self.max == 0, (self.min, self.value, self.max)
        return self


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


class Stats(_Doc):
    """Foundry's ``_stats`` (v12 and v13: DocumentStatsField)."""

    coreVersion: Literal["12.343", "13.345"]
    systemId: Literal["worldbuilding"]
    systemVersion: str
    createdTime: None
    modifiedTime: None
    lastModifiedBy: None
    compendiumSource: None
    duplicateSource: None
    exportSource: None = None

    @model_validator(mode="after")
    def _of_its_version(self) -> Stats:
        assert ("exportSource" in self.model_fields_set) == self.coreVersion.startswith("13."), "v13 only"
        return self


class Item(_Doc):
    id_: Id = Field(alias="_id")
    name: str
    type: Literal["item"]
    img: str
    system: ItemSystem
    effects: list[Any]
    flags: dict[str, Any]


class Texture(_Doc):
    src: str


class Bar(_Doc):
    attribute: Literal["health", "power"] | None


class PrototypeToken(_Doc):
    name: str
    actorLink: bool
    texture: Texture
    bar1: Bar
    bar2: Bar
    displayName: int
    displayBars: int


class Actor(_Doc):
    id_: Id = Field(alias="_id")
    name: str
    type: Literal["character"]
    img: str
    system: ActorSystem
    prototypeToken: PrototypeToken
    items: list[Item]
    effects: list[Any]
    folder: None
    sort: int
    ownership: dict[str, int]
    flags: dict[str, Any]
    stats_: Stats = Field(alias="_stats")


@pytest.mark.parametrize("ruleset", [r.id for r in registry.rulesets()])
def test_every_sample_exports_an_actor_the_worldbuilding_system_reads(ruleset: str, tmp_path: Path) -> None:
    info = registry.get(ruleset)
    samples = sample_files(info.samples)
    proc = call_shipyard("export", *samples, "--format", "foundry", "-o", tmp_path, "--no-user-catalog")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    tabletop = info.manifest.tabletop
    assert tabletop is not None
    ids = set()
    for file in samples:
        doc = json.loads((tmp_path / f"{file.stem}.json").read_text())
        actor = Actor.model_validate(doc)
        ids |= {actor.id_, *(i.id_ for i in actor.items)}
        assert actor.stats_.coreVersion.startswith("13.")
        loaded = load_design(file, use_user_folder=False)
        report = evaluate(loaded.design, loaded.catalog)
        table = design_table(report)
        assert actor.name == report.name
        # the token PNG beside it, transparent round its shape
        assert actor.img == actor.prototypeToken.texture.src == f"{file.stem}-token.png"
        with Image.open(tmp_path / actor.img) as token:
            assert token.mode == "RGBA" and token.getpixel((1, 1))[3] == 0
        # health and power: the declared bars, 0/0 and unbound where the design has none
        for bar, got, bound in (
            (table.health, actor.system.health, actor.prototypeToken.bar1),
            (table.power, actor.system.power, actor.prototypeToken.bar2),
        ):
            assert (got.value, got.max) == ((bar.value, bar.max) if bar else (0, 0))
            assert bound.attribute == (bar.id if bar else None)
        # every figure of the table, by its kind; tracks as resources of their ticked boxes
        shown = {**actor.system.attributes.get("figures", {}), **actor.system.attributes.get("budgets", {})}
        assert len(shown) == len(table.figures)
        for fig, attr in zip(table.figures, shown.values(), strict=True):
            if attr.dtype == "Number":
                assert attr.value == fig.number
            else:
                assert (attr.dtype, attr.value) == ("String", fig.value)
        tracks = actor.system.attributes.get("tracks", {})
        assert [(a.dtype, a.value, a.max) for a in tracks.values()] == [
            ("Resource", s.ticked, s.boxes) for s in table.states if s.kind == "track"
        ]
        slots = actor.system.attributes.get("slots", {})
        assert [a.value for a in slots.values()] == [s.text for s in table.states if s.kind == "slot"]
        assert set(actor.system.groups) == set(actor.system.attributes)
        # the declared tables' rows as items
        rows = sum(len(t.rows) for t in report.derived.tables if t.id in tabletop.items)
        assert len(actor.items) == rows
        assert report.name.split()[0] in actor.system.biography
    assert len(ids) == sum(1 + len(json.loads((tmp_path / f"{f.stem}.json").read_text())["items"]) for f in samples)


def test_a_rulesets_without_power_have_no_power_and_structure_is_the_rating(tmp_path: Path) -> None:
    """The actor's health is the Structure rating the sheet prints (the Rebel Fighter's 15, not
    its 31 track boxes); no Power is invented (the system's default 5/5) where there is none."""
    rebel = registry.get("space-fighter-alpha").samples / "rebel-fighter.ship"
    fury = sample_files(registry.get("space-fury").samples)[0]
    out = tmp_path / "out"
    assert call_shipyard("export", rebel, fury, "--format", "foundry", "-o", out, "--no-user-catalog").returncode == 0
    actor = Actor.model_validate(json.loads((out / "rebel-fighter.json").read_text()))
    assert (actor.system.health.value, actor.system.health.max) == (15, 15)
    assert actor.system.attributes["figures"]["structure"].value == 15
    no_power = Actor.model_validate(json.loads((out / f"{fury.stem}.json").read_text()))
    assert (no_power.system.power.value, no_power.system.power.max) == (0, 0)
    assert no_power.prototypeToken.bar2.attribute is None
    assert not any("power" in a.label.lower() for g in no_power.system.attributes.values() for a in g.values())


def test_an_actor_for_the_previous_foundry_and_a_world_names_its_images_in_the_world(tmp_path: Path) -> None:
    sample = sample_files(registry.get("wing-commander").samples)[0]
    out = tmp_path / "Data" / "worlds" / "skirmish" / "ships"
    proc = call_shipyard(
        "export", sample, "--format", "foundry", "-o", out, "--world", "skirmish", "--foundry", "12",
        "--no-user-catalog",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    actor = Actor.model_validate(json.loads((out / f"{sample.stem}.json").read_text()))
    assert actor.stats_.coreVersion.startswith("12.")
    assert actor.img == actor.prototypeToken.texture.src == f"worlds/skirmish/ships/{sample.stem}-token.png"
    elsewhere = tmp_path / "export"
    proc = call_shipyard(
        "export", sample, "--format", "foundry", "-o", elsewhere, "--world", "skirmish", "--no-user-catalog"
    )
    assert proc.returncode == 0 and "worlds/skirmish/shipyard/" in proc.stdout
    actor = Actor.model_validate(json.loads((elsewhere / f"{sample.stem}.json").read_text()))
    assert actor.img == f"worlds/skirmish/shipyard/{sample.stem}-token.png"
    proc = call_shipyard("export", sample, "--format", "foundry", "-o", tmp_path / "x", "--world", "../etc")
    assert proc.returncode == 2 and "--world" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "x").exists()


def test_an_exported_actor_imports_back_as_the_design_with_its_recorded_state(tmp_path: Path) -> None:
    """The round trip: a damaged frigate (core and ephemeral damage, a stored power bank) and a
    ship with consequences taken come back as the very designs, state and all."""
    frigate = registry.get("future-perfect").samples / "damaged-frigate.ship"
    doc = json.loads(sample_files(registry.get("cluster-falk").samples)[0].read_text())
    doc["design"]["consequences"] = {"mild": {"aspect": "Scorched hull", "track": "hull"}}
    hurt = tmp_path / "hurt.ship"
    hurt.write_text(json.dumps(doc))
    out = tmp_path / "vtt"
    assert call_shipyard("export", frigate, hurt, "--format", "foundry", "-o", out, "--no-user-catalog").returncode == 0
    for design in (frigate, hurt):
        back = tmp_path / f"back-{design.name}"
        proc = call_shipyard("import", "foundry", out / f"{design.stem}.json", "-o", back, "--no-user-catalog")
        assert proc.returncode == 0, proc.stderr
        first, again = load_design(design, use_user_folder=False), load_design(back, use_user_folder=False)
        assert again.design == first.design and again.preset == first.preset
        r1, r2 = evaluate(first.design, first.catalog), evaluate(again.design, again.catalog)
        assert design_table(r1) == design_table(r2)
    actor = Actor.model_validate(json.loads((out / "hurt.json").read_text()))
    mild = actor.system.attributes["slots"]["consequences_mild"]
    assert (mild.value, mild.label) == ("Scorched hull", "Mild 2 (hull)")  # and the track it was taken on
    # an actor of another maker is refused by name, nothing written
    (tmp_path / "other.json").write_text(json.dumps({"name": "Orc", "type": "npc", "flags": {}}))
    proc = call_shipyard("import", "foundry", tmp_path / "other.json", "-o", tmp_path / "orc.ship")
    assert proc.returncode == 2 and "not an actor Shipyard exported" in proc.stderr
    assert not (tmp_path / "orc.ship").exists()


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
