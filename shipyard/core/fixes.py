"""Proposals that make a design legal: concrete edits, the fewest changes first.

The search is a mechanism over the design's own shape and the engine's report, not
per-rule code. Every number in the design (within the range its model or catalog stat
gives), every switch, and every list entry is a place a change could be made; each
change is one operation of :mod:`shipyard.core.edits` (set a value, remove an entry),
tried by evaluating the design it gives. A proposal is kept only when it cures an error
and introduces none; proposals that make the design pass come first, then by the number
of changes. Changes are combined (up to three) from the single changes that help most.

A number is tried a step down (and a step up where an error points); a step that does
not cure, and harms nothing, is carried further toward the end of the number's range:
the distance doubled until a value cures an error, then halved back to the nearest value
that does, and on from there while errors are left. A cure often lies more than a step
away (the points a pool is over are paid back by several steps of one number), and a
search of steps alone proposed two changes where one would do, or none at all; trying
every value of every range would cost the budget a large design cannot spare. Where the
rules' cost grows with the number, the value found is the nearest cure; elsewhere it is
a cure, not always the nearest. A combination holding such a number is brought back, each
number to the nearest value with which the others' changes still cure what it cures.

A ruleset may steer the search: ``FIX_NEVER`` (path prefixes the search must not touch,
e.g. the Storyteller's budget settings: raising a budget is not a fix) and
``fix_hints(design, report, catalog)`` (further changes worth trying, each one ``(path,
value)`` or a list of them made together, where a search over numbers and entries is not
enough: a Scale raised to where a consequence slot exists, a role's allocation raised
with the AP taken from the bid). The user may keep paths too.

Every change is said in words a player uses ("lower Speed from 1 to 0", "drop Medium
Laser from Weapons"), and so is what it does ("Hull Points: 1 left (was 4 over)").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from shipyard.core.edits import apply_all
from shipyard.core.errors import InputError
from shipyard.core.evaluate import Verdict, evaluate, verdict, verdict_of
from shipyard.core.findings import Finding, Severity
from shipyard.core.hookspec import optional
from shipyard.core.model import Catalog
from shipyard.core.paths import parse_path, value_at
from shipyard.core.places import place
from shipyard.core.placewords import entry_name
from shipyard.core.report import Report
from shipyard.core.schema import Spec, design_schema

MAX_CHANGES = 3
BEAM = 6
# The search budget: designs tried, times the design's size in bytes of JSON, at most this
# (and never fewer than MIN_TRIES designs). Each try applies the changes and judges the
# design, both in time growing with its size, and every number and entry is a candidate:
# without a budget a search grew with the square of the design, in time and in memory. The
# sample designs get more tries than their whole search needs; the largest design a
# ruleset's limits allow gets a few, the single changes at an error's place first.
# A budget of work, not of seconds: ``check --suggest`` and ``fix --apply N`` must find
# the same proposals on any machine, under any load.
WORK_BUDGET = 250_000
MIN_TRIES = 1  # a design of 250 KB or more (a design file may be 2 MB) gets one try
# How far a number is carried past its step where neither its model nor its catalog stat
# bounds it (a crew, a count): far enough for any figure a design holds, and the distance
# doubles, so reaching it costs a handful of tries.
FAR = 1024


@dataclass(frozen=True)
class Edit:
    """One operation: ``set`` a value at ``path`` or ``remove`` the list entry at ``path``."""

    op: str
    path: str
    value: Any = None
    before: Any = field(default=None, compare=False)
    text: str = field(default="", compare=False)
    # How to say it, when ``text`` is not said yet: naming a place in the form's words
    # costs more than trying most changes, and a search on a large design tries few of the
    # thousands of changes it finds, so only the changes it proposes are put in words.
    wording: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    # A number's step: the farthest value the search may carry it to in the step's
    # direction (the end of its range); None for every other change.
    reach: int | None = field(default=None, compare=False, repr=False)

    @property
    def worded(self) -> Edit:
        """This edit with its ``text`` said."""
        return self if self.wording is None else replace(self, text=self.wording(), wording=None)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.op, self.path, json.dumps(self.value, sort_keys=True))

    def as_json(self) -> dict[str, Any]:
        return {"op": self.op, "path": self.path, "value": self.value, "before": self.before, "text": self.text}


@dataclass
class Proposal:
    edits: list[Edit]
    cures: list[str]  # the error codes it cures
    effects: list[str]  # "Crew Points: 2 over (was 4 over)"
    passes: bool
    design: Any = field(repr=False, default=None)
    # the error findings of the design it cures, by (code, path): what a "Fix..." beside
    # one finding offers. (A removal renumbers the entries after it; a finding there is
    # taken as the same place only when its path is unchanged.)
    cured: list[tuple[str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "; ".join(e.text for e in self.edits)

    def cures_finding(self, finding: Finding) -> bool:
        return (finding.code, finding.path) in self.cured

    def as_json(self) -> dict[str, Any]:
        return {
            "changes": [e.as_json() for e in self.edits],
            "text": self.text,
            "cures": self.cures,
            "effects": self.effects,
            "passes": self.passes,
        }


class Proposals(list[Proposal]):
    """The proposals of one search; ``exhausted`` when its budget ran out before it had
    tried everything (then these are the best it found, and there may be others)."""

    exhausted: bool = False


# A try the search may combine further: how far from passing it leaves the design
# (``_badness``), its changes, and what is still wrong (``_wrong``).
Tried = tuple[tuple[int, int], tuple[Edit, ...], tuple[Any, ...]]


def _wrong(v: Verdict) -> tuple[Any, ...]:
    """What is still wrong after a try: the errors left, by code, and the pools still over."""
    return (tuple(sorted(v.errors.items())), tuple(sorted(p for p, left in v.remaining.items() if left < 0)))


def _beam(ranked: list[Tried], start: Verdict) -> list[tuple[Edit, ...]]:
    """The ``BEAM`` tries of ``ranked`` (best first) to combine further: the best of each
    cure (each different thing left wrong, other than what is wrong with the design at
    ``start``) first, then the best of the rest, one of each set of places (the first, the
    nearest of equals). Of a design with two errors, many single changes may cure the one
    and few the other: the best alone would be the many, and no pair of them cures both.
    And a number carried past its step is tried at several values, two of which never
    combine."""
    before = _wrong(start)
    chosen: list[int] = []
    places: set[tuple[str, ...]] = set()
    for distinct in (True, False):
        wrongs: set[tuple[Any, ...]] = set()
        for i, (_, edits, wrong) in enumerate(ranked):
            where = tuple(e.path for e in edits)
            if len(chosen) == BEAM or where in places or (distinct and (wrong in wrongs or wrong == before)):
                continue
            places.add(where)
            wrongs.add(wrong)
            chosen.append(i)
    return [ranked[i][1] for i in sorted(chosen)]


def _badness(v: Verdict) -> tuple[int, int]:
    """How far a design is from passing: its errors, then the points its pools are over."""
    return (sum(v.errors.values()), sum(max(0, -left) for left in v.remaining.values()))


def _schema(catalog: Catalog) -> Spec:
    if catalog.form_schema is not None:
        return catalog.form_schema
    return catalog.memo("design-schema", lambda: design_schema(catalog.module.Design))


def _label(path: str, catalog: Catalog, data: Any) -> str:
    """A place as a user reads it: the form's label (else the stat's name, else plain words)."""
    return place(path, catalog, data) or path


def _entry_words(where: str, catalog: Catalog, data: Any) -> tuple[str, str]:
    """A list entry as a user reads it: (its name, the list's name), "Medium Laser", "Weapons"."""
    named = place(where, catalog, data)
    parent = where[: where.rindex("[")]
    listed = place(parent, catalog, data)
    if listed and named.startswith(f"{listed}, "):
        return named[len(listed) + 2 :], listed
    entry = value_at(data, where)
    name = entry_name(entry, catalog) if isinstance(entry, dict | str) else str(entry)  # an id: its item's name
    return name or named, listed


def moved(label: str, before: Any, after: Any) -> str:
    """A number changed, in words: "lower Speed from 1 to 0", "raise Scale from 3 to 6"."""
    verb = "lower" if after < before else "raise"
    return f"{verb} {label} from {before} to {after}"


def _stat_range(path: str, catalog: Catalog) -> tuple[float | None, float | None]:
    stat = next((s for s in catalog.meta.stats if s.path == path), None)
    return (stat.min, stat.max) if stat is not None else (None, None)


def candidates(design: Any, report: Report, catalog: Catalog, keep: set[str]) -> list[Edit]:
    """Every single change worth trying first: numbers a step down or up, switches flipped,
    entries removed, each in words (the search carries a step further when it helps)."""
    return [e.worded for e in unworded_candidates(design, report, catalog, keep)]


def _switched(path: str, node: bool, catalog: Catalog, data: Any) -> str:
    return f"{'turn off' if node else 'turn on'} {_label(path, catalog, data)}"


def _moved_at(path: str, before: Any, after: Any, catalog: Catalog, data: Any) -> str:
    return moved(_label(path, catalog, data), before, after)


def _dropped(where: str, catalog: Catalog, data: Any) -> str:
    name, listed = _entry_words(where, catalog, data)
    return f"drop {name} from {listed}" if listed else f"drop {name}"


def number_edit(path: str, before: int, after: int, catalog: Catalog, data: Any, reach: int | None = None) -> Edit:
    """A number of the design (``data``: its JSON) set to ``after``, its words said when proposed."""
    return Edit("set", path, after, before, reach=reach, wording=partial(_moved_at, path, before, after, catalog, data))


def unworded_candidates(design: Any, report: Report, catalog: Catalog, keep: set[str], data: Any = None) -> list[Edit]:
    """:func:`candidates` with their words left to say (``Edit.worded``) when one is proposed;
    ``data``: the design's JSON, when the caller has it."""
    never = tuple(optional(catalog.module, "FIX_NEVER")) + tuple(keep)
    data = design.model_dump(mode="json") if data is None else data
    out: list[Edit] = []
    # Raising a number seldom cures anything but a finding about that number (a crew too
    # small for its ship): it is tried only where an error points.
    at_fault = {f.path for f in report.findings if f.severity == Severity.ERROR and f.path}

    def faulty(path: str) -> bool:
        return any(p == path or p.startswith((path + ".", path + "[")) for p in at_fault)

    def blocked(path: str) -> bool:
        return any(path == p or path.startswith((p + ".", p + "[")) for p in never)

    def walk(node: Any, spec: Spec | None, path: str) -> None:
        if spec is None or blocked(path):
            return
        if isinstance(node, bool):
            out.append(Edit("set", path, not node, node, wording=partial(_switched, path, node, catalog, data)))
        elif isinstance(node, int) and spec.type == "integer":
            stat_low, stat_high = _stat_range(path, catalog)  # the tighter of the stat's and the model's bounds
            low = max((b for b in (stat_low, spec.minimum) if b is not None), default=None)
            high = min((b for b in (stat_high, spec.maximum) if b is not None), default=None)
            # a step, with how far the search may carry it: the end of the range, else FAR
            tries: list[tuple[int, int | None]] = []
            if low is None or node - 1 >= low:
                tries.append((node - 1, node - FAR if low is None else max(int(low), node - FAR)))
            if (high is None or node + 1 <= high) and faulty(path):
                tries.append((node + 1, node + FAR if high is None else min(int(high), node + FAR)))
            if low is not None and node < low:
                tries.append((int(low), None))
            if high is not None and node > high:
                tries.append((int(high), None))
            for after, reach in tries:
                out.append(number_edit(path, node, after, catalog, data, reach))
        elif isinstance(node, list):
            for i, entry in enumerate(node):
                where = f"{path}[{i}]"
                if blocked(where):
                    continue
                out.append(Edit("remove", where, None, entry, wording=partial(_dropped, where, catalog, data)))
                walk(entry, spec.item, where)
        elif isinstance(node, dict):
            for key, value in node.items():
                child = spec.item if spec.type == "map" else spec.fields.get(key)
                walk(value, child, f"{path}.{key}" if path else key)

    walk(data, _schema(catalog), "")
    return out


def near_fault(report: Report) -> Callable[[str], bool]:
    """Whether a place is at, inside or around the place of an error of ``report``."""
    places = [f.path for f in report.findings if f.severity == Severity.ERROR and f.path]

    def near(path: str) -> bool:
        return any(
            p == path or p.startswith((path + ".", path + "[")) or path.startswith((p + ".", p + "[")) for p in places
        )

    return near


def at_fault_first(edits: list[Edit], report: Report) -> list[Edit]:
    """``edits``, those at, inside or around the place of an error first (otherwise in order):
    what a search that cannot try every change tries first."""
    near = near_fault(report)
    return sorted(edits, key=lambda e: not near(e.path))


def hinted(design: Any, report: Report, catalog: Catalog, keep: set[str]) -> list[tuple[Edit, ...]]:
    """The ruleset's own ideas (``fix_hints``): each a change worth trying, one ``(path,
    value)`` or several made together (a role's allocation raised with the AP it takes
    from the bid), where a search of one value at a time cannot reach the cure."""
    hints = optional(catalog.module, "fix_hints")
    never = tuple(optional(catalog.module, "FIX_NEVER")) + tuple(keep)
    data = design.model_dump(mode="json")
    out: list[tuple[Edit, ...]] = []
    for hint in hints(design, report, catalog):
        changes = [hint] if isinstance(hint, tuple) else list(hint)
        if any(path == p or path.startswith((p + ".", p + "[")) for path, _ in changes for p in never):
            continue
        out.append(
            tuple(
                Edit("set", path, value, value_at(data, path), _hint_text(path, value, catalog, data))
                for path, value in changes
            )
        )
    return out


def _hint_text(path: str, value: Any, catalog: Catalog, data: Any) -> str:
    """A ruleset's hinted change in words: a number moved, an optional part left out, a value set."""
    label = _label(path, catalog, data)
    before = value_at(data, path)
    if isinstance(value, int) and isinstance(before, int) and not isinstance(value | before, bool):
        return moved(label, before, value)
    if value is None:  # an optional part the form shows as a check box ("Extreme consequence taken")
        return f"untick {label}" if isinstance(before, dict) else f"clear {label}"
    return f"set {label} to {value}"


def apply(design: Any, edits: list[Edit], catalog: Catalog, *, resolve: bool = True) -> Any:
    """The design with ``edits`` made, as one operation of :mod:`shipyard.core.edits`:
    values set first, then entries removed from the last one up (so that the paths of
    the other entries still point where they did)."""
    sets = [(e.path, e.value) for e in edits if e.op == "set"]
    removes = []
    for e in sorted((e for e in edits if e.op == "remove"), key=lambda e: parse_path(e.path), reverse=True):
        index = parse_path(e.path)[-1]
        assert isinstance(index, int)
        removes.append((e.path[: e.path.rindex("[")], index))
    return apply_all(design, sets, removes, catalog, resolve=resolve)


def _compatible(edits: list[Edit]) -> bool:
    """No two edits of one place, and none inside an entry that another removes."""
    paths = [e.path for e in edits]
    for i, a in enumerate(paths):
        for b in paths[i + 1 :]:
            if a == b or b.startswith((a + ".", a + "[")) or a.startswith((b + ".", b + "[")):
                return False
    return True


def _left(remaining: int | float) -> str:
    """What is left of a pool in words: "1 left", "4 over"."""
    return f"{-remaining:g} over" if remaining < 0 else f"{remaining:g} left"


def _errors(n: int) -> str:
    return "no errors" if n == 0 else f"{n} error{'s' * (n != 1)}"


def _effects(before: Report, after: Report) -> list[str]:
    """What a proposal does to the pools and the errors, as a player says it:
    "Hull Points: 1 left (was 4 over)", "no errors left (was 1)"."""
    out = []
    for p in before.pools:
        q = after.pool(p.id)
        if q is not None and q.remaining != p.remaining:
            out.append(f"{p.name}: {_left(q.remaining)} (was {_left(p.remaining)})")
    eb = sum(1 for f in before.findings if f.severity == Severity.ERROR)
    ea = sum(1 for f in after.findings if f.severity == Severity.ERROR)
    if eb != ea:
        out.append(f"{_errors(ea)} left (was {eb})")
    return out


def propose(
    design: Any,
    catalog: Catalog,
    *,
    keep: set[str] | frozenset[str] = frozenset(),
    limit: int = 5,
    report: Report | None = None,
) -> list[Proposal]:
    """Up to ``limit`` proposals that cure errors of ``design`` without adding one; those that
    make the design pass first, then the fewest changes, then the most errors cured.

    The search judges each try by the rules' verdict alone (errors and pools); only the
    proposals kept are evaluated whole, for their effects. ``report``: the design's report
    (its findings' errors are the rules') when the caller has it already (on a large design, a second costs seconds)."""
    steps = search(design, catalog, keep=keep, limit=limit, report=report)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def search(
    design: Any,
    catalog: Catalog,
    *,
    keep: set[str] | frozenset[str] = frozenset(),
    limit: int = 5,
    report: Report | None = None,
) -> Generator[None, None, list[Proposal]]:
    """:func:`propose` a step at a time: it yields after each design it evaluates (one
    evaluation, a millisecond or so) and returns the proposals, so that a front end can run
    the search in slices between a user's edits without a freeze."""
    report = evaluate(design, catalog) if report is None else report
    start = verdict_of(report)
    errors = start.errors
    if not errors:
        return []
    # Only verdicts are kept of the designs tried (a design of the largest size is large in
    # memory, and a search tries many); the few proposals kept are made again at the end.
    tried: dict[tuple[tuple[str, str, str], ...], Verdict | None] = {}
    data = design.model_dump(mode="json")
    budget = max(MIN_TRIES, WORK_BUDGET // max(1, len(json.dumps(data))))

    def attempt(edits: tuple[Edit, ...]) -> Verdict | None:
        key = tuple(e.key for e in edits)
        if key not in tried:
            try:  # numbers and removals only: the names stay resolved
                new = apply(design, list(edits), catalog, resolve=False)
            except InputError:
                tried[key] = None
            else:
                tried[key] = verdict(new, catalog)
        return tried[key]

    def spent() -> bool:
        return len(tried) >= budget

    def no_new_error(v: Verdict) -> bool:
        return all(v.errors[c] <= errors[c] for c in v.errors)

    def errors_left(v: Verdict) -> int:
        return sum(v.errors.values())

    found: list[tuple[tuple[Edit, ...], Verdict]] = []
    progress: list[Tried] = []
    far: set[tuple[str, str, str]] = set()  # the numbers carried past their step

    def enough() -> bool:
        """As many proposals that pass as are wanted, of the fewest changes tried yet."""
        return sum(1 for f in found if f[1].valid) >= limit

    def judged(edits: tuple[Edit, ...], *, proposed: bool = True) -> Generator[None, None, Verdict | None]:
        """The verdict of a try, kept as a proposal when it cures an error and adds none
        (when ``proposed``), and as a start for combinations when it brings the design
        nearer to passing."""
        v = attempt(edits)
        yield
        if v is not None and no_new_error(v):
            if proposed and v.errors != errors:
                found.append((edits, v))
            if _badness(v) < _badness(start):
                progress.append((_badness(v), edits, _wrong(v)))
        return v

    def carried(step: Edit, first: Verdict) -> Generator[None, None, None]:
        """A number carried past its ``step`` toward the step's reach: the distance doubled
        until a value leaves fewer errors, then halved back to the nearest such value (the
        nearest where the rules' cost grows with the number), and on while errors are left.
        It stops where a value adds an error or moves the design further from passing:
        beyond it, the number is likely going the wrong way. Only the nearest value of each
        cure is proposed: a value further on that cures the same says it with a larger change."""
        assert step.reach is not None
        before, sign, reach = step.before, (1 if step.value > step.before else -1), abs(step.reach - step.before)

        def moved(distance: int) -> tuple[Edit]:
            edit = number_edit(step.path, before, before + sign * distance, catalog, data)
            far.add(edit.key)
            return (edit,)

        def at(distance: int) -> Generator[None, None, Verdict | None]:
            return (yield from judged(moved(distance), proposed=False))

        near, last, level = 1, first, errors_left(first)
        while level and near < reach and not spent():
            distance = min(2 * near, reach)
            v = yield from at(distance)
            if v is None or not no_new_error(v) or _badness(v) > _badness(last):
                return
            if errors_left(v) < level:  # a cure within (near, distance]: halved back to the nearest
                low, high, cure = near, distance, v
                while high - low > 1 and not spent():
                    middle = (low + high) // 2
                    m = yield from at(middle)
                    if m is not None and no_new_error(m) and errors_left(m) < level:
                        high, cure = middle, m
                    else:
                        low = middle
                distance, v, level = high, cure, errors_left(cure)
                found.append((moved(distance), cure))
            near, last = distance, v

    def carry(steps: list[tuple[Edit, Verdict]]) -> Generator[None, None, None]:
        for step, v in sorted(steps, key=lambda s: _badness(s[1])):  # those that helped most first
            if spent() or enough():
                break
            yield from carried(step, v)

    def tightened(edits: tuple[Edit, ...], v: Verdict) -> Generator[None, None, tuple[tuple[Edit, ...], Verdict]]:
        """A combination with each number in it that was carried past its step brought back
        to the nearest value with which the combination still cures what it cures: a number
        carried alone as far as it helped may go further than the other changes leave needed."""
        for i, e in enumerate(edits):
            if e.key not in far:
                continue
            sign = 1 if e.value > e.before else -1
            low, high = 0, abs(e.value - e.before)  # at 0 the number is as it was
            while high - low > 1 and not spent():
                middle = (low + high) // 2
                nearer = number_edit(e.path, e.before, e.before + sign * middle, catalog, data)
                trial = (*edits[:i], nearer, *edits[i + 1 :])
                m = attempt(trial)
                yield
                if m is not None and no_new_error(m) and all(m.errors[c] <= v.errors[c] for c in m.errors):
                    high, edits, v = middle, trial, m
                else:
                    low = middle
        return edits, v

    singles = unworded_candidates(design, report, catalog, set(keep), data)
    if len(singles) > budget:  # not all can be tried: those at an error's place first
        singles = at_fault_first(singles, report)
    # The numbers' steps that harm nothing are carried further: before any combination those
    # that brought the design nearer to passing, or that are at an error's place (a cost may
    # rise every few steps of a number: a step that changes nothing may still lead to a
    # cure); the others' steps changed nothing of what is wrong, and they are carried last.
    helped: list[tuple[Edit, Verdict]] = []
    idle: list[tuple[Edit, Verdict]] = []
    near = near_fault(report)
    for tried_edits in [(e,) for e in singles] + hinted(design, report, catalog, set(keep)):
        if spent():
            break
        v = yield from judged(tried_edits)
        step = tried_edits[0]
        if v is not None and step.reach is not None and no_new_error(v) and _badness(v) <= _badness(start):
            (helped if _badness(v) < _badness(start) or near(step.path) else idle).append((step, v))
    yield from carry(helped)
    progress.sort(key=lambda p: p[0])
    frontier = _beam(progress, start)
    best_singles = [edits[0] for edits in frontier if len(edits) == 1]
    for _ in range(MAX_CHANGES - 1):
        if enough():
            break
        grown: list[Tried] = []
        for edits in frontier:
            for e in best_singles:
                if any(e.key == x.key for x in edits):
                    continue
                combined = tuple(sorted((*edits, e), key=lambda x: x.path))
                if tuple(x.key for x in combined) in tried or not _compatible(list(combined)):
                    continue
                if spent():
                    break
                v = attempt(combined)
                yield
                if v is None:
                    continue
                if no_new_error(v) and v.errors != errors:
                    found.append((combined, v))
                if no_new_error(v):
                    grown.append((_badness(v), combined, _wrong(v)))
        grown.sort(key=lambda g: g[0])
        frontier = _beam(grown, start)
    yield from carry(idle)
    ranked = Proposals()
    ranked.exhausted = spent()
    seen: list[Any] = []
    for edits, v in sorted(found, key=lambda f: (not f[1].valid, len(f[0]), _badness(f[1])))[: 3 * limit]:
        if len(edits) > 1:
            edits, v = yield from tightened(edits, v)
        new = apply(design, list(edits), catalog)  # resolved, as every edit of the design is
        if any(new == s for s in seen):
            continue
        keys = {e.key for e in edits}
        if any(p.passes and {e.key for e in p.edits} < keys for p in ranked):
            continue  # a passing proposal with some of these changes already says it with fewer
        seen.append(new)
        after = evaluate(new, catalog)
        yield
        cured = sorted(set((errors - v.errors).elements()))
        left = {(f.code, f.path) for f in after.findings if f.severity == Severity.ERROR}
        places = [(f.code, f.path) for f in report.findings if f.severity == Severity.ERROR]
        gone = list(dict.fromkeys(k for k in places if k not in left))
        ranked.append(Proposal([e.worded for e in edits], cured, _effects(report, after), after.valid, new, gone))
        if len(ranked) >= limit:
            break
    return ranked
