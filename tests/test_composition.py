"""Composition rules: one engine (shipyard.core.composition.judge) for what a group of designs
may hold, whether the group is a roster or a force a ruleset keeps inside one design.

Each rule type with bounds that follow the points limit (999 / 1000 / 2000), the fail-closed
unknown type, a preset (house rules) changing a rule's numbers, a roster mixing rulesets,
the ruleset's own force rules reached through a roster, and bad counts."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shipyard.core.composition import (
    Allowance,
    Group,
    Member,
    composition_rule,
    composition_rules,
    judge,
)
from shipyard.core.errors import InputError
from shipyard.core.findings import Finding, Severity
from shipyard.core.model import BoundRule

from .conftest import FURY_EXAMPLES, ROOT, call_shipyard

FURY = "space-fury"


def rule(**entry: Any) -> BoundRule:
    """A composition rule as a catalog entry declares it, validated as the catalog does."""
    return composition_rule({"id": "r", "source": "FORCES", **entry})


def cite(section: str) -> str:
    return f"The rules, {section}"


def members(*spec: tuple[str, int]) -> list[Member]:
    return [
        Member(name=f"{kind} {i}", kind=kind, count=n, path=f"members[{i}]", figures={"cost": 100.0})
        for i, (kind, n) in enumerate(spec)
    ]


def only(findings: list[Finding]) -> Finding:
    assert len(findings) == 1, findings
    return findings[0]


# --- each rule type, its bounds following the limit -----------------------------------------------


@pytest.mark.parametrize(("limit", "allowed"), [(999, 0), (1000, 1), (1999, 1), (2000, 2)])
def test_at_most_one_per_full_1000_points(limit: int, allowed: int) -> None:
    r = rule(type="member-count", select={"kind": "heavy"}, max={"count": 1, "per": 1000})
    for held in range(1, 4):
        found = judge([r], members(("light", 3), ("heavy", held)), Group(limit=limit), cite)
        if held <= allowed:
            assert found == []
            assert judge([r], members(("light", 3)), Group(limit=limit), cite) == []  # none held
        else:
            f = only(found)
            assert (f.severity, f.code, f.actual, f.limit) == (Severity.ERROR, "r-over", held, allowed)
            assert (f.path, f.rule, f.source) == ("members[1]", "r", "The rules, FORCES")
            assert f"1 per 1,000 points of the limit of {limit:,}" in f.message


@pytest.mark.parametrize(("limit", "allowed"), [(999, 1), (1000, 1), (1001, 2), (2000, 2)])
def test_one_per_part_of_1000_points_rounds_up(limit: int, allowed: int) -> None:
    r = rule(type="member-count", max={"count": 1, "per": 1000, "round": "up"})
    assert judge([r], members(("any", allowed)), Group(limit=limit), cite) == []  # allowed >= 1 here
    assert only(judge([r], members(("any", allowed + 1)), Group(limit=limit), cite)).limit == allowed


@pytest.mark.parametrize(("limit", "needed"), [(999, 2), (1000, 4), (2000, 8)])
def test_at_least_two_per_500_points(limit: int, needed: int) -> None:
    r = rule(type="member-count", select={"kind": "troop"}, min={"count": 2, "per": 500}, under_severity="warning")
    assert judge([r], members(("troop", needed)), Group(limit=limit), cite) == []
    f = only(judge([r], members(("troop", needed - 1), ("other", 50)), Group(limit=limit), cite))
    assert (f.severity, f.code, f.actual, f.limit, f.path) == (
        Severity.WARNING,
        "r-under",
        needed - 1,
        needed,
        "members",
    )


@pytest.mark.parametrize(("limit", "cap"), [(999, 249.75), (1000, 250), (2000, 500)])
def test_a_figure_total_at_most_a_share_of_the_limit(limit: int, cap: float) -> None:
    r = rule(type="figure-total", figure="cost", select={"tag": "elite"}, max={"share": 0.25})
    elite = Member(name="Ace", kind="fighter", count=1, figures={"cost": 250.0}, tags=("Elite",), path="members[0]")
    plain = Member(name="Grunt", kind="fighter", count=9, figures={"cost": 250.0}, path="members[1]")
    found = judge([r], [elite, plain], Group(limit=limit, limit_path="limit"), cite)
    if cap >= 250:
        assert found == []  # the untagged members are not counted
    else:
        f = only(found)
        assert (f.actual, f.limit, f.path, f.code) == (250, cap, "limit", "r-over")
        assert "25% of the limit of 999" in f.message


def test_a_figure_total_counts_each_member_times_its_count_and_against_an_allowance() -> None:
    r = rule(
        type="figure-total",
        name="Pilot levels",
        figure="level",
        max={"allowance": "levels"},
        min={"allowance": "levels"},
        under_severity="advice",
    )
    crew = [
        Member(name="A", count=3, figures={"level": 2.0}),
        Member(name="B", count=1),  # reports no level: adds 0
    ]
    allow = {"levels": Allowance(5, "pilot_levels", "levels worth of pilots")}
    over = only(judge([r], crew, Group(allowances=allow), cite))
    assert (over.code, over.actual, over.limit, over.path) == ("r-over", 6, 5, "pilot_levels")
    assert over.message == "Pilot levels: 6; at most 5 (the levels worth of pilots it has)"
    allow = {"levels": Allowance(7, "pilot_levels")}
    under = only(judge([r], crew, Group(allowances=allow), cite))
    assert (under.severity, under.code, under.actual, under.limit) == (Severity.ADVICE, "r-under", 6, 7)
    assert judge([r], crew, Group(), cite) == []  # an allowance the group does not set is not checked


def test_each_member_names_every_member_that_does_not_match() -> None:
    r = rule(
        type="each-member",
        select={"kind": ["fighter"]},
        require={"has": "level", "figures": {"speed": {"min": 3}}},
        message="has no pilot or is too slow",
        at="pilot",
        code="unfit",
        severity="warning",
    )
    group = [
        Member(
            name="Ok", kind="Fighter", figures={"level": 1.0, "speed": 4.0}, path="fighters[0]", fields="fighters[0]."
        ),
        Member(name="No pilot", kind="fighter", figures={"speed": 4.0}, path="fighters[1]", fields="fighters[1]."),
        Member(name="Slow", kind="fighter", figures={"level": 1.0, "speed": 2.0}, path="members[2]"),
        Member(name="Bomber", kind="bomber", path="members[3]"),  # not a fighter: not asked
    ]
    found = judge([r], group, Group(), cite)
    assert [(f.message, f.path, f.severity) for f in found] == [
        ("No pilot has no pilot or is too slow", "fighters[1].pilot", Severity.WARNING),
        ("Slow has no pilot or is too slow", "members[2]", Severity.WARNING),
    ]


def test_a_bound_that_follows_the_limit_says_so_when_there_is_none() -> None:
    r = rule(type="member-count", min={"share": 0.25}, max={"count": 1, "per": 1000})
    f = only(judge([r], members(("any", 5)), Group(limit=None, unit="BP"), cite))
    assert (f.severity, f.code, f.path) == (Severity.ADVICE, "r-no-limit", "limit")
    assert f.message == "r not checked: 25% of the limit needs a points limit, and this group has none"
    r = rule(type="member-count", max={"count": 1, "per": 1000})
    f = only(judge([r], members(("any", 5)), Group(limit=None, unit="BP"), cite))
    assert "1 per 1,000 BP needs a points limit" in f.message


@pytest.mark.parametrize("count", [0, -1, "many", 2.5, True])
def test_a_bad_count_is_a_finding_and_is_not_counted(count: Any) -> None:
    r = rule(type="member-count", max=3)
    group = [Member(name="Bad", count=count, path="members[0]"), Member(name="Good", count=3, path="members[1]")]
    found = judge([r], group, Group(), cite)
    f = only(found)  # the rule sees only Good's 3: within the bound
    assert (f.code, f.path, f.severity) == ("member-count-invalid", "members[0].count", Severity.ERROR)
    assert "not a whole number from 1" in f.message


def test_a_huge_count_is_counted_not_refused_by_the_engine() -> None:
    r = rule(type="member-count", max={"count": 1, "per": 1000})
    f = only(judge([r], [Member(name="Horde", count=10**9, path="members[0]")], Group(limit=2000), cite))
    assert (f.actual, f.limit) == (10**9, 2)


def test_a_rule_that_fails_is_a_finding_not_an_exception() -> None:
    def broken(j: Any, p: Any) -> None:
        raise ZeroDivisionError("division by zero")

    r = rule(type="member-count", max=1)
    bad = dataclasses.replace(r, rule_type=dataclasses.replace(r.rule_type, judge=broken))  # type: ignore[call-arg]
    f = only(judge([bad, r], members(("a", 1)), Group(), cite))
    assert (f.code, f.rule) == ("composition-rule-failed", "r") and "division by zero" in f.message


def test_bounds_are_validated_as_the_catalog_is() -> None:
    with pytest.raises(ValueError, match="per"):
        rule(type="member-count", max={"count": 1, "per": 0})
    with pytest.raises(ValueError, match=r"[Ee]xtra"):
        rule(type="member-count", max={"count": 1, "per": 1000, "every": 2})
    with pytest.raises(ValueError, match=r"str"):
        rule(type="member-count", max="many")


# --- the catalog: fail closed, presets --------------------------------------------------------


@pytest.fixture
def fury_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The ruleset's built-in catalog copied where a test may change it, loaded in its place."""
    from shipyard.core import catalog as catalog_module
    from shipyard.core import registry

    root = tmp_path / "builtin" / FURY
    shutil.copytree(ROOT / "catalogs" / FURY, root)
    installed = registry.get(FURY)
    copy = dataclasses.replace(installed, manifest=installed.manifest.model_copy(update={"catalog": str(root)}))
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda rid, **kw: copy if rid == FURY else real_get(rid, **kw))
    catalog_module._load_layers.cache_clear()
    yield root
    catalog_module._load_layers.cache_clear()


