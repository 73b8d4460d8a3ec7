"""Who follows the saves of design files in this process: after each save, every hook
registered here is called with the files written (the hangar's index brings them in:
:func:`shipyard.hangar.follow_saves`, registered by the command line and the editor as
they start). The core knows no follower; a follower's failure never fails the save."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

_HOOKS: list[Callable[[list[Path]], None]] = []


def after_save(hook: Callable[[list[Path]], None]) -> None:
    """Call ``hook`` with the files after every save of designs in this process (once, however often asked)."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)


def saved(files: list[Path]) -> None:
    """The design files just written: each follower told (what it cannot do, it leaves for later)."""
    for hook in list(_HOOKS):
        with contextlib.suppress(Exception):  # a cache that could not follow is brought up to date by its next scan
            hook(files)
