"""Printing that keeps up (issue 25), checked by what it does, never by how long it takes:
a render no longer wanted is dropped while the worker stays warm for the next, a print of
another owner is never dropped, and a book split into many parallel jobs joins into one
PDF that keeps every page, field and tag.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from shipyard import _speedups
from shipyard.render import printing
from shipyard.render.printing import print_designs, sheet_chunks
from shipyard.render.worker import RenderJob, RenderSuperseded, RenderWorker

from .conftest import EXAMPLES
from .test_printing import pages_text

SLOW = "{% for a in range(3000) %}{% for b in range(3000) %}{% endfor %}{% endfor %}<p>slow {{ n }}</p>"


def _job(tmp_path: Path, owner: str, n: int = 1) -> RenderJob:
    """A job that takes seconds in the template (nine million loop turns), then prints a line."""
    folder = tmp_path / "slow"
    folder.mkdir(exist_ok=True)
    (folder / "slow.html").write_text(SLOW)
    return RenderJob("slow.html", [str(folder)], {"n": n}, [str(folder)], owner=owner)


def _render_in_thread(worker: RenderWorker, job: RenderJob, timeout: float = 120) -> tuple[threading.Thread, list[Any]]:
    answer: list[Any] = []

    def run() -> None:
        try:
            answer.append(worker.render(job, timeout=timeout))
        except BaseException as exc:
            answer.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, answer


def _supersede_when_running(worker: RenderWorker, owner: str, thread: threading.Thread) -> bool:
    """Supersede ``owner``'s job as soon as the worker is rendering it; whether it was signalled."""
    while thread.is_alive():
        if worker.supersede(owner):
            return True
        thread.join(0.01)
    return False


@pytest.mark.speedups
def test_a_superseded_render_is_dropped_and_the_warm_worker_renders_the_next(tmp_path: Path) -> None:
    with RenderWorker() as worker:
        pid = worker._proc.pid
        thread, answer = _render_in_thread(worker, _job(tmp_path, "preview-1"))
        assert _supersede_when_running(worker, "preview-1", thread)
        thread.join(120)
        assert len(answer) == 1 and isinstance(answer[0], RenderSuperseded), answer
        # the same process, still alive, renders the next job in full
        result = worker.render(_job(tmp_path, "preview-1", 2), timeout=120)
        assert worker._proc.pid == pid and worker._proc.is_alive()
        out = tmp_path / "next.pdf"
        out.write_bytes(result.pdf)
        assert pages_text(out) == ["slow 2"]
        assert not worker.supersede("preview-1")  # nothing of its owner is rendering now


def test_a_superseded_preview_leaves_its_worker_running_for_the_next(tmp_path: Path) -> None:
    """The editor's preview goes through the printing code (print_loaded), which stops its
    workers when a job fails: a job dropped for a newer one has not failed, and its worker,
    warm and idle, is not stopped (the editor's next preview started a new one)."""
    from shipyard.core.designfile import load_design

    folder = tmp_path / "mine" / "space-fighter-alpha"
    folder.mkdir(parents=True)
    (folder / "record.html").write_text(SLOW)
    design = load_design(EXAMPLES / "rebel-fighter.ship", use_user_folder=False)
    answer: list[BaseException] = []

    def preview() -> None:
        try:
            printing.print_loaded(
                [design], tmp_path / "p.pdf", user_template_dirs=[folder.parent], workers=[worker], owner="preview-1"
            )
        except RenderSuperseded as exc:
            answer.append(exc)

    with RenderWorker() as worker:
        pid = worker._proc.pid
        thread = threading.Thread(target=preview)
        thread.start()
        assert _supersede_when_running(worker, "preview-1", thread)
        thread.join(120)
        assert len(answer) == 1
        assert worker._proc.is_alive() and worker._proc.pid == pid
        assert worker.render(_job(tmp_path, "preview-1", 2), timeout=120).pages == 1


@pytest.mark.speedups
def test_another_owners_render_is_never_superseded(tmp_path: Path) -> None:
    with RenderWorker() as worker:
        thread, answer = _render_in_thread(worker, _job(tmp_path, "print", 3))
        while thread.is_alive() and worker._owner != "print":
            thread.join(0.01)
        assert not worker.supersede("preview-1") and not worker.supersede("")
        thread.join(120)
        out = tmp_path / "print.pdf"
        out.write_bytes(answer[0].pdf)
        assert pages_text(out) == ["slow 3"]


def test_a_big_book_is_split_into_jobs_of_a_bounded_size() -> None:
    assert sheet_chunks(3, 1) == 1 and sheet_chunks(3, 2) == 2  # one job a worker at least
    assert sheet_chunks(100, 2) == 6 and sheet_chunks(200, 2) == 12  # none of more than 17 designs
    assert sheet_chunks(34, 2) == 2 and sheet_chunks(35, 2) == 3 and sheet_chunks(1, 2) == 1


