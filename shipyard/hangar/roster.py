"""Rosters: a force built from designs, with a points limit, kept in a ``.roster`` YAML file.

A roster names its members' design files by path relative to its own folder (never outside
it) and keeps each one's content hash and key figures as it last saw them, so a design
changed since is shown with what changed ("Structure 10 -> 12"), and a moved file is found
again by its hash (in the hangar's index, or the roster's folder) and offered for
relinking. A missing file is named and the roster still opens. The roster file is written
only by a command that changes it (``roster add``, ``remove``, ``limit``, ``check --relink``).

Totals count each member's cost (:func:`shipyard.hangar.facts.cost_of`) times its count,
in the ruleset's own currency; a ruleset without costs counts designs. Each ruleset's
composition rules (what a force may hold, in its catalog) are judged over its own members
by the core's one function (:func:`shipyard.core.composition.judge`), with the roster's
limit, its allowances and the preset (house rules) it names for that ruleset.
"""

import io
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from shipyard.core.designtypes import not_blank
from shipyard.core.errors import InputError, Problem
from shipyard.core.findings import Finding, FindingSink, Severity
from shipyard.hangar import ROSTER_EXTENSION
from shipyard.hangar.facts import COUNT_UNIT, Facts, changed_figures, shown_number

EXTENSION = ROSTER_EXTENSION
FORMAT = 1
MAX_ROSTER_BYTES = 1024 * 1024
MAX_COUNT = 999
COUNT_ALLOWED = f"a whole number from 1 to {MAX_COUNT}, without quotes"

Text = Annotated[str, Field(max_length=2000)]


class Member(BaseModel):
    """One entry of a roster: a design file, how many of it, and who flies it."""

    model_config = ConfigDict(extra="forbid")

    file: Annotated[str, Field(min_length=1, max_length=1000)] = Field(
        description="the design file, relative to the roster's folder (inside it)"
    )
    hash: Annotated[str, Field(pattern=r"^([0-9a-f]{64})?$")] = Field(
        default="", description="the design file's SHA-256 when the roster last saw it"
    )
    count: Annotated[int, Field(ge=1, le=MAX_COUNT)] = Field(default=1, description=f"how many: 1 to {MAX_COUNT}")
    callsign: Annotated[str, Field(max_length=80)] = ""
    crew: Annotated[str, Field(max_length=200)] = Field(default="", description="the pilot or crew")
    notes: Text = ""
    seen: dict[Annotated[str, Field(max_length=200)], float] = Field(
        default_factory=dict, description="the design's key figures when the roster last saw it"
    )


def ship_names(member: Member, name: str) -> list[str]:
    """What each ship of ``member`` is called at the table, the one naming of ``roster
    export`` (its Foundry actors) and ``roster print`` (its sheets and cards): the
    member's callsign, else its design's ``name`` (its file's, for a design without one),
    numbered from 1 when the member counts more than one ("Viper 1", "Viper 2")."""
    base = member.callsign or name or Path(member.file).stem
    return [f"{base} {n}" for n in range(1, member.count + 1)] if member.count > 1 else [base]


def ship_titles(member: Member, name: str) -> list[str]:
    """Each ship's title on a printed roster: its name (:func:`ship_names`), and after a
    callsign the design's ``name`` still, so the sheet says what the ship is ("Clear One —
    Sentinel Corvette"); a ship named by its design's name needs it once."""
    if not name or not member.callsign or member.callsign == name:
        return ship_names(member, name)
    return [f"{ship} — {name}" for ship in ship_names(member, name)]


class Roster(BaseModel):
    """A ``.roster`` file."""

    model_config = ConfigDict(extra="forbid")

    format_version: Literal[1] = 1
    name: Annotated[str, Field(min_length=1, max_length=200), AfterValidator(not_blank)]
    rulesets: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(
        default_factory=list, max_length=20, description="the rulesets its members may use; empty: the first's"
    )
    limit: Annotated[int, Field(ge=1, le=1_000_000_000)] | None = Field(
        default=None, description="the points limit, in the rulesets' own currency (or a count of designs)"
    )
    members: list[Member] = Field(default_factory=list, max_length=1000)
    notes: Text = ""
    presets: dict[Annotated[str, Field(min_length=1, max_length=80)], Annotated[str, Field(max_length=80)]] = Field(
        default_factory=dict,
        max_length=20,
        description="ruleset id -> the preset (house rules) its composition rules follow; unset: its default",
    )
    allowances: dict[
        Annotated[str, Field(min_length=1, max_length=80)], Annotated[int, Field(ge=0, le=1_000_000_000)]
    ] = Field(
        default_factory=dict,
        max_length=50,
        description="numbers the rulesets' composition rules count against ({allowance: ID}), by id",
    )


