"""Shared fixtures: the built-in catalog, the sample ships, and a design builder.

Before anything else, the whole test session is moved into a sandbox: HOME and every XDG
base folder (config, data, cache, state, runtime) point into a fresh temporary folder, so
neither the tests nor the processes they start (the installed editor, the command line,
pip) read or write the user's own settings, house rules, autosaves or caches — QSettings
and QStandardPaths follow the XDG variables. ``tests/test_isolation.py`` checks it, last.

Under pytest-xdist (``scripts/run-tests`` runs ``pytest -n``) every worker process has a
sandbox of its own, inside the one of the process that started it, so no two tests running
at once share settings, caches or autosaves; after the last worker ends, the starting
process checks every worker's HOME the way the last test checks its own.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from . import schedule

SANDBOX_VARIABLE = "SHIPYARD_TEST_SANDBOX"  # the session's sandbox, for the workers pytest-xdist starts
XDG_HOMES = {"XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "cache", "XDG_STATE_HOME": "state"}


def _enter_sandbox() -> Path:
    """Point HOME and the XDG folders into a new folder; runs when pytest loads this file, before Qt starts."""
    real_home = Path.home()
    real_config = Path(os.environ.get("XDG_CONFIG_HOME") or real_home / ".config")
    # pip's own configuration (where the package index is) is the machine's, not Shipyard's:
    # the packaging tests install a wheel with pip, so it keeps reading it.
    if "PIP_CONFIG_FILE" not in os.environ:
        pip_conf = next(
            (f for f in (real_config / "pip" / "pip.conf", real_home / ".pip" / "pip.conf") if f.is_file()), None
        )
        if pip_conf is not None:
            os.environ["PIP_CONFIG_FILE"] = str(pip_conf)
    # a pytest-xdist worker (it sets PYTEST_XDIST_WORKER before loading this file) makes its
    # sandbox inside the starting process's, whose HOME it inherited: one tree to check and remove
    parent = os.environ.get(SANDBOX_VARIABLE) if "PYTEST_XDIST_WORKER" in os.environ else None
    sandbox = Path(tempfile.mkdtemp(prefix="shipyard-tests-", dir=parent))
    os.environ[SANDBOX_VARIABLE] = str(sandbox)
    (sandbox / "home").mkdir()
    os.environ["HOME"] = str(sandbox / "home")
    for var, name in XDG_HOMES.items():
        (sandbox / name).mkdir()
        os.environ[var] = str(sandbox / name)
    (sandbox / "runtime").mkdir(mode=0o700)
    os.environ["XDG_RUNTIME_DIR"] = str(sandbox / "runtime")
    if parent is not None:
        _take_warm_caches(Path(parent) / "cache" / "shipyard", sandbox / "cache" / "shipyard")
    return sandbox


# The caches a worker starts with, made once by the starting process: every worker loaded the
# five built-in catalogs from YAML and validated them before its first test, and its first
# fillable print cut the fields' four faces (fontTools' import with it). The cache files are
# sealed with their folder's secret (shipyard.core.cachefile): without "seal.key" a worker
# made a secret of its own, took every copied file for a planted one, and built them again.
WARM_CACHES = ("seal.key", "catalog-*.json", "manifests.json", "field-fonts.json")


def _take_warm_caches(source: Path, target: Path, replace: bool = False) -> None:
    """Copy the starting process's validated catalogs and manifests into a worker's own cache
    folder: each worker still writes only its own folder, and a cache is only a shortcut
    (shipyard.core.cachefile), checked against every file it was made from. ``replace``:
    the target keeps only what was copied (the kept copy between runs, where a catalog's
    older caches would pile up)."""
    files = [f for pattern in WARM_CACHES for f in source.glob(pattern) if f.is_file()]
    if replace:
        for old in [f for pattern in WARM_CACHES for f in target.glob(pattern) if f.is_file()]:
            if not (source / old.name).is_file():
                old.unlink(missing_ok=True)
    if files:
        target.mkdir(mode=0o700, parents=True, exist_ok=True)  # as Shipyard makes it: the user's alone
        for file in files:
            shutil.copyfile(file, target / file.name)
            (target / file.name).chmod(0o600)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help=(
            "write each slow unit's wall and CPU seconds to tests/durations.txt "
            "(the order the next run starts them in, and what the quick loop leaves out)"
        ),
    )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """With ``--record-durations``, gather the units' seconds (:mod:`tests.schedule`). In
    every process, a test of a mark scripts/run-tests runs apart fails unless its own file
    names the mark (:class:`schedule.LaneCheck`)."""
    if not config.pluginmanager.has_plugin("shipyard-lanes"):  # wherever tests are collected
        config.pluginmanager.register(schedule.LaneCheck(), "shipyard-lanes")
    if config.getoption("record_durations") and not config.pluginmanager.has_plugin("shipyard-cpu"):
        config.pluginmanager.register(schedule.CpuMeter(), "shipyard-cpu")  # where tests run: a worker, or here
    if hasattr(config, "workerinput"):
        return
    if config.getoption("record_durations"):
        config.pluginmanager.register(schedule.DurationRecorder(), "shipyard-durations")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """In the process that starts the pytest-xdist workers, before it starts them (pytest-xdist
    does at the end of this hook): load each built-in ruleset's catalog once, so its cache
    folder holds what the workers copy (:func:`_take_warm_caches`), and cut the fillable
    sheets' field faces. The caches are kept between runs in pytest's own cache folder of
    the checkout (``.pytest_cache``, as ``config.cache`` gives it), and checked as every
    cache is: a run that changed nothing they are made from starts its workers seconds
    sooner, and one that did rebuilds them."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from shipyard.core.catalog import load_catalog
    from shipyard.core.registry import rulesets
    from shipyard.render.fieldfont import field_font_rules

    cache = getattr(config, "cache", None)  # None with -p no:cacheprovider
    kept = cache.mkdir("shipyard-warm-caches") if cache is not None else None
    ours = SANDBOX / "cache" / "shipyard"
    if kept is not None:
        _take_warm_caches(kept, ours)
    for info in rulesets():
        load_catalog(info.id, use_user_folder=False)
    field_font_rules("")  # the faces every sample's fields share: no value of theirs needs a letter beyond them
    if kept is not None:
        _take_warm_caches(ours, kept, replace=True)


