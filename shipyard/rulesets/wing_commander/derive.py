"""What a fighter record shows beyond what was entered: figures, tables, tracks, actions.

The rules (``mechanisms``) have worked the numbers out; this module puts them into the
report's neutral parts. The shape of each part is documented in docs/rules-wing-commander.md.
"""

from __future__ import annotations

from typing import Any

from shipyard.core.model import Context
from shipyard.core.numberwords import count_of
from shipyard.core.pools import Line, line_items
from shipyard.core.report import Action, Box, Cell, Derived, Figure, Table, Track
from shipyard.rulesets.wing_commander.design import WCFighter, WCRange
from shipyard.rulesets.wing_commander.items import ShipAction
from shipyard.rulesets.wing_commander.mechanisms import (
    ComponentsParams,
    LinkGroup,
    MissileLaunchParams,
    MissileLoadoutParams,
    NumberedComponent,
    Resistance,
    StepModifier,
    linked_fire,
    next_load,
)


def signed(n: int) -> str:
    """A step modifier as Alternity writes it: +1, -3, and 0 without a sign."""
    return f"{n:+d}" if n else "0"


def bands(r: WCRange) -> str:
    return f"{r.short}/{r.medium}/{r.long}"


def _step(ctx: Context, applies_to: str) -> StepModifier | None:
    found = ctx.notes.get("drv-step-modifier", {}).get(applies_to)
    return found if isinstance(found, StepModifier) else None


def _skill(design: WCFighter, ctx: Context, skill_id: str | None) -> str:
    """ "Gunnery 12", or the skill's name alone when the pilot has no score in it."""
    if skill_id is None:
        return ""
    item = ctx.catalog.item("skills", skill_id)
    name = item.name if item is not None else skill_id
    score = design.pilot.skills.get(skill_id)
    return f"{name} {score}" if score is not None else name


# --- the pilot and the decoys ---------------------------------------------------------------


def _sum_text(lines: list[Line]) -> str:
    """ "1 + 1 + 1", "1 - 2 + 2": a count's parts as the sum they make."""
    out = ""
    for ln in lines:
        amount = int(ln.amount)
        minus = ln.kind == "gain"
        out += (f"-{amount}" if minus else str(amount)) if not out else (f" - {amount}" if minus else f" + {amount}")
    return out


def _counted(ctx: Context, count_id: str, detail: str, path: str) -> Figure | None:
    count = ctx.counts.get(count_id)
    if count is None:
        return None
    return Figure(
        id=count_id,
        label=count.name,
        value=count.total,
        unit=count.unit,
        detail=detail,
        source=count.source,
        path=path,
        parts=line_items(count.lines),
    )


def _pilot_figures(ctx: Context) -> list[Figure]:
    design: WCFighter = ctx.design
    # what the sheet's pilot box prints: the pilot's Dexterity and each skill's score
    figs: list[Figure] = [Figure(id="pilot.dex", label="DEX", value=design.pilot.dex, path="pilot.dex")]
    figs += [
        Figure(id=f"pilot.skill.{skill}", label=skill.capitalize(), value=score, path=f"pilot.skills.{skill}")
        for skill, score in design.pilot.skills.items()
    ]
    res = ctx.notes.get("resistance-modifier")
    if isinstance(res, Resistance):
        figs.append(
            Figure(
                id="resistance_modifier",
                label=f"{res.ability} resistance modifier",
                value=res.modifier,
                detail=f"{res.ability} {res.score}",
                source=res.source,
                path="pilot.dex",
            )
        )
    for count_id in ("free_decoys", "decoys_per_action"):
        count = ctx.counts.get(count_id)
        if count is not None:
            detail = f"{_sum_text(count.lines)}: " + "; ".join(ln.label for ln in count.lines)
            figure = _counted(ctx, count_id, detail, "pilot.dex")
            figs += [figure] if figure is not None else []
    step = _step(ctx, "action-check")
    figs.append(
        Figure(
            id="action_check",
            label="Action check",
            value=design.pilot.action_check,
            detail=f"DRV {signed(step.step)} applies as a {signed(step.step)} step modifier" if step else "",
            source=step.source if step else "",
            path="pilot.action_check",
        )
    )
    if step is not None:
        figs.append(_step_figure("action_check_step", "Action check step modifier", step, "the ship's DRV"))
    return figs