def add_rules(folder: Path, text: str) -> int:
    """``text`` (rule entries) added to the copy's rules.yaml; the line it starts at."""
    rules = folder / "rules.yaml"
    before = rules.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    rules.write_text(before + text, encoding="utf-8")
    return len(before.splitlines()) + 1


def _bomber_raid(tmp_path: Path, count: int) -> tuple[Any, Path]:
    """A roster "Raid" of ``count`` heavy bombers tagged "bomber" (limit 150), in a campaign
    folder of ``tmp_path``; and the file it would be saved as."""
    from shipyard.hangar.roster import Roster, member_for

    folder = tmp_path / "campaign"
    folder.mkdir()
    roster_file = folder / "raid.roster"
    design = json.loads((FURY_EXAMPLES / "heavy-bomber.ship").read_text())
    design["tags"] = ["bomber"]
    (folder / "bomber.ship").write_text(json.dumps(design))
    member = member_for(roster_file, folder / "bomber.ship", count=count)[0]
    return Roster(name="Raid", rulesets=[FURY], limit=150, members=[member]), roster_file


def test_an_unknown_composition_rule_type_stops_loading(fury_copy: Path) -> None:
    from shipyard.core.catalog import load_catalog

    line = add_rules(fury_copy, "  - id: cap\n    type: member-cap\n    max: 2\n    source: FORCES\n")
    with pytest.raises(InputError) as info:
        load_catalog(FURY, use_user_folder=False)
    (problem,) = info.value.problems
    assert problem.file == str(fury_copy / "rules.yaml") and problem.line == line + 1
    assert problem.path is not None and problem.path.endswith(".type")
    assert problem.message.startswith("unknown rule type 'member-cap'")
    assert problem.allowed is not None
    assert {"member-count", "figure-total", "each-member"} <= set(problem.allowed.split(", "))


