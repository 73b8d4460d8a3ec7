"""Printing: what lands on the page, page sizes and counts, and the safety rules."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.render.paper import default_paper
from shipyard.render.printing import print_designs
from shipyard.render.worker import MIN_TIMEOUT, PARALLEL_FROM, RenderError, RenderJob, RenderWorker, workers_wanted

from .conftest import EXAMPLES, SAMPLES, call_shipyard

A4, LETTER = (210.0, 297.0), (215.9, 279.4)


def pages_text(pdf: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [re.sub(r"\s+", " ", doc[i].get_textpage().get_text_range()) for i in range(len(doc))]
    finally:
        doc.close()


def page_sizes_mm(pdf: Path) -> list[tuple[float, float]]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [
            (round(doc[i].get_width() * 25.4 / 72, 1), round(doc[i].get_height() * 25.4 / 72, 1))
            for i in range(len(doc))
        ]
    finally:
        doc.close()


def ship(name: str) -> Path:
    return EXAMPLES / f"{name}.ship"


@pytest.mark.parametrize("name", SAMPLES)
def test_record_sheet_shows_every_stat(name: str, tmp_path: Path, workers: list[RenderWorker]) -> None:
    out = tmp_path / f"{name}.pdf"
    result = print_designs([ship(name)], out, paper="a4", workers=workers, use_user_folder=False)
    assert result.pages == 1
    text = pages_text(out)[0]
    loaded = load_design(ship(name), use_user_folder=False)
    d = loaded.design
    report = evaluate(d, loaded.catalog)
    figures = {f.id: f for f in report.derived.figures}
    expected = [d.name, f"{report.scale} scale".upper(), f"Crew {d.crew:,}", f"Structure {d.structure}".upper()]
    expected += [f"HANDLING {d.handling:+d}", f"SOAK {d.soak}", f"MOVE {d.move}", f"POWER {d.power}"]
    for row in report.derived.table("weapons").rows:
        expected += [str(row[0]), str(row[5]), str(row[7])]
    expected += [str(row[0]) for row in report.derived.table("technology").rows]
    expected += [str(row[0]) for row in report.derived.table("accessories").rows]
    expected += [f"{figures[f].value:,}" for f in figures if f.startswith("capacity-")]
    if "move-kmh" in figures:
        expected.append(f"{figures['move-kmh'].value:,} km/h, Mach {figures['move-mach'].value}")
    for p in report.pools:
        expected.append(f"{p.name} {p.budget}")
    if not report.valid:
        expected.append("DOES NOT PASS")
    expected += ["Hard Turn", "Reversal", f"preset {report.preset_name}", f"{name}.ship"]
    missing = [e for e in expected if e not in text]
    assert missing == [], f"missing on the sheet: {missing}\n{text}"


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_every_sample_fits_one_page_on_both_papers(
    paper: str, size: tuple[float, float], tmp_path: Path, workers: list[RenderWorker]
) -> None:
    out = tmp_path / "all.pdf"
    result = print_designs([ship(n) for n in SAMPLES], out, paper=paper, workers=workers, use_user_folder=False)
    assert result.pages == 6 and result.starts == [1, 2, 3, 4, 5, 6]
    assert page_sizes_mm(out) == [size] * 6
    names = [n.replace("-", " ").title().replace("Disk ", "Disk-") for n in SAMPLES]
    assert [t[: len(name)] for t, name in zip(pages_text(out), names, strict=True)] == names


def _copies(tmp_path: Path, n: int) -> list[Path]:
    files = []
    for i in range(n):
        doc = json.loads(ship(SAMPLES[i % len(SAMPLES)]).read_text())
        doc["design"]["name"] = f"Wing {i + 1:02d} {doc['design']['name']}"
        f = tmp_path / f"d{i:03d}.ship"
        f.write_text(json.dumps(doc))
        files.append(f)
    return files


@pytest.mark.parametrize(("count", "pages"), [(9, 1), (10, 2)])
def test_cards_nine_a_page(count: int, pages: int, tmp_path: Path, workers: list[RenderWorker]) -> None:
    out = tmp_path / "cards.pdf"
    result = print_designs(
        _copies(tmp_path, count), out, sheet="cards", paper="letter", workers=workers, use_user_folder=False
    )
    assert result.pages == pages
    assert page_sizes_mm(out) == [LETTER] * pages
    text = " ".join(pages_text(out))
    for i in range(count):
        assert f"Wing {i + 1:02d}" in text


def test_fleet_book_has_cover_contents_sheets_and_charts(tmp_path: Path, workers: list[RenderWorker]) -> None:
    files = _copies(tmp_path, 8)
    out = tmp_path / "fleet.pdf"
    result = print_designs(
        files, out, sheet="fleet", paper="a4", workers=workers, use_user_folder=False, title="Red Squadron"
    )
    texts = pages_text(out)
    assert texts[0].startswith("SPACE FIGHTER ALPHA Red Squadron 8 designs")
    assert texts[1].startswith("Contents")
    assert result.starts == list(range(3, 11))
    for i, start in enumerate(result.starts):
        name = f"Wing {i + 1:02d}"
        assert texts[start - 1].startswith(name), (start, texts[start - 1][:40])
        assert re.search(rf"{name} .*? {start} ", texts[1]), f"contents lists {name} on page {start}"
    appendix = texts[10]
    assert appendix.startswith("Reference charts") and "Reference charts 11" in texts[1]
    for chart in ("WEAPONS", "MANEUVERS", "INTERSCALE COMBAT", "OBSTACLES", "COLLISIONS"):
        assert chart in " ".join(texts[10:]), chart
    assert len(texts) == result.pages and page_sizes_mm(out) == [A4] * len(texts)
    assert texts[5].rstrip().endswith("page 6")  # page numbers continue across parallel parts


def test_a_hostile_design_name_prints_as_text_and_embeds_nothing(tmp_path: Path, workers: list[RenderWorker]) -> None:
    evil = '<link rel="attachment" href="file:///etc/passwd">'
    doc = json.loads(ship("rebel-fighter").read_text())
    doc["design"]["name"] = evil
    doc["design"]["concept"] = '<a rel="attachment" href="file:///etc/hostname">x</a>'
    f = tmp_path / "evil.ship"
    f.write_text(json.dumps(doc))
    out = tmp_path / "evil.pdf"
    print_designs([f], out, workers=workers, use_user_folder=False)
    assert evil in pages_text(out)[0]
    pdf = pdfium.PdfDocument(str(out))
    assert pdf.count_attachments() == 0
    pdf.close()
    raw = out.read_bytes()
    assert b"/EmbeddedFile" not in raw and b"root:" not in raw


# A user's template that prints, or fails with an error of its own, is rendered by the test
# process's warm workers (conftest's ``workers``): a worker whose job answered with an error
# is left running (printing.Renderer). A test whose print stops its worker (a time limit, a
# crash, too much memory) starts a worker of its own, since the module's next print needs them.
def _user_template(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "mytemplates" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    (folder / "record.html").write_text(body)
    return tmp_path / "mytemplates"


@pytest.mark.parametrize(
    ("snippet", "says"),
    [
        ('<img src="file:///etc/passwd">', "refused 'file:///etc/passwd'"),
        ('<link rel="stylesheet" href="http://example.com/x.css">', "refused 'http://example.com/x.css'"),
        ('<img src="../../../../etc/hostname">', "only regular files inside the template and catalog folders"),
    ],
    ids=["file-outside", "network", "relative-escape"],
)
def test_user_template_may_not_reach_outside(snippet: str, says: str, tmp_path: Path) -> None:
    templates = _user_template(tmp_path, f"<html><body>{snippet}<p>{{{{ designs[0].design.name }}}}</p></body></html>")
    out = tmp_path / "x.pdf"
    with RenderWorker() as w, pytest.raises(RenderError) as exc:
        print_designs([ship("rebel-fighter")], out, user_template_dirs=[templates], workers=[w], use_user_folder=False)
    assert says in str(exc.value)
    assert not out.exists()


def test_user_template_may_use_its_own_files(tmp_path: Path, workers: list[RenderWorker]) -> None:
    templates = _user_template(
        tmp_path,
        '<html><head><link rel="stylesheet" href="mine.css"></head>'
        '<body><p class="x">{{ designs[0].design.name }}</p></body></html>',
    )
    (templates / "space-fighter-alpha" / "mine.css").write_text(".x { color: red }")
    out = tmp_path / "x.pdf"
    print_designs([ship("rebel-fighter")], out, user_template_dirs=[templates], workers=workers, use_user_folder=False)
    assert "Rebel Fighter" in pages_text(out)[0]


def test_a_runaway_template_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    templates = _user_template(
        tmp_path, "{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}"
    )
    out = tmp_path / "x.pdf"
    folder = templates / "space-fighter-alpha"
    (folder / "warm.html").write_text("<p>warm</p>")
    with RenderWorker() as w:
        # a page rendered first: WeasyPrint is imported, and the whole time limit is the template's
        assert w.render(RenderJob("warm.html", [str(folder)], {}, [str(folder)])).pages == 1
        with pytest.raises(RenderError) as exc:
            print_designs(
                [ship("rebel-fighter")],
                out,
                user_template_dirs=[templates],
                workers=[w],
                timeout=MIN_TIMEOUT,
                use_user_folder=False,
            )
        assert not w.is_alive()  # the runaway worker was killed, not left spinning
    assert "time limit" in str(exc.value) and f" {MIN_TIMEOUT:g} s " in str(exc.value)
    assert not out.exists()


def test_a_template_asking_for_too_much_memory_is_stopped(tmp_path: Path) -> None:
    templates = _user_template(tmp_path, "{{ 'x' * 10000000000 }}")  # a 10 GB string
    out = tmp_path / "x.pdf"
    with RenderWorker() as w:
        with pytest.raises(RenderError) as exc:
            print_designs(
                [ship("rebel-fighter")], out, user_template_dirs=[templates], workers=[w], use_user_folder=False
            )
        assert not w.is_alive()  # the C libraries it ran out of memory in are given no other job
    assert str(exc.value) == "the job needed more than the renderer's 3 GiB of memory; nothing was written"
    assert not out.exists()


def test_two_threads_sharing_one_worker_each_get_their_own_sheet(tmp_path: Path, workers: list[RenderWorker]) -> None:
    """The editor's preview and its printing share one worker; their jobs must not cross."""
    import threading

    names = ["rebel-fighter", "alien-mothership", "federation-battlesat", "rebel-frigate"]
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            print_designs([ship(name)], tmp_path / f"{name}.pdf", workers=workers[:1], use_user_folder=False)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for name in names:
        assert pages_text(tmp_path / f"{name}.pdf")[0].startswith(name.replace("-", " ").title()), name


