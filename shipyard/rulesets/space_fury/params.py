"""The parameters each Space Fury rule type takes from ``rules.yaml``.

They are apart from the mechanisms because the figures, the random builds and the
editor read them too (which table a fighter buys from, what replaces the basic Laser,
the first skill): the catalog's numbers, never a copy in code.
"""

from pydantic import Field

from shipyard.core.findings import Severity
from shipyard.core.items import ID_PATTERN
from shipyard.core.rules import Params


class CountParams(Params):
    count: str = Field(pattern=ID_PATTERN, description="the count (an entry of counts) the rule adds to or reads")


class TablesParams(Params):
    primary: str = Field(description="the table a fighter buys from; its table rows open the sub-tables")


class BasicWeaponParams(Params):
    count: str = Field(pattern=ID_PATTERN, description="the count a replacement is credited in")
    replace_table: str = Field(description="the table a replacing gun comes from")
    replace_tag: str = Field(description="the weapon tag a replacing weapon has")
    replace_credit: int | None = Field(ge=0, description="enhancements credited; null: no replacement")
    max_replacements: int = Field(default=1, ge=0)


class MountsParams(Params):
    empty_severity: Severity = Severity.WARNING


class CountCostParams(Params):
    table: str = Field(description="the cost table (cost_tables id)")
    of: str = Field(pattern=ID_PATTERN, description="the count whose total is looked up")
    count: str = Field(pattern=ID_PATTERN, description="the count the cost is counted in")


class PilotLevelParams(Params):
    pass


class PilotSkillsParams(Params):
    first_skill: str = Field(description="the skill every pilot has first")
    on_fighter: dict[str, str] = Field(
        default_factory=dict, description="pilot trait -> the fighter figure it acts on in play"
    )


class PilotQuirksParams(Params):
    check_die: int = Field(ge=2, description="the die rolled at each level for a quirk")
    check_on: int = Field(ge=1, description="the roll on it that gives a quirk")
    table_die: int = Field(ge=2, description="the die of the Quirk Table")
    per_level: int = Field(default=1, ge=0)
