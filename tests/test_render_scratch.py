"""A render worker leaves nothing in the temporary folder, however it ends.

WeasyPrint writes the fonts of ``@font-face`` rules (a fillable sheet's field faces) into a
temporary folder of its own, removed only when its font configuration is collected, which
a worker that is stopped never reaches: every fillable print left such a folder behind.
Each worker now makes its temporary files in a scratch folder of its own, which it removes
when it ends on its own or sees its parent gone, and which the process that started it
removes once it has ended (shipyard.render.worker).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from shipyard.render.printing import print_designs
from shipyard.render.scratch import PREVIEW_PREFIX, SCRATCH_PREFIX, STALE_AFTER, remove_scratch, sweep_leftovers
from shipyard.render.worker import RenderJob, RenderWorker

from .conftest import EXAMPLES, ROOT

pytestmark = pytest.mark.fresh_workers  # a worker's scratch folder goes when the worker does

SHIP = EXAMPLES / "rebel-fighter.ship"


@pytest.fixture
def temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder of the test's own, for this process and the workers it starts."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    return folder


def fillable_job(tmp_path: Path) -> RenderJob:
    """A page with a field font of its own (an ``@font-face`` rule, as a fillable sheet has)."""
    from shipyard.core.resources import builtin_template_root

    font = next(Path(builtin_template_root()).rglob("*.ttf"), None) or next(Path("/usr/share/fonts").rglob("*.ttf"))
    (tmp_path / "face.ttf").write_bytes(font.read_bytes())
    (tmp_path / "page.html").write_text(
        "<html lang=en><title>f</title><style>@font-face { font-family: Field; src: url(face.ttf) }"
        " p { font-family: Field }</style><p>Grey Heron</p>",
        encoding="utf-8",
    )
    return RenderJob("page.html", [str(tmp_path)], {}, [str(tmp_path)])


@pytest.mark.parametrize("sheet", ["record", "cards"])
def test_a_fillable_print_leaves_nothing_in_the_temporary_folder(sheet: str, temporary: Path, tmp_path: Path) -> None:
    result = print_designs([SHIP], tmp_path / "out.pdf", sheet=sheet, fillable=True, use_user_folder=False)
    assert result.fields > 0  # its fields have faces of their own: WeasyPrint wrote fonts for them
    assert sorted(p.name for p in temporary.iterdir()) == []


@pytest.mark.parametrize("method", [None, "subprocess"], ids=["as-printing-starts-it", "subprocess"])
def test_a_stopped_worker_s_fonts_are_removed_by_the_process_that_started_it(
    method: str | None, temporary: Path, tmp_path: Path
) -> None:
    """``None``: forked where that is safe (no Qt application in this process), as printing starts it."""
    worker = RenderWorker(method)
    worker.render(fillable_job(tmp_path))
    made = list(temporary.iterdir())
    assert [p.name.startswith(f"{SCRATCH_PREFIX}{worker._proc.pid}-") for p in made] == [True]  # the worker's one
    assert any(made[0].rglob("*")), "WeasyPrint wrote the font into the worker's folder"
    worker.kill()  # as at a time limit, or as the editor closes
    worker.close()
    assert list(temporary.iterdir()) == []


def test_a_worker_stopped_before_its_first_job_leaves_nothing(temporary: Path) -> None:
    worker = RenderWorker("subprocess")
    deadline = time.monotonic() + 30
    # until it has made its folder (its first message, unread); tempfile's own probe of the
    # temporary folder (a file made and removed at once) may be seen on the way
    while not any(p.name.startswith(SCRATCH_PREFIX) for p in temporary.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.002)
    assert [p.name.startswith(SCRATCH_PREFIX) for p in temporary.iterdir()] == [True]
    worker.close(wait=False)
    assert list(temporary.iterdir()) == []


def test_a_worker_told_to_stop_removes_its_own_folder(temporary: Path, tmp_path: Path) -> None:
    worker = RenderWorker("subprocess")
    worker.render(fillable_job(tmp_path))
    worker._conn.send(None)  # stop, as close() asks, and nothing more from this side
    worker._proc.join(30)
    assert not worker._proc.is_alive()
    assert list(temporary.iterdir()) == []


PARENT_KILLED = """
import os, signal, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from shipyard.render.worker import RenderJob, RenderWorker
worker = RenderWorker(sys.argv[3])
folder = Path(sys.argv[1])
worker.render(RenderJob("page.html", [str(folder)], {}, [str(folder)]))
print(worker._proc.pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize("method", ["fork", "subprocess"])
def test_a_worker_whose_parent_was_killed_removes_its_folder(method: str, temporary: Path, tmp_path: Path) -> None:
    fillable_job(tmp_path)  # the page and its font, in tmp_path
    env = {**os.environ, "TMPDIR": str(temporary)}
    done = subprocess.run(
        [sys.executable, "-c", PARENT_KILLED, str(tmp_path), str(ROOT), method],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 30
    while (list(temporary.iterdir()) or _running(worker)) and time.monotonic() < deadline:
        time.sleep(0.05)  # its watchdog looks every half second
    assert not _running(worker)
    assert list(temporary.iterdir()) == []


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_only_a_worker_s_own_scratch_folder_is_removed(temporary: Path, tmp_path: Path) -> None:
    """The name comes from the worker: anything else it might name is left alone."""
    other = temporary / "someone-elses"
    other.mkdir()
    (other / "keep.txt").write_text("mine", encoding="utf-8")
    elsewhere = tmp_path / f"{SCRATCH_PREFIX}elsewhere"  # the name, not in the temporary folder
    elsewhere.mkdir()
    linked = temporary / f"{SCRATCH_PREFIX}link"
    linked.symlink_to(other, target_is_directory=True)
    for name in (other, elsewhere, linked, temporary, Path("/")):
        remove_scratch(str(name))
    assert (other / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert elsewhere.is_dir() and linked.is_symlink()
    own = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX))
    (own / "font").write_bytes(b"x")
    remove_scratch(str(own))
    assert not own.exists()


def _dead_process() -> int:
    """The id of a process that has ended."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_what_killed_processes_left_is_swept_and_nothing_else(tmp_path: Path) -> None:
    """A folder a killed worker or editor left (named for a process that no longer runs, this
    user's, untouched for a day) is removed; a running process's, a recent one, a link, a file
    and anything named otherwise stay."""
    dead, alive = _dead_process(), os.getpid()
    day_ago = time.time() - STALE_AFTER - 60

    def folder(name: str, old: bool = True) -> Path:
        made = tmp_path / name
        made.mkdir()
        (made / "sheet.pdf").write_bytes(b"%PDF-")
        if old:
            os.utime(made, (day_ago, day_ago))
        return made

    gone = [folder(f"{SCRATCH_PREFIX}{dead}-ab12"), folder(f"{PREVIEW_PREFIX}{dead}-cd34")]
    kept = [
        folder(f"{SCRATCH_PREFIX}{alive}-ef56"),  # its process runs
        folder(f"{PREVIEW_PREFIX}{dead}-gh78", old=False),  # changed within the day
        folder(f"{SCRATCH_PREFIX}abcd1234"),  # no process named
        folder(f"shipyard-export-{dead}-ij90"),  # not one of these
        folder(f"{PREVIEW_PREFIX}0-kl12"),  # no process 0
    ]
    target = folder("somewhere-else")
    link = tmp_path / f"{SCRATCH_PREFIX}{dead}-mn34"
    link.symlink_to(target, target_is_directory=True)
    plain = tmp_path / f"{PREVIEW_PREFIX}{dead}-op56"
    plain.write_text("a file", encoding="utf-8")
    os.utime(plain, (day_ago, day_ago))
    removed = sweep_leftovers(tmp_path)
    assert sorted(removed) == sorted(p.name for p in gone)
    assert not any(p.exists() for p in gone)
    assert all((p / "sheet.pdf").exists() for p in [*kept, target])
    assert link.is_symlink() and plain.read_text(encoding="utf-8") == "a file"
    assert sweep_leftovers(tmp_path / "no-such-folder") == []


def test_the_editor_sweeps_in_the_background_after_it_has_started(
    temporary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep shipyard-gui asks for once it is up (SWEEP_AFTER_MS after its start) runs in a
    thread of its own, through the temporary folder the editor uses. (The thread is the one
    the editor's call returns: looked for among the running threads, a quick sweep had
    already ended, and the test failed with nothing wrong.)"""
    import threading

    pytest.importorskip("PySide6")
    from shipyard._qt import app
    from shipyard.render import scratch

    ran_in: list[threading.Thread] = []
    real = scratch.sweep_leftovers

    def recording(*args: Any, **kwargs: Any) -> list[str]:
        ran_in.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(scratch, "sweep_leftovers", recording)
    left = temporary / f"{PREVIEW_PREFIX}{_dead_process()}-qr78"
    left.mkdir()
    day_ago = time.time() - STALE_AFTER - 60
    os.utime(left, (day_ago, day_ago))
    thread = app._sweep_leftovers()
    thread.join(30)
    assert not thread.is_alive() and thread.daemon and thread.name == "shipyard-sweep-leftovers"
    assert ran_in == [thread] and thread is not threading.main_thread()
    assert not left.exists()