def test_a_crashed_renderer_is_a_clear_error(tmp_path: Path) -> None:
    templates = _user_template(
        tmp_path, "{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}"
    )
    import threading

    with RenderWorker() as w:
        threading.Timer(1.0, lambda: w._proc.kill()).start()  # a segfault in a C library looks like this
        with pytest.raises(RenderError) as exc:
            print_designs(
                [ship("rebel-fighter")],
                tmp_path / "x.pdf",
                user_template_dirs=[templates],
                workers=[w],
                timeout=30,
                use_user_folder=False,
            )
    assert "crashed" in str(exc.value)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("<p>\n{{ designs[0].design.nmae }}</p>", "record.html:2"),
        ("<p>{% if %}</p>", "record.html:1: template syntax error"),
        ("{{ designs.__class__.__mro__ }}", "record.html:1"),
    ],
    ids=["undefined", "syntax", "sandbox"],
)
def test_template_errors_name_file_and_line(body: str, says: str, tmp_path: Path, workers: list[RenderWorker]) -> None:
    templates = _user_template(tmp_path, body)
    with pytest.raises(RenderError) as exc:
        print_designs(
            [ship("rebel-fighter")],
            tmp_path / "x.pdf",
            user_template_dirs=[templates],
            workers=workers[:1],
            use_user_folder=False,
        )
    assert says in str(exc.value)
    assert str(templates) in str(exc.value)