# pytest loads this file before any plugin's pytest_configure (pytest-qt's imports Qt) and
# before any test, so everything the session does and starts sees the sandbox.
SANDBOX = _enter_sandbox()

from shipyard.core.catalog import load_catalog  # noqa: E402
from shipyard.core.designfile import LoadedDesign, load_design  # noqa: E402
from shipyard.core.evaluate import evaluate  # noqa: E402
from shipyard.core.model import Catalog  # noqa: E402
from shipyard.core.report import Report  # noqa: E402
from shipyard.rulesets.space_fighter_alpha import Design  # noqa: E402

# Qt runs without a screen in tests; set before any QApplication exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt's raster engine paints large fills in a pool of threads and waits for them: with a
# test process a core or more, the hand-offs cost more CPU than the fills (the same pixels
# either way). Read when the first QApplication starts; editors the tests start inherit it.
os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")

ROOT = Path(__file__).resolve().parents[1]

SOURCES_VARIABLE = "SHIPYARD_SOURCES"
# The rules' source texts are not in the repository: they are looked for in
# $SHIPYARD_SOURCES, else in shared/seeds beside the checkout's folder.
SOURCES = Path(os.environ.get(SOURCES_VARIABLE) or ROOT.parent / "shared" / "seeds")


def missing_source_reason(name: str, title: str) -> str:
    """Why a test that reads the source text ``name`` skips: what is missing and how to provide it."""
    return (
        f"needs {title}'s source text {name}, not found in {SOURCES}: set {SOURCES_VARIABLE} to the folder "
        f"that holds it (or put that folder at {ROOT.parent / 'shared' / 'seeds'}) to run this test"
    )


def source_text(name: str, title: str) -> tuple[Path, pytest.MarkDecorator]:
    """A rules source text the tests read, and the mark that skips a test without it, saying
    what is missing and how to provide it."""
    file = SOURCES / name
    return file, pytest.mark.skipif(not file.is_file(), reason=missing_source_reason(name, title))


EXAMPLES = ROOT / "catalogs" / "space-fighter-alpha" / "examples"
FURY_EXAMPLES = ROOT / "catalogs" / "space-fury" / "examples"
STATBLOCKS = Path(__file__).resolve().parent / "data" / "statblocks"  # the rules' own stat-block text
SAMPLES = [
    "rebel-fighter",
    "rebel-frigate",
    "alien-disk-fighter",
    "alien-mothership",
    "federation-battlesat",
    "federation-space-station",
]


