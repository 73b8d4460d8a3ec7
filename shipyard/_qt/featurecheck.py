"""PySide6's check of each module imported after it, made a plain read of the file.

Once PySide6 is imported, its import hook asks of every module imported after it
whether the module's source names "PySide6" (to know which modules its ``__feature__``
switches, such as snake_case, may apply to). It asks through ``inspect.getsource``, which
goes through linecache and the source's encoding declaration for every module: about
100 modules at the editor's start, some 10 ms of it. :func:`quicken` answers the same
question by looking for the same bytes in the module's file, and leaves every other case
(no source file, a file that cannot be read) to PySide6's own check. Where PySide6 has no
such check (another version), nothing is changed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any


def quicken() -> None:
    """Replace PySide6's check with :func:`uses_pyside`, once (call after PySide6 is imported)."""
    feature: Any = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "quickened", False):
        return

    def check(module: ModuleType) -> bool:
        found = uses_pyside(module)
        return bool(original(module)) if found is None else found

    check.quickened = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = check


def uses_pyside(module: ModuleType) -> bool | None:
    """Whether ``module``'s source file names PySide6; None when it has no readable ``.py`` file."""
    file = getattr(module, "__file__", None)
    if not isinstance(file, str) or not file.endswith(".py"):
        return None
    try:
        return b"PySide6" in Path(file).read_bytes()
    except OSError:
        return None