def test_an_unknown_key_of_a_composition_rule_stops_loading(fury_copy: Path) -> None:
    from shipyard.core.catalog import load_catalog

    add_rules(fury_copy, "  - id: cap\n    type: member-count\n    most: 2\n    source: FORCES\n")
    with pytest.raises(InputError) as info:
        load_catalog(FURY, use_user_folder=False)
    (problem,) = info.value.problems
    assert "unknown key 'most' for rule type 'member-count'" in problem.message
    assert problem.allowed is not None and "max" in problem.allowed.split(", ")


CAP = """\
  - id: bombers-per-100
    type: member-count
    name: Bombers
    select: {tag: bomber}
    max: {count: 1, per: 100}
    source: FIGHTER CONSTRUCTION
"""


def test_a_preset_changes_a_composition_rules_numbers(fury_copy: Path, tmp_path: Path) -> None:
    """A house rule in the user's catalog folder overrides the rule's bound by its id; a
    roster names the preset it plays by."""
    from shipyard.core.catalog import load_catalog, user_catalog_folder
    from shipyard.hangar.roster import check_roster

    add_rules(fury_copy, CAP)
    house = user_catalog_folder() / FURY / "presets"
    house.mkdir(parents=True, exist_ok=True)
    (house / "two-bombers.yaml").write_text(
        "preset:\n  id: two-bombers\n  name: Two bombers\n  source: House rules\n"
        "  overrides:\n    rules:\n      bombers-per-100: {max: {count: 2, per: 100}}\n",
        encoding="utf-8",
    )
    try:
        catalog = load_catalog(FURY, preset="two-bombers")
        [cap] = [r for r in composition_rules(catalog) if r.params.id == "bombers-per-100"]
        assert cap.params.max.count == 2  # type: ignore[attr-defined]

        roster, roster_file = _bomber_raid(tmp_path, count=2)
        plain = check_roster(roster, roster_file)
        [f] = [f for f in plain.findings if f.rule == "bombers-per-100"]
        assert (f.actual, f.limit, f.code, f.path) == (2, 1, "bombers-per-100-over", "members[0]")
        assert not plain.valid and any("Bombers: 2; at most 1" in e for e in plain.errors)
        house_rules = check_roster(roster.model_copy(update={"presets": {FURY: "two-bombers"}}), roster_file)
        assert not [f for f in house_rules.findings if f.rule == "bombers-per-100"] and house_rules.valid
        unknown = check_roster(roster.model_copy(update={"presets": {FURY: "no-such"}}), roster_file)
        [f] = unknown.findings
        assert (f.code, f.path) == ("composition-rules-unreadable", f"presets.{FURY}")
        assert "unknown preset 'no-such'" in f.message and not unknown.valid
    finally:
        shutil.rmtree(user_catalog_folder() / FURY)