def roster_schema() -> dict[str, Any]:
    schema = Roster.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Shipyard roster file"
    return schema


def load_roster(file: Path | str) -> Roster:
    """A roster file read and checked; every problem an InputError with its line."""
    from shipyard.core.yamlio import load_yaml, validate

    file = Path(file)
    doc = load_yaml(file, "roster file", max_bytes=MAX_ROSTER_BYTES)
    if not isinstance(doc.data, dict):
        raise InputError.single("a roster file holds a mapping: name, rulesets, limit, members", file=file)
    version = doc.data.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
        raise InputError.single(
            f"this roster was written by a newer Shipyard (roster format {version}); this one reads format {FORMAT}. "
            "Update Shipyard to open it; the file is left as it is",
            file=file,
            path="format_version",
            allowed=f"format_version {FORMAT}",
        )
    try:
        roster: Roster = validate(doc, Roster, doc.data, ())
    except InputError as exc:
        for p in exc.problems:
            if p.path and p.path.endswith(".count"):
                p.allowed = COUNT_ALLOWED
        raise
    return roster


def dumps(roster: Roster, written: str | None = None) -> str:
    """The roster as YAML. ``written``: the text of the file it replaces, when there is one:
    a roster is a file people write by hand (the guide shows one), with comments such as
    "# agreed with Tom: 200, not 250"; its text is kept, comments and layout, and only what
    changed is written anew (:func:`_kept_text`). A text that is not a roster's mapping is
    not kept: the roster is written as new."""
    data = _document(roster)
    if written is not None:
        kept = _kept_text(written, data)
        if kept is not None:
            return kept
    return _new_text(data)


def _document(roster: Roster) -> dict[str, Any]:
    data: dict[str, Any] = {"format_version": FORMAT, "name": roster.name}
    if roster.rulesets:
        data["rulesets"] = list(roster.rulesets)
    data["limit"] = roster.limit
    data["members"] = [m.model_dump(exclude_defaults=True) for m in roster.members]
    if roster.notes:
        data["notes"] = roster.notes
    if roster.presets:
        data["presets"] = dict(roster.presets)
    if roster.allowances:
        data["allowances"] = dict(roster.allowances)
    return data


def _new_text(data: dict[str, Any]) -> str:
    from ruamel.yaml import YAML

    out = io.StringIO()
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.dump(data, out)
    return out.getvalue()


def _plain(value: Any) -> Any:
    """A value read with its comments (ruamel's round-trip types) as plain JSON values."""
    return json.loads(json.dumps(value, default=str))


