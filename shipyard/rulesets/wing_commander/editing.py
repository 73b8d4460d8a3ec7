"""The functions the declared editor form calls (catalogs/wing-commander/form.yaml): the
read-only cells of a compartment's components, as the engine numbers them for the
random-failure roll (the report's ``compartment.N`` figures)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shipyard.core.paths import parse_path

if TYPE_CHECKING:
    from shipyard.core.formview import FormContext


def _numbered(ctx: FormContext, base: str) -> dict[str, Any] | None:
    """The report's object for the component at ``base`` (``compartments[0].components[2]``):
    its number, name, space and what it counts as."""
    parts = parse_path(base)
    if ctx.report is None or len(parts) != 4 or not isinstance(parts[1], int) or not isinstance(parts[3], int):
        return None
    compartment = next((f for f in ctx.report.derived.figures if f.path == f"compartments[{parts[1]}]"), None)
    if compartment is None or not isinstance(compartment.value, dict):
        return None
    components = compartment.value.get("components", [])
    return components[parts[3]] if parts[3] < len(components) else None


def component_number(ctx: FormContext, base: str = "", **_: Any) -> tuple[str, str]:
    """The component's number in its compartment, for the random-failure roll."""
    found = _numbered(ctx, base)
    if found is None:
        return "", ""
    return str(found["number"]), f"Component {found['number']}: the number a failure roll names"


def component_counts_as(ctx: FormContext, base: str = "", **_: Any) -> tuple[str, str]:
    """What the component counts as when lost systems are tallied (space 0 counts as the
    catalog's number)."""
    found = _numbered(ctx, base)
    if found is None:
        return "", ""
    counts = found["counts_as"]
    return str(counts), f"Space {found['space']} counts as {counts} when lost systems are tallied"


FORM_CALLS = {
    "component_number": component_number,
    "component_counts_as": component_counts_as,
}