def test_a_template_s_error_leaves_its_worker_warm_for_the_next_print(tmp_path: Path) -> None:
    """The worker answered with the template's error and is idle: the editor's one worker
    renders its next preview at once, not after a new worker has imported WeasyPrint; only
    a worker still rendering another part of the print is stopped."""
    templates = _user_template(tmp_path, "<p>\n{{ designs[0].design.nmae }}</p>")
    with RenderWorker() as w:
        with pytest.raises(RenderError, match=r"record\.html:2"):
            print_designs(
                [ship("rebel-fighter")], tmp_path / "x.pdf", user_template_dirs=[templates], workers=[w],
                use_user_folder=False,
            )  # fmt: skip
        assert w.is_alive()
        print_designs([ship("rebel-frigate")], tmp_path / "next.pdf", workers=[w], use_user_folder=False)
    assert pages_text(tmp_path / "next.pdf")[0].startswith("Rebel Frigate")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("failing", ["first", "second"])
def test_a_part_that_fails_stops_the_worker_still_rendering_the_other_part(failing: str, tmp_path: Path) -> None:
    """Eight sheets in two parts on two workers: the Rebel Fighters' part fails at once with
    its template's error, the Rebel Frigates' would never end. Nothing will be written, so
    the worker on the endless part is stopped at once, whichever part comes first; the one
    that answered is left warm."""
    templates = _user_template(
        tmp_path,
        '{% if designs[0].design.name == "Rebel Fighter" %}{{ designs[0].design.nmae }}{% else %}'
        "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}{% endif %}",
    )
    parts = [[ship("rebel-fighter")] * 4, [ship("rebel-frigate")] * 4]
    with RenderWorker() as one, RenderWorker() as two:
        started = time.monotonic()
        with pytest.raises(RenderError, match=r"record\.html"):
            print_designs(
                parts[0] + parts[1] if failing == "first" else parts[1] + parts[0], tmp_path / "x.pdf",
                user_template_dirs=[templates], workers=[one, two], timeout=60, use_user_folder=False,
            )  # fmt: skip
        assert time.monotonic() - started < 30  # not the endless part's time limit
        assert sorted([one.is_alive(), two.is_alive()]) == [False, True]
    assert not (tmp_path / "x.pdf").exists()


