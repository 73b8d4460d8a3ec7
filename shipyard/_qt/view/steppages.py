"""Which step pages a design gets: the pages of its catalog's declared form, or the
hand-written pages its ruleset's manifest names (``editor_pages: "package.module:Class"``,
docs/rulesets.md, "Hand-written pages").

Either way the view gets a :class:`shipyard._qt.document.pagebase.StepPages`, the editor's one page
contract. A ruleset never imports the editor (the import contracts in pyproject.toml), so
its hand-written class cannot derive from that base: :class:`HandWritten` wraps it, and
checks once, when the design opens, that it has what the contract requires. The editor
names no ruleset.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shipyard._qt.document.pagebase import StepPages

if TYPE_CHECKING:
    from shipyard._qt.document.binding import Binder
    from shipyard._qt.document.document import Document


class HandWritten(StepPages):
    """A ruleset's own page class, held to the page contract: its ``pages`` and its
    ``refresh()``, everything else the contract's defaults."""

    def __init__(
        self, doc: Document, binder: Binder, report_error: Callable[[str], None], named: str, inner: Any
    ) -> None:
        super().__init__(doc, binder, report_error)
        pages, refresh = getattr(inner, "pages", None), getattr(inner, "refresh", None)
        if not isinstance(pages, list) or not callable(refresh):
            raise LookupError(
                f"the editor pages {named!r} of the ruleset {doc.loaded.ruleset!r} need 'pages' "
                "(a list of (tab title, function building the page)) and 'refresh()' (docs/rulesets.md)"
            )
        self.hand_written = inner  # the ruleset's object
        self.pages = pages
        self._refresh: Callable[[], None] = refresh

    def refresh(self) -> None:
        """The ruleset's ``refresh()``, under the plug-in guard: a failure is said in the status
        bar (``report_error``), the design and the editor stay as they are."""
        from shipyard.core.errors import InputError
        from shipyard.core.registry import plugin_guard

        try:
            with plugin_guard(f"ruleset {self.doc.loaded.ruleset!r}: editor pages' refresh()"):
                self._refresh()
        except InputError as exc:
            self.report_error(str(exc))


def step_pages(doc: Document, binder: Binder, report_error: Callable[[str], None]) -> StepPages:
    """The step pages of ``doc``: the ruleset's hand-written pages when its manifest names
    them, else the pages of the catalog's declared form."""
    from shipyard.core.registry import get

    named = get(doc.loaded.ruleset).manifest.editor_pages
    if named is not None:
        from shipyard.core.registry import plugin_guard

        module, _, name = named.partition(":")
        # The ruleset's own code: what it raises is an input error naming it (core.plugincode),
        # which the window shows in the design's tab; its refresh() runs the same way.
        what = f"ruleset {doc.loaded.ruleset!r}: editor pages {named!r}"
        with plugin_guard(what, package=module):
            builder: Callable[..., object] = getattr(importlib.import_module(module), name)
            inner = builder(doc, binder, report_error)
        return HandWritten(doc, binder, report_error, named, inner)
    if doc.catalog.form is None:
        raise LookupError(f"the ruleset {doc.loaded.ruleset!r} declares no editor form (catalog section 'form')")
    from shipyard._qt.form.pages import FormPages

    return FormPages(doc, binder, report_error)
