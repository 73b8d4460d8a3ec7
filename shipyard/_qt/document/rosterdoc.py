"""An open roster: the roster file's content, its undo stack and the engine's check of it.

Every change (a count, a callsign, the limit, members added, removed or relinked) is one
step on the roster's undo stack, made by the same command that swaps a design's whole
states (:class:`shipyard._qt.document.document.ReplaceState`): a roster is an immutable value, so
undo and redo are exact. After every change the engine checks it again
(:func:`shipyard.hangar.roster.recheck`, reading only the designs the change added): the
editor shows the engine's totals and findings and computes none itself.

The members' design files are watched while the roster is open (the editor's
:class:`~shipyard._qt.widgets.filewatch.FileWatch`, on each file and its folder: an atomic
save replaces the file, a missing one may come back): a design saved in another tab, by
``shipyard set`` or by another program is read again a moment later (:data:`FOLLOW_MS`),
so the page never goes on showing figures its files no longer have. What the system will
not watch is still read again when the tab is shown and before the roster is printed or
exported (:meth:`RosterDocument.follow_files`). The roster's own file is followed by the
window, as every tab's file is (:mod:`shipyard._qt.window.diskchanges`): read again
(:meth:`RosterDocument.reload`) when the roster has no unsaved edits.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any, cast

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from shipyard._qt.document.document import ReplaceState
from shipyard._qt.document.ondisk import FileOnDisk, file_content
from shipyard._qt.document.pending import PendingText
from shipyard._qt.widgets.filewatch import FileWatch
from shipyard.core.errors import InputError
from shipyard.hangar.roster import (
    MAX_COUNT,
    Member,
    Roster,
    RosterCheck,
    acknowledged,
    check_roster,
    load_roster,
    member_for,
    recheck,
    relinked,
    save_roster,
)

TEXT_FIELDS = ("callsign", "crew", "notes")  # a member's fields typed as text
FOLLOW_MS = 300  # a member's file changed: read again after this (a save that writes several files is one read)


class RosterDocument(FileOnDisk, QObject):
    """A ``.roster`` file open in the editor (always a file: a new roster is written when made)."""

    changed = Signal()
    modified_changed = Signal(bool)
    file_changed = Signal()
    stepped = Signal(str)  # an undo or redo changed the roster (ReplaceState's signals)
    edited = Signal(str)

    path: Path  # a roster is always a file (FileOnDisk allows a design's None)

    def __init__(
        self, roster: Roster, path: Path, parent: QObject | None = None, folders: tuple[Path, ...] = ()
    ) -> None:
        super().__init__(parent)
        self.uid = uuid.uuid4().hex
        self.path = path
        self._on_disk = file_content(path)
        self._state = roster
        self._finder: Any = None
        self.folders = folders  # catalog folders its members are read with, as the editor opens designs
        self.check: RosterCheck = check_roster(roster, path, self.finder, folders)
        self.members_watch = FileWatch(self, FOLLOW_MS)  # the members' files and their folders
        self.members_watch.settled.connect(lambda _paths: self.follow_files())
        self._watch()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.pending = PendingText(self.undo_stack)  # the roster's notes being typed, committed on a pause
        self.autosaved: object | None = None  # the state its autosave file holds (see autosave.needed)

    def _clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    @classmethod
    def open(cls, path: Path, folders: tuple[Path, ...] = ()) -> RosterDocument:
        """The roster in ``path``, its members read with the catalog ``folders`` too; an
        InputError (with the file and line) when it cannot be read."""
        return cls(load_roster(path), path, folders=folders)

    # --- what it is -----------------------------------------------------------------------

    @property
    def roster(self) -> Roster:
        return self._state

    @property
    def state(self) -> object:
        return self._state

    @property
    def name(self) -> str:
        return self._state.name

    @property
    def title(self) -> str:
        return self.path.name

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def finder(self, digest: str) -> list[str]:
        """Where else a design of this content is (the hangar's index, the roster's folder):
        asked only for a missing member, the index opened on first need and kept."""
        if self._finder is None:
            from shipyard.commands.roster_command import finder_for

            self._finder = finder_for(self.path.resolve().parent)
        return cast("list[str]", self._finder(digest))

    def release(self) -> None:
        """The tab closes: its members' files are no longer watched; the hangar's index, if
        opened, is closed."""
        self.members_watch.stop()
        state = getattr(self._finder, "state", {})
        if "index" in state:
            state["index"].close()

    def flush(self) -> None:
        """Commit the roster's notes being typed (before Save, closing, an autosave)."""
        self.pending.flush()

    # --- changes (each one an undo step) ---------------------------------------------------

    def _set_state(self, roster: Roster) -> None:
        self._state = roster
        self.check = recheck(self.check, roster, self.finder)
        self._watch()
        self.changed.emit()

    def _watch(self) -> None:
        """Watch each member's file and its folder (and nothing else); those the system will
        not watch are read again when shown, printed, exported."""
        self.members_watch.watch(s.path for s in self.check.members if s.path is not None)

    def follow_files(self) -> int:
        """Members whose design file was written, made or removed since it was read (saved in
        the editor, by ``shipyard set``, by another program) read again, the totals counted
        anew (:func:`shipyard.hangar.roster.recheck_member`); how many were."""
        from shipyard.hangar.roster import recheck_member

        self.members_watch.drop_pending()
        stale = [s.number for s in self.check.members if s.stale]
        for number in stale:
            self.check = recheck_member(self.check, number, self.finder)
        self._watch()  # a file replaced by a save is watched anew
        if stale:
            self.changed.emit()
        return len(stale)

    def _push(self, roster: Roster, text: str, merge_key: str | None = None) -> None:
        if roster != self._state:
            self.undo_stack.push(ReplaceState(self, self._state, roster, text, merge_key))  # type: ignore[arg-type]

    def _members(self, members: list[Member], text: str) -> str | None:
        try:
            roster = Roster.model_validate({**self._state.model_dump(), "members": [m.model_dump() for m in members]})
        except ValueError as exc:  # more members than a roster holds
            return str(exc).splitlines()[-1]
        self._push(roster, text)
        return None

    def set_name(self, name: str) -> str | None:
        if not name.strip():
            return "a roster needs a name"
        self._push(self._state.model_copy(update={"name": name.strip()[:200]}), "Rename the roster", "name")
        return None

    def set_notes(self, notes: str) -> str | None:
        """The roster's own notes; each committed edit one undo step."""
        try:
            roster = Roster.model_validate({**self._state.model_dump(), "notes": notes})
        except ValueError as exc:  # longer than the roster file takes
            return f"the roster's notes: {str(exc).splitlines()[-1].strip()}"
        self._push(roster, "Change the roster's notes")
        return None

    def set_limit(self, limit: int | None) -> None:
        """The points limit (None: none); a run of changes (typing 1500) is one undo step."""
        self._push(self._state.model_copy(update={"limit": limit}), "Change the points limit", "limit")

    def set_count(self, index: int, count: int) -> str | None:
        if not 1 <= count <= MAX_COUNT:
            return f"{count} is not a count a roster takes: a whole number from 1 to {MAX_COUNT}"
        members = list(self._state.members)
        members[index] = members[index].model_copy(update={"count": count})
        return self._members(members, f"Count of {self.check.members[index].label}: {count}")

    def set_text(self, index: int, name: str, value: str) -> str | None:
        if name not in TEXT_FIELDS:
            raise ValueError(name)
        members = list(self._state.members)
        try:
            members[index] = Member.model_validate({**members[index].model_dump(), name: value})
        except ValueError:
            return f"the {name} is too long"
        return self._members(members, f"Change the {name} of {self.check.members[index].label}")

    def add(self, designs: list[Path]) -> str | None:
        """Each design of ``designs`` a member (count 1), one undo step; the engine's reason,
        when one cannot be, and nothing added."""
        members = list(self._state.members)
        rulesets = list(self._state.rulesets)
        for design in designs:
            try:
                member, facts = member_for(self.path, Path(design), self.folders)
            except InputError as exc:
                return str(exc.problems[0].message)
            if rulesets and facts.ruleset not in rulesets:
                return (
                    f"{Path(design).name} is a design of {facts.ruleset_name}; this roster takes "
                    f"{', '.join(rulesets)}. Nothing was added."
                )
            rulesets = rulesets or [facts.ruleset]  # the first design added says it, as `roster add` does
            members.append(member)
        what = Path(designs[0]).stem if len(designs) == 1 else f"{len(designs)} designs"
        try:
            roster = Roster.model_validate(
                {**self._state.model_dump(), "rulesets": rulesets, "members": [m.model_dump() for m in members]}
            )
        except ValueError as exc:
            return str(exc).splitlines()[-1]
        self._push(roster, f"Add {what}")
        return None

    def remove(self, indices: list[int]) -> None:
        gone = set(indices)
        if gone:
            kept = [m for i, m in enumerate(self._state.members) if i not in gone]
            self._members(kept, f"Remove {len(gone)} member{'s' * (len(gone) != 1)}")

    def relink(self) -> int:
        """Each moved member linked where its content was found; how many were."""
        roster, done = relinked(self.check)
        self._push(roster, f"Relink {len(done)} moved member{'s' * (len(done) != 1)}")
        return len(done)

    def acknowledge(self) -> None:
        """Changed members' figures taken as they are now: their change is seen."""
        self._push(acknowledged(self.check), "Accept the changed designs")

    def check_again(self) -> None:
        """Every member read again from its file (a design changed on disk since). The roster
        file itself is read again by the window, by the rule every tab's file follows
        (:meth:`shipyard._qt.window.diskchanges.DiskChanges.follow`)."""
        self.check = check_roster(self._state, self.path, self.finder, self.folders)
        self._watch()
        self.changed.emit()

    # --- the file -------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> None:
        """Write the roster atomically (an InputError when it cannot be, the file as it was)."""
        target = Path(path or self.path)
        if target.resolve().parent != self.path.resolve().parent:
            raise InputError.single(
                f"a roster names its designs by their place beside it: save it in {self.path.parent}",
                file=str(target),
            )
        try:
            save_roster(self._state, target)
        except OSError as exc:
            raise InputError.single(f"cannot write the roster: {exc.strerror or exc}", file=str(target)) from None
        self.path = target
        self.read_as(file_content(target))  # its own write is no other program's change
        self.undo_stack.setClean()
        self.file_changed.emit()

    def reload(self, roster: Roster, content: bytes | None) -> None:
        """Show the roster file as another program left it (``shipyard roster limit|add``, a
        text editor): ``roster`` as opening reads it, from the file when it held ``content``
        (read before it, so a write in between is news again); every member checked anew. The
        undo stack is emptied, as a roster just opened has none: no undo may take the other
        program's change back behind the person's back."""
        self.flush()
        self.undo_stack.clear()
        self.read_as(content)
        self._state = roster
        self.check = check_roster(roster, self.path, self.finder, self.folders)
        self._watch()
        self.changed.emit()