def test_missing_fonts_fall_back(tmp_path: Path, workers: list[RenderWorker]) -> None:
    templates = _user_template(
        tmp_path,
        "<html><body><p style=\"font-family: 'No Such Font Family 42'\">"
        "{{ designs[0].design.name }} Ünïcödé ✓</p></body></html>",
    )
    out = tmp_path / "x.pdf"
    print_designs([ship("rebel-fighter")], out, user_template_dirs=[templates], workers=workers, use_user_folder=False)
    assert "Rebel Fighter Ünïcödé" in pages_text(out)[0]


def test_failed_print_leaves_an_existing_file_alone(tmp_path: Path) -> None:
    templates = _user_template(tmp_path, "{{ nope }}")
    out = tmp_path / "keep.pdf"
    out.write_bytes(b"%PDF-1.7 old")
    with RenderWorker() as w, pytest.raises(RenderError):
        print_designs([ship("rebel-fighter")], out, user_template_dirs=[templates], workers=[w], use_user_folder=False)
    assert out.read_bytes() == b"%PDF-1.7 old"
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


@pytest.mark.parametrize(
    ("env", "paper"),
    [
        ({"SHIPYARD_PAPER": "letter", "LANG": "de_DE.UTF-8"}, "letter"),
        ({"LC_PAPER": "en_US.UTF-8"}, "letter"),
        ({"LANG": "en_CA.UTF-8"}, "letter"),
        ({"LANG": "en_GB.UTF-8"}, "a4"),
        ({"LANG": "fr_FR.UTF-8"}, "a4"),
    ],
)
def test_default_paper_follows_the_locale(env: dict[str, str], paper: str, tmp_path: Path) -> None:
    assert default_paper(env, tmp_path / "none") == paper


