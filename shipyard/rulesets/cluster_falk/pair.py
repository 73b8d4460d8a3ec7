"""The numbers of a pair of ships, as a comparison shows them: the Size advantage and the
detection modifier, each seen from both ships, with how it comes about and its section.

The comparison (``shipyard.core.compare``) asks a ruleset's module for
``pair_figures(first, other, catalog)``; the numbers are the catalog's
(``comparisons.yaml``), the arithmetic is ``mechanisms.size_advantage`` and
``mechanisms.detection_modifier``.
"""

from shipyard.core.model import Catalog
from shipyard.core.report import Figure
from shipyard.rulesets.cluster_falk.design import Design
from shipyard.rulesets.cluster_falk.items import DetectionModifier, SizeAdvantage
from shipyard.rulesets.cluster_falk.mechanisms import detection_modifier, size_advantage


def _size_figures(first: Design, other: Design, rule: SizeAdvantage, catalog: Catalog) -> tuple[Figure, Figure]:
    """Both ships get the same percent: the bigger to its Guns, Shields and most offensive
    and defensive rolls, the smaller to its defensive evasion ("the same applies in reverse")."""
    edge = size_advantage(first, other, rule)
    apart = abs(first.size - other.size)
    said = f"Size {first.size} vs {other.size}: {apart} level{'s' * (apart != 1)} apart"
    if edge.bigger is None:
        details = [f"{said}, within the {rule.free_levels} free levels: no advantage"] * 2
    else:
        beyond = (
            f"{said}, {edge.levels} beyond the {rule.free_levels} free levels: "
            f"{edge.levels} x {rule.percent_per_level}%"
        )
        offence, evasion = f"{beyond}, to {rule.applies_to}", f"{beyond}, to defensive evasion moves"
        details = [offence, evasion] if edge.bigger == "first" else [evasion, offence]
    return tuple(  # type: ignore[return-value]
        Figure(
            id=f"pair.{rule.id}",
            label=rule.name,
            value=edge.percent,
            kind="percent",
            detail=detail,
            source=catalog.cite(rule.source),
        )
        for detail in details
    )


def _detection_figure(seeker: Design, target: Design, rule: DetectionModifier, catalog: Catalog) -> Figure:
    """What the seeker adds to its Sensors roll against the target: military over civilian,
    then Tech Level."""
    sensors = (
        f"{seeker.sensors} over {target.sensors} sensors {rule.military_over_civilian:+d}%"
        if seeker.sensors != target.sensors
        else f"both {seeker.sensors} sensors +0%"
    )
    if seeker.sensors == "civilian" and target.sensors == "military":
        sensors = f"civilian against military sensors {-rule.military_over_civilian:+d}%"
    levels = seeker.tech_level - target.tech_level
    tech = f"Tech Level {seeker.tech_level} vs {target.tech_level} {levels * rule.percent_per_tech_level:+d}%"
    return Figure(
        id=f"pair.{rule.id}",
        label=f"{rule.name} modifier",
        value=detection_modifier(seeker, target, rule),
        kind="percent",
        detail=f"{sensors}, {tech}",
        source=catalog.cite(rule.source),
    )


def pair_figures(first: Design, other: Design, catalog: Catalog) -> list[tuple[Figure, Figure]]:
    """Each number of the pair seen from ``first`` and from ``other``."""
    out = []
    for size in catalog.kind("size_advantage").values():
        if isinstance(size, SizeAdvantage):
            out.append(_size_figures(first, other, size, catalog))
    for detection in catalog.kind("detection").values():
        if isinstance(detection, DetectionModifier):
            out.append(
                (
                    _detection_figure(first, other, detection, catalog),
                    _detection_figure(other, first, detection, catalog),
                )
            )
    return out
