"""A render worker's scratch folder: where its temporary files go, and who removes it.

A leaf of :mod:`shipyard.render.worker`: the worker makes the folder (:class:`Scratch`), and
the process that started the worker removes it once the worker has ended
(:func:`remove_scratch`, which checks a name that came from the worker before it removes
anything).
"""

from __future__ import annotations

import os
from pathlib import Path

SCRATCH_PREFIX = "shipyard-render-"


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
            self.name: str | None = str(Path(tempfile.gettempdir()) / (SCRATCH_PREFIX + os.urandom(8).hex()))
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
    import stat
    import tempfile

    path = Path(folder).absolute()
    try:
        info = path.lstat()
    except OSError:
        return  # gone already
    base = Path(tempfile.gettempdir())
    named = path.name.startswith(SCRATCH_PREFIX) and path.parent in (base, base.resolve())
    if named and stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid():
        shutil.rmtree(path, ignore_errors=True)