def test_default_paper_reads_etc_papersize(tmp_path: Path) -> None:
    f = tmp_path / "papersize"
    f.write_text("letter\n")
    assert default_paper({"LANG": "C.UTF-8"}, f) == "letter"
    f.write_text("a4\n")
    assert default_paper({}, f) == "a4"


def _cli(*args: str) -> tuple[int, str, str]:
    p = call_shipyard(*args)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.fresh_workers  # counts the workers the command starts
def test_print_command_writes_the_pdf(tmp_path: Path) -> None:
    """Stat cards are one job however many designs: the command starts one worker for them."""
    from unittest import mock

    started: list[RenderWorker] = []
    real_init = RenderWorker.__init__

    def init(self: RenderWorker, method: str | None = None) -> None:
        started.append(self)
        real_init(self, method)

    out = tmp_path / "cards.pdf"
    with mock.patch.object(RenderWorker, "__init__", init):
        code, stdout, err = _cli(
            "print",
            *[str(ship(n)) for n in SAMPLES],
            "--sheet",
            "cards",
            "--paper",
            "letter",
            "-o",
            str(out),
            "--no-user-catalog",
        )
    assert code == 0, err
    assert len(started) == 1  # a second would import WeasyPrint and never get a job
    assert f"wrote {out}: 1 page(s), 6 design(s)" in stdout
    assert page_sizes_mm(out) == [LETTER]
    (text,) = pages_text(out)
    names = ("Alien Disk-Fighter", "Alien Mothership", "Federation Battlesat", "Federation Space Station")
    for name in (*names, "Rebel Fighter", "Rebel Frigate"):
        assert name in text


def test_a_print_starts_a_second_worker_only_for_jobs_it_can_give_it() -> None:
    """Cards, a comparison and tokens are each one job however many designs; a few record
    sheets are one job; many record sheets and a fleet book are split between two workers."""
    for sheet in ("cards", "compare", "tokens"):
        assert workers_wanted(sheet, 100, 4) == 1, sheet
    assert workers_wanted("record", PARALLEL_FROM - 1, 4) == 1 and workers_wanted("record", PARALLEL_FROM, 4) == 2
    assert workers_wanted("fleet", 2, 4) == 2 and workers_wanted("fleet", 100, 1) == 1


def test_print_command_bad_design_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ship"
    bad.write_text('{"format_version": 2, "ruleset": "space-fighter-alpha", "design": {"name": "X"}}')
    out = tmp_path / "x.pdf"
    code, _, err = _cli("print", str(bad), "-o", str(out), "--no-user-catalog")
    assert code == 2 and "bad.ship at design.crew: Field required" in err and "Traceback" not in err
    assert not out.exists()


def test_print_command_render_failure_exits_3(tmp_path: Path) -> None:
    templates = _user_template(
        tmp_path, "{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}"
    )
    out = tmp_path / "x.pdf"
    code, _, err = _cli(
        "print",
        str(ship("rebel-fighter")),
        "-o",
        str(out),
        "--template",
        str(templates),
        "--timeout",
        f"{MIN_TIMEOUT:g}",  # the shortest limit: the exit status and message are held, not the seconds
        "--no-user-catalog",
    )
    assert code == 3 and "time limit" in err and "Traceback" not in err
    assert not out.exists()


