"""Rosters: ``shipyard roster new|add|remove|limit|check|print|export`` run as a person runs
them; totals against the limit, changed and moved members, the summary page and the actors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, call_shipyard
from .test_hangar import samples

CATALOGS = ROOT / "catalogs"


def costed_rulesets() -> dict[str, list[Path]]:
    """The samples of each ruleset, by ruleset id (as the designs name it)."""
    out: dict[str, list[Path]] = {}
    for f in samples():
        out.setdefault(json.loads(f.read_text())["ruleset"], []).append(f)
    return out


@pytest.fixture
def hangar_env(tmp_path: Path) -> dict[str, str]:
    """Settings and data of this test's own (the session's sandbox is shared by its tests)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "data").mkdir()
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}


@pytest.fixture
def force(tmp_path: Path) -> tuple[Path, list[Path]]:
    """A folder with three designs of one ruleset that pass, and an empty roster in it."""
    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate

    folder = tmp_path / "campaign"
    folder.mkdir()
    designs: list[Path] = []
    for files in costed_rulesets().values():
        passing = [f for f in files if evaluate(*(lambda d: (d.design, d.catalog))(load_design(f))).valid]
        if len(passing) >= 3:
            for f in passing[:3]:
                shutil.copyfile(f, folder / f.name)
                designs.append(folder / f.name)
            break
    assert len(designs) == 3
    r = call_shipyard("roster", "new", folder / "force.roster", "--name", "Strike Group")
    assert r.returncode == 0, r.stderr
    return folder / "force.roster", designs


