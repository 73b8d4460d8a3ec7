"""Catalog item kinds of the Wing Commander house rules: the tables and the play reference."""

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from shipyard.core.items import CatalogItem


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ScoreRow(_Part):
    """One row of a score table: the scores ``low`` to ``high`` give ``modifier``
    (``low`` left out: "or less"; ``high`` left out: "or more")."""

    low: int | None = None
    high: int | None = None
    modifier: int = Field(ge=-20, le=20)


class ScoreTable(CatalogItem):
    """A table from an ability score to a modifier (Alternity's resistance modifier).

    The rows run upward without gaps or overlaps, so every score has exactly one row: a
    score below the first row takes the first row's modifier, one above the last the last's.
    """

    ability: str = Field(min_length=1, description="the ability the table is read for, e.g. DEX")
    rows: list[ScoreRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _rows_run_upward_without_gaps(self) -> Self:
        for i, row in enumerate(self.rows):
            if row.low is not None and row.high is not None and row.low > row.high:
                raise ValueError(f"row {i + 1}: low {row.low} is above high {row.high}")
            if i == 0:
                continue
            prev = self.rows[i - 1]
            if prev.high is None or row.low is None or row.low != prev.high + 1:
                raise ValueError(
                    f"row {i + 1} must start right after row {i} "
                    f"(low {'' if prev.high is None else prev.high + 1}): no gaps or overlaps"
                )
        return self

    def row_for(self, score: int) -> ScoreRow:
        for row in self.rows:
            if (row.low is None or score >= row.low) and (row.high is None or score <= row.high):
                return row
        first = self.rows[0]
        return first if first.low is not None and score < first.low else self.rows[-1]

    def modifier(self, score: int) -> int:
        return self.row_for(score).modifier


class Skill(CatalogItem):
    """A pilot's skill the record names (piloting, gunnery) and what the rules use it for."""

    alternity: str = Field(min_length=1, description="the Alternity skill it stands for")
    used_for: str = ""


class Maneuver(CatalogItem):
    """A maneuver difficulty: whether it needs a check, and its step penalty."""

    check: str = Field(description="when a check is rolled, as the text says")
    step: int = Field(ge=0, le=20, description="the step penalty to the piloting check")
    notes: str = ""


class AltitudeChange(_Part):
    levels: int = Field(ge=1, le=20)
    maneuver: str = Field(description="the maneuvers entry it takes")


class AltitudeField(CatalogItem):
    """The field of play's altitude levels: how far guns reach, what a change costs."""

    levels: int = Field(ge=1, le=20)
    gun_reach: int = Field(ge=0, le=20, description="levels above or below the attacker a gun can shoot")
    changes: list[AltitudeChange] = Field(min_length=1)
    any_level: str = Field(description="the maneuver that may end on any level")
    missiles: str = ""


class Reference(CatalogItem):
    """One play rule of the text, printed on the sheet and in the fleet book."""

    group: str = Field(min_length=1, description="the heading it is printed under")
    text: str = Field(min_length=1)


class ShipAction(CatalogItem):
    """Something a fighter may do in a round, what it costs, and what it needs."""

    group: str = Field(min_length=1)
    when: str = ""
    cost: str = ""
    requires: Literal["slide_system", "turrets", "afterburner", "link_groups", "missiles"] | None = Field(
        default=None, description="the equipment the ship needs for it"
    )
    lacking: str = Field(default="", description="why a ship without that equipment may not")


ITEM_KINDS: dict[str, type[CatalogItem]] = {
    "score_tables": ScoreTable,
    "skills": Skill,
    "maneuvers": Maneuver,
    "altitude": AltitudeField,
    "reference": Reference,
    "ship_actions": ShipAction,
}