def _step_figure(figure_id: str, label: str, step: StepModifier, detail: str) -> Figure:
    """The ship's DRV as the step modifier of one kind of roll."""
    return Figure(
        id=figure_id, label=label, value=step.step, unit="steps", detail=detail, source=step.source, path="drv"
    )


# --- guns and link groups ---------------------------------------------------------------------


def _attack_step(accuracy: int, step: StepModifier | None) -> int:
    return accuracy + (step.step if step else 0)


def _guns_table(ctx: Context) -> Table:
    design: WCFighter = ctx.design
    step = _step(ctx, "gun-attacks")
    rows: list[list[Cell]] = [
        [
            g.name,
            g.count,
            signed(g.accuracy),
            g.range.short,
            g.range.medium,
            g.range.long,
            g.damage,
            g.link_group or "",
            signed(_attack_step(g.accuracy, step)),
        ]
        for g in design.guns
    ]
    skill = _skill(design, ctx, step.skill if step else None)
    return Table(
        id="guns",
        title="Guns",
        columns=["Gun", "Count", "Accuracy", "Short", "Medium", "Long", "Damage", "Link group", "Attack step"],
        rows=rows,
        notes=(f"Attack step = accuracy + the ship's DRV {signed(step.step)}" + (f"; roll {skill}" if skill else ""))
        if step
        else "",
        source=step.source if step else "",
    )


def _link_group_object(group: LinkGroup, step: StepModifier | None) -> dict[str, Any]:
    fire = linked_fire(group.fitted)
    return {
        "group": group.name,
        "guns": [{"gun": i, "name": g.name, "count": g.count} for i, g in group.entries],
        "count": group.guns,
        "accuracy": fire[0] if fire else None,
        "range": fire[1].model_dump() if fire else None,
        "attack_step": _attack_step(fire[0], step) if fire else None,
    }


def _link_groups(ctx: Context) -> tuple[list[Figure], Table]:
    design: WCFighter = ctx.design
    groups: list[LinkGroup] = ctx.notes.get("linked-guns", [])
    step = _step(ctx, "gun-attacks")
    rule = ctx.catalog.rule("linked-guns")
    source = ctx.catalog.cite(rule.params.source) if rule else ""
    figs: list[Figure] = []
    rows: list[list[Cell]] = []
    said: list[str] = []
    for n, group in enumerate(groups, 1):
        obj = _link_group_object(group, step)
        guns = " + ".join(f"{g.count} x {g.name}" for _, g in group.entries)
        if obj["range"] is None:
            text = f"{guns}: no gun fitted"
            rows.append([group.name, guns, "", "", "", "", ""])
        else:
            r = WCRange.model_validate(obj["range"])
            text = f"accuracy {signed(obj['accuracy'])}, range {bands(r)}, attack step {signed(obj['attack_step'])}"
            rows.append(
                [group.name, guns, signed(obj["accuracy"]), r.short, r.medium, r.long, signed(obj["attack_step"])]
            )
        said.append(f"{group.name}: {text}")
        figs.append(
            Figure(
                id=f"link_group.{n}",
                label=f"Link group {group.name}",
                value=obj,
                kind="text",
                detail=f"{guns}; {text}" if obj["range"] is not None else text,
                source=source,
                path=f"guns[{group.first}].link_group",
            )
        )
    summary = Figure(
        id="link_groups",
        label="Link groups",
        value="; ".join(said) if said else "none",
        kind="text",
        detail="worst accuracy and, band by band, the shortest range of the group's guns; one attack roll",
        source=source,
        path="guns" if design.guns else "",
    )
    table = Table(
        id="link_groups",
        title="Link groups",
        columns=["Group", "Guns", "Accuracy", "Short", "Medium", "Long", "Attack step"],
        rows=rows,
        notes="Linked guns: one attack roll, the worst accuracy and the shortest range of each band.",
        source=source,
    )
    return [summary, *figs], table