def test_a_roster_mixing_rulesets_judges_each_by_its_own_rules(fury_copy: Path, tmp_path: Path) -> None:
    from shipyard.hangar.roster import Roster, check_roster, member_for

    add_rules(fury_copy, "  - id: one-only\n    type: member-count\n    max: 1\n    source: FIGHTER CONSTRUCTION\n")
    folder = tmp_path / "mixed"
    folder.mkdir()
    roster_file = folder / "mixed.roster"
    shutil.copyfile(FURY_EXAMPLES / "scout.ship", folder / "scout.ship")
    other = ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship"
    shutil.copyfile(other, folder / "rebel.ship")
    members = [
        member_for(roster_file, folder / "scout.ship", count=1)[0],
        member_for(roster_file, folder / "rebel.ship", count=5)[0],
    ]
    roster = Roster(name="Mixed", rulesets=[FURY, "space-fighter-alpha"], members=members)
    check = check_roster(roster, roster_file)
    # the one Scout is within "at most 1" (the five of the other ruleset are not its members),
    # and only the Scout is asked for a pilot
    assert [(f.code, f.path) for f in check.findings] == [("fighter-without-pilot", "members[0]")]
    twice = roster.model_copy(update={"members": [members[0].model_copy(update={"count": 2}), members[1]]})
    codes = sorted((f.code, f.actual) for f in check_roster(twice, roster_file).findings)
    assert codes == [("fighter-without-pilot", 0), ("one-only-over", 2)]


# --- the ruleset's force rules, through a roster ----------------------------------------------


