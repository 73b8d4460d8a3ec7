"""Print designs: load, evaluate, split into render jobs, render on both cores, join, save.

Record sheets render in chunks on parallel workers, each chunk told the page number it
starts at; every sheet is laid out to fit one page, and if an extreme design still runs
over, the chunks after it are rendered again with corrected page numbers. A fleet
book's contents and appendix render last, from the page numbers the sheets really got.

The parts are joined into one PDF by :mod:`shipyard.render.pdfjoin`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipyard.core.designfile import LoadedDesign, atomic_write_bytes, load_design
from shipyard.core.designreport import design_report
from shipyard.core.errors import InputError
from shipyard.core.report import Report
from shipyard.core.resources import builtin_template_root
from shipyard.render.art import page_art_problem
from shipyard.render.context import design_entry, field_prefixes, fleet_layout, sheet_context, template_dirs
from shipyard.render.pdfjoin import join_pdfs
from shipyard.render.tokens import TokenSpec, token_pages
from shipyard.render.worker import (
    DEFAULT_TIMEOUT,
    PARALLEL_FROM,
    RenderError,
    RenderJob,
    RenderResult,
    RenderWorker,
    check_timeout,
    workers_wanted,
)

SHEETS = ("record", "cards", "fleet", "compare", "tokens")


@dataclass(frozen=True)
class PrintResult:
    pages: int
    designs: int
    sizes: list[tuple[float, float]]
    starts: list[int]  # the page each design's sheet starts on; empty for cards (several a design)
    fields: int = 0  # form fields of a fillable print
    art_left_out: tuple[str, ...] = ()  # "NAME: why" for each design printed without its art


def chunks(items: Sequence[Any], n: int) -> list[list[Any]]:
    size = max(1, math.ceil(len(items) / max(1, n)))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


class Renderer:
    """Runs jobs on a set of workers, each worker taking the next job as it frees up."""

    def __init__(self, workers: list[RenderWorker], timeout: float) -> None:
        self.workers = workers
        self.timeout = timeout

    def run(self, jobs: list[RenderJob]) -> list[RenderResult]:
        results: list[RenderResult | None] = [None] * len(jobs)
        queue = list(enumerate(jobs))
        # Workers whose job answered that it failed (a template's error) or was dropped: idle and
        # warm, left running for the next job (the editor's preview renders on its one worker).
        answered: list[RenderWorker] = []

        def drain(worker: RenderWorker) -> None:
            while queue:
                try:
                    i, job = queue.pop(0)
                except IndexError:
                    return
                try:
                    results[i] = worker.render(job, self.timeout)
                except BaseException as exc:
                    queue.clear()  # nothing will be written: the other workers stop too
                    if isinstance(exc, RenderError) and worker.is_alive():  # not killed at a time limit, not crashed
                        answered.append(worker)
                    raise

        active = self.workers[: max(1, min(len(jobs), len(self.workers)))]
        with ThreadPoolExecutor(len(active)) as pool:
            futures = [pool.submit(drain, w) for w in active]
            try:
                # the first to fail, whichever it is: the others' parts are stopped at once
                done, _ = wait(futures, return_when=FIRST_EXCEPTION)
                for fut in [*done, *futures]:
                    fut.result()
            except BaseException:  # Ctrl-C, SIGTERM or a failed job: stop every worker still rendering now
                queue.clear()
                for w in active:
                    if not any(w is a for a in answered):
                        w.kill()
                raise
        return [r for r in results if r is not None]


# The most designs one job lays out: a worker's memory grows with the job it lays out
# (WeasyPrint holds every page's boxes until it writes the PDF), so a large book is many
# such jobs, the workers taking the next as they free up; joining parts costs little. Each
# job pays its own stylesheets, fonts and PDF writing, so fewer, larger jobs cost less CPU
# while their peak memory stays that of one unsplit render (bench/bench_print.py measures
# the split against the raw render).
CHUNK_DESIGNS = 17


def sheet_chunks(designs: int, workers: int) -> int:
    """How many jobs ``designs`` record sheets are split into on ``workers`` workers: one
    a worker at least, and none of more than :data:`CHUNK_DESIGNS` designs."""
    return max(1, min(designs, max(workers, math.ceil(designs / CHUNK_DESIGNS))))


def render_sheets(
    renderer: Renderer,
    entries: list[dict[str, Any]],
    job: Any,
    first_page: int,
    parts: int,
    also: Sequence[RenderJob] = (),
) -> tuple[list[RenderResult], list[int], list[RenderResult]]:
    """Record sheets in parallel chunks; returns the results, each design's first page,
    and the results of ``also``: jobs queued after the sheets (a fleet book's front and
    back, planned from one page a sheet), which fill the workers' time while the last
    sheets render instead of waiting for them."""
    groups = chunks(entries, sheet_chunks(len(entries), parts))
    offsets = [first_page + sum(len(g) for g in groups[:i]) for i in range(len(groups))]
    sheet_jobs = [job("record.html", designs=g, first_page=o) for g, o in zip(groups, offsets, strict=True)]
    results = renderer.run([*sheet_jobs, *also])
    results, extra = results[: len(groups)], results[len(groups) :]
    # A sheet that ran over one page shifts every later chunk: render those again.
    for i in range(1, len(groups)):
        actual = offsets[i - 1] + results[i - 1].pages
        if actual != offsets[i]:
            offsets[i] = actual
            results[i] = renderer.run([job("record.html", designs=groups[i], first_page=actual)])[0]
    starts = [
        o + r.anchors.get(f"sheet-{k}", k)
        for g, o, r in zip(groups, offsets, results, strict=True)
        for k in range(len(g))
    ]
    return results, starts, extra


def fleet_ends(job: Any, entries: list[dict[str, Any]], layout: dict[str, int], starts: list[int]) -> list[RenderJob]:
    """A fleet book's front (cover and contents) and back (the appendix), for sheets that
    start on ``starts`` and a appendix after the last sheet, at ``layout["appendix"]``."""
    contents = [
        {"name": e["design"]["name"], "scale": e["report"]["scale"], "valid": e["report"]["valid"], "page": p}
        for e, p in zip(entries, starts, strict=True)
    ]
    return [
        job("fleet_front.html", designs=[], contents=contents, layout=layout),
        job("fleet_appendix.html", designs=[], first_page=layout["appendix"]),
    ]


def render_fleet(
    renderer: Renderer, entries: list[dict[str, Any]], job: Any, parts: int, first_page: int = 1
) -> tuple[list[RenderResult], list[int]]:
    """A fleet book: the front and back rendered beside the sheets from the planned page
    numbers (one page a sheet, the contents 38 designs a page), and again only if the
    sheets or the contents took other pages than planned."""
    layout = fleet_layout(len(entries), first_page)
    planned = [layout["first_sheet"] + i for i in range(len(entries))]
    sheets, starts, ends = render_sheets(
        renderer, entries, job, layout["first_sheet"], parts, fleet_ends(job, entries, layout, planned)
    )
    for _ in range(3):  # a pass more only if the cover and contents took other than the pages planned
        appendix = sum(r.pages for r in sheets) + layout["first_sheet"]
        front = layout["first_sheet"] - first_page  # the cover's and contents' pages planned
        if ends[0].pages == front and starts == planned and appendix == layout["appendix"]:
            return [ends[0], *sheets, ends[1]], starts
        if ends[0].pages != front:  # the sheets move: render them again
            layout = {**layout, "contents_pages": ends[0].pages - 1, "first_sheet": first_page + ends[0].pages}
            sheets, starts, _ = render_sheets(renderer, entries, job, layout["first_sheet"], parts)
            appendix = sum(r.pages for r in sheets) + layout["first_sheet"]
        layout = {**layout, "appendix": appendix}
        planned = starts
        ends = renderer.run(fleet_ends(job, entries, layout, starts))
    raise RenderError(
        f"the fleet book's cover and contents took {ends[0].pages} pages, then another number when "
        "laid out again; the contents' page numbers cannot be trusted, so nothing was written"
    )


def render_print(
    renderer: Renderer,
    sheet: str,
    entries: list[dict[str, Any]],
    base_ctx: dict[str, Any],
    dirs: list[str],
    roots: list[str],
    fillable: bool = False,
    owner: str = "",
    draft: bool = False,
) -> tuple[list[RenderResult], list[int]]:
    def job(template: str, **ctx: Any) -> RenderJob:
        return RenderJob(template, dirs, {**base_ctx, **ctx}, roots, fillable, owner, draft)

    parts = len(renderer.workers)
    first_page = base_ctx.get("first_page", 1)
    if sheet == "record":
        results, starts, _ = render_sheets(
            renderer, entries, job, first_page, parts if len(entries) >= PARALLEL_FROM else 1
        )
        return results, starts
    if sheet == "cards":
        # One job: a ruleset's template decides how many cards a design gets (a
        # force gets one a member), so splitting by designs would leave half-empty pages
        # between the parts. Cards are light; a hundred designs are a dozen pages.
        return renderer.run([job("cards.html", designs=entries)]), []
    if sheet == "fleet":
        return render_fleet(renderer, entries, job, parts, first_page)
    if sheet == "compare":  # one sheet: the designs side by side (base_ctx holds the comparison)
        return renderer.run([job("compare.html", designs=entries)]), []
    if sheet == "tokens":  # light: a page holds dozens (base_ctx holds the pages laid out)
        return renderer.run([job("tokens.html", designs=[])]), []
    raise InputError.single(f"unknown sheet {sheet!r}", allowed=", ".join(SHEETS))


def load_for_print(
    files: Sequence[str | Path], *, preset: str | None, catalog_dirs: tuple[Path, ...], use_user_folder: bool
) -> list[LoadedDesign]:
    return [load_design(f, preset=preset, catalog_folders=catalog_dirs, use_user_folder=use_user_folder) for f in files]


def print_designs(
    files: Sequence[str | Path],
    out: Path,
    *,
    sheet: str = "record",
    paper: str = "a4",
    preset: str | None = None,
    catalog_dirs: tuple[Path, ...] = (),
    user_template_dirs: Sequence[Path] = (),
    timeout: float = DEFAULT_TIMEOUT,
    workers: list[RenderWorker] | None = None,
    use_user_folder: bool = True,
    title: str = "",
    fillable: bool = False,
    token: TokenSpec | None = None,
) -> PrintResult:
    """Print ``files`` to ``out`` (written atomically, only when everything rendered);
    ``fillable``: every tick box and write-in of the sheets is a form field."""
    loaded = load_for_print(files, preset=preset, catalog_dirs=catalog_dirs, use_user_folder=use_user_folder)
    return print_loaded(
        loaded,
        out,
        sheet=sheet,
        paper=paper,
        user_template_dirs=user_template_dirs,
        timeout=timeout,
        workers=workers,
        title=title,
        fillable=fillable,
        token=token,
    )


def print_loaded(
    loaded: Sequence[LoadedDesign],
    out: Path,
    *,
    sheet: str = "record",
    paper: str = "a4",
    user_template_dirs: Sequence[Path] = (),
    timeout: float = DEFAULT_TIMEOUT,
    workers: list[RenderWorker] | None = None,
    title: str = "",
    reports: Sequence[Report] | None = None,
    fillable: bool = False,
    token: TokenSpec | None = None,
    owner: str = "",
    draft: bool = False,
    first_page: int = 1,
) -> PrintResult:
    """Print designs already in memory (the editor's open documents) to ``out``.

    ``first_page``: the number the first page prints (a part of a larger book, as a
    roster's members after its summary), so that page numbers and a fleet book's contents
    are those of the whole book; the pages' ``starts`` are in that numbering too.

    ``reports`` are the designs' reports when the caller holds them already (the editor
    evaluates once per edit, and its preview and printing show that evaluation).
    ``owner`` names who may drop the print's jobs before they finish
    (:meth:`RenderWorker.supersede`: the live preview, for a newer edit). ``draft``: a
    sheet to look at, not to keep (the live preview): it looks the same, made with less
    work (:mod:`shipyard.render.pdf`)."""
    if sheet not in SHEETS:
        raise InputError.single(f"unknown sheet {sheet!r}", allowed=", ".join(SHEETS))
    try:
        check_timeout(timeout)
    except ValueError as exc:
        raise InputError.single(str(exc), path="timeout") from None
    if not loaded:
        raise InputError.single("no designs to print")
    rulesets = {ld.ruleset for ld in loaded}
    if len(rulesets) > 1:
        raise InputError.single(
            f"these designs use different rulesets ({', '.join(sorted(rulesets))}); print each ruleset separately"
        )
    for d in user_template_dirs:
        if not Path(d).is_dir():
            raise InputError.single("template folder does not exist", file=d)
    catalog = loaded[0].catalog
    if reports is not None and len(reports) != len(loaded):
        raise ValueError("one report per design")
    evaluated = (
        list(reports)
        if reports is not None
        else [design_report(ld.design, ld.catalog, ld.file, picture_problem=page_art_problem) for ld in loaded]
    )
    prefixes = field_prefixes([r.name for r in evaluated])
    entries = [design_entry(ld, report, prefix) for ld, report, prefix in zip(loaded, evaluated, prefixes, strict=True)]
    from shipyard.core.registry import get

    dirs = template_dirs(
        catalog.meta.id,
        [Path(d) for d in user_template_dirs],
        get(catalog.meta.id).templates,
        builtin_template_root() / "common",
    )
    roots = [str(d) for d in dirs] + [str(f) for f in catalog.folders]
    doc_title = title or ("Fleet book" if sheet == "fleet" else entries[0]["design"]["name"])
    base_ctx = sheet_context(entries, catalog, sheet=sheet, paper=paper, title=doc_title, first_page=first_page)
    if sheet == "compare":
        from shipyard.core.compare import compare

        names = [str(e["design"].get("name") or e["file"]) for e in entries]
        if len(set(names)) < len(names):
            names = [
                f"{n} ({e['file']})" if e["file"] else f"{n} ({i + 1})"
                for i, (n, e) in enumerate(zip(names, entries, strict=True))
            ]
        cmp = compare([(n, ld.design, ld.catalog, r) for n, ld, r in zip(names, loaded, evaluated, strict=True)])
        base_ctx["comparison"] = cmp.as_json()
        if not title:
            base_ctx["title"] = doc_title = f"Comparison: {' / '.join(names)}"
    if sheet == "tokens":
        spec = token or TokenSpec(25.4)
        base_ctx["token"] = spec.as_json()
        base_ctx["pages"] = token_pages(entries, spec, paper)
        if not title:
            base_ctx["title"] = doc_title = "Tokens"
    own = workers is None
    wanted = workers_wanted(sheet, len(entries), os.cpu_count())
    pool = workers if workers is not None else [RenderWorker() for _ in range(wanted)]
    try:
        results, starts = render_print(
            Renderer(pool, timeout), sheet, entries, base_ctx, [str(d) for d in dirs], roots, fillable, owner, draft
        )
    finally:
        if own:  # at once: no job is left, and a worker's clean-up after a large one is slow
            for w in pool:
                w.close(wait=False)
    data = join_pdfs([r.pdf for r in results], doc_title)
    atomic_write_bytes(out, data)
    return PrintResult(
        sum(r.pages for r in results),
        len(entries),
        [s for r in results for s in r.sizes],
        starts,
        sum(r.fields for r in results),
        tuple(f"{r.name}: {f.message}" for r in evaluated for f in r.findings if f.code == "art-missing"),
    )


__all__ = ["PrintResult", "RenderError", "print_designs"]
