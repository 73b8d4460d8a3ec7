"""The hangar's index and a roster's totals, on thousands of generated design files.

Run from the repository root::

    .venv/bin/python bench/bench_hangar.py [--sizes 1000,5000,10000] [--searches 200]

For each size, a temporary folder is filled with copies of every built-in sample design
(``catalogs/*/examples/*.ship``), each with a name of its own, a tag, and every third with
its whole-number fields moved by one (so figures vary; some copies then fail their checks,
as a real library's do). Each size is measured in a child process of its own, with its own
index file, so its peak memory (``ru_maxrss``) is its own:

- **first**: the first index of the folder (``Index.scan``), against the **baseline**: the
  same files read and parsed as JSON in the same child (what any index must at least do);
- **rescan**: a second scan with nothing changed (each file's status and rules stamps only);
- **search p95**: ``find`` with three filters (a ruleset, ``passes``, a figure at least its
  median), ``--searches`` times, 95th percentile, against a plain ``count(*)`` of the index;
  **read p95**: the same search with every entry found then read (what ``find --json``
  and the Hangar window do with them);
- **peak MB**: the child's peak memory, against a child that only imports the modules and
  loads the catalogs (the baseline line); **workers MB**: the largest of the scan's worker
  processes (``SHIPYARD_HANGAR_WORKERS`` sets how many; unset, as many as cores are free).

Each line says the machine's load (``/proc/loadavg``) when its size began and the workers
the first index read in.

Then a roster of 50 members from the largest folder (of a ruleset with composition rules,
when one has them): checked once (loaded), then one member's file edited and the totals
counted again (``recheck_member``: that member read again, the others as they were, the
composition rules judged over all of them); the median of 20 edits, against the first full
check, and the median of judging the composition rules alone.

Then the editor's path (``child_page``): the same roster open on its Roster page, a count
set in the members table as its spin box commits it, timed until the page shows the new
total (``--roster-only``: these two figures alone, from 400 files).

Targets (issue 49): first index of 10,000 at most 60 s, rescan at most 2 s, search p95 at
most 50 ms, totals after an edit within one frame (16 ms): on the page, its CPU time p95. The machines are shared and
noisy: compare the ratios between runs, not the milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"first_s_10k": 60.0, "rescan_s": 2.0, "search_p95_ms": 50.0, "edit_ms": 16.0}


def generate(folder: Path, n: int) -> list[Path]:
    """``n`` design files made from the samples: names, tags and some figures varied."""
    samples = sorted((ROOT / "catalogs").glob("*/examples/*.ship"))
    docs = [json.loads(f.read_text(encoding="utf-8")) for f in samples]
    made = []
    for i in range(n):
        doc = json.loads(json.dumps(docs[i % len(docs)]))
        body = doc["design"]
        if isinstance(body.get("name"), str):
            body["name"] = f"{body['name']} {i:05d}"
        if i % 3 == 0:
            for key, value in body.items():
                if isinstance(value, int) and not isinstance(value, bool) and key != "seed":
                    body[key] = value + 1
        doc["tags"] = [f"group-{i % 10}"]
        sub = folder / f"shelf-{i // 500:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / f"design-{i:05d}.ship"
        path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
        made.append(path)
    return made


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_baseline() -> dict[str, float]:
    """Imports and catalogs only: the memory every index run starts from."""
    import shipyard.hangar.index
    import shipyard.hangar.query  # noqa: F401
    from shipyard.core.catalog import load_catalog
    from shipyard.core.registry import rulesets

    for info in rulesets():
        load_catalog(info.id)
    return {"peak_mb": peak_mb()}


def child_size(folder: Path, searches: int) -> dict[str, float]:
    from shipyard.hangar.index import Index, design_files
    from shipyard.hangar.query import search

    start = time.perf_counter()
    for f in design_files(folder):
        json.loads(f.read_bytes())
    parse_s = time.perf_counter() - start

    from shipyard.hangar.index import scan_workers

    index = Index(folder.parent / "index.sqlite")
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    workers = scan_workers()
    start = time.perf_counter()
    first = index.scan([folder], workers)
    first_s = time.perf_counter() - start
    start = time.perf_counter()
    again = index.scan([folder])
    rescan_s = time.perf_counter() - start
    assert again.unchanged == first.added and again.changed == 0

    # three filters: the ruleset with the most designs, passes, and its commonest figure at its median
    ruleset, _ = index.db.execute(
        "SELECT ruleset, count(*) c FROM files WHERE problem IS NULL GROUP BY ruleset ORDER BY c DESC"
    ).fetchone()
    key, median = index.db.execute(
        "SELECT figures.key, avg(value) FROM figures JOIN files ON files.id = figures.file WHERE ruleset = ? "
        "GROUP BY figures.key ORDER BY count(*) DESC LIMIT 1",
        (ruleset,),
    ).fetchone()
    tokens = [f"ruleset:{ruleset}", "passes", f"{key}>={median:g}"]
    times, base, read = [], [], []
    hits = 0
    for _ in range(searches):
        t = time.perf_counter()
        hits = len(search(index, tokens))
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        index.db.execute("SELECT count(*) FROM files").fetchone()
        base.append(time.perf_counter() - t)
        t = time.perf_counter()
        list(search(index, tokens))
        read.append(time.perf_counter() - t)
    p95, base_p95, read_p95 = (sorted(x)[int(0.95 * (len(x) - 1))] * 1000 for x in (times, base, read))
    index.close()
    return {
        "files": first.added,
        "broken": first.broken,
        "parse_s": parse_s,
        "first_s": first_s,
        "rescan_s": rescan_s,
        "search_p95_ms": p95,
        "search_base_p95_ms": base_p95,
        "read_p95_ms": read_p95,
        "hits": hits,
        "peak_mb": peak_mb(),
        "workers_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "workers": workers,
        "load": load,  # type: ignore[dict-item]
        "query": " ".join(tokens),  # type: ignore[dict-item]
    }


def judged_ruleset() -> str | None:
    """A ruleset whose catalog has composition rules (the roster's members are of it, so an
    edit's totals include judging them), or None when none has."""
    from shipyard.core.catalog import available_rulesets, load_catalog
    from shipyard.core.composition import composition_rules

    return next((r for r in available_rulesets() if composition_rules(load_catalog(r))), None)


def fifty(folder: Path) -> Path:
    """A roster of 50 members of one ruleset from ``folder`` (one with composition rules, when
    one has them), written beside them."""
    from shipyard.hangar.roster import Roster, design_facts, member_for, save_roster

    roster_file = folder / "fifty.roster"
    members = []
    wanted = judged_ruleset()
    for f in sorted(folder.rglob("*.ship")):
        try:
            facts = design_facts(f)[0]
        except Exception:
            continue
        if (wanted and facts.ruleset != wanted) or (members and facts.ruleset != members[0][1].ruleset):
            continue
        members.append(member_for(roster_file, f, count=1 + len(members) % 3))
        if len(members) == 50:
            break
    roster = Roster(name="Fifty", rulesets=[members[0][1].ruleset], members=[m for m, _ in members])
    save_roster(roster, roster_file)
    return roster_file


def child_roster(folder: Path) -> dict[str, float]:
    from shipyard.hangar.roster import check_roster, composition, load_roster, recheck_member

    roster_file = fifty(folder)
    roster = load_roster(roster_file)
    start = time.perf_counter()
    check = check_roster(roster, roster_file)
    full_ms = (time.perf_counter() - start) * 1000
    edited = folder / roster.members[7].file
    text = edited.read_text(encoding="utf-8")
    edits = []
    for i in range(20):
        doc = json.loads(text)
        doc["design"]["name"] = f"Edited {i}"
        edited.write_text(json.dumps(doc), encoding="utf-8")
        start = time.perf_counter()
        check = recheck_member(check, 8)
        edits.append((time.perf_counter() - start) * 1000)
    assert check.members[7].facts is not None and check.members[7].facts.name == "Edited 19"
    judging = []
    for _ in range(20):  # the composition rules alone, over the members as checked
        start = time.perf_counter()
        found = composition(check.roster, check.members, check.unit)
        judging.append((time.perf_counter() - start) * 1000)
    return {
        "members": len(roster.members),
        "full_ms": full_ms,
        "edit_ms": statistics.median(edits),
        "judge_ms": statistics.median(judging),
        "findings": len(found),
        "total": check.total,
    }


def child_page(folder: Path) -> dict[str, float]:
    """The editor's path: the 50-member roster open on its page, a count set in the members
    table as its spin box commits it (the cell's data), timed until the page shows the new
    total and the events it posted (the repaint) are handled; against the baseline of the
    total's label given a new text and repainted alone. Timed twice: on the clock, and in
    the GUI thread's own CPU time (on a machine shared by many, the clock's slowest edits
    are the ones the scheduler paused; the CPU time is the work the edit costs)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT / "bench"))
    from _editor import editor_window
    from PySide6.QtCore import Qt

    from shipyard._qt.view.rosterpage import COUNT, RosterPage

    roster_file = fifty(folder)
    app, window = editor_window(preview=False)
    start = time.perf_counter()
    window.open_file(roster_file)
    page = window.tabs.currentWidget()
    assert isinstance(page, RosterPage) and page.table.rowCount() == 50
    for _ in range(10):
        app.processEvents()
    open_ms = (time.perf_counter() - start) * 1000
    edits, base, cpu = [], [], []
    for i in range(60):
        row = (i * 7) % 50
        item = page.table.item(row, COUNT)
        count = int(item.data(Qt.ItemDataRole.EditRole)) % 9 + 1
        before = page.total.text()
        start, start_cpu = time.perf_counter(), time.thread_time()
        item.setData(Qt.ItemDataRole.EditRole, count)  # what the count's spin box commits
        app.processEvents()
        edits.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        assert page.doc.roster.members[row].count == count and page.table.item(row, COUNT).text() == str(count)
        start = time.perf_counter()
        page.total.setText(f"{before} ")
        app.processEvents()
        base.append((time.perf_counter() - start) * 1000)
    edits.sort()
    base.sort()
    cpu.sort()
    from shipyard.hangar.roster import check_roster

    whole = check_roster(page.doc.roster, roster_file)
    assert page.doc.check.total == whole.total and page.doc.check.errors == whole.errors  # the figures are right
    window.close()
    return {
        "open_ms": open_ms,
        "page_edit_ms": statistics.median(edits),
        "page_edit_p95_ms": edits[int(len(edits) * 0.95) - 1],
        "page_base_ms": statistics.median(base),
        "page_base_p95_ms": base[int(len(base) * 0.95) - 1],
        "page_cpu_ms": statistics.median(cpu),
        "page_cpu_p95_ms": cpu[int(len(cpu) * 0.95) - 1],
    }


def run_child(*args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        sys.exit(f"bench child {args[0]} failed:\n{out.stderr}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--roster-only", action="store_true", help="only the 50-member roster's figures")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        what, *rest = args.child
        if what == "baseline":
            print(json.dumps(child_baseline()))
        elif what == "size":
            print(json.dumps(child_size(Path(rest[0]), int(rest[1]))))
        elif what == "page":
            print(json.dumps(child_page(Path(rest[0]))))
        else:
            print(json.dumps(child_roster(Path(rest[0]))))
        return
    if args.roster_only:
        roster_only()
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-hangar-") as tmp:
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")  # the children's caches and data: never the user's
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")
        base = run_child("baseline")
        print(f"baseline: imports and catalogs, peak {base['peak_mb']:.0f} MB")
        print(f"{'files':>6} {'first s':>8} {'parse s':>8} {'ratio':>6} {'rescan s':>9} {'p95 ms':>7} "
              f"{'base ms':>8} {'read ms':>8} {'peak MB':>8} {'ratio':>6} {'wkr MB':>7} {'workers':>7} "
              f"{'load':>6}")  # fmt: skip
        rows = {}
        largest = None
        for n in sizes:
            folder = Path(tmp) / f"lib-{n}" / "designs"
            generate(folder, n)
            r = run_child("size", str(folder), str(args.searches))
            rows[n] = r
            largest = folder
            print(
                f"{int(r['files']):>6} {r['first_s']:>8.2f} {r['parse_s']:>8.2f} {r['first_s'] / r['parse_s']:>6.1f} "
                f"{r['rescan_s']:>9.2f} {r['search_p95_ms']:>7.2f} {r['search_base_p95_ms']:>8.3f} "
                f"{r['read_p95_ms']:>8.2f} {r['peak_mb']:>8.0f} {r['peak_mb'] / base['peak_mb']:>6.2f} "
                f"{r['workers_mb']:>7.0f} {int(r['workers']):>7} {r['load']:>6}"
            )
        print(f"search: {rows[sizes[-1]]['query']} ({int(rows[sizes[-1]]['hits'])} found)")
        assert largest is not None
        roster = run_child("roster", str(largest))
        print(
            f"roster of {int(roster['members'])}: full check {roster['full_ms']:.1f} ms, totals after one member's "
            f"edit {roster['edit_ms']:.2f} ms (ratio {roster['edit_ms'] / roster['full_ms']:.3f}), of which its "
            f"composition rules {roster['judge_ms']:.2f} ms ({int(roster['findings'])} findings)"
        )
        page = run_child("page", str(largest))
        print_page(page)
    big = rows[sizes[-1]]
    goals = [
        ("first", big["first_s"], TARGETS["first_s_10k"] * sizes[-1] / 10000),
        ("rescan", big["rescan_s"], TARGETS["rescan_s"]),
        ("search", big["search_p95_ms"], TARGETS["search_p95_ms"]),
        ("edit", roster["edit_ms"], TARGETS["edit_ms"]),
    ]
    goals.append(("page-edit", page["page_cpu_p95_ms"], TARGETS["edit_ms"]))
    verdicts = " ".join(f"{name}={'PASS' if value <= goal else 'MISS'}" for name, value, goal in goals)
    print(
        f"SUMMARY hangar {sizes[-1]} files: first {big['first_s']:.1f} s, rescan {big['rescan_s']:.2f} s, "
        f"search p95 {big['search_p95_ms']:.1f} ms (read {big['read_p95_ms']:.1f} ms), "
        f"peak {big['peak_mb']:.0f} MB; roster edit "
        f"{roster['edit_ms']:.2f} ms; roster page edit p95 {page['page_edit_p95_ms']:.2f} ms; {verdicts}"
    )


def print_page(page: dict[str, float]) -> None:
    print(
        f"roster page of 50: opened in {page['open_ms']:.0f} ms; a count typed -> totals shown: median "
        f"{page['page_edit_ms']:.2f} ms, p95 {page['page_edit_p95_ms']:.2f} ms on the clock; CPU median "
        f"{page['page_cpu_ms']:.2f} ms, p95 {page['page_cpu_p95_ms']:.2f} ms (a frame: 16 ms); a label repainted "
        f"alone: median {page['page_base_ms']:.2f} ms, p95 {page['page_base_p95_ms']:.2f} ms (median ratio "
        f"{page['page_edit_ms'] / max(page['page_base_ms'], 1e-3):.1f})"
    )


def roster_only() -> None:
    """--roster-only: the 50-member roster, in the engine and on its page, from 400 files."""
    with tempfile.TemporaryDirectory(prefix="bench-hangar-") as tmp:
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")
        folder = Path(tmp) / "lib" / "designs"
        generate(folder, 400)
        roster = run_child("roster", str(folder))
        print(f"roster of {int(roster['members'])}: full check {roster['full_ms']:.1f} ms, one member's design edited "
              f"-> totals {roster['edit_ms']:.2f} ms, of which its composition rules {roster['judge_ms']:.2f} ms "
              f"({int(roster['findings'])} findings)")  # fmt: skip
        page = run_child("page", str(folder))
        print_page(page)
    verdict = "PASS" if page["page_cpu_p95_ms"] <= TARGETS["edit_ms"] else "MISS"
    print(
        f"SUMMARY roster of 50: engine edit {roster['edit_ms']:.2f} ms; page edit median {page['page_edit_ms']:.2f} "
        f"ms p95 {page['page_edit_p95_ms']:.2f} ms (CPU p95 {page['page_cpu_p95_ms']:.2f} ms); page-edit={verdict}"
    )


if __name__ == "__main__":
    main()