def _kept_text(written: str, data: dict[str, Any]) -> str | None:
    """``written`` with ``data``'s values in it: a key whose value is unchanged keeps its text
    and comments; a member unchanged keeps its entry (members are matched in order, as a
    list edit leaves them: one removed or added does not move the others' comments); a
    changed member has only its changed keys written. None when ``written`` is not a mapping
    read back as ``data`` after the change (then the roster is written as new)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="rt", pure=True)
    try:
        doc = yaml.load(written)
    except (YAMLError, ValueError):
        return None
    if not isinstance(doc, CommentedMap):
        return None
    for key in [k for k in doc if k not in data]:
        del doc[key]
    for position, (key, value) in enumerate(data.items()):
        if key == "members" and isinstance(doc.get(key), list):
            _keep_members(doc[key], value)
        elif key not in doc:
            doc.insert(min(position, len(doc)), key, value)
        elif _plain(doc[key]) != value:
            if isinstance(doc[key], CommentedMap) and isinstance(value, dict):
                _keep_mapping(doc[key], value)
            else:
                doc[key] = value
    out = io.StringIO()
    yaml.dump(doc, out)
    text = out.getvalue()
    try:  # what is written must read as the roster: else the new text, whole
        again = YAML(typ="safe", pure=True).load(text)
    except YAMLError:
        return None
    return text if _plain(again) == _plain(data) else None


def _keep_mapping(kept: Any, value: dict[str, Any]) -> None:
    """``kept`` (a mapping read with its comments) made to hold ``value``, key by key."""
    for key in [k for k in kept if k not in value]:
        del kept[key]
    for key, v in value.items():
        if key not in kept or _plain(kept[key]) != v:
            kept[key] = v


def _keep_members(kept: list[Any], members: list[dict[str, Any]]) -> None:
    """The members' list read with its comments made to hold ``members``: entries that are
    the same stay, one changed in place is rewritten key by key, added and removed ones
    are added and removed where they are."""
    import difflib

    def as_saved(entry: Any) -> dict[str, Any] | Any:
        """An entry as saving writes it (a count of 1 written out by hand is the default)."""
        try:
            return Member.model_validate(_plain(entry)).model_dump(exclude_defaults=True)
        except ValueError:
            return _plain(entry)

    old = [json.dumps(as_saved(m), sort_keys=True) for m in kept]
    new = [json.dumps(m, sort_keys=True) for m in members]
    result: list[Any] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            result += kept[i1:i2]
        elif op == "replace" and i2 - i1 == j2 - j1:
            for entry, member in zip(kept[i1:i2], members[j1:j2], strict=True):
                if isinstance(entry, dict):
                    _keep_mapping(entry, member)
                    result.append(entry)
                else:
                    result.append(member)
        else:
            result += members[j1:j2]
    kept[:] = result


def save_roster(roster: Roster, file: Path | str) -> None:
    """Write ``roster`` to ``file``, keeping the text of the roster already there (:func:`dumps`)."""
    from shipyard.core.atomicwrite import atomic_write_text

    file = Path(file)
    try:
        written: str | None = file.read_text(encoding="utf-8") if file.is_file() else None
    except (OSError, UnicodeDecodeError):
        written = None
    atomic_write_text(file, dumps(roster, written))


# --- members -----------------------------------------------------------------------------


def member_path(roster_file: Path, member: Member) -> Path:
    """The member's design file; an InputError when its path leads outside the roster's folder."""
    folder = roster_file.resolve().parent
    rel = Path(member.file)
    if rel.is_absolute() or not (folder / rel).resolve().is_relative_to(folder):
        raise InputError.single(
            f"the member {member.file!r} leads outside the roster's folder {folder}",
            file=str(roster_file),
            path="members",
            allowed="a path inside the roster's folder, such as fighters/red-one.ship",
        )
    return folder / rel


def relative_to_roster(roster_file: Path, design: Path) -> str:
    """How a roster in ``roster_file`` names ``design`` (an InputError when it is outside its folder)."""
    folder = roster_file.resolve().parent
    real = design.resolve()
    if not real.is_relative_to(folder):
        raise InputError.single(
            f"{design} is outside the roster's folder {folder}: a roster names the designs in its own folder "
            "and below, so it can be moved or shared with them",
            file=str(design),
            allowed=f"a design file inside {folder}",
        )
    return real.relative_to(folder).as_posix()


@dataclass
class Seen:
    """A member as the check found it."""

    number: int  # from 1, as `roster remove` takes it
    member: Member
    path: Path | None
    facts: Facts | None = None
    hash: str = ""
    state: str = "ok"  # ok, changed, missing, outside, broken, other-ruleset
    says: list[str] = field(default_factory=list)
    relink: Path | None = None  # a moved file found by its hash
    tags: list[str] = field(default_factory=list)  # the design file's own tags
    stamp: str | None = None  # its file as it was when read (file_stamp); None: not there

    @property
    def stale(self) -> bool:
        """Whether its design file was written, made, replaced or removed since it was read."""
        return self.path is not None and file_stamp(self.path) != self.stamp

    @property
    def label(self) -> str:
        name = self.facts.name if self.facts else Path(self.member.file).stem
        return f"{self.member.callsign} ({name})" if self.member.callsign else name


@dataclass
class RosterCheck:
    roster: Roster
    file: Path
    members: list[Seen]
    total: float
    unit: str
    errors: list[str]
    warnings: list[str]
    # what each ruleset's composition rules say of its members (also in errors and warnings, in words)
    findings: list[Finding] = field(default_factory=list)
    # the catalog folders its members are read with besides the user's own (the editor's
    # Settings > User catalog folder): a member using their house rules reads, checked again too
    folders: tuple[Path, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors


def design_facts(path: Path, folders: tuple[Path, ...] = ()) -> tuple[Facts, str, Any]:
    """A design file's facts, content hash and loaded design (InputError when it cannot be
    read), read with the catalog ``folders`` too."""
    from shipyard.core.designfile import MAX_DESIGN_BYTES, design_from_document, parse_document
    from shipyard.core.designreport import design_report
    from shipyard.core.usertext import decode, read_limited
    from shipyard.hangar.index import facts_for, hash_bytes

    raw = read_limited(path, str(path), MAX_DESIGN_BYTES, "a design file")
    text = decode(raw, str(path))
    if not text.strip():
        raise InputError.single("file is empty", file=path)
    loaded = design_from_document(parse_document(text, str(path)), file=str(path), catalog_folders=folders)
    return facts_for(loaded, design_report(loaded.design, loaded.catalog, loaded.file)), hash_bytes(raw), loaded


def seen_figures(facts: Facts) -> dict[str, float]:
    return dict(facts.key)


def member_for(roster_file: Path, design: Path, folders: tuple[Path, ...] = (), **fields: Any) -> tuple[Member, Facts]:
    facts, digest, _ = design_facts(design, folders)
    member = Member(file=relative_to_roster(roster_file, design), hash=digest, seen=seen_figures(facts), **fields)
    return member, facts


def check_roster(roster: Roster, file: Path, finder: Any = None, folders: tuple[Path, ...] = ()) -> RosterCheck:
    """Every member read again: its findings, whether it changed or moved, the totals against
    the limit. ``finder(hash) -> [Path]``: where else a file of that content is (the hangar);
    ``folders``: catalog folders the members are read with (kept for checks made from this one)."""
    seen = [_check_member(roster, file, n, m, finder, folders) for n, m in enumerate(roster.members, start=1)]
    return totals(roster, file, seen, folders)


def recheck_member(check: RosterCheck, number: int, finder: Any = None) -> RosterCheck:
    """The check after one member's design changed: that member read again, the totals
    counted anew from what the others were (an edit costs one design, not the roster)."""
    seen = list(check.members)
    member = check.roster.members[number - 1]
    seen[number - 1] = _check_member(check.roster, check.file, number, member, finder, check.folders)
    return totals(check.roster, check.file, seen, check.folders)


def totals(roster: Roster, file: Path, seen: list[Seen], folders: tuple[Path, ...] = ()) -> RosterCheck:
    """The roster's total against its limit, and every member's findings, from members checked."""
    errors: list[str] = _unknown_rulesets(roster)
    warnings: list[str] = []
    units = {s.facts.cost_unit for s in seen if s.facts}
    unit = next(iter(units)) if len(units) == 1 else COUNT_UNIT
    if len(units) > 1:
        warnings.append("the members count in different currencies; the total counts designs")
    total = 0.0
    for s in seen:
        total += subtotal(s, unit) or 0.0
    if roster.limit is not None and total > roster.limit:
        over = shown_number(total - roster.limit)
        errors.append(f"the total {shown_number(total)} {unit} is over the limit of {roster.limit} by {over}")
    for s in seen:
        for text in s.says:
            (errors if s.state in ("missing", "outside", "broken", "other-ruleset", "fails") else warnings).append(
                f"{s.number}. {s.label}: {text}"
            )
    findings = composition(roster, seen, unit)
    for f in findings:
        (errors if f.severity == Severity.ERROR else warnings).append(
            f"{f.message} ({f.source})" if f.source else f.message
        )
    return RosterCheck(roster, file, seen, total, unit, errors, warnings, findings, folders)


def _unknown_rulesets(roster: Roster) -> list[str]:
    """A rule system the roster names that is not installed: a typo in its id took no member
    and judged none, and the roster "passed". Said as the command line says it."""
    from shipyard.core.registry import ids
    from shipyard.core.suggest import did_you_mean

    installed = ids()
    out = []
    for rid in roster.rulesets:
        if rid not in installed:
            hint = did_you_mean(rid, installed)
            out.append(
                f"the roster takes designs of {rid!r}, which is no installed ruleset"
                + (f"; {hint}" if hint else "")
                + f" (allowed: {', '.join(installed)})"
            )
    return out


# Members whose design was read and is of a ruleset the roster takes: the ones its rules count.
_COUNTED = ("ok", "changed", "fails")


def composition(roster: Roster, seen: list[Seen], unit: str = COUNT_UNIT) -> list[Finding]:
    """What each ruleset's composition rules say of the roster's members of that ruleset
    (a roster mixing rulesets judges each one's members by its own rules), with the roster's
    limit and allowances and the preset it names for the ruleset: every finding, most severe
    first. A ruleset whose rules cannot be loaded is a finding too, never an exception."""
    from shipyard.core.catalog import load_catalog
    from shipyard.core.composition import (
        Allowance,
        Group,
        Member,
        add_findings,
        allowances_counted,
        composition_rules,
        judge_catalog,
    )

    by_ruleset: dict[str, list[Member]] = {}
    for s in seen:
        if s.facts is None or s.state not in _COUNTED:
            continue
        by_ruleset.setdefault(s.facts.ruleset, []).append(
            Member(
                name=f"{s.number}. {s.label}",
                kind=s.facts.kind,
                count=s.member.count,
                figures={fid: value for fid, _, value in s.facts.numbers},
                tags=tuple(s.tags),
                path=f"members[{s.number - 1}]",
            )
        )
    group = Group(
        limit=roster.limit,
        unit=unit,
        allowances={k: Allowance(v, f"allowances.{k}") for k, v in roster.allowances.items()},
    )
    findings = FindingSink()
    counted: set[str] = set()
    for ruleset, members in by_ruleset.items():
        try:
            catalog = load_catalog(ruleset, preset=roster.presets.get(ruleset))
        except InputError as exc:
            p = exc.problems[0]
            findings.add(
                Severity.ERROR,
                "composition-rules-unreadable",
                f"the composition rules of {ruleset} cannot be read: {p.where()} {p.message}".replace("  ", " "),
                path=f"presets.{ruleset}" if ruleset in roster.presets else "rulesets",
                actual=roster.presets.get(ruleset),
                limit=None,
                rule="",
                source="",
            )
            continue
        add_findings(findings, judge_catalog(catalog, members, group))
        counted |= allowances_counted(composition_rules(catalog))
    for name in sorted(set(roster.allowances) - counted) if by_ruleset else []:
        findings.add(
            Severity.WARNING,
            "allowance-not-counted",
            f"no rule of the members' rule systems counts the allowance {name!r}; "
            + (f"their rules count {', '.join(sorted(counted))}" if counted else "their rules count none"),
            path=f"allowances.{name}",
            actual=roster.allowances[name],
            limit=None,
            rule="",
            source="",
        )
    return findings.sorted()


def subtotal(s: Seen, unit: str) -> float | None:
    """What member ``s`` adds to a total counted in ``unit``: its cost times its count (a
    design without a cost, or a total that counts designs, counts each one); None when
    its design could not be read."""
    if s.facts is None:
        return None
    cost = s.facts.cost if unit != COUNT_UNIT and s.facts.cost is not None else 1.0
    return cost * s.member.count


def file_stamp(path: Path) -> str | None:
    """A member's design file's status, as the hangar's scan compares it
    (:func:`shipyard.hangar.freshness.file_stamp`: its inode, size, modification and change
    times, so a file replaced by a save differs); None: not there."""
    from shipyard.hangar.freshness import file_stamp as status_stamp

    try:
        return status_stamp(path.stat())
    except OSError:
        return None


def _same_design(member: Member) -> tuple[str, str, tuple[tuple[str, float], ...]]:
    return member.file, member.hash, tuple(sorted(member.seen.items()))


def recheck(check: RosterCheck, roster: Roster, finder: Any = None) -> RosterCheck:
    """The check of ``roster``, an edit of the roster ``check`` checked (a count, a callsign,
    the limit, a member added, removed or relinked, an undo): a member naming the same file,
    hash and figures as one checked before is not read again (an edit of the roster changes
    no design), so an edit costs the designs it added, not the whole roster; unless its file
    was written since it was read (another tab saved it, ``shipyard set``, another program):
    then it is read again, or the roster would go on showing a design that is no longer so.
    A change of the rulesets or of the roster's file reads every member again
    (:func:`check_roster`)."""
    if roster.rulesets != check.roster.rulesets:
        return check_roster(roster, check.file, finder, check.folders)
    known: dict[tuple[str, str, tuple[tuple[str, float], ...]], Seen] = {}
    for s in check.members:
        known.setdefault(_same_design(s.member), s)
    seen = []
    for number, member in enumerate(roster.members, start=1):
        old = known.get(_same_design(member))
        if old is None or old.stale:
            seen.append(_check_member(roster, check.file, number, member, finder, check.folders))
        else:
            seen.append(replace(old, number=number, member=member, says=list(old.says)))
    return totals(roster, check.file, seen, check.folders)


def acknowledged(check: RosterCheck) -> Roster:
    """The roster with each changed member's hash and figures as its design is now, so the
    change is no longer shown (the person has seen it); the others as they are."""
    members = list(check.roster.members)
    for s in check.members:
        if s.facts is not None and s.member.hash and s.hash != s.member.hash:
            members[s.number - 1] = s.member.model_copy(update={"hash": s.hash, "seen": seen_figures(s.facts)})
    return check.roster.model_copy(update={"members": members})


def _check_member(
    roster: Roster, file: Path, number: int, member: Member, finder: Any, folders: tuple[Path, ...] = ()
) -> Seen:
    try:
        path = member_path(file, member)
    except InputError as exc:
        return Seen(number, member, None, state="outside", says=[exc.problems[0].message])
    s = Seen(number, member, path, stamp=file_stamp(path))  # before it is read: a write meanwhile shows later
    if s.stamp is None:
        s.state = "missing"
        s.says.append(f"the design file {member.file} is missing")
        for candidate in finder(member.hash) if finder and member.hash else []:
            if Path(candidate).resolve() == path.resolve():  # the place it is missing from is not found again
                continue
            try:
                relative_to_roster(file, Path(candidate))
            except InputError:
                s.says.append(f"a file with its content is at {candidate}, outside the roster's folder")
                continue
            s.relink = Path(candidate)
            s.says.append(f"found again at {candidate} (same content): `shipyard roster check --relink` links it")
            break
        return s
    try:
        s.facts, s.hash, loaded = design_facts(path, folders)
    except InputError as exc:
        s.state = "broken"
        p = exc.problems[0]
        s.says.append(f"{member.file} cannot be read: {p.where()} {p.message}".replace("  ", " "))
        return s
    s.tags = list(getattr(loaded, "tags", []) or [])
    if roster.rulesets and s.facts.ruleset not in roster.rulesets:
        s.state = "other-ruleset"
        s.says.append(
            f"a design of {s.facts.ruleset_name} ({s.facts.ruleset}); this roster takes {', '.join(roster.rulesets)}"
        )
        return s
    if not s.facts.valid:
        s.state = "fails"
        s.says.append(f"does not pass its own check: {s.facts.errors} error{'s' * (s.facts.errors != 1)}")
    if member.hash and s.hash != member.hash:
        if s.state == "ok":
            s.state = "changed"
        what = changed_figures(member.seen, seen_figures(s.facts))
        s.says.append("changed since the roster last saw it" + (f": {', '.join(what)}" if what else ""))
    return s


def relinked(check: RosterCheck) -> tuple[Roster, list[Seen]]:
    """The roster with each moved member linked to where its content was found."""
    members = list(check.roster.members)
    done = []
    for s in check.members:
        if s.relink is not None:
            members[s.number - 1] = s.member.model_copy(update={"file": relative_to_roster(check.file, s.relink)})
            done.append(s)
    return check.roster.model_copy(update={"members": members}), done


def find_member(roster: Roster, which: str, file: Path) -> int:
    """The index of the member ``which`` names: its number (from 1), callsign or file (its
    path in the roster, or its name alone). When it names several (one file name in two
    folders, a design added twice, two members with one callsign) none is picked: an
    InputError lists them, each by number, callsign and file, and says to name one by its
    number (or a callsign only it has), so a command never changes a member the person did
    not mean."""
    if which.isdigit() and 1 <= int(which) <= len(roster.members):
        return int(which) - 1
    named = [
        i
        for i, m in enumerate(roster.members)
        if which in (m.callsign, m.file) or (Path(which).name == Path(m.file).name and "/" not in which)
    ]
    if len(named) == 1:
        return named[0]
    if named:
        listed = ", ".join(_member_named(i + 1, roster.members[i]) for i in named)
        raise InputError(
            [
                Problem(
                    f"{which!r} names {len(named)} members of the roster: name one by its number "
                    "(or by a callsign no other member has). Nothing was written",
                    str(file),
                    allowed=listed,
                )
            ]
        )
    listed = ", ".join(_member_named(i, m) for i, m in enumerate(roster.members, 1)) or "none: it is empty"
    raise InputError([Problem(f"no member {which!r} in the roster", str(file), allowed=listed)])


def _member_named(number: int, member: Member) -> str:
    """A member as a list of them names it: its number, callsign and file."""
    return f"{number}. {member.callsign} ({member.file})" if member.callsign else f"{number}. {member.file}"