def test_the_force_rules_judge_a_roster_of_fighters_and_pilots(tmp_path: Path) -> None:
    """The rules a force inside one design keeps (every fighter crewed, the side's pilot levels)
    judge a roster of the same designs: a crewed fighter and a pilot count their levels, a
    fighter without a pilot is named, the roster's allowance is the side's."""
    folder = tmp_path / "side"
    folder.mkdir()
    roster = folder / "side.roster"
    shutil.copyfile(FURY_EXAMPLES / "scout.ship", folder / "scout.ship")
    r = call_shipyard("new", "Ana", "--ruleset", FURY, "--kind", "pilot", "-o", folder / "ana.ship")
    assert r.returncode == 0, r.stderr
    r = call_shipyard("fury", "crew", folder / "scout.ship", folder / "ana.ship", "-o", folder / "crewed.ship")
    assert r.returncode == 0, r.stderr
    assert call_shipyard("roster", "new", roster, "--name", "Blue side", "--ruleset", FURY).returncode == 0
    r = call_shipyard("roster", "add", roster, folder / "scout.ship", folder / "crewed.ship", folder / "ana.ship")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1. Scout has no pilot" in r.stdout  # a warning: the roster still passes
    text = roster.read_text(encoding="utf-8")
    roster.write_text(text + "allowances:\n  pilot-levels: 3\n", encoding="utf-8")
    r = call_shipyard("roster", "check", roster, "--json")
    data = json.loads(r.stdout)
    found = {f["code"]: f for f in data["composition"]}
    assert set(found) == {"fighter-without-pilot", "pilot-levels-unused"}
    assert (found["pilot-levels-unused"]["actual"], found["pilot-levels-unused"]["limit"]) == (2, 3)
    assert found["pilot-levels-unused"]["path"] == "allowances.pilot-levels"
    assert found["fighter-without-pilot"]["path"] == "members[0]"
    assert r.returncode == 0 and data["valid"] is True
    # a crewed fighter costs the fighter and its pilot ("Pilots must also be purchased")
    xp = json.loads((folder / "ana.ship").read_text())["design"]["xp"]
    assert [m["cost"] for m in data["members"]] == [41, 41 + xp, xp] and data["total"] == 82 + 2 * xp
    roster.write_text(text + "allowances:\n  pilot-level: 3\n", encoding="utf-8")  # misspelt
    data = json.loads(call_shipyard("roster", "check", roster, "--json").stdout)
    typo = next(f for f in data["composition"] if f["code"] == "allowance-not-counted")
    assert typo["path"] == "allowances.pilot-level" and "their rules count pilot-levels" in typo["message"]
    roster.write_text(text + "allowances:\n  pilot-levels: 1\n", encoding="utf-8")
    r = call_shipyard("roster", "check", roster, "--json")
    data = json.loads(r.stdout)
    over = next(f for f in data["composition"] if f["code"] == "pilot-levels-over")
    assert (over["severity"], over["actual"], over["limit"]) == ("error", 2, 1)
    assert r.returncode == 1 and any("Pilot levels: 2; at most 1" in e for e in data["errors"])


@pytest.mark.parametrize("count", ["0", "-1", "1000000000", "many", "2.5"])
def test_a_bad_count_in_a_roster_file_is_refused_with_what_is_allowed(tmp_path: Path, count: str) -> None:
    shutil.copyfile(FURY_EXAMPLES / "scout.ship", tmp_path / "scout.ship")
    roster = tmp_path / "r.roster"
    roster.write_text(f"name: R\nmembers:\n  - file: scout.ship\n    count: {count}\n", encoding="utf-8")
    r = call_shipyard("roster", "check", roster)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "r.roster:4" in r.stderr and "members[0].count" in r.stderr
    assert "a whole number from 1 to 999" in r.stderr


@pytest.mark.parametrize("count", ["0", "-1", "1000000000", "many"])
def test_a_bad_count_on_the_command_line_is_refused_and_nothing_is_written(tmp_path: Path, count: str) -> None:
    shutil.copyfile(FURY_EXAMPLES / "scout.ship", tmp_path / "scout.ship")
    roster = tmp_path / "r.roster"
    assert call_shipyard("roster", "new", roster, "--name", "R").returncode == 0
    before = roster.read_bytes()
    r = call_shipyard("roster", "add", roster, tmp_path / "scout.ship", f"--count={count}")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "a whole number from 1 to 999" in r.stderr
    assert roster.read_bytes() == before


# --- what docs/rulesets.md shows, run ----------------------------------------------------------


