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

import json
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from PIL import Image
from pydantic import BaseModel, ConfigDict, Field, model_validator

from shipyard.core import registry
from shipyard.core.designfile import load_design, sample_files
from shipyard.core.evaluate import evaluate

from .conftest import run_shipyard

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
    proc = run_shipyard("export", *samples, "--format", "foundry", "-o", tmp_path, "--no-user-catalog", timeout=240)
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
    proc = run_shipyard("export", design, "--format", "foundry", "-o", tmp_path / "out", "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    actor = Actor.model_validate(json.loads((tmp_path / "out" / "story.json").read_text()))
    assert "Lost with all hands &lt;in&gt; the Kessel shoals &amp; never found." in actor.system.biography
