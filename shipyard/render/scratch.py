"""Rendering's temporary folders: where a worker's temporary files go, and who removes them.

A leaf of :mod:`shipyard.render.worker`: the worker makes its folder (:class:`Scratch`), and
the process that started the worker removes it once the worker has ended
(:func:`remove_scratch`, which checks a name that came from the worker before it removes
anything). The editor's preview keeps its sheets in a folder of its own
(:data:`PREVIEW_PREFIX`). Each folder's name carries the id of the process it belongs to, so
what a process that was killed left behind is known as such and removed later
(:func:`sweep_leftovers`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from shipyard.core.atomicwrite import process_running

SCRATCH_PREFIX = "shipyard-render-"
PREVIEW_PREFIX = "shipyard-preview-"  # the editor's preview sheets (shipyard._qt.preview.panel)
# A folder of one of these, named for the process it belongs to: "<prefix><process id>-<random>".
LEFTOVER_NAME = re.compile(rf"(?:{re.escape(SCRATCH_PREFIX)}|{re.escape(PREVIEW_PREFIX)})([1-9][0-9]*)-")
STALE_AFTER = 24 * 3600  # seconds a leftover folder has been untouched before it is removed


class Scratch:
    """A folder of this worker's own for the temporary files rendering makes.

    WeasyPrint writes the fonts of ``@font-face`` rules (a fillable sheet's field faces) into
    a temporary folder that it removes only when its font configuration is collected, and a
    worker's one configuration lives until the worker is stopped or ends without collecting
    it: each such folder was left in the temporary folder for good. So :mod:`tempfile` makes
    a worker's temporary files in a folder of its own, which the worker removes when it ends
    on its own or sees its parent gone, and which the process that started it removes once
    the worker has ended (:meth:`shipyard.render.worker.RenderWorker.kill`). The folder is
    named in the worker's first message and made only after it, so a worker stopped at any
    moment leaves nothing its parent does not know of. Where it cannot be made, files go
    where they went before."""

    def __init__(self) -> None:
        import tempfile

        self.made = False
        try:
            own = f"{SCRATCH_PREFIX}{os.getpid()}-{os.urandom(8).hex()}"
            self.name: str | None = str(Path(tempfile.gettempdir()) / own)
        except OSError:  # no temporary folder at all
            self.name = None

    def make(self) -> None:
        """Make the folder (once its name has been sent), and make temporary files in it."""
        import tempfile

        if self.name is None:
            return
        try:
            Path(self.name).mkdir(0o700)
        except OSError:
            return
        self.made = True
        tempfile.tempdir = self.name

    def remove(self) -> None:
        if self.made:
            import shutil

            shutil.rmtree(self.name or "", ignore_errors=True)


def remove_scratch(folder: str | None) -> None:
    """Remove a worker's scratch folder and what is in it, if it is one: a folder named as
    :class:`Scratch` names them, in the temporary folder this process uses, this user's,
    and not a link (a name from a worker is checked before anything is removed)."""
    if not folder:
        return
    import shutil
    import tempfile

    path = Path(folder).absolute()
    try:
        info = path.lstat()
    except OSError:
        return  # gone already
    base = Path(tempfile.gettempdir())
    named = path.name.startswith(SCRATCH_PREFIX) and path.parent in (base, base.resolve())
    if named and _own_folder(info):
        shutil.rmtree(path, ignore_errors=True)


def _own_folder(info: os.stat_result) -> bool:
    """Whether a status read without following links is of a folder of this user's: what
    may be removed, a link (to anything) never."""
    import stat

    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def sweep_leftovers(folder: str | Path | None = None, stale_after: float = STALE_AFTER) -> list[str]:
    """Remove the folders of rendering and of the preview that processes which were killed
    left in the temporary folder (a worker killed with its editor, an editor killed before it
    could remove its preview's sheets); the names removed.

    Only a folder named :data:`LEFTOVER_NAME`, this user's and not a link, whose process is
    no longer running and which nothing has changed for ``stale_after`` seconds: a process
    of the same id in another process namespace (a container sharing the temporary folder)
    keeps changing a folder it uses."""
    import shutil
    import tempfile
    import time

    base = Path(folder) if folder is not None else Path(tempfile.gettempdir())
    removed: list[str] = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        named = LEFTOVER_NAME.match(entry.name)
        if named is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not _own_folder(info) or now - info.st_mtime < stale_after:
            continue
        if process_running(int(named.group(1))):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.name)
    return removed