LAST = "test_isolation.py::test_the_suite_wrote_nothing_under_home"


# Module-wide fixtures whose costly part every test process keeps for the whole session
# (:func:`workers`: the process's render workers, started once however many modules use
# them; :func:`_kept_workers`: those lent to the code under test): a test that uses one
# needs no group, so a module of prints spreads over the workers.
KEPT_PER_PROCESS = frozenset({"workers", "_render_pool", "_kept_workers"})


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses one of the suite's own module- or session-wide fixtures (prints
    made once a module, a built wheel) other than those kept per process
    (:data:`KEPT_PER_PROCESS`): pytest's own (tmp_path_factory, pytest-qt's qapp) are cheap
    in every worker."""
    info = getattr(item, "_fixtureinfo", None)
    defs = [d for ds in info.name2fixturedefs.values() for d in ds] if info is not None else []
    return any(
        d.scope != "function" and d.baseid.startswith("tests") and d.argname not in KEPT_PER_PROCESS for d in defs
    )


def _group(item: pytest.Item) -> str:
    """The worker group of a test sharing a module's fixtures: the module, or, in a module
    whose shared fixture makes what each value of a parameter needs on demand (test_fillable's
    prints of one sample), the module and the value of the first parameter named in its
    ``XDIST_GROUP_BY``. One group of such a module took as long as the rest of the suite on
    both cores (pdfinfo reads a fillable sheet's structure tree for a minute)."""
    module = item.nodeid.split("::")[0]
    params = getattr(getattr(item, "callspec", None), "params", {})
    by = next((name for name in getattr(getattr(item, "module", None), "XDIST_GROUP_BY", ()) if name in params), None)
    return module if by is None else f"{module}:{by}={params[by]}"  # no "]": xdist reads "@group" after the last


def _unit(item: pytest.Item) -> str:
    """The test's unit in tests/durations.txt: its group, whether or not pytest-xdist runs it."""
    return _group(item) if _shares_a_fixture(item) else schedule.unit_of(item.nodeid)


def _join(item: pytest.Item, group: str) -> None:
    """Put the test in its group where pytest-xdist looks in a worker (--dist loadgroup): at
    the end of its node id, "@group". xdist's own hook sets ``item._nodeid``, which pytest 9
    no longer reads (the id is ``item._id``), so every group was spread over the workers, each
    building the module's fixtures again (test_packaging's wheel and venv in three of four)."""
    if getattr(item.config.option, "loadgroup", False):
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(f"{item.nodeid}@{group}")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The check that the suite left HOME alone runs after every other test. Under pytest-xdist,
    the tests of a module that share its costly fixtures run in one worker, which builds them
    once, and the units that took longest last time start first (:mod:`tests.schedule`)."""
    for item in items:
        if _shares_a_fixture(item):
            group = _group(item)
            item.add_marker(pytest.mark.xdist_group(group))
            _join(item, group)
    seconds = schedule.read_durations()
    schedule.mark_slow(items, seconds, _unit)  # before -m deselects: `pytest -m "not slow"` is the quick loop
    if items and getattr(items[0].config.option, "loadgroup", False):  # handed out to workers: longest first
        schedule.longest_first(items, seconds)
    items.sort(key=lambda item: item.nodeid.endswith(LAST))


# pytest-xdist workers a core with -n auto (scripts/run-tests). The editor tests pause on a
# clock they move on (_editor_clock), so few tests still sleep: those paced in real time
# (test_editor_by_hand.py), time limits, processes waited for. More than one worker a core
# keeps the cores busy through those waits; each worker more costs its own start-up (imports,
# collection, render workers) and memory.
WORKERS_PER_CORE = 3
# scripts/run-tests gives the run of all but the paced tests two a core (their waits run apart)
PER_CORE_VARIABLE = "SHIPYARD_TEST_WORKERS_PER_CORE"


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """-n auto: :data:`WORKERS_PER_CORE` a core this process may run on, or as many as
    :data:`PER_CORE_VARIABLE` says; PYTEST_XDIST_AUTO_NUM_WORKERS wins."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    per_core = os.environ.get(PER_CORE_VARIABLE, "")
    return (int(per_core) if per_core.isdigit() and int(per_core) > 0 else WORKERS_PER_CORE) * cores


# Where a user's settings, data and caches live when the XDG variables are not followed;
# other tools' state under HOME (a toolchain's ~/.rustup, say) is theirs, not the user's files.
USER_FOLDERS = (".config", ".local", ".cache")


def written_under_home(sandbox: Path) -> list[str]:
    """What was written under the HOME of ``sandbox`` and of every worker's sandbox inside it,
    where the user's own files would be: each as ``home/...`` relative to ``sandbox``."""
    return sorted(
        str(p.relative_to(sandbox))
        for home in [sandbox / "home", *sandbox.glob("shipyard-tests-*/home")]
        for p in home.rglob("*")
        if p.relative_to(home).parts[0] in USER_FOLDERS or "shipyard" in p.name.lower()
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With pytest-xdist, the starting process runs no test: once every worker has ended it
    checks all their HOMEs, since the last test ran in one worker while others still worked."""
    if hasattr(session.config, "workerinput") or not session.config.pluginmanager.has_plugin("dsession"):
        return  # a worker, or a session without workers: test_isolation's last test checks it
    written = written_under_home(SANDBOX)
    if written:
        out = session.config.get_terminal_writer()
        out.line()
        out.line(f"tests wrote under HOME, where the user's own files live: {written}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure() -> None:
    shutil.rmtree(SANDBOX, ignore_errors=True)


@pytest.fixture(scope="session")
def _kept_workers() -> Iterator[Any]:
    """The render workers lent to the code under test (:mod:`tests.kept_workers`), stopped
    as the session ends."""
    from .kept_workers import LENDER

    yield LENDER
    LENDER.stop_all()


@pytest.fixture(autouse=True)
def _lent_workers(request: pytest.FixtureRequest, _kept_workers: Any) -> Iterator[None]:
    """Workers the code under test starts are lent, warm, and kept when it closes them
    (:mod:`tests.kept_workers`); a test marked ``fresh_workers`` has them start and stop as
    in a program."""
    if request.node.get_closest_marker("fresh_workers"):
        yield
        return
    with (
        mock.patch("shipyard.render.worker.RenderWorker", _kept_workers),
        mock.patch("shipyard.render.printing.RenderWorker", _kept_workers),
    ):
        yield


@pytest.fixture(autouse=True)
def _editor_clock(request: pytest.FixtureRequest) -> Iterator[None]:
    """An editor test (one that uses ``qtbot``) runs the editor's delays on a clock it moves
    on (:mod:`tests.editor_clock`): its ``qtbot.wait(ms)``, a person's pause, moves the clock
    on by ``ms`` and fires the timers that fall due, instead of sleeping. A test marked
    ``real_clock`` (every test of test_editor_by_hand.py among them) keeps real time."""
    if "qtbot" not in request.fixturenames or request.node.get_closest_marker("real_clock"):
        yield
        return
    from shipyard._qt.widgets import clock

    from .editor_clock import AdvancingClock

    moved = AdvancingClock()
    before = clock.use(moved)
    qtbot = request.getfixturevalue("qtbot")
    real_wait = qtbot.wait

    def wait_until(*args: Any, **kwargs: Any) -> Any:
        """``qtbot.waitUntil`` polls with ``qtbot.wait(10)``: there, real waits (what it
        waits for runs outside the clock), not the clock spun on ten milliseconds at a time."""
        with mock.patch.object(qtbot, "wait", real_wait):
            return type(qtbot).waitUntil(qtbot, *args, **kwargs)

    with mock.patch.object(qtbot, "wait", moved.advance), mock.patch.object(qtbot, "waitUntil", wait_until):
        yield
    clock.use(before)


@pytest.fixture(scope="session")
def _render_pool() -> Iterator[list[Any]]:
    """The render workers of this test process, kept from module to module."""
    pool: list[Any] = []
    yield pool
    for w in pool:
        w.close()


@pytest.fixture(scope="module")
def workers(_render_pool: list[Any]) -> list[Any]:
    """Two render worker processes shared by a module's printing tests: the test process's
    own, kept warm from one module to the next (each start costs WeasyPrint's import and a
    first render, and nine modules, two of them in a group a ruleset, each started two); one that a test left
    dead (killed at a time limit) is replaced."""
    from .kept_workers import RenderWorker  # the class itself: these are never lent

    for dead in [w for w in _render_pool if not w.is_alive()]:
        dead.close(wait=False)
        _render_pool.remove(dead)
    while len(_render_pool) < 2:
        _render_pool.append(RenderWorker())
    return _render_pool


def sfa(preset: str = "as-written") -> Catalog:
    return load_catalog("space-fighter-alpha", preset=preset, use_user_folder=False)


def sample(name: str, preset: str = "as-written") -> LoadedDesign:
    return load_design(EXAMPLES / f"{name}.ship", preset=preset, use_user_folder=False)


def as_published(name: str) -> Any:
    """A sample's design as the rules print it: without the note on the preset it is saved with."""
    return sample(name).design.model_copy(update={"notes": ""})


def build(preset: str = "as-written", **fields: Any) -> tuple[Design, Report]:
    """A starfighter with ``fields`` changed, resolved and evaluated.

    The base costs no freebies: Handling 0, Soak 1 (all Armor), Move 2 match the free dots
    0/1/2 exactly, Structure is the standard 10, Power 0, and one forward Railgun spends
    exactly the 5 Weapon Points (unspent ones would turn into freebies).
    """
    catalog = sfa(preset)
    design = starfighter(catalog, **fields)
    return design, evaluate(design, catalog)


def starfighter(catalog: Catalog, **fields: Any) -> Design:
    """The base starfighter of :func:`build`, with ``fields`` changed, resolved against ``catalog``."""
    base: dict[str, Any] = {
        "name": "Test",
        "scale": "starfighter",
        "crew": 1,
        "handling": 0,
        "soak": 1,
        "armor": 1,
        "shields": 0,
        "move": 2,
        "power": 0,
        "structure": 10,
        "weapons": [{"weapon": "railgun"}],
    }
    base.update(fields)
    return catalog.module.resolve(Design.model_validate(base), catalog)  # type: ignore[no-any-return]


def run_shipyard(
    *args: str | Path,
    stdin: str | None = None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    **kw: Any,
) -> subprocess.CompletedProcess[str]:
    """`python -m shipyard ARGS` as a user runs it: its own process, without SHIPYARD_DEBUG (so no tracebacks)."""
    full_env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "shipyard", *map(str, args)],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=cwd,
        env=full_env,
        timeout=timeout,
        check=False,
        **kw,
    )


