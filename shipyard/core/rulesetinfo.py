"""An installed ruleset as its manifest describes it, with its folders resolved: what the
registry (:mod:`shipyard.core.registry`) finds and looks up, and what the code that imports
a ruleset's package (:mod:`shipyard.core.rulesetimport`) and checks its folder are given.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shipyard.core.manifest import Command, Conversion, DesignKind, Manifest, TextFormat

DATA_PREFIX = "shipyard-data:"


@dataclass(frozen=True)
class RulesetInfo:
    """An installed ruleset as its manifest describes it, with its folders resolved."""

    manifest: Manifest
    manifest_file: Path
    package: str
    distribution: str
    dist_version: str

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def version(self) -> str:
        return self.manifest.version

    @property
    def kinds(self) -> list[DesignKind]:
        return self.manifest.kinds

    @property
    def commands(self) -> list[Command]:
        return self.manifest.commands

    @property
    def formats(self) -> list[TextFormat]:
        return self.manifest.formats

    @property
    def conversions(self) -> list[Conversion]:
        return self.manifest.conversions

    def path(self, value: str) -> Path:
        """A path the manifest gives: relative to its folder, or in Shipyard's data folders."""
        if value.startswith(DATA_PREFIX):
            from shipyard.core.resources import data_path

            return data_path(value[len(DATA_PREFIX) :])
        return (self.manifest_file.parent / value).resolve()

    @property
    def catalog(self) -> Path:
        return self.path(self.manifest.catalog)

    @property
    def templates(self) -> Path | None:
        return self.path(self.manifest.templates) if self.manifest.templates else None

    @property
    def samples(self) -> Path:
        return self.path(self.manifest.samples) if self.manifest.samples else self.catalog / "examples"

    @property
    def reading(self) -> Path | None:
        """The Markdown file saying how Shipyard reads the rules, if the manifest names one."""
        return self.path(self.manifest.reading) if self.manifest.reading else None

    def kind(self, kind_id: str) -> DesignKind | None:
        """The kind ``kind_id`` is (its own entry, or the one whose ``matches`` takes it)."""
        return next((k for k in self.kinds if k.accepts(kind_id)), None)

    def code_files(self) -> list[Path]:
        """The ruleset's Python files, whose changes make a cached catalog stale."""
        folder = self.manifest_file.parent
        return sorted(folder.rglob("*.py"))