def test_the_rulesets_page_example_prints_what_the_page_says() -> None:
    """docs/rulesets.md, "Composition rules": its YAML entries load as the catalog loads them,
    and its script prints what the page says it prints."""
    import contextlib
    import io
    import re

    from ruamel.yaml import YAML

    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    part = text.split("### Composition rules: what a force may hold", 1)[1].split("\n### ", 1)[0]
    (entries,) = re.findall(r"```yaml\n(.*?)```", part, re.S)
    bound = [composition_rule(e) for e in YAML(typ="safe", pure=True).load(entries)["rules"]]
    assert [b.params.id for b in bound] == ["heavy-per-1000", "elite-share"]
    (script,) = re.findall(r"```python\n(.*?)```", part, re.S)
    (said,) = re.findall(r"prints\n\n```text\n(.*?)```", part, re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script, "docs/rulesets.md", "exec"), {})
    assert out.getvalue() == said


def test_an_edit_of_the_roster_is_judged_again_without_reading_its_designs(
    fury_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``recheck``: a count or the limit changed (as the editor's Roster page changes them) is
    judged at once by the rules that scale with the limit, and no design file is read again."""
    from shipyard.hangar import roster as roster_module
    from shipyard.hangar.roster import check_roster, recheck

    add_rules(fury_copy, CAP)
    roster, roster_file = _bomber_raid(tmp_path, count=1)
    check = check_roster(roster, roster_file)
    assert not [f for f in check.findings if f.rule == "bombers-per-100"]

    def no_reading(path: Path) -> Any:
        raise AssertionError(f"{path} was read again")

    monkeypatch.setattr(roster_module, "design_facts", no_reading)
    two = recheck(check, roster.model_copy(update={"members": [roster.members[0].model_copy(update={"count": 2})]}))
    [f] = [f for f in two.findings if f.rule == "bombers-per-100"]
    assert (f.actual, f.limit) == (2, 1) and not two.valid and two.total == 2 * check.total
    raised = recheck(two, two.roster.model_copy(update={"limit": 200}))
    assert not [f for f in raised.findings if f.rule == "bombers-per-100"] and raised.valid
    lowered = recheck(raised, raised.roster.model_copy(update={"limit": 99}))
    [f] = [f for f in lowered.findings if f.rule == "bombers-per-100"]
    assert (f.actual, f.limit) == (2, 0)


def test_roster_allow_and_preset_refuse_what_no_rule_takes_and_write_nothing(tmp_path: Path) -> None:
    shutil.copyfile(FURY_EXAMPLES / "scout.ship", tmp_path / "scout.ship")
    roster = tmp_path / "r.roster"
    assert call_shipyard("roster", "new", roster, "--name", "R", "--ruleset", FURY).returncode == 0
    assert call_shipyard("roster", "add", roster, tmp_path / "scout.ship").returncode == 0
    before = roster.read_bytes()
    r = call_shipyard("roster", "allow", roster, "pilot-level", "3")
    assert r.returncode == 2 and "(allowed: pilot-levels)" in r.stderr and roster.read_bytes() == before
    for bad in ("-1", "many"):
        r = call_shipyard("roster", "allow", roster, "pilot-levels", bad)
        assert r.returncode == 2 and "a whole number from 0" in r.stderr and roster.read_bytes() == before
    r = call_shipyard("roster", "preset", roster, FURY, "no-such")
    assert r.returncode == 2 and "unknown preset 'no-such'" in r.stderr and roster.read_bytes() == before
    r = call_shipyard("roster", "allow", roster, "pilot-levels", "2")
    assert r.returncode == 0 and "Pilot levels: 0; at least 2" in r.stdout
    r = call_shipyard("roster", "preset", roster, FURY, "sample-fighters")
    assert r.returncode == 0, r.stderr
    from shipyard.hangar.roster import load_roster

    saved = load_roster(roster)
    assert (saved.allowances, saved.presets) == ({"pilot-levels": 2}, {FURY: "sample-fighters"})
    assert call_shipyard("roster", "allow", roster, "pilot-levels", "none").returncode == 0
    assert load_roster(roster).allowances == {}


def test_the_composition_type_names_the_core_knows_without_the_module_are_its_types() -> None:
    """A catalog is bound at every start without importing the composition module: the names
    it looks for there must be the module's own."""
    from shipyard.core.composition import COMPOSITION_RULE_TYPES
    from shipyard.core.rules import COMPOSITION_TYPE_NAMES

    assert set(COMPOSITION_RULE_TYPES) == COMPOSITION_TYPE_NAMES
