"""An open design: the loaded design, its file, its undo stack and its current report.

Every change is a QUndoCommand that swaps whole states (preset, catalog, design), so
undo and redo are exact and cheap: designs are immutable values. Each command remembers
where in the design it changed something, so an undo or redo can show that place
(:attr:`Document.stepped`), on whichever step of the editor it is.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from shipyard._qt.document.ondisk import FileOnDisk, file_content
from shipyard._qt.document.pending import PendingText
from shipyard.core.catalog import with_preset
from shipyard.core.designfile import EXTENSION, LoadedDesign, save_design
from shipyard.core.designreport import design_report
from shipyard.core.edits import get_at, insert_at, remove_at, set_at
from shipyard.core.errors import InputError
from shipyard.core.model import Catalog
from shipyard.core.report import Report

FILTER = f"Shipyard designs (*{EXTENSION});;All files (*)"  # what the file dialogs for designs show
OPEN_FILTER = f"Shipyard designs and rosters (*{EXTENSION} *.roster);;{FILTER}"  # File > Open


@dataclass(frozen=True)
class State:
    preset: str
    catalog: Catalog
    design: Any
    tags: tuple[str, ...] = ()  # the design file's labels, beside the design (core.designfile.check_tags)


PRESET_PLACE = "(preset)"  # where a change of preset is made: not a path of the design
TAGS_PLACE = "(tags)"  # where a change of the file's tags is made: not a path of the design either


class ReplaceState(QUndoCommand):
    """One edit. Edits of the same field in a row merge, so typing is one undo step.

    ``where`` is the path of the change (a field, a list entry), shown again when the
    change is undone or redone."""

    MERGE_ID = 1

    def __init__(
        self, doc: Document, before: State, after: State, text: str, merge_key: str | None, where: str = ""
    ) -> None:
        super().__init__(text)
        self.doc, self.before, self.after, self.merge_key, self.where = doc, before, after, merge_key, where
        self._done = False  # the first redo is the push itself, not a step the user asked for

    def id(self) -> int:
        return self.MERGE_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ReplaceState) or other.doc is not self.doc or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        self.doc._set_state(self.after)
        if self._done:
            self.doc.stepped.emit(self.where)
        else:
            self.doc.edited.emit(self.where)
        self._done = True

    def undo(self) -> None:
        self.doc._set_state(self.before)
        self.doc.stepped.emit(self.where)


class Document(FileOnDisk, QObject):
    changed = Signal()
    modified_changed = Signal(bool)
    file_changed = Signal()
    stepped = Signal(str)  # an undo or redo changed the design at this path
    edited = Signal(str)  # a new edit (not an undo or redo) changed the design at this path

    def __init__(self, loaded: LoadedDesign, path: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.uid = uuid.uuid4().hex
        self.autosaved: object | None = None  # the state its autosave file holds (see autosave.needed)
        self.path = path
        self._on_disk = file_content(path)  # what the file held when read or last saved here
        self._state = State(loaded.preset, loaded.catalog, loaded.design, tuple(loaded.tags))
        self._ruleset = loaded.ruleset
        self._written = loaded.written  # saving keeps the file as it was written (core.aswritten)
        self._report: Report | None = None
        self._evaluated_once = False  # a plug-in failing after that is a finding, not a closed tab
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.pending = PendingText(self.undo_stack)  # the text being typed, committed on a pause
        self._field_round = 0  # bumped when a run of edits ends: editing the field again is a new step
        self.pending.left.connect(self.end_run)
        self.stepped.connect(lambda _where: self.end_run())  # an undo or redo ends the run too

    def end_run(self) -> None:
        """The person left the field (a text, a spin box) or stepped through the undo stack:
        the next change of a field is an undo step of its own, not merged into the last one."""
        self._field_round += 1

    def flush(self) -> None:
        """Commit what the person is typing now (before Save, Print, closing, another edit)."""
        self.pending.flush()

    def _clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    # --- state ------------------------------------------------------------------------

    @property
    def design(self) -> Any:
        return self._state.design

    @property
    def catalog(self) -> Catalog:
        return self._state.catalog

    @property
    def preset(self) -> str:
        return self._state.preset

    @property
    def tags(self) -> list[str]:
        """The design file's tags (the person's labels, kept beside the design on every save)."""
        return list(self._state.tags)

    @property
    def loaded(self) -> LoadedDesign:
        state = self._state
        return LoadedDesign(
            self.path, self._ruleset, state.preset, state.design, state.catalog, self._written, list(state.tags)
        )

    @property
    def report(self) -> Report:
        if self._report is None:
            from shipyard.render.art import page_art_problem  # a picture that cannot be decoded too

            state = self._state
            try:
                report = design_report(state.design, state.catalog, self.path, picture_problem=page_art_problem)
            except InputError as exc:  # its ruleset's plug-in failed on this state (core.plugincode)
                if not self._evaluated_once:
                    raise  # while the design opens: the window shows the error in its tab (brokentab)
                report = _plugin_failed(state.design, state.catalog, state.preset, str(exc))
            self._evaluated_once = True
            self._report = report
        return self._report

    @property
    def state(self) -> object:
        """The current state as a token: a new object after every edit, undo and redo."""
        return self._state

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def title(self) -> str:
        """The file's name, or the design's name before it is saved (the window title)."""
        return self.path.name if self.path else self.name

    @property
    def name(self) -> str:
        """The design's name, as its tab shows it."""
        name = getattr(self.design, "name", "")
        return name.strip() if isinstance(name, str) and name.strip() else (self.path.stem if self.path else "Untitled")

    def _set_state(self, state: State) -> None:
        self._state = state
        self._report = None
        self.changed.emit()

    # --- edits (each one undoable) --------------------------------------------------------

    def _push(
        self,
        design: Any,
        text: str,
        merge_key: str | None,
        preset: str | None = None,
        catalog: Catalog | None = None,
        where: str = "",
    ) -> None:
        after = State(preset or self._state.preset, catalog or self._state.catalog, design, self._state.tags)
        self.undo_stack.push(ReplaceState(self, self._state, after, text, merge_key, where))

    def _apply(
        self, change: Callable[[Any], Any], text: str, merge_key: str | None = None, where: str = ""
    ) -> str | None:
        """Run ``change`` (design -> new design, through the engine) as one undo step.

        Returns the engine's reason, in the player's words, when it refuses, and changes nothing; a change that
        leaves the design as it was adds no step. Text still being typed commits first.
        """
        self.flush()
        try:
            new = change(self.design)
        except InputError as exc:
            from shipyard.core.places import refusal_text

            return refusal_text(exc.problems, self.catalog, self.design.model_dump(mode="json"))
        if new != self.design:
            self._push(new, text, merge_key, where=where)
        return None

    def edit(self, path: str, value: Any, *, merge: bool = True, text: str = "") -> str | None:
        """Set ``value`` at ``path``; returns the engine's message when the value is refused."""
        merge_key = f"{path}#{self._field_round}" if merge else None
        text = text or f"Change {self.place(path)}"
        return self._apply(lambda d: set_at(d, path, value, self.catalog), text, merge_key, path)

    def set_tags(self, text: str, *, merge: bool = True) -> str | None:
        """The file's tags from what the person typed (words separated by commas), one undo
        step (typing in a row is one); the reason, in their words, when they are refused."""
        from dataclasses import replace

        from shipyard.core.edits import tags_from_text

        self.flush()
        try:
            tags = tuple(tags_from_text(text))
        except InputError as exc:
            return str(exc.problems[0])
        if tags != self._state.tags:
            merge_key = f"{TAGS_PLACE}#{self._field_round}" if merge else None
            after = replace(self._state, tags=tags)
            self.undo_stack.push(ReplaceState(self, self._state, after, "Change Tags", merge_key, TAGS_PLACE))
        return None

    def place(self, path: str) -> str:
        """``path`` as the user sees it ("Weapons, Light Laser: fire-link group")."""
        from shipyard.core.places import place

        data = self.design.model_dump(mode="json") if "[" in path else {}
        return place(path, self.catalog, data)

    def edit_many(self, changes: dict[str, Any], text: str) -> str | None:
        """Several values in one undoable step (e.g. dividing Soak sets Armor and Shields)."""

        def change(design: Any) -> Any:
            for path, value in changes.items():
                design = set_at(design, path, value, self.catalog)
            return design

        return self._apply(change, text, where=next(iter(changes), ""))

    def replace_design(self, design: Any, text: str) -> str | None:
        """The whole design replaced (what a ruleset's action returned), one undo step;
        checked and resolved against the catalog like any edit."""
        from pydantic import ValidationError

        from shipyard.core.designfile import validation_problems

        def change(_old: Any) -> Any:
            try:
                new = type(self.design).model_validate(
                    design.model_dump(mode="json") if hasattr(design, "model_dump") else design
                )
            except ValidationError as exc:
                raise InputError(validation_problems(exc, None, ())) from None
            return self.catalog.module.resolve(new, self.catalog)

        return self._apply(change, text)

    def insert(self, list_path: str, item: Any, text: str = "") -> str | None:
        where = f"{list_path}[{len(self._entries(list_path))}]"
        return self._apply(
            lambda d: insert_at(d, list_path, item, self.catalog), text or f"Add to {list_path}", where=where
        )

    def remove(self, list_path: str, index: int, text: str = "") -> str | None:
        return self._apply(
            lambda d: remove_at(d, list_path, index, self.catalog),
            text or f"Remove from {list_path}",
            where=f"{list_path}[{index}]",
        )

    def apply_design(self, design: Any, text: str, where: str = "") -> None:
        """A whole new design the engine made (a fix it proposed), as one undo step."""
        self.flush()
        if design != self.design:
            self._push(design, text, None, where=where)

    def _entries(self, list_path: str) -> list[Any]:
        try:
            value = get_at(self.design, list_path)
        except InputError:
            return []
        return list(value) if isinstance(value, list) else []

    def set_preset(self, preset_id: str) -> str | None:
        self.flush()
        if preset_id == self.preset:
            return None
        try:
            catalog = with_preset(self.catalog, preset_id)
        except InputError as exc:
            return str(exc)
        self._push(self.design, f"Preset {preset_id}", None, preset=preset_id, catalog=catalog, where=PRESET_PLACE)
        return None

    # --- files ----------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> None:
        target = path or self.path
        if target is None:
            raise ValueError("no file name")
        self.flush()
        save_design(self.loaded, target)  # the hangar's index follows (shipyard.hangar.follow_saves)
        self.path = Path(target)
        self.read_as(file_content(self.path))  # its own write is no other program's change
        self.undo_stack.setClean()
        self.file_changed.emit()

    def reload(self, loaded: LoadedDesign, content: bytes | None) -> None:
        """Show the file as another program left it: ``loaded`` as opening reads it, from the
        file when it held ``content`` (read before it, so a write in between is news again).
        The undo stack is emptied, as a design just opened has none: no undo may take the other
        program's change back behind the person's back, nor bring back edits they chose to lose.
        Of the same ruleset only: its pages are built for it (the window opens another anew)."""
        if loaded.ruleset != self._ruleset:
            raise ValueError(f"{loaded.ruleset} is not this design's ruleset ({self._ruleset})")
        self.flush()
        self.undo_stack.clear()
        self._written = loaded.written
        self.read_as(content)
        self.end_run()
        self._set_state(State(loaded.preset, loaded.catalog, loaded.design, tuple(loaded.tags)))


def _plugin_failed(design: Any, catalog: Catalog, preset: str, message: str) -> Report:
    """The report of a design open in the editor whose ruleset's plug-in failed on an edit:
    one error finding saying so, in the plug-in's words, so the findings panel shows it, the
    design does not pass, and the person may undo the edit or save; nothing else is derived."""
    from shipyard.core.findings import Finding, Severity
    from shipyard.core.report import Derived

    return Report(
        ruleset=catalog.meta.id,
        ruleset_name=catalog.meta.name,
        preset=preset,
        preset_name=catalog.presets[preset].name if preset in catalog.presets else "",
        name=getattr(design, "name", ""),
        valid=False,
        derived=Derived(),
        findings=[Finding(severity=Severity.ERROR, code="plugin-failed", message=message)],
    )
