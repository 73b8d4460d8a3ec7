"""Which kind of page a tab holds, asked without loading the page's module.

The roster page's module (and the roster model under it) is loaded when the first roster
opens, not at the editor's start; the window's parts that ask of every tab (the rosters,
the tabs following their files on disk) ask here, so neither imports the other for it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:
    from shipyard._qt.view.rosterpage import RosterPage


def is_roster_page(w: Any) -> TypeGuard[RosterPage]:
    """Whether ``w`` is a roster's page (before the first roster opens, no tab is one)."""
    page = sys.modules.get("shipyard._qt.view.rosterpage")
    return page is not None and isinstance(w, page.RosterPage)


def is_roster_tab(w: Any) -> bool:
    """Whether ``w`` is a roster's tab: its page, or the error of one that cannot be read."""
    page = sys.modules.get("shipyard._qt.view.rosterpage")
    return page is not None and isinstance(w, page.RosterPage | page.BrokenRoster)
