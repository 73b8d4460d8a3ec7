"""The Report: everything evaluation found, as plain data.

The command line prints it, ``--json`` dumps it, the editor shows it and the sheet
templates format it; none of them computes a rule themselves.

Its parts are neutral, so a template or the editor can show any ruleset's report
without knowing the system:

- figures: a number, a text, a ladder value ("Great (+4)": ``value`` 4, ``word`` Great),
  a percentage or a modifier (a step or bonus shown with its sign: "+2", "-4", "0"), each
  with how it came about (``detail``, and ``parts`` for a figure counted up from line items);
- tables: reference or derived tables of cells (a table of the design's items may name the
  column that records each row's state, ``state_column``: a damaged stunt, a disabled system);
- tracks: a named row of tick boxes (a stress track, a power bank, missiles in a load);
- slots: write-in boxes with a value (a Mild 2 consequence), available or not (and why);
- actions: what the design may or may not do, each with the reason;
- pools: budgets with what was spent from them (empty for a ruleset without pools); what
  a capability decides beyond them (the point-buy priority) is a figure.

``format`` is the version of this shape as ``check --json`` prints it; it changes when a
key scripts read goes or changes meaning (docs/templates.md, "The report's format").
"""

from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from shipyard.core.findings import Finding, Severity
from shipyard.core.pools import LineItem, PoolReport, items_at

Cell = str | int | float | None
FigureKind = Literal["number", "text", "ladder", "percent", "modifier"]


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True)


class Figure(_Part):
    """A derived value with its label, unit and how it came about."""

    id: str
    label: str
    value: Any
    unit: str = ""
    detail: str = ""
    source: str = ""
    kind: FigureKind = "number"
    word: str = Field(default="", description="a ladder value's word, e.g. 'Great' for +4")
    path: str = Field(default="", description="where in the design the value is set, for the editor's focus")
    parts: list[LineItem] = Field(default_factory=list, description="what a counted figure is made of")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def name(self) -> str:
        """The label under the name the other report parts use."""
        return self.label

    def parts_at(self, path: str) -> list[LineItem]:
        """The parts counted for one place in the design and everything inside it (``enhancements[2]``)."""
        return items_at(self.parts, path)

    def shown(self) -> str:
        """The value as a sheet prints it: "Great (+4)", "75%", "+2", "1,200", "Fighter"."""
        v = self.value
        if self.kind == "ladder" and isinstance(v, int):
            signed = f"{v:+d}"
            return f"{self.word} ({signed})" if self.word else signed
        if self.kind == "modifier" and isinstance(v, int) and not isinstance(v, bool):
            return f"{v:+d}" if v else "0"
        if self.kind == "percent" and isinstance(v, int | float):
            return f"{v:g}%"
        if isinstance(v, int) and not isinstance(v, bool):
            return f"{v:,}"
        if isinstance(v, dict | list):  # an object for JSON readers: its detail says it in words
            return self.detail
        return "" if v is None else str(v)

    def with_unit(self) -> str:
        """The value and its unit in one phrase: "35 points", "1 point", "75%", "Great (+4)";
        the unit agrees with the value (:func:`shipyard.core.numberwords.quantity`)."""
        shown = self.shown()
        if not self.unit or self.kind == "percent" or isinstance(self.value, dict | list):
            return shown
        from shipyard.core.numberwords import quantity

        one = self.value if isinstance(self.value, int | float) and not isinstance(self.value, bool) else shown
        return quantity(one, self.unit, shown)


class Table(_Part):
    id: str
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    notes: str = ""
    source: str = ""
    state_column: str = Field(
        default="",
        description="the column that records each row's state at the table ('damaged', 'disabled'), if one "
        "does: a comparison compares it row by row, each row named by its first cell",
    )


class Box(_Part):
    """One tick box of a track: its value (a stress box worth 3), a label, whether it is ticked."""

    value: int | None = None
    label: str = ""
    marked: bool = False


@lru_cache(maxsize=4096, typed=True)
def box(value: int | None = None, label: str = "", marked: bool = False) -> Box:
    """A tick box, one object for equal boxes: a Box is frozen, and a large design's tracks
    repeat the same few boxes tens of thousands of times (each reserve pilot's experience
    track holds 55), so building each once saves most of a big report's model building."""
    return Box(value=value, label=label, marked=marked)


class Track(_Part):
    """A named row of tick boxes (Structure, a stress track, a power bank, missiles in a load)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", description="the place in the design, e.g. stress.hull")
    name: str
    boxes: list[Box]
    path: str = ""
    source: str = ""
    notes: str = ""


class Slot(_Part):
    """A write-in box with a value (a Mild 2 consequence), taken on a track, maybe unavailable."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", description="the place in the design, e.g. consequences.mild")
    name: str
    value: int | None = None
    text: str = ""
    track: str = ""
    available: bool = True
    reason: str = ""
    path: str = ""
    source: str = ""


class Action(_Part):
    """Something the design may or may not do, with the reason when it may not."""

    id: str
    name: str
    allowed: bool
    reason: str = ""
    group: str = ""
    details: dict[str, Cell] = Field(default_factory=dict, description="e.g. the skill it uses, the turn part")
    source: str = ""


class Derived(_Part):
    figures: list[Figure] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list)
    tracks: list[Track] = Field(default_factory=list)
    slots: list[Slot] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)

    def figure(self, fig_id: str) -> Figure | None:
        return next((f for f in self.figures if f.id == fig_id), None)

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def track(self, track_id: str) -> Track | None:
        return next((t for t in self.tracks if t.id == track_id), None)

    def slot(self, slot_id: str) -> Slot | None:
        return next((s for s in self.slots if s.id == slot_id), None)

    def action(self, action_id: str) -> Action | None:
        return next((a for a in self.actions if a.id == action_id), None)


# The report's JSON format (``check --json``): 2 since the priority left the report's own
# keys for a figure (``priorities`` -> ``derived.figures``, id ``priority``).
REPORT_FORMAT = 2


class Report(_Part):
    format: int = REPORT_FORMAT
    ruleset: str
    ruleset_name: str
    preset: str
    preset_name: str
    name: str
    scale: str = ""
    valid: bool
    pools: list[PoolReport] = Field(default_factory=list)
    derived: Derived
    findings: list[Finding]
    catalog_overrides: list[str] = Field(default_factory=list)
    forms: list["Report"] = Field(default_factory=list)
    forms_label: str = "Form"  # the ruleset's word for a variant (RulesetMeta.variant_label)

    def pool(self, pool_id: str) -> PoolReport | None:
        return next((p for p in self.pools if p.id == pool_id), None)

    def by_severity(self, severity: Severity | str) -> list[Finding]:
        return [f for f in self.findings if f.severity == Severity(severity)]

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]


def count_figure(count_id: str, name: str, unit: str, source: str, total: int, parts: list[LineItem]) -> Figure:
    """A counted figure as the report carries it: its total and the parts it was counted from."""
    return Figure(id=count_id, label=name, value=total, unit=unit, source=source, parts=parts)


__all__ = [
    "Action",
    "Box",
    "Cell",
    "Derived",
    "Figure",
    "FigureKind",
    "Finding",
    "Report",
    "Slot",
    "Table",
    "Track",
    "box",
    "count_figure",
]