# --- missiles -----------------------------------------------------------------------------------


def _missiles(ctx: Context) -> tuple[list[Figure], Table, list[Track]]:
    design: WCFighter = ctx.design
    p = ctx.catalog.params(MissileLoadoutParams)
    launch_rule = ctx.catalog.params(MissileLaunchParams)
    search = p.search if p else "lower"
    source = ctx.catalog.cite(p.source) if p else ""
    unit = launch_rule.lock_time_unit if launch_rule else ""
    counts = [m.count for m in design.missiles]
    rows: list[list[Cell]] = []
    tracks: list[Track] = []
    launch = _skill(design, ctx, launch_rule.launch_skill if launch_rule else None)
    where = "lower on the list" if search == "lower" else "lower on the list, then from the top"
    launched = f"Launch with the pilot's {launch}, then the missile's score; only its DRV applies. " if launch else ""
    for i, m in enumerate(design.missiles):
        after = next_load(counts, i, search)
        then = f"{after + 1}. {design.missiles[after].name}" if after is not None else "none: select a load"
        rows.append(
            [
                i + 1,
                m.name,
                m.count,
                signed(m.drv),
                m.score,
                m.lock_time if m.lock_time else "none",
                m.damage,
                then,
            ]
        )
        tracks.append(
            Track(
                id=f"missiles.{i + 1}",
                name=f"{i + 1}. {m.name}",
                boxes=[Box(label=f"{m.name} {k}") for k in range(1, m.count + 1)],
                path=f"missiles[{i}].count",
                source=source,
                notes=f"then {then}",
            )
        )
    total = sum(max(0, c) for c in counts)  # a count below 0 is an error finding, and carries no missile
    order = ", ".join(f"{i + 1}. {m.name} x {m.count}" for i, m in enumerate(design.missiles))
    figs = [
        Figure(
            id="missiles_carried",
            label="Missiles carried",
            value=total,
            detail=order,
            source=source,
            path="missiles",
        )
    ]
    table = Table(
        id="missiles",
        title="Missile loadout",
        columns=["Load", "Missile", "Count", "DRV", "Score", f"Lock time ({unit})", "Damage", "When empty"],
        rows=rows,
        notes=launched + f"An exhausted load: the computer selects the next load {where} that still has missiles.",
        source=source,
    )
    return figs, table, tracks


# --- compartments and numbered components ------------------------------------------------------------


def _component_object(c: NumberedComponent) -> dict[str, Any]:
    return {"number": c.number, "name": c.name, "space": c.space, "counts_as": c.counts_as}