def test_fleet_contents_that_take_an_extra_page_still_give_the_right_page_numbers(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """Contents are planned at 38 designs a page; a front that takes more pages is laid out again."""
    folder = tmp_path / "mytemplates" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    (folder / "fleet_front.html").write_text(
        "<html><head><style>@page { size: A4; margin: 10mm } .p { page-break-after: always }</style></head><body>"
        '<div class="p">Cover</div>'
        '<div class="p">Contents {% for c in contents %}{{ c.name }} page {{ c.page }}; {% endfor %}</div>'
        "<div>A foreword that takes a page of its own</div></body></html>"
    )
    out = tmp_path / "fleet.pdf"
    files = [ship("rebel-fighter"), ship("rebel-frigate")]
    result = print_designs(
        files, out, sheet="fleet", user_template_dirs=[tmp_path / "mytemplates"], workers=workers, use_user_folder=False
    )
    texts = pages_text(out)
    assert result.starts == [4, 5]
    assert "Rebel Fighter page 4; Rebel Frigate page 5;" in texts[1]
    assert texts[3].startswith("Rebel Fighter") and texts[4].startswith("Rebel Frigate")


def test_a_fleet_sheet_that_runs_over_a_page_moves_the_contents_and_the_later_sheets(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    """The front and back are laid out beside the sheets from one page a sheet; a sheet of
    two pages moves every later sheet, and the contents are laid out again to say so."""
    folder = tmp_path / "mytemplates" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    page = "<html><head><style>@page { size: A4; margin: 10mm } .p { page-break-after: always }</style></head>"
    (folder / "fleet_front.html").write_text(
        page + '<body><div class="p">Cover</div>'
        "<div>Contents {% for c in contents %}{{ c.name }} page {{ c.page }}; {% endfor %}</div></body></html>"
    )
    (folder / "record.html").write_text(
        page + '<body>{% for e in designs %}<div class="p" id="sheet-{{ loop.index0 }}">{{ e.design.name }}'
        '{% if e.design.name == "Rebel Frigate" %}<div style="page-break-before: always">more</div>{% endif %}'
        "</div>{% endfor %}</body></html>"
    )
    out = tmp_path / "fleet.pdf"
    files = [ship("rebel-fighter"), ship("rebel-frigate"), ship("alien-disk-fighter")]
    result = print_designs(
        files, out, sheet="fleet", user_template_dirs=[tmp_path / "mytemplates"], workers=workers, use_user_folder=False
    )
    texts = pages_text(out)
    assert result.starts == [3, 4, 6]
    assert "Rebel Fighter page 3; Rebel Frigate page 4; Alien Disk-Fighter page 6;" in texts[1]
    assert texts[2].startswith("Rebel Fighter") and texts[4].startswith("more") and texts[5].startswith("Alien")
    assert len(texts) == result.pages > 6  # the appendix after the last sheet


# --- issue 18: big designs print in linear time; workers never outlive the command ----------


def _big_design(tmp_path: Path, n: int) -> Path:
    """The Rebel Fighter with ``n`` weapons, ``n`` technologies and ``n`` accessories (valid, if over budget)."""
    doc = json.loads(ship("rebel-fighter").read_text())
    doc["design"]["weapons"] = [{"weapon": "light-laser"}] * n
    doc["design"]["technology"] = [{"id": "high-powered-lasers"}] * n
    doc["design"]["accessories"] = [{"id": "landing-gear"}] * n
    path = tmp_path / f"big-{n}.ship"
    path.write_text(json.dumps(doc))
    return path


def test_a_large_design_prints_in_time_linear_in_its_size(tmp_path: Path, workers: list[RenderWorker]) -> None:
    """200 weapons, technologies and accessories took 35 s, 12x the time of 50 (quadratic).

    Two causes: WeasyPrint's min-content width of a table cell with overflow-wrap:anywhere
    lays the rest of the cell out again for every character, and every weapon's note named
    every High Powered Lasers again. 8x the design must take well under 8x the time (the
    sheet's fixed part is most of a small print); best of two runs of each, in one process,
    counted in the worker's CPU time (/proc), which other processes on a loaded machine do not
    stretch as they stretch the clock (under a suite at load 10 the clock said 11.5x).
    """
    import time

    worker = workers[0]

    def cpu_seconds() -> float:
        fields = Path(f"/proc/{worker._proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    clock = cpu_seconds if Path("/proc/self/stat").is_file() else time.perf_counter

    def best(path: Path) -> float:
        times = []
        for i in range(2):
            start = clock()
            print_designs([path], tmp_path / f"{path.stem}-{i}.pdf", workers=[worker], use_user_folder=False)
            times.append(clock() - start)
        return min(times)

    small, big = _big_design(tmp_path, 25), _big_design(tmp_path, 200)
    ratio = best(big) / best(small)
    assert ratio < 8, f"8x the design took {ratio:.1f}x the time"
    text = " ".join(pages_text(tmp_path / "big-200-0.pdf"))
    assert "with Enhanced Lasers x200" in text  # each bonus item named once, with its count
    assert "Enhanced Lasers, Enhanced Lasers" not in text


def _children(pid: int) -> list[int]:
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat_file.parent.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_render_workers_die_with_the_print_command(signal_name: str, tmp_path: Path) -> None:
    """kill -9 or SIGTERM of 'shipyard print' left both workers running forever."""
    import signal
    import subprocess
    import sys
    import time

    templates = _user_template(
        tmp_path, "{% for a in range(100000) %}{% for b in range(100000) %}{{ a }}{% endfor %}{% endfor %}"
    )
    argv = ["print", *[str(ship(n)) for n in SAMPLES], "--sheet", "fleet", "-o", str(tmp_path / "x.pdf")]
    argv += ["--template", str(templates), "--timeout", "600", "--no-user-catalog"]
    proc = subprocess.Popen([sys.executable, "-m", "shipyard", *argv], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = _children(proc.pid)
        assert len(workers) == 2, workers
        time.sleep(2)  # both busy with the runaway template
        proc.send_signal(getattr(signal, signal_name))
        _, err = proc.communicate(timeout=60)
        if signal_name == "SIGTERM":
            assert proc.returncode == 143 and "Traceback" not in err, err
        deadline = time.monotonic() + 30
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [w for w in workers if _running(w)]
        assert not (tmp_path / "x.pdf").exists()
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.fresh_workers  # that the command's own workers stop
def test_a_finished_print_stops_its_workers_at_once_and_keeps_its_file(tmp_path: Path) -> None:
    """After the last answer a worker frees its layout (a quarter of a second for a large
    force), which 'shipyard print' waited for before it returned; it stops them at once now,
    the file already whole."""
    from unittest import mock

    closed: list[bool] = []
    pids: list[int] = []
    real_close = RenderWorker.close

    def close(self: RenderWorker, wait: bool = True) -> None:
        closed.append(wait)
        pids.append(self._proc.pid)
        real_close(self, wait)

    out = tmp_path / "fleet.pdf"
    with mock.patch.object(RenderWorker, "close", close):
        done = call_shipyard(
            "print", *[str(ship(n)) for n in SAMPLES], "--sheet", "fleet", "-o", out, "--no-user-catalog"
        )
    assert done.returncode == 0, done.stderr
    assert closed == [False, False]  # the fleet book's two workers, neither waited for
    assert not [pid for pid in pids if _running(pid)]  # and none outlives the command
    pages = len(pdfium.PdfDocument(out))
    assert f"wrote {out}: {pages} page(s), {len(SAMPLES)} design(s)" in done.stdout