def call_shipyard(
    *args: str | Path,
    stdin: str | None = None,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    merged: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`shipyard ARGS` in this process (``cli.main``), its exit status and output as
    :func:`run_shipyard` gives them, for a test about what a command prints or writes rather
    than about its process: starting one costs a third of a second of a core (two seconds for
    a print, which imports WeasyPrint and starts its render worker), and the suite ran hundreds.
    ``env`` and ``cwd`` hold for the call only, without SHIPYARD_DEBUG (no tracebacks); ``stdin``
    is what the command reads (as bytes, too); ``merged``: standard error goes where standard
    output goes, each line in the order it was written, as a terminal shows them (``stderr`` is
    then empty)."""
    from shipyard.cli import main

    out = io.StringIO()
    err = out if merged else io.StringIO()
    full_env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | (env or {})
    given = sys.stdin if stdin is None else io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    with (
        mock.patch.dict(os.environ, full_env, clear=True),
        contextlib.chdir(cwd),
        mock.patch.object(sys, "stdin", given),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse: --help, a usage error
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    return subprocess.CompletedProcess(
        ["shipyard", *map(str, args)], code, out.getvalue(), "" if merged else err.getvalue()
    )


def scratch_venv(root: Path) -> Path:
    """A virtual environment at ``root`` that sees this one (Shipyard, pip, hatchling, pytest)
    after its own packages, as site-packages is seen; its interpreter. Made without a pip of
    its own (``--without-pip``): ``python -m pip`` there runs this environment's pip, which
    installs into the scratch environment's prefix, and copying a pip in cost more CPU than
    the rest of making it."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=300)
    python = root / "bin" / "python"
    own = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = "\n".join(f"import site; site.addsitedir({p!r})" for p in site.getsitepackages())
    (Path(own) / "_shipyard_tests_base.pth").write_text(ours + "\n", encoding="utf-8")
    return python


def run_editor_smoke(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``shipyard-gui ARGS --smoke`` off-screen, as a script checks the editor starts: its own process."""
    full_env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"} | {"QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "shipyard._qt.app", *map(str, args), "--smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        env=full_env | (env or {}),
        check=False,
    )


def published(name: str) -> str:
    """Stat-block text as the rules print it: tests/data/statblocks/NAME.txt, or the whole of
    Appendix 1 among the sample ships (``published("appendix-1")``, an example for users too)."""
    path = STATBLOCKS / f"{name}.txt"
    return (path if path.is_file() else EXAMPLES / f"{name}.txt").read_text(encoding="utf-8")


def pool(report: Report, pool_id: str) -> tuple[int, int, int, int]:
    """(budget, gained, spent, remaining) of a pool."""
    p = report.pool(pool_id)
    assert p is not None, pool_id
    return p.budget, p.gained, p.spent, p.remaining


def finding(report: Report, code: str) -> Any:
    hits = [f for f in report.findings if f.code == code]
    assert hits, f"no {code!r} finding; got {report.codes()}"
    return hits[0]


RULESETS = Path(__file__).resolve().parent / "data" / "rulesets"  # small rulesets installed by tests


def house_preset(folder: Path, preset_id: str, name: str, overrides: str, ruleset: str = "space-fighter-alpha") -> Path:
    """A house-rule preset in a user catalog folder (returned), as a Storyteller writes one;
    ``overrides`` is the YAML under ``overrides:``, indented by four spaces."""
    presets = folder / ruleset / "presets"
    presets.mkdir(parents=True, exist_ok=True)
    (presets / f"{preset_id}.yaml").write_text(
        f"preset:\n  id: {preset_id}\n  name: {name}\n  source: house rules\n  overrides:\n{overrides}",
        encoding="utf-8",
    )
    return folder


def design_with_house_weapon(house: Path, ship: Path) -> Path:
    """A starfighter at ``ship`` armed with a Plasma Cannon, a weapon only the house catalog
    folder ``house`` has (made here, as docs/guide/house-rules.md makes it); ``house``."""
    folder = house / "space-fighter-alpha"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "weapons.yaml").write_text(
        "weapons:\n  - id: plasma-cannon\n    name: Plasma Cannon\n    speed: -1\n    damage: 12\n"
        "    range: 4\n    cost: 5\n    source: Our house rules\n",
        encoding="utf-8",
    )
    ship.parent.mkdir(parents=True, exist_ok=True)
    assert call_shipyard("new", "Plasma", "--kind", "starfighter", "-o", ship).returncode == 0
    weapons = 'weapons=[{"weapon": "plasma-cannon", "count": 1}]'
    assert call_shipyard("set", ship, weapons, "--in-place", "--catalog", house).returncode in (0, 1)
    return house


@pytest.fixture
def fresh_catalogs() -> Iterator[None]:
    """Catalogs loaded by id are forgotten before and after the test: a copy of a plug-in
    installed by a test (:func:`install_ruleset`) has the installed one's id, so no test
    sees another's copy."""
    from shipyard.core import catalog as catalog_module

    catalog_module._load_layers.cache_clear()
    yield
    catalog_module._load_layers.cache_clear()


def install_ruleset(monkeypatch: pytest.MonkeyPatch, where: Path, package_folder: Path, ruleset_id: str) -> None:
    """Install a ruleset package the way pip does: on sys.path, with a dist-info naming its entry point."""
    from shipyard.core import registry

    dist = where / f"{package_folder.name}-1.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "entry_points.txt").write_text(
        f"[shipyard.rulesets]\n{ruleset_id} = {package_folder.name}:manifest.yaml\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(package_folder.parent))
    monkeypatch.syspath_prepend(str(where))
    # a registry of its own for the test: undoing the patch gives back the one without it
    monkeypatch.setattr(registry, "_registry", functools.cache(registry._registry.__wrapped__))
    monkeypatch.setattr(registry, "ruleset_module", functools.cache(registry.ruleset_module.__wrapped__))


@pytest.fixture
def dock_test(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """The Dock Test ruleset (tests/data/rulesets/dock_test) installed for one test."""
    install_ruleset(monkeypatch, tmp_path / "site", RULESETS / "dock_test", "dock-test")
    return "dock-test"