def test_a_fleet_book_of_many_parallel_parts_keeps_pages_fields_and_tags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: list[RenderWorker]
) -> None:
    monkeypatch.setattr(printing, "CHUNK_DESIGNS", 2)  # five designs: three sheet jobs, and front and back
    names = ["rebel-fighter", "rebel-frigate", "alien-disk-fighter", "federation-battlesat", "alien-mothership"]
    files = [EXAMPLES / f"{n}.ship" for n in names]
    out = tmp_path / "book.pdf"
    assert len(workers) == 2  # the parts are rendered side by side
    result = print_designs(files, out, sheet="fleet", workers=workers, use_user_folder=False, fillable=True)
    flat = tmp_path / "one-part-each.pdf"
    singles = [print_designs([f], flat, workers=workers[:1], use_user_folder=False, fillable=True) for f in files]
    reader = PdfReader(out)
    assert len(reader.pages) == result.pages
    texts = pages_text(out)
    for file, start in zip(files, result.starts, strict=True):
        name = json.loads(file.read_text())["design"]["name"]
        assert texts[start - 1].startswith(name), (name, start)
    # every sheet's form fields are in the book's one form, under the names the sheets gave them
    fields = reader.get_fields() or {}
    assert result.fields == sum(s.fields for s in singles) == len(fields) > 0
    # one structure tree: every page and field has its own key, every element's page is a page of the book
    root = reader.trailer["/Root"]
    tree = root["/StructTreeRoot"]
    assert root["/Lang"] == "en" and bool(root["/MarkInfo"]["/Marked"]) and reader.metadata.title == "Fleet book"
    keys = [int(k) for k in tree["/ParentTree"]["/Nums"][::2]]
    page_keys = [int(p["/StructParents"]) for p in reader.pages]
    annot_keys = [int(a.get_object()["/StructParent"]) for p in reader.pages for a in p.get("/Annots", [])]
    assert len(set(page_keys + annot_keys)) == len(page_keys + annot_keys)
    assert set(page_keys + annot_keys) <= set(keys) and int(tree["/ParentTreeNextKey"]) > max(keys)
    pages = {p.indirect_reference.idnum for p in reader.pages}
    document = tree["/K"][0].get_object()
    assert document["/S"] == "/Document"
    seen: set[int] = set()
    todo = [document]
    while todo:
        element = todo.pop()
        if "/Pg" in element:
            seen.add(element.raw_get("/Pg").idnum)
        kids = element.get("/K")
        for kid in kids if isinstance(kids, list) else [kids]:
            if kid is not None and hasattr(kid, "get_object") and hasattr(kid.get_object(), "raw_get"):
                todo.append(kid.get_object())
    assert seen == pages  # every page's content is tagged, and only the book's pages are named


# --- the preview's drafts -------------------------------------------------------------------


def _pixels(pdf: bytes) -> bytes:
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(pdf)[0]
    return bytes(page.render(scale=2).to_pil().convert("RGB").tobytes())


def test_a_preview_draft_looks_as_the_print_and_is_a_sheet_of_the_same_text(
    tmp_path: Path, workers: list[RenderWorker]
) -> None:
    from pypdf import PdfReader

    from shipyard.core.designfile import load_design
    from shipyard.render.printing import print_loaded

    loaded = load_design(EXAMPLES / "rebel-frigate.ship", use_user_folder=False)
    worker = workers[0]
    printed, draft = tmp_path / "print.pdf", tmp_path / "draft.pdf"
    print_loaded([loaded], printed, workers=[worker])
    print_loaded([loaded], draft, workers=[worker], draft=True)
    again = tmp_path / "again.pdf"
    print_loaded([loaded], again, workers=[worker], draft=True)  # the kept font subsets, used as they are
    assert _pixels(draft.read_bytes()) == _pixels(printed.read_bytes()) == _pixels(again.read_bytes())
    assert pages_text(draft) == pages_text(printed) and pages_text(draft)[0].startswith("Rebel Frigate")
    assert "/StructTreeRoot" in PdfReader(printed).trailer["/Root"]  # the print keeps its structure tree
    assert "/StructTreeRoot" not in PdfReader(draft).trailer["/Root"]  # a preview, shown and thrown away