def _compartments(ctx: Context) -> tuple[list[Figure], list[Table], list[Track]]:
    design: WCFighter = ctx.design
    numbered: list[list[NumberedComponent]] = ctx.notes.get("numbered-components", [])
    p = ctx.catalog.params(ComponentsParams)
    source = ctx.catalog.cite(p.source) if p else ""
    figs: list[Figure] = []
    tables: list[Table] = []
    tracks: list[Track] = []
    for i, (compartment, components) in enumerate(zip(design.compartments, numbered, strict=True)):
        n = i + 1
        space = sum(c.space for c in components)
        counts_as = sum(c.counts_as for c in components)
        last = len(components)
        figs.append(
            Figure(
                id=f"compartment.{n}",
                label=compartment.name,
                value={
                    "compartment": compartment.name,
                    "durability": compartment.durability,
                    "space": space,
                    "counts_as": counts_as,
                    "components": [_component_object(c) for c in components],
                },
                kind="text",
                detail=f"durability {compartment.durability}; {count_of(last, 'component')}, space {space} "
                f"(counts as {counts_as} for lost systems)",
                source=source,
                path=f"compartments[{i}]",
            )
        )
        tables.append(
            Table(
                id=f"compartment.{n}",
                title=f"{compartment.name} (durability {compartment.durability})",
                columns=["No.", "Component", "Space", "Counts as"],
                rows=[[c.number, c.name, c.space, c.counts_as] for c in components],
                notes=f"Space {space}, counts as {counts_as}; the failure roll is 1-{last}." if last else "None.",
                source=source,
            )
        )
        tracks.append(
            Track(
                id=f"durability.{n}",
                name=compartment.name,
                boxes=[Box(value=k) for k in range(1, compartment.durability + 1)],
                path=f"compartments[{i}].durability",
                source=source,
                notes="mortal damage",
            )
        )
    if p is not None:
        figs.append(
            Figure(
                id="component_failures",
                label="Component failures",
                value="Mortal damage and a failed durability check: roll component numbers until the failed "
                "components' space reaches the compartment's mortal damage; a component of space 0 counts as "
                f"{p.zero_space_counts_as}; an offline component passes the failure to the next higher number"
                + (" (after the last: number 1)." if p.wraps else " (none after the last)."),
                kind="text",
                source=source,
                path="compartments",
            )
        )
    return figs, tables, tracks


# --- what the fighter may do in a round ---------------------------------------------------------------


def _actions(ctx: Context) -> list[Action]:
    design: WCFighter = ctx.design
    has = {
        "slide_system": design.slide_system,
        "turrets": design.turrets > 0,
        "afterburner": design.afterburner > 0,
        "link_groups": any(g.link_group for g in design.guns),
        "missiles": any(m.count > 0 for m in design.missiles),
    }
    out: list[Action] = []
    for item in ctx.catalog.kind("ship_actions").values():
        if not isinstance(item, ShipAction):
            continue
        allowed = item.requires is None or has[item.requires]
        out.append(
            Action(
                id=item.id,
                name=item.name,
                allowed=allowed,
                reason="" if allowed else item.lacking,
                group=item.group,
                details={"When": item.when, "Cost": item.cost},
                source=ctx.catalog.cite(item.source),
            )
        )
    return out


def derive(ctx: Context) -> Derived:
    design: WCFighter = ctx.design
    gun_step = _step(ctx, "gun-attacks")
    stat = ctx.catalog.stat("drv")
    figs = [
        Figure(
            id="drv",
            label="DRV",
            value=design.drv,
            kind="modifier",
            detail="a step modifier: negative is a bonus",
            source=ctx.catalog.cite(stat.source) if stat else "",
            path="drv",
        ),
        Figure(id="acceleration", label="Acceleration", value=design.acceleration, path="acceleration"),
        Figure(id="afterburner", label="Afterburner", value=design.afterburner, path="afterburner"),
        Figure(id="slide_system", label="Slide System", value="yes" if design.slide_system else "no", kind="text"),
        Figure(id="turrets", label="Automated turrets", value=design.turrets, path="turrets"),
        *_pilot_figures(ctx),
    ]
    if gun_step is not None:
        detail = "the ship's DRV, added to each gun's accuracy"
        figs.append(_step_figure("gun_attack_step", "Gun attack step modifier", gun_step, detail))
    link_figs, link_table = _link_groups(ctx)
    missile_figs, missile_table, missile_tracks = _missiles(ctx)
    comp_figs, comp_tables, comp_tracks = _compartments(ctx)
    return Derived(
        figures=[*figs, *link_figs, *missile_figs, *comp_figs],
        tables=[_guns_table(ctx), link_table, missile_table, *comp_tables],
        tracks=[*missile_tracks, *comp_tracks],
        actions=_actions(ctx),
    )
