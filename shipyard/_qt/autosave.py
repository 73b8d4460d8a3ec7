"""Autosave: unsaved work is copied to the user's data folder every minute and on a crash.

Each open document with unsaved changes has one autosave file (the design file format,
plus where it came from). Saving or closing the document removes it; whatever is left
at the next start is offered for restoring.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

from shipyard._qt.document import Document
from shipyard.core.designfile import atomic_write_text, design_from_document, dumps, make_folder
from shipyard.core.resources import user_data_folder


def folder() -> Path:
    return user_data_folder() / "autosave"


def needed(doc: Document) -> bool:
    """Unsaved changes that its autosave file (if any) does not hold yet."""
    return doc.modified and doc.autosaved is not doc.state


def save(doc: Document) -> Path:
    """Copy ``doc`` to its autosave file; an :class:`InputError` says why when that cannot be written."""
    target = folder()
    make_folder(target)
    path = target / f"{doc.uid}.ship"
    atomic_write_text(path, dumps(doc.loaded))
    atomic_write_text(
        path.with_suffix(".json"), json.dumps({"original": str(doc.path) if doc.path else None, "title": doc.title})
    )
    doc.autosaved = doc.state
    return path


def discard(doc: Document) -> None:
    """Remove ``doc``'s autosave (saved or closed); an autosave folder that cannot be reached has none."""
    doc.autosaved = None
    for suffix in (".ship", ".json"):
        with contextlib.suppress(OSError):
            (folder() / f"{doc.uid}{suffix}").unlink(missing_ok=True)


@dataclass
class Recovered:
    autosave: Path
    original: Path | None
    title: str


def pending() -> list[Recovered]:
    out = []
    for f in sorted(folder().glob("*.ship")) if folder().is_dir() else []:
        try:
            meta = json.loads(f.with_suffix(".json").read_text())
        except (OSError, ValueError):
            meta = {}
        original = meta.get("original")
        out.append(Recovered(f, Path(original) if original else None, meta.get("title") or f.stem))
    return out


def load(rec: Recovered, use_user_folder: bool = True) -> Document:
    doc_data = json.loads(rec.autosave.read_text(encoding="utf-8"))
    loaded = design_from_document(doc_data, file=str(rec.autosave), use_user_folder=use_user_folder)
    return Document(loaded, rec.original)


def remove(rec: Recovered) -> None:
    rec.autosave.unlink(missing_ok=True)
    rec.autosave.with_suffix(".json").unlink(missing_ok=True)


__all__ = ["Recovered", "discard", "folder", "load", "needed", "pending", "remove", "save"]
