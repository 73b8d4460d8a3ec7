"""The ship record read with the catalog's defaults: track levels, disabled systems, the
power bank, the helmsman, systems and weapons by name.

The numbers (3 levels a track, a bank of twice the Power rating ...) are parameters of
two catalog rules, ``system-tracks`` and ``power-bank``; the helpers here read them so
that the rules, the derived figures and the editor agree.
"""

from typing import Literal, TypeVar

from pydantic import Field

from shipyard.core.findings import Severity
from shipyard.core.model import Catalog, Params
from shipyard.core.suggest import normalise
from shipyard.rulesets.future_perfect.design import (
    FuturePerfectCrewMember,
    FuturePerfectShip,
    FuturePerfectSystem,
    FuturePerfectWeapon,
)


class TrackParams(Params):
    """The damage tracks: how many levels a track has unless the record says, and when a
    system is disabled."""

    default_levels: int = Field(ge=1, le=20)
    disabled_when: Literal["all-boxes", "either-track-full"] = Field(
        description="all-boxes: core + ephemeral damage fills both tracks; either-track-full: one track is full"
    )
    severity: Severity = Severity.ERROR


class PowerBankParams(Params):
    """The power bank: its capacity unless the record says, and the power made each round."""

    capacity_per_rating: int = Field(ge=0, le=20, description="bank capacity = this x the Power rating")
    generated_per_rating: int = Field(ge=0, le=20, description="power generated each round = this x the Power rating")
    generated_before_plan: bool = Field(
        description="the round's generated power is in the bank when the plan pays from it"
    )
    severity: Severity = Severity.ERROR


P = TypeVar("P", bound=Params)


def required(catalog: Catalog, params_type: type[P]) -> P:
    """The parameters of a rule the ruleset cannot do without (its numbers live nowhere else)."""
    found = catalog.params(params_type)
    if found is None:
        raise LookupError(f"the {catalog.meta.id} catalog has no rule with {params_type.__name__}")
    return found


def track_params(catalog: Catalog) -> TrackParams:
    return required(catalog, TrackParams)


def levels(catalog: Catalog, system: FuturePerfectSystem) -> tuple[int, int]:
    """(core levels, ephemeral levels) of a system: the record's, else the catalog's default."""
    default = track_params(catalog).default_levels
    return system.core_levels or default, system.ephemeral_levels or default


def is_disabled(catalog: Catalog, system: FuturePerfectSystem) -> bool:
    """A system whose damage fills its levels (as the catalog reads "fills") cannot be used."""
    core, eph = levels(catalog, system)
    if track_params(catalog).disabled_when == "either-track-full":
        return system.core_damage >= core or system.ephemeral_damage >= eph
    return system.core_damage + system.ephemeral_damage >= core + eph


def bank_capacity(catalog: Catalog, design: FuturePerfectShip) -> int:
    """The record's bank capacity, else the catalog's multiple of the Power rating."""
    if design.bank_capacity is not None:
        return design.bank_capacity
    return design.power_rating * required(catalog, PowerBankParams).capacity_per_rating


def generated(catalog: Catalog, design: FuturePerfectShip) -> int:
    """Power the ship generates each round from its Power rating."""
    return design.power_rating * required(catalog, PowerBankParams).generated_per_rating


def power_available(catalog: Catalog, design: FuturePerfectShip) -> int:
    """Power the round's plan may pay from: the bank (with this round's generated power when
    the catalog says it is made before the plan), never more than the bank holds."""
    bank = design.power_bank
    if required(catalog, PowerBankParams).generated_before_plan:
        bank += generated(catalog, design)
    return min(bank, bank_capacity(catalog, design))


def helmsman(design: FuturePerfectShip) -> FuturePerfectCrewMember | None:
    """The character at the helm whose Acuity breaks initiative ties: the first listed."""
    return next((c for c in design.crew if c.role == "helm"), None)


def find_system(design: FuturePerfectShip, name: str) -> tuple[int, FuturePerfectSystem] | None:
    key = normalise(name)
    return next(((i, s) for i, s in enumerate(design.systems) if normalise(s.name) == key), None)


def find_weapon(design: FuturePerfectShip, name: str) -> tuple[int, FuturePerfectWeapon] | None:
    key = normalise(name)
    return next(((i, w) for i, w in enumerate(design.weapons) if normalise(w.name) == key), None)


def weapon_system(design: FuturePerfectShip, weapon: FuturePerfectWeapon) -> FuturePerfectSystem | None:
    found = find_system(design, weapon.system)
    return found[1] if found else None


def unstaffed(catalog: Catalog, design: FuturePerfectShip, role_id: str) -> str:
    """Why no action of ``role_id``'s table can be taken: "no one in Tactical" ("" when
    someone holds the role). The action list and the round plan give the same reason."""
    if any(c.role == role_id for c in design.crew):
        return ""
    role = catalog.item("roles", role_id)
    return f"no one in {role.name if role is not None else role_id}"
