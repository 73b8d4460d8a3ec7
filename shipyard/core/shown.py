"""What a design shows at the table: one table of its figures and recorded state.

Every output that carries a design away from its record sheet (the card, the token and
its PNG, the Foundry VTT actor, the fleet book's entry, a text export) takes its figures
from this table, and the table is made from the design's one report and what its ruleset
declares in its manifest (``tabletop``: the health and power bars, the token's figure).
Nothing here knows a rule system: a figure is a label, the value as the sheet prints it,
the number behind it and a maximum where it has one; a state is a track with its boxes
and which are ticked, or a write-in slot (a consequence) with its text.

- ``figures``: every figure of the report (as :meth:`Figure.shown` prints it) and every
  budget line of every pool (budget, gained, spent, left);
- ``states``: every track (boxes, how many and which ticked) and every slot (its value, its text, whether it
  may be taken);
- ``health`` and ``power``: the bars the ruleset declares (``None`` when it declares none:
  a ruleset without Power shows no Power anywhere);
- ``key``: the figure a token prints beside the name.
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.manifest import Bar as BarSpec
from shipyard.core.manifest import Tabletop
from shipyard.core.report import Report, Track


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class Shown(_Row):
    """One figure as the sheet prints it."""

    id: str
    label: str
    value: str = Field(description="as printed: 'Great (+4)', '75%', '1,200'")
    number: int | float | bool | None = Field(default=None, description="the number behind it, when it is one")
    unit: str = ""
    detail: str = Field(default="", description="how the sheet explains it: '10 base, -2 for armor'")
    word: str = Field(default="", description="a ladder value's word: 'Great' for +4")
    maximum: int | None = None
    group: str = "figures"
    summary: bool = Field(default=False, description="sums up parts the sheet shows as tables or tracks")
    card: bool = Field(default=False, description="a stat card prints it")


class State(_Row):
    """One recorded state: a track's boxes and ticks, or a slot's value and text."""

    id: str
    name: str
    kind: Literal["track", "slot"]
    boxes: int = 0
    ticked: int = 0
    marks: tuple[int, ...] = Field(
        default=(),
        description="which boxes are ticked, by place (1 first): a track whose boxes carry values (a Fate "
        "stress track) may have a later box ticked and an earlier one clear, which the count does not say",
    )
    value: int | None = None
    text: str = ""
    track: str = Field(default="", description="the track a taken slot was taken on: a consequence's hull or systems")
    available: bool = True
    notes: str = ""


class Bar(_Row):
    """A bar at the table: what is left of it and its maximum (health: Structure left of its rating)."""

    id: str
    label: str
    value: int
    max: int
    min: int = 0


class Table(_Row):
    """The design's figures and recorded state, one table every output reads."""

    name: str
    figures: list[Shown] = Field(default_factory=list)
    states: list[State] = Field(default_factory=list)
    health: Bar | None = None
    power: Bar | None = None
    key: Shown | None = None

    def figure(self, fig_id: str) -> Shown | None:
        return next((f for f in self.figures if f.id == fig_id), None)

    def state(self, state_id: str) -> State | None:
        return next((s for s in self.states if s.id == state_id), None)


def _number(value: Any) -> int | float | bool | None:
    return value if isinstance(value, (int, float, bool)) else None


def _ticked(track: Track) -> int:
    return sum(1 for b in track.boxes if b.marked)


def _bar(report: Report, spec: str | BarSpec | None, bar_id: str) -> Bar | None:
    """The bar ``spec`` declares, read from the report; None when it names what the report lacks."""
    if spec is None:
        return None
    if isinstance(spec, str):
        spec = BarSpec(track=spec)
    derived = report.derived
    if spec.value is not None and spec.max is not None:
        now, most = derived.figure(spec.value), derived.figure(spec.max)
        if now is None or most is None or _number(now.value) is None or _number(most.value) is None:
            return None
        return Bar(id=bar_id, label=spec.label or now.label, value=int(now.value), max=int(most.value))
    track = derived.track(spec.track or "")
    if track is None:
        return None
    rating = derived.figure(spec.rating) if spec.rating else None
    if spec.rating and (rating is None or _number(rating.value) is None):
        return None
    # a rating below 0 (a design with an error of its own) is no bar to draw below nothing
    top = max(0, int(rating.value)) if rating is not None else len(track.boxes)
    left = top - _ticked(track)
    label = spec.label or (rating.label if rating is not None else track.name)
    return Bar(id=bar_id, label=label, value=left, max=top, min=min(0, left))


def _pool_rows(report: Report) -> list[Shown]:
    rows: list[Shown] = []
    for pool in report.pools:
        lines = [("budget", "budget", pool.budget), ("spent", "spent", pool.spent), ("left", "left", pool.remaining)]
        if pool.gained:
            lines.insert(1, ("gained", "gained", pool.gained))
        for part, word, amount in lines:
            rows.append(
                Shown(
                    id=f"{pool.id}.{part}",
                    label=f"{pool.name} {word}",
                    value=str(amount),
                    number=amount,
                    maximum=pool.budget if part == "left" else None,
                    group="budgets",
                )
            )
    return rows


def table(report: Report, tabletop: Tabletop | None) -> Table:
    """The design's table: the report's figures, pools, tracks and slots, and the declared bars."""
    summaries = tabletop.summaries if tabletop else []
    card = set(tabletop.card) if tabletop else set()
    figures = [
        Shown(
            id=f.id,
            label=f.label,
            value=f.shown(),
            number=_number(f.value),
            unit=f.unit,
            detail=f.detail,
            word=f.word,
            summary=any(f.id == s or (s.endswith(".") and f.id.startswith(s)) for s in summaries),
            card=f.id in card,
        )
        for f in report.derived.figures
    ]
    figures += _pool_rows(report)
    states = [
        State(
            id=t.id,
            name=t.name,
            kind="track",
            boxes=len(t.boxes),
            ticked=_ticked(t),
            marks=tuple(n for n, b in enumerate(t.boxes, 1) if b.marked),
            notes=t.notes,
        )
        for t in report.derived.tracks
    ]
    states += [
        State(id=s.id, name=s.name, kind="slot", value=s.value, text=s.text, track=s.track, available=s.available)
        for s in report.derived.slots
    ]
    key = None
    if tabletop is not None:
        found = next((f for f in figures if f.id == tabletop.key_figure), None)
        if found is not None and found.value:
            key = found.model_copy(update={"label": tabletop.key_label or found.label})
    return Table(
        name=report.name,
        figures=figures,
        states=states,
        health=_bar(report, tabletop.health, "health") if tabletop else None,
        power=_bar(report, tabletop.power, "power") if tabletop else None,
        key=key,
    )


def design_table(report: Report) -> Table:
    """The table of a report, with what its ruleset's manifest declares for the table."""
    from shipyard.core.registry import get

    return table(report, get(report.ruleset).manifest.tabletop)


__all__ = ["Bar", "Shown", "State", "Table", "design_table", "table"]
