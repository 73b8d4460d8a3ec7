"""The contract between the neutral core and one ruleset's Python module.

A ruleset module is ``shipyard.rulesets.<module>`` as named in its ``ruleset.yaml``. It
says what the catalog data cannot: the shape of its design, how a design maps onto the
neutral :class:`DesignView`, its own rule types, and its derived figures.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from shipyard.core.errors import InputError
from shipyard.core.items import CatalogItem

if TYPE_CHECKING:
    from shipyard.core.catalog import Catalog
    from shipyard.core.context import Context, DesignView
    from shipyard.core.report import Derived
    from shipyard.core.rules import RuleType
    from shipyard.core.yamlio import YamlDocument


class RulesetModule(Protocol):
    ITEM_KINDS: Mapping[str, type[CatalogItem]]
    RULE_TYPES: Mapping[str, RuleType]
    Design: type[BaseModel]

    def resolve(self, design: Any, catalog: Catalog) -> Any:
        """Design with every item reference resolved to a catalog id; InputError if not."""

    def view(self, design: Any, catalog: Catalog) -> DesignView:
        """The neutral view of a design that the core rules work on."""

    def derive(self, ctx: Context) -> Derived:
        """Figures and tables computed from the design after the rules ran."""

    def variants(self, design: Any) -> list[tuple[str, Any]]:
        """Other forms of the design to evaluate alongside it (e.g. transformations)."""

    def compare_variants(self, ctx: Context, forms: list[tuple[str, Context]]) -> None:
        """Findings that relate the forms to the primary design."""

    def new_design(self, name: str, scale: str, catalog: Catalog) -> Any:
        """An empty design a user starts from.

        A ruleset whose designs come in kinds other than scales (a fighter, a pilot, a
        force) may also define ``new_of_kind(kind, catalog)``; the editor's File > New uses
        it when present.
        """


def import_module(name: str, doc: YamlDocument | None = None) -> RulesetModule:
    try:
        module: Any = importlib.import_module(f"shipyard.rulesets.{name}")
    except ModuleNotFoundError:
        msg = f"ruleset module {name!r} not found in shipyard.rulesets"
        if doc is not None:
            raise doc.error(msg, ("ruleset", "module")) from None
        raise InputError.single(msg) from None
    for attr in (
        "ITEM_KINDS",
        "RULE_TYPES",
        "Design",
        "resolve",
        "view",
        "derive",
        "variants",
        "compare_variants",
        "new_design",
    ):
        if not hasattr(module, attr):
            raise InputError.single(f"ruleset module {name!r} lacks {attr!r}")
    return module  # type: ignore[no-any-return]