def check(roster: Path, *more: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    r = call_shipyard("roster", "check", roster, "--json", *more, env=env)
    assert r.returncode in (0, 1), r.stderr
    return r.returncode, json.loads(r.stdout[r.stdout.index("{") :])


def test_totals_count_each_member_times_its_count_against_the_limit(force: tuple[Path, list[Path]]) -> None:
    roster, designs = force
    r = call_shipyard("roster", "add", roster, designs[0], "--count", "3", "--callsign", "Red", "--crew", "Ana")
    assert r.returncode == 0, r.stderr
    r = call_shipyard("roster", "add", roster, designs[1])
    assert r.returncode == 0, r.stderr
    status, data = check(roster)
    members = data["members"]
    assert isinstance(members, list) and [m["count"] for m in members] == [3, 1]
    costs = [m["cost"] for m in members]
    expected = 3 * (costs[0] or 1) + (costs[1] or 1)
    assert data["total"] == expected and status == 0 and data["valid"] is True
    # the limit, changed at any time, is checked at once
    limit = int(expected) - 1
    r = call_shipyard("roster", "limit", roster, str(limit))
    assert r.returncode == 1 and "over the limit" in r.stdout
    status, data = check(roster)
    assert status == 1 and any("over the limit" in e for e in data["errors"])
    r = call_shipyard("roster", "limit", roster, "none")
    assert r.returncode == 0
    # remove by callsign
    r = call_shipyard("roster", "remove", roster, "Red")
    assert r.returncode == 0 and "removed Red" in r.stdout
    assert [m["file"] for m in check(roster)[1]["members"]] == [designs[1].name]


def test_a_changed_member_is_shown_with_what_changed(force: tuple[Path, list[Path]]) -> None:
    roster, designs = force
    call_shipyard("roster", "add", roster, designs[0])
    before = roster.read_text()
    doc = json.loads(designs[0].read_text())
    doc["design"]["name"] = "Renamed Ship"
    designs[0].write_text(json.dumps(doc, indent=2))
    _, data = check(roster)
    [member] = data["members"]
    assert member["state"] == "changed" and member["name"] == "Renamed Ship"
    assert any("changed since the roster last saw it" in s for s in member["says"])
    assert roster.read_text() == before  # nothing rewritten without being asked


def test_a_changed_key_figure_is_named_with_before_and_after(tmp_path: Path) -> None:
    """A member whose cost went up says so: "Cost 45 -> 39" (the sample's own figures, read back)."""
    from shipyard.hangar.roster import design_facts

    folder = tmp_path / "f"
    folder.mkdir()
    for f in samples():
        facts = design_facts(f)[0]
        if facts.cost is None or not facts.valid:
            continue
        design = folder / f.name
        shutil.copyfile(f, design)
        call_shipyard("roster", "new", folder / "r.roster", "--name", "R", "--force")
        call_shipyard("roster", "add", folder / "r.roster", design)
        doc = json.loads(design.read_text())
        doc["design"] = {k: v for k, v in doc["design"].items() if not isinstance(v, list)}  # drop its entries
        design.write_text(json.dumps(doc))
        try:
            after = design_facts(design)[0]
        except Exception:
            continue
        if after.cost == facts.cost:
            continue
        _, data = check(folder / "r.roster")
        says = " ".join(data["members"][0]["says"])
        assert f"Cost {facts.cost:g} -> {after.cost:g}" in says
        return
    pytest.fail("no sample's cost changes when its entries are dropped")


def test_a_moved_member_is_found_by_its_hash_and_relinked_when_asked(
    force: tuple[Path, list[Path]], hangar_env: dict[str, str]
) -> None:
    env = hangar_env
    roster, designs = force
    call_shipyard("roster", "add", roster, designs[0], "--callsign", "Blue")
    (roster.parent / "moved").mkdir()
    moved = roster.parent / "moved" / designs[0].name
    designs[0].rename(moved)
    status, data = check(roster, env=env)
    [member] = data["members"]
    assert status == 1 and member["state"] == "missing" and member["relink"] == str(moved)
    assert "missing" in " ".join(member["says"])
    assert "moved" not in roster.read_text()
    call_shipyard("hangar", "add", roster.parent, env=env)
    r = call_shipyard("roster", "check", roster, "--relink", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "relinked 1." in r.stdout and "file: moved/" in roster.read_text()
    # a file that is gone for good: named, and the roster still opens and checks the rest
    moved.unlink()
    status, data = check(roster, env=env)
    assert status == 1 and data["members"][0]["state"] == "missing" and data["members"][0]["relink"] is None


def test_relink_offers_only_a_file_there_now_with_the_members_content(
    force: tuple[Path, list[Path]], hangar_env: dict[str, str], tmp_path: Path
) -> None:
    """A member moved onto a library folder that is then taken away (a USB stick unplugged):
    the hangar keeps its designs listed, but the file is not there, so it is not offered,
    `--relink` writes nothing, and no check says the member is both missing and found again
    at one place. A copy elsewhere that was changed since the hangar read it is not offered
    either."""
    env = hangar_env
    roster, designs = force
    assert call_shipyard("roster", "add", roster, designs[0], designs[1]).returncode == 0
    usb = roster.parent / "usb"
    usb.mkdir()
    designs[0].rename(usb / designs[0].name)
    assert call_shipyard("hangar", "add", usb, env=env).returncode == 0
    usb.rename(tmp_path / "away")  # unplugged: the library folder is not there now
    other = roster.parent / "elsewhere"
    other.mkdir()
    edited = other / designs[1].name
    designs[1].rename(edited)
    assert call_shipyard("hangar", "add", other, env=env).returncode == 0
    data = json.loads(edited.read_text())
    data["design"]["name"] = "Edited Since"
    edited.write_text(json.dumps(data))  # no longer the content the roster knew
    before = roster.read_bytes()
    status, found = check(roster, env=env)
    members = found["members"]
    assert isinstance(members, list) and status == 1
    assert [m["state"] for m in members] == ["missing", "missing"]
    assert [m["relink"] for m in members] == [None, None]
    assert not any("found again" in say for m in members for say in m["says"]), members
    r = call_shipyard("roster", "check", roster, "--relink", env=env)
    assert r.returncode == 1 and "nothing to relink" in r.stdout, r.stdout + r.stderr
    assert roster.read_bytes() == before


def test_print_is_a_summary_page_then_the_members(force: tuple[Path, list[Path]], tmp_path: Path) -> None:
    from pypdf import PdfReader

    roster, designs = force
    call_shipyard("roster", "add", roster, designs[0], "--count", "2", "--callsign", "Viper")
    call_shipyard("roster", "add", roster, designs[1])
    out = tmp_path / "force.pdf"
    r = call_shipyard("roster", "print", roster, "-o", out, "--sheet", "cards")
    assert r.returncode == 0, r.stderr
    pages = PdfReader(out).pages
    first = pages[0].extract_text()
    assert "Strike Group" in first and "Viper" in first and "The roster passes" in first
    names = [json.loads(d.read_text())["design"]["name"] for d in designs[:2]]
    later = " ".join(p.extract_text() for p in pages[1:])
    assert all(n in later for n in names)
    r = call_shipyard("roster", "print", roster, "-o", out)
    assert r.returncode == 2 and "exists" in r.stderr


def test_a_printed_roster_numbers_its_pages_on_and_its_contents_point_at_them(tmp_path: Path) -> None:
    """A roster of two rulesets prints its summary, then a fleet book for each ruleset:
    each book's pages began again at "page 1", so the second book's contents sent a reader
    to a page their viewer numbered otherwise. Every page's number is now its place in the
    file, and each contents line names the page the design's sheet is on."""
    import re

    from .test_printing import pages_text

    folder = tmp_path / "campaign"
    folder.mkdir()
    files = [
        ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-fighter.ship",
        ROOT / "catalogs" / "space-fighter-alpha" / "examples" / "rebel-frigate.ship",
        ROOT / "catalogs" / "wing-commander" / "examples" / "hornet.ship",
    ]
    roster = folder / "mixed.roster"
    new = (
        "roster",
        "new",
        roster,
        "--name",
        "Mixed Wing",
        "--ruleset",
        "space-fighter-alpha",
        "--ruleset",
        "wing-commander",
    )
    assert call_shipyard(*new).returncode == 0
    for f in files:
        shutil.copyfile(f, folder / f.name)
        assert call_shipyard("roster", "add", roster, folder / f.name).returncode == 0
    out = tmp_path / "mixed.pdf"
    r = call_shipyard("roster", "print", roster, "-o", out, "--sheet", "fleet")
    assert r.returncode == 0, r.stderr
    texts = pages_text(out)
    numbered = {i: int(m[-1]) for i, t in enumerate(texts, 1) if (m := re.findall(r" page (\d+)", t))}
    assert len(numbered) >= len(files) + 3  # the sheets, each book's contents and appendix
    assert {i: n for i, n in numbered.items() if i != n} == {}
    names = [json.loads(f.read_text())["design"]["name"] for f in files]
    for name in names:
        contents = [t for t in texts if t.lstrip().startswith("Contents")]
        listed = [int(m) for t in contents for m in re.findall(re.escape(name) + r"\D*?(\d+)", t)]
        sheet = [i for i, t in enumerate(texts, 1) if t.lstrip().startswith(name)]
        assert listed == sheet and len(sheet) == 1, (name, listed, sheet)
    assert len([t for t in texts if t.lstrip().startswith("Contents")]) == 2  # a book for each ruleset


def test_the_printed_summary_rows_add_up_to_its_total_when_the_total_counts_designs(tmp_path: Path) -> None:
    """Members of two rulesets with different currencies: the total counts designs, so each
    row's subtotal on the summary page is its count (not its cost times its count) and the
    rows add up to the total printed under them, as `roster check` counts it; no row shows
    a cost the total does not count."""
    import re
    import subprocess

    folder = tmp_path / "mix"
    folder.mkdir()
    files = [
        CATALOGS / "space-fury" / "examples" / "scout.ship",
        CATALOGS / "wing-commander" / "examples" / "hornet.ship",
    ]
    roster = folder / "m.roster"
    new = ("roster", "new", roster, "--name", "Mix", "--ruleset", "space-fury", "--ruleset", "wing-commander")
    assert call_shipyard(*new).returncode == 0
    for f in files:
        shutil.copyfile(f, folder / f.name)
    assert call_shipyard("roster", "add", roster, *(folder / f.name for f in files), "--count", "2").returncode in (
        0,
        1,
    )
    _, data = check(roster)
    assert data["unit"] == "designs" and data["total"] == 4
    out = tmp_path / "m.pdf"
    r = call_shipyard("roster", "print", roster, "-o", out)
    assert r.returncode == 0, r.stderr
    page = subprocess.run(
        ["pdftotext", "-layout", "-l", "1", str(out), "-"], capture_output=True, text=True, check=True
    ).stdout
    subtotals = []
    for f in files:
        name = json.loads(f.read_text())["design"]["name"]
        row = next(line for line in page.splitlines() if f" {name} " in f" {line} ")
        figures = re.findall(r"\b\d+(?:\.\d+)?\b", row.split(name, 1)[1])
        assert figures == ["2"], (name, row)  # its subtotal alone: no cost shown, the count it adds
        subtotals.append(float(figures[-1]))
    total = next(line for line in page.splitlines() if "Total" in line)
    assert re.search(r"Total\s+4\s+designs", total) and sum(subtotals) == 4, total


def test_remove_refuses_a_name_that_fits_several_members_and_lists_them(tmp_path: Path) -> None:
    """Two designs called scout.ship in two folders, and two members with one callsign:
    `roster remove` by the file name or the shared callsign took out the first one it met.
    It now refuses, changes nothing and lists the members the name fits, each by number,
    callsign and file; the number, or the path in the roster, takes out the one meant."""
    folder = tmp_path / "raid"
    for wing in ("wing-a", "wing-b"):
        (folder / wing).mkdir(parents=True)
    shutil.copyfile(CATALOGS / "space-fury" / "examples" / "scout.ship", folder / "wing-a" / "scout.ship")
    shutil.copyfile(CATALOGS / "space-fury" / "examples" / "interceptor.ship", folder / "wing-b" / "scout.ship")
    shutil.copyfile(CATALOGS / "space-fury" / "examples" / "gunship.ship", folder / "gunship.ship")
    roster = folder / "r.roster"
    assert call_shipyard("roster", "new", roster, "--name", "Raid").returncode == 0
    for design, callsign in (("wing-a/scout.ship", "Red"), ("wing-b/scout.ship", "Blue"), ("gunship.ship", "Red")):
        assert call_shipyard("roster", "add", roster, folder / design, "--callsign", callsign).returncode in (0, 1)
    before = roster.read_bytes()
    for which, listed in (
        ("scout.ship", ["1. Red (wing-a/scout.ship)", "2. Blue (wing-b/scout.ship)"]),
        ("Red", ["1. Red (wing-a/scout.ship)", "3. Red (gunship.ship)"]),
    ):
        r = call_shipyard("roster", "remove", roster, which)
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"{which!r} names 2 members" in r.stderr and "by its number" in r.stderr, r.stderr
        assert all(m in r.stderr for m in listed), r.stderr
        assert "Traceback" not in r.stderr and roster.read_bytes() == before
    r = call_shipyard("roster", "remove", roster, "wing-b/scout.ship")
    assert r.returncode in (0, 1) and "removed Blue" in r.stdout, r.stdout + r.stderr
    r = call_shipyard("roster", "remove", roster, "2")  # the gunship, numbered on from 3 to 2
    assert r.returncode in (0, 1) and "removed Red" in r.stdout, r.stdout + r.stderr
    from shipyard.hangar.roster import load_roster

    assert [(m.file, m.callsign) for m in load_roster(roster).members] == [("wing-a/scout.ship", "Red")]


def test_an_unknown_preset_is_refused_naming_the_roster_and_its_place(
    force: tuple[Path, list[Path]],
) -> None:
    roster, designs = force
    before = roster.read_text()
    ruleset = json.loads(designs[0].read_text())["ruleset"]
    r = call_shipyard("roster", "preset", roster, ruleset, "no-such-preset")
    assert r.returncode == 2 and f"{roster} at presets.{ruleset}: unknown preset 'no-such-preset'" in r.stderr
    assert roster.read_text() == before


def test_export_writes_one_actor_a_ship_named_by_callsign(force: tuple[Path, list[Path]], tmp_path: Path) -> None:
    roster, designs = force
    call_shipyard("roster", "add", roster, designs[0], "--count", "2", "--callsign", "Viper")
    call_shipyard("roster", "add", roster, designs[1])
    out = tmp_path / "actors"
    r = call_shipyard("roster", "export", roster, "-o", out)
    assert r.returncode == 0, r.stderr
    actors = [json.loads(f.read_text()) for f in sorted(out.glob("*.json"))]
    name = json.loads(designs[1].read_text())["design"]["name"]
    assert [a["name"] for a in actors] == ["Viper 1", "Viper 2", name]
    assert all((out / a["img"]).is_file() for a in actors)
    assert actors[0]["flags"]["shipyard"]["roster"] == "Strike Group"


def test_print_gives_each_ship_its_own_sheet_and_card_named_as_export_names_it(tmp_path: Path) -> None:
    """A member of count 2 was printed once, titled with its design's name, and a callsign
    was on the summary page only, while export wrote "Sentinel Corvette 1", "... 2" and
    "Clear One". Each ship now has its own sheet or card (its own damage record), titled
    as its actor is named, a callsign with the design's name after it."""
    import re

    from .test_printing import pages_text

    folder = tmp_path / "fleet"
    folder.mkdir()
    examples = CATALOGS / "cluster-falk" / "examples"
    shutil.copyfile(examples / "sentinel-corvette.ship", folder / "sentinel.ship")
    shutil.copyfile(examples / "sentinel-corvette.ship", folder / "clear.ship")
    roster = folder / "fleet.roster"
    for command in (
        ("new", roster, "--name", "F", "--ruleset", "cluster-falk", "--limit", "100"),
        ("add", roster, folder / "sentinel.ship", "--count", "2"),
        ("add", roster, folder / "clear.ship", "--callsign", "Clear One"),
    ):
        r = call_shipyard("roster", *command)
        assert r.returncode == 0, r.stderr
    r = call_shipyard("roster", "export", roster, "-o", tmp_path / "actors")
    assert r.returncode == 0, r.stderr
    actors = [json.loads(f.read_text())["name"] for f in sorted((tmp_path / "actors").glob("*.json"))]
    assert actors == ["Sentinel Corvette 1", "Sentinel Corvette 2", "Clear One"]
    titles = ["Sentinel Corvette 1", "Sentinel Corvette 2", "Clear One — Sentinel Corvette"]

    book = tmp_path / "fleet.pdf"
    r = call_shipyard("roster", "print", roster, "-o", book)
    assert r.returncode == 0, r.stderr
    texts = pages_text(book)
    sheets = [t for t in texts if "STRESS AND CONSEQUENCES" in t.upper()]
    assert len(sheets) == 3 and [n for t in sheets for n in titles if t.lstrip().startswith(n)] == titles
    contents = next(t for t in texts if t.lstrip().startswith("Contents"))
    assert all(re.search(re.escape(n) + r" passes \d+", contents) for n in titles), contents
    assert "a roster of 2 member(s), 3 ship(s) printed" in r.stdout

    cards = tmp_path / "cards.pdf"
    r = call_shipyard("roster", "print", roster, "-o", cards, "--sheet", "cards")
    assert r.returncode == 0, r.stderr
    printed = " ".join(pages_text(cards)[1:])
    assert [printed.count(n) for n in titles] == [1, 1, 1]
    assert printed.count("HULL") == 3, printed  # a hull track to tick on each ship's card


def test_export_and_print_name_a_member_they_leave_out_and_why(force: tuple[Path, list[Path]], tmp_path: Path) -> None:
    """A member whose design file is gone: `roster export` wrote the others' actors and said
    nothing of it. Export, as print does, now names it on stderr with the reason, writes the
    rest and exits 0."""
    roster, designs = force
    assert call_shipyard("roster", "add", roster, designs[0], designs[1]).returncode == 0
    designs[1].rename(designs[1].with_suffix(".ship.bak"))  # renamed away
    for command in (("export", "-o", tmp_path / "actors"), ("print", "-o", tmp_path / "r.pdf")):
        r = call_shipyard("roster", command[0], roster, *command[1:])
        assert r.returncode == 0, r.stderr
        assert f"warning: 2. {designs[1].stem}: the design file {designs[1].name} is missing" in r.stderr, r.stderr
        assert f"warning: left out, its design cannot be read: 2. {designs[1].stem}" in r.stderr, r.stderr
    written = sorted(p.name for p in (tmp_path / "actors").iterdir())
    assert len([n for n in written if n.startswith("01-") and n.endswith(".json")]) == 1, written
    assert not [n for n in written if n.startswith("02-")], written


def test_schema_roster_prints_the_roster_files_schema() -> None:
    r = call_shipyard("schema", "roster")
    schema = json.loads(r.stdout)
    assert schema["title"] == "Shipyard roster file"
    member = schema["$defs"]["Member"]["properties"]
    assert member["count"]["minimum"] == 1 and member["count"]["maximum"] == 999
    assert "design file" in json.loads(call_shipyard("schema").stdout)["title"]


def test_an_edit_of_one_member_recounts_the_totals(tmp_path: Path) -> None:
    """``recheck_member``: the member edited is read again, the totals follow, the rest stay."""
    from shipyard.hangar.roster import Roster, check_roster, member_for, recheck_member

    folder = tmp_path / "r"
    folder.mkdir()
    roster_file = folder / "r.roster"
    costed = [
        f for f in samples() if json.loads(f.read_text())["ruleset"] == json.loads(samples()[0].read_text())["ruleset"]
    ]
    members = []
    for f in costed[:3]:
        shutil.copyfile(f, folder / f.name)
        members.append(member_for(roster_file, folder / f.name, count=2)[0])
    roster = Roster(name="R", members=members)
    check = check_roster(roster, roster_file)
    second = folder / members[1].file
    second.unlink()
    after = recheck_member(check, 2)
    gone = (check.members[1].facts.cost or 1) * 2  # type: ignore[union-attr]
    assert after.total == check.total - gone
    assert after.members[1].state == "missing" and after.members[0] is check.members[0]
    assert after.total == check_roster(roster, roster_file).total


def test_an_edit_of_the_roster_reads_only_the_designs_it_added(tmp_path: Path) -> None:
    """``recheck``: a count, the limit, a removal or an undo reads no design again; a member
    added is read; the totals and findings are those a whole check finds."""
    from shipyard.hangar.roster import Roster, check_roster, recheck, subtotal

    roster_file, members = _members_of_one_ruleset(tmp_path, 3)
    roster = Roster(name="R", members=members[:2])
    check = check_roster(roster, roster_file)
    # a count and the limit: no design read again, the total follows
    counted = roster.model_copy(update={"members": [members[0].model_copy(update={"count": 5}), members[1]]})
    counted = counted.model_copy(update={"limit": 1})
    after = recheck(check, counted)
    assert after.members[0].facts is check.members[0].facts and after.members[1].facts is check.members[1].facts
    assert after.total == check_roster(counted, roster_file).total
    assert after.total == sum(subtotal(s, after.unit) or 0 for s in after.members)
    assert any("over the limit of 1" in e for e in after.errors)
    assert after.errors == check_roster(counted, roster_file).errors
    # a member added is read; one removed renumbers the rest
    added = recheck(after, counted.model_copy(update={"members": [*counted.members, members[2]]}))
    assert added.members[2].facts is not None and added.members[2].facts.name
    removed = recheck(added, counted.model_copy(update={"members": [counted.members[1], members[2]]}))
    assert [s.number for s in removed.members] == [1, 2]
    assert removed.members[0].facts is check.members[1].facts
    assert removed.total == check_roster(removed.roster, roster_file).total


def test_acknowledging_a_change_takes_the_designs_figures_as_they_are(force: tuple[Path, list[Path]]) -> None:
    from shipyard.hangar.roster import acknowledged, check_roster, load_roster

    roster_file, designs = force
    assert call_shipyard("roster", "add", roster_file, designs[0]).returncode == 0
    data = json.loads(designs[0].read_text())
    data["design"]["name"] = "Renamed Ship"
    designs[0].write_text(json.dumps(data, indent=2))
    check = check_roster(load_roster(roster_file), roster_file)
    assert "changed since the roster last saw it" in check.members[0].says[0]
    again = check_roster(acknowledged(check), roster_file)
    assert not again.members[0].says and again.members[0].state == "ok"


def test_an_edit_of_the_roster_reads_again_a_member_whose_file_changed_since(tmp_path: Path) -> None:
    """``recheck`` keeps what it read of a member only while the member's file is as it was:
    a design saved since (by another program, ``shipyard set``) is read again on the next
    edit of the roster, so the totals and the member's name are the file's, as a whole
    check finds them."""
    from shipyard.hangar.roster import Roster, check_roster, recheck

    roster_file, members = _members_of_one_ruleset(tmp_path, 2)
    folder = roster_file.parent
    roster = Roster(name="R", members=members)
    check = check_roster(roster, roster_file)
    second = folder / members[1].file
    data = json.loads(second.read_text())
    data["design"]["name"] = "Renamed Ship"
    second.write_text(json.dumps(data, indent=2))
    counted = roster.model_copy(update={"members": [members[0].model_copy(update={"count": 2}), members[1]]})
    after = recheck(check, counted)
    assert after.members[1].facts is not None and after.members[1].facts.name == "Renamed Ship"
    assert after.members[1].state == "changed"
    assert after.members[0].facts is check.members[0].facts  # the one not written is not read again
    whole = check_roster(counted, roster_file)
    assert after.total == whole.total and after.errors == whole.errors and after.warnings == whole.warnings


HAND_WRITTEN = """\
# The Red side for Saturday's game
format_version: 1
name: Red Side
rulesets: [space-fury]
limit: 200   # agreed with Tom: 200, not 250
members:
  - file: scout.ship   # Ana flies this one
    count: 2
    callsign: Red
  - file: gunship.ship
notes: |
  Bring dice.
"""


def test_a_roster_written_by_hand_keeps_its_comments_through_commands_that_change_it(tmp_path: Path) -> None:
    """``roster limit`` rewrote a hand-written roster from its values: every comment ("# agreed
    with Tom") and the person's layout were gone. Only what changed is written anew."""
    for name in ("scout", "gunship", "interceptor"):
        shutil.copy(ROOT / "catalogs" / "space-fury" / "examples" / f"{name}.ship", tmp_path)
    roster = tmp_path / "side.roster"
    roster.write_text(HAND_WRITTEN, encoding="utf-8")
    assert call_shipyard("roster", "limit", roster, "250", cwd=tmp_path).returncode == 0
    assert roster.read_text(encoding="utf-8").splitlines() == [
        "# The Red side for Saturday's game",
        "format_version: 1",
        "name: Red Side",
        "rulesets: [space-fury]",
        "limit: 250   # agreed with Tom: 200, not 250",
        "members:",
        "- file: scout.ship     # Ana flies this one",
        "  count: 2",
        "  callsign: Red",
        "- file: gunship.ship",
        "notes: |",
        "  Bring dice.",
    ]
    assert call_shipyard("roster", "add", roster, "interceptor.ship", cwd=tmp_path).returncode == 0
    text = roster.read_text(encoding="utf-8")
    assert "# The Red side for Saturday's game" in text and "# agreed with Tom: 200, not 250" in text
    assert "# Ana flies this one" in text and "- file: interceptor.ship" in text
    listed = call_shipyard("roster", "check", roster, cwd=tmp_path)
    assert "total: 192 points of 250" in listed.stdout, listed.stdout


def test_a_roster_whose_text_is_not_a_mapping_is_written_as_new(tmp_path: Path) -> None:
    """The kept text is used only where it reads back as the roster saved; else the roster's
    own text is written whole (a file replaced meanwhile by a list, say)."""
    from shipyard.hangar.roster import dumps, load_roster

    shutil.copy(ROOT / "catalogs" / "space-fury" / "examples" / "scout.ship", tmp_path)
    roster_file = tmp_path / "side.roster"
    roster_file.write_text(HAND_WRITTEN.replace("  - file: gunship.ship\n", ""), encoding="utf-8")
    roster = load_roster(roster_file)
    assert dumps(roster, "- just\n- a list\n") == dumps(roster)
    assert dumps(roster, "{unclosed") == dumps(roster)
    assert "# agreed with Tom" in dumps(roster, roster_file.read_text(encoding="utf-8"))


def test_a_roster_naming_a_ruleset_not_installed_does_not_pass(tmp_path: Path) -> None:
    """``rulesets: [spacefury]`` (a typo) passed, exit 0: no member was judged by any rules.
    On the command line the same typo is refused with the closest name; the roster says so too."""
    roster = tmp_path / "bad.roster"
    roster.write_text("name: Bad\nrulesets: [spacefury]\nlimit: 100\nmembers: []\n", encoding="utf-8")
    out = call_shipyard("roster", "check", roster)
    assert out.returncode == 1
    assert (
        "error: the roster takes designs of 'spacefury', which is no installed ruleset; did you mean 'space-fury'?"
        in out.stdout
    )


def _members_of_one_ruleset(tmp_path: Path, n: int) -> tuple[Path, list[Any]]:
    """A roster file's place in a folder of its own, and members for the first ``n`` samples
    of the first sample's ruleset, copied beside it."""
    from shipyard.hangar.roster import member_for

    folder = tmp_path / "r"
    folder.mkdir()
    roster_file = folder / "r.roster"
    ruleset = json.loads(samples()[0].read_text())["ruleset"]
    costed = [f for f in samples() if json.loads(f.read_text())["ruleset"] == ruleset]
    members = []
    for f in costed[:n]:
        shutil.copyfile(f, folder / f.name)
        members.append(member_for(roster_file, folder / f.name)[0])
    return roster_file, members
