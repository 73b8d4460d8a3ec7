"""Catalog item kinds of Future Perfect: the roles, the AP cost tables, system kinds, charts."""

from typing import Literal

from pydantic import Field

from shipyard.core.items import CatalogItem, Chart

RoleId = Literal["command", "helm", "tactical", "engineering"]
PlanRole = Literal["helm", "tactical", "engineering"]
SystemKindId = Literal["command", "helm", "weapon", "shield", "engineering", "sensors", "other"]


class Role(CatalogItem):
    """One of the four starship roles: what it rolls, and whether it is allocated APs."""

    skills: list[str] = Field(min_length=1, description="the skills the role's tests use, as the text names them")
    allocated: bool = Field(description="the commander allocates APs to this role (Helm, Tactical, Engineering)")
    duty: str = Field(description="what the role does in a round, as the sheet prints it")
    step: str = Field(default="", description="the step of the round the role acts in")
    quote: str = Field(default="", description="the text's sentence on what the role does, quoted by findings")


class ShipAction(CatalogItem):
    """One row of a role's AP cost table: what it costs and what it needs."""

    role: PlanRole
    ap: int = Field(ge=0, description="the AP cost the table prints")
    step: str = Field(description="the step of the round it takes place in")
    target: Literal["none", "weapon", "shield", "system"] = Field(
        default="none", description="what the plan names as its target"
    )
    grade: Literal["primary", "secondary"] | None = Field(
        default=None, description="a fire action's weapon grade: the target must be a weapon of this grade"
    )
    adds_to_fire: bool = Field(
        default=False,
        description="bought on top of a shot of the same weapon: the total is the shot's cost plus this one's",
    )
    plus: bool = Field(default=False, description='the table prints the cost with a "+" (Careful shot "+1 AP")')
    once_per_target: bool = Field(
        default=False, description="at most once a round per weapon system (a weapon's system) or shield"
    )

    uses: Literal["target", "command", "helm", "weapon", "shield", "engineering", "sensors", "other"] = Field(
        description="the system the action uses: its target's system, or the ship's systems of a kind"
    )
    notes: str = ""

    @property
    def printed_ap(self) -> int | str:
        """The cost as the AP cost table prints it: 2, or "+1"."""
        return f"+{self.ap}" if self.plus else self.ap


class SystemKind(CatalogItem):
    """A kind of ship system (helm/engines, weapon, shield ...) and the system a new ship gets."""

    new_ship: str | None = Field(default=None, description="name of the system of this kind a new ship starts with")
    shield: int | None = Field(
        default=None, ge=0, le=20, description="the Shield value a new ship's system starts with"
    )
    description: str = ""


ITEM_KINDS: dict[str, type[CatalogItem]] = {
    "roles": Role,
    "actions": ShipAction,
    "system_kinds": SystemKind,
    "charts": Chart,
}
