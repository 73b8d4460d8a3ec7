"""A render worker pauses cyclic garbage collection during a job and collects once it has
answered (shipyard/render/worker.py, _collector_paused): a worker that renders sheet after
sheet (the editor's preview, a long print) stays the size it was."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from shipyard.render.printing import print_designs
from shipyard.render.worker import RenderWorker

from .conftest import EXAMPLES

if importlib.util.find_spec("weasyprint") is None:  # the worker imports it; collecting this module need not
    pytest.skip("WeasyPrint is not installed", allow_module_level=True)


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the worker's size from /proc")
@pytest.mark.speedups
def test_a_worker_rendering_sheet_after_sheet_stays_its_size(tmp_path: Path) -> None:
    """Each one-page sheet leaves about 30,000 objects in reference cycles; a worker that
    left them uncollected grew by about 5 MB a sheet."""
    ship = EXAMPLES / "rebel-frigate.ship"
    with RenderWorker() as worker:
        sizes = []
        for i in range(12):
            result = print_designs([ship], tmp_path / f"{i}.pdf", workers=[worker], use_user_folder=False)
            assert result.pages == 1
            sizes.append(resident_mb(worker._proc.pid))
    # The first sheets raise the worker to the size a sheet needs, more with the speed-ups off
    # (its allocator's high-water mark, reached by the sixth sheet, then flat); from there a
    # worker that kept its garbage would still grow by the same amount with every sheet.
    said = f"the worker's size after each sheet, in MB: {' '.join(f'{s:.0f}' for s in sizes)}"
    assert sizes[-1] - sizes[5] < 12, said
    assert sizes[-1] - sizes[1] < 30, said