def test_a_draft_subsets_a_font_again_only_for_a_new_letter_and_a_new_worker_finds_them_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shipyard.render import pdf

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(pdf, "subsets", pdf._Subsets())

    def page(text: str) -> str:
        return f"<html lang=en><title>t</title><style>p {{ font: 14pt 'DejaVu Sans' }}</style><p>{text}</p></html>"

    def draft(text: str) -> bytes:
        return pdf.html_to_pdf(page(text), tmp_path, [tmp_path], draft=True)[0]

    first = draft("Rebel Frigate")
    made = pdf.subsets.made
    assert made >= 1
    again = draft("Frigate Rebel")  # the same letters: the kept subset as it is
    assert pdf.subsets.made == made
    assert _pixels(again) == _pixels(pdf.html_to_pdf(page("Frigate Rebel"), tmp_path, [tmp_path])[0])
    new = draft("Frigate Ωmega")  # a letter no draft used before: subset again, with it
    assert pdf.subsets.made == made + 1
    out = tmp_path / "new.pdf"
    out.write_bytes(new)
    assert pages_text(out) == ["Frigate Ωmega"]
    assert _pixels(new) == _pixels(pdf.html_to_pdf(page("Frigate Ωmega"), tmp_path, [tmp_path])[0])
    assert _pixels(first) != _pixels(again)
    # a worker started later (the editor's next start) finds the subsets made, on disk
    monkeypatch.setattr(pdf, "subsets", pdf._Subsets())
    draft("Rebel Ωmega")
    assert pdf.subsets.made == 0
    # a damaged cache file is only slower
    (tmp_path / "cache" / "shipyard" / pdf.SUBSETS_FILE).write_bytes(b"not the cache's JSON")
    monkeypatch.setattr(pdf, "subsets", pdf._Subsets())
    assert pages_text_of(draft("Rebel Frigate"), tmp_path) == ["Rebel Frigate"]
    assert pdf.subsets.made == made


def pages_text_of(data: bytes, folder: Path) -> list[str]:
    out = folder / "text.pdf"
    out.write_bytes(data)
    return pages_text(out)


@pytest.mark.skipif(not _speedups.layout_stops_at_once(), reason="SHIPYARD_NO_SPEEDUPS: a job stops at its next step")
def test_a_superseded_render_stops_in_its_layout_and_the_warm_worker_renders_the_next(tmp_path: Path) -> None:
    # Thirty thousand table rows: minutes of layout, so only a render stopped inside its
    # layout answers before the time limit (a template this size renders in a moment).
    folder = tmp_path / "long"
    folder.mkdir()
    (folder / "long.html").write_text(
        "<table>{% for i in range(n) %}<tr><td>{{ i }}</td><td>row {{ i }}</td></tr>{% endfor %}</table>"
    )
    long_job = RenderJob("long.html", [str(folder)], {"n": 30_000}, [str(folder)], owner="preview-1")
    with RenderWorker() as worker:
        pid = worker._proc.pid
        worker.render(RenderJob("long.html", [str(folder)], {"n": 1}, [str(folder)]))  # a warm worker
        thread, answer = _render_in_thread(worker, long_job, timeout=60)
        while thread.is_alive() and worker._owner != "preview-1":
            thread.join(0.01)
        thread.join(3)  # the template is long done: the rows are being laid out
        assert _supersede_when_running(worker, "preview-1", thread)
        thread.join(120)
        assert len(answer) == 1 and isinstance(answer[0], RenderSuperseded), answer
        result = worker.render(_job(tmp_path, "preview-1", 4), timeout=120)
        assert worker._proc.pid == pid
        out = tmp_path / "after.pdf"
        out.write_bytes(result.pdf)
        assert pages_text(out) == ["slow 4"]


def test_a_fleet_book_joined_from_parallel_parts_keeps_a_bookmark_for_each_design(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: list[RenderWorker]
) -> None:
    """The parts' outlines are joined too: a reader jumps to a design from the viewer's
    bookmarks (qpdf copies pages without them, and the book had none)."""
    monkeypatch.setattr(printing, "CHUNK_DESIGNS", 2)  # five designs: three sheet jobs, and front and back
    names = ["rebel-fighter", "rebel-frigate", "alien-disk-fighter", "federation-battlesat", "alien-mothership"]
    files = [EXAMPLES / f"{n}.ship" for n in names]
    out = tmp_path / "book.pdf"
    assert len(workers) == 2  # the parts are rendered side by side
    result = print_designs(files, out, sheet="fleet", workers=workers, use_user_folder=False)
    reader = PdfReader(out)
    top = [
        (item.title, reader.get_destination_page_number(item) + 1)
        for item in reader.outline
        if not isinstance(item, list)
    ]
    designs = [json.loads(f.read_text())["design"]["name"] for f in files]
    assert [t for t in top if t[0] in designs] == list(zip(designs, result.starts, strict=True))
    assert top[0] == ("Fleet book", 1)  # the cover first, the appendix's reference after the last sheet
    assert top[-1][1] == result.starts[-1] + 1 and top[-1][0] not in designs
