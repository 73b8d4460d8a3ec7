"""The suite lends render workers to the code under test and keeps them warm (tests/kept_workers.py):
a second print in one process renders on the first one's worker, a killed worker is never
lent again, another environment or start method gets a worker of its own, and a test
marked ``fresh_workers`` sees the class itself; a worker closed mid-preview is kept once the
dropped preview ends, one closed mid-print is stopped."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import shipyard.render.printing as printing_module
import shipyard.render.worker as worker_module
from shipyard.render.worker import RenderError, RenderJob, RenderSuperseded

from .conftest import EXAMPLES, call_shipyard
from .kept_workers import LENDER, KeptWorker, RenderWorker
from .test_render_speed import _job as _slow_job


def _idle_pids() -> list[int]:
    return [w._proc.pid for w in LENDER._idle]


def test_a_second_print_renders_on_the_worker_the_first_gave_back(tmp_path: Path) -> None:
    for name in ("one", "two"):
        done = call_shipyard(
            "print", EXAMPLES / "rebel-fighter.ship", "-o", tmp_path / f"{name}.pdf", "--no-user-catalog"
        )
        assert done.returncode == 0, done.stderr
        if name == "one":
            started, after_first = LENDER.started, _idle_pids()
    assert LENDER.started == started  # the second print started none
    assert after_first and set(after_first) <= set(_idle_pids())  # it was given back again, alive
    assert (tmp_path / "two.pdf").read_bytes().startswith(b"%PDF")


def test_a_killed_worker_is_not_lent_again_and_another_environment_gets_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    worker = worker_module.RenderWorker()
    assert isinstance(worker, KeptWorker)
    worker.close()
    assert worker._proc.pid in _idle_pids()  # closed: kept, alive
    again = worker_module.RenderWorker()
    assert again is worker
    again.kill()  # as a time limit or a failed print kills it
    again.close()
    assert again._proc.pid not in _idle_pids()
    fresh = worker_module.RenderWorker()
    assert fresh is not again and fresh.is_alive()
    fresh.close()
    named = worker_module.RenderWorker("subprocess")
    assert named is not fresh  # asked for by its start method: not one started the default way
    named.close()
    assert worker_module.RenderWorker("subprocess") is named
    named.stop()
    monkeypatch.setenv("SHIPYARD_KEPT_WORKERS_TEST", "another environment")
    other = worker_module.RenderWorker()
    assert other is not fresh  # its environment differs from what the kept one started with
    other.stop()


def test_what_a_worker_never_reads_does_not_keep_it_from_being_lent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The terminal's width, pydantic's plug-in switch (the first command run in a process
    sets it) and a data folder of a test's own without fonts change nothing a worker
    renders: the kept worker is lent. Fonts in the data folder are read by fontconfig in a
    worker started there, so then a worker of its own starts."""
    worker = worker_module.RenderWorker()
    worker.close()
    monkeypatch.setenv("COLUMNS", "53")
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "__all__")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    again = worker_module.RenderWorker()
    assert again is worker
    again.close()
    (tmp_path / "data" / "fonts").mkdir(parents=True)
    other = worker_module.RenderWorker()
    assert other is not worker and other.is_alive()
    other.stop()


def test_the_code_under_test_is_lent_workers_unless_marked() -> None:
    assert worker_module.RenderWorker is LENDER and printing_module.RenderWorker is LENDER
    assert LENDER.adopt == RenderWorker.adopt  # the editor's early worker is adopted as itself


@pytest.mark.fresh_workers
def test_a_test_marked_fresh_workers_has_the_class_itself() -> None:
    assert worker_module.RenderWorker is RenderWorker and printing_module.RenderWorker is RenderWorker


def test_a_worker_closed_while_it_renders_a_print_is_stopped_not_kept() -> None:
    """A job nobody may drop (a print has no owner) under way as the worker is closed: it
    stops, as a program's does, and no later test waits behind that job or shares it."""
    worker = worker_module.RenderWorker()
    with worker._lock:  # a print under way on it
        worker.close(wait=False)
    assert not worker.is_alive() and worker._proc.pid not in _idle_pids()


def test_a_worker_closed_mid_preview_drops_the_preview_and_is_kept_once_free(tmp_path: Path) -> None:
    """An editor test may end as its window closes with its preview still rendering (every
    test of test_editor_names did): the preview is dropped as a superseded one is, and the
    worker, once the preview's thread has let go of it, is kept warm for the next test
    rather than stopped (each such test started a worker of its own). A job that waited
    behind the preview (another tab's) fails, as on a program's closed pipe, rather than
    run on a worker the next test may borrow."""
    worker = worker_module.RenderWorker()
    pid = worker._proc.pid
    answers: dict[str, BaseException] = {}

    def render(name: str, job: RenderJob) -> None:
        try:
            worker.render(job, timeout=120)
        except RenderError as exc:
            answers[name] = exc

    let_go = threading.Event()  # the preview's thread holds the worker until the test has looked
    exchange = worker._exchange

    def exchange_then_hold(job: RenderJob, stale: bool, timeout: float) -> object:
        try:
            return exchange(job, stale, timeout)
        finally:
            if job.owner == "preview-1":
                let_go.wait(120)

    worker._exchange = exchange_then_hold  # type: ignore[method-assign]
    preview = threading.Thread(target=render, args=("preview", _slow_job(tmp_path, "preview-1")))
    preview.start()
    while preview.is_alive() and not (worker._owner == "preview-1" and worker._ready):
        preview.join(0.01)  # until the worker renders the preview and handles the signal
    (tmp_path / "next.html").write_text("<p>the next preview</p>")
    quick = RenderJob("next.html", [str(tmp_path)], {}, [str(tmp_path)], owner="preview-2")
    waiting = threading.Thread(target=render, args=("waiting", quick))
    waiting.start()  # blocks behind the preview, on the worker's lock
    worker.close(wait=False)  # the window closes
    kept_at_once = pid in _idle_pids()
    assert preview.is_alive() and not kept_at_once  # not kept while its preview holds it
    let_go.set()
    preview.join(120)
    waiting.join(120)
    assert isinstance(answers["preview"], RenderSuperseded)  # dropped, not finished
    assert type(answers["waiting"]) is RenderError and "already closed" in str(answers["waiting"])
    deadline = time.monotonic() + 30
    while pid not in _idle_pids() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pid in _idle_pids() and worker.is_alive()
    again = worker_module.RenderWorker()
    assert again is worker  # lent again, warm, and open for jobs
    assert again._lock.acquire(timeout=10)  # nothing of the old test's is running on it
    again._lock.release()
    assert again.render(quick, timeout=120).pages == 1
    again.close()
    again.close()  # closed twice: given back once
    assert _idle_pids().count(pid) == 1
