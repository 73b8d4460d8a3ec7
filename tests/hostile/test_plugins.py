"""Hostile plug-ins: code that raises, exits, prints or loops where Shipyard runs it.

Each case of issue 44 (8 and 10) runs as a user meets it: a real ``shipyard`` process with
the plug-in installed on its ``PYTHONPATH`` (a ``*.dist-info`` folder with its entry
point, as pip leaves it). The plug-in is the Tiny Gunboats demo (tests/data/plugin-demo)
with one hostile line added, so everything else about it works. Each checks the exit
status, that the message names the plug-in, the hook and the plug-in's file, and that
stdout of a command that promises JSON holds only JSON.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ..conftest import ROOT, run_shipyard
from ..test_bad_plugins import ARROW, assert_clean
from ..test_registry import _site

DEMO = ROOT / "tests" / "data" / "plugin-demo" / "shipyard_tiny_gunboats"
# Short, so a plug-in that loops costs the suite little; a real user gets the default.
TIMEOUT = {"SHIPYARD_PLUGIN_TIMEOUT": "2"}
# Shorter where a plug-in loops on purpose: the loop burns a core until the limit, in each
# of the seven commands that meet one. Still ten times what importing a built-in ruleset
# takes (every ruleset's code runs under the limit) on a machine busy with the suite.
LOOP_LIMIT = "1"


def gunboats(tmp_path: Path, extra: str = "", *, parent: str = "") -> tuple[Path, Path]:
    """The demo plug-in installed in a scratch site, with ``extra`` appended to its package's
    ``__init__.py`` (a hook redefined, a print, a loop); (the site, its sample's copy)."""
    site = _site(tmp_path / "site", {"tiny-gunboats": "shipyard_tiny_gunboats:manifest.yaml"})
    folder = site / "shipyard_tiny_gunboats"
    shutil.copytree(DEMO, folder)
    init = folder / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + "\n" + extra + "\n", encoding="utf-8")
    sample = tmp_path / "sea-wasp.ship"
    shutil.copyfile(folder / "catalog" / "examples" / "sea-wasp.ship", sample)
    return site, sample


def shipyard(site: Path, *args: str | Path, timeout: float = 60, limit: str = "") -> subprocess.CompletedProcess[str]:
    """``shipyard ARGS`` with the plug-in's site on its path; ``limit``: the plug-in time limit in
    seconds, if not :data:`TIMEOUT`'s."""
    limits = {"SHIPYARD_PLUGIN_TIMEOUT": limit} if limit else TIMEOUT
    return run_shipyard(*args, env={"PYTHONPATH": str(site), **limits}, timeout=timeout)


def init_file(site: Path) -> str:
    return str(site / "shipyard_tiny_gunboats" / "__init__.py")


def assert_blamed(proc: subprocess.CompletedProcess[str], site: Path, *words: str) -> None:
    """Exit 2, no traceback, no "this is a bug"; the message names the plug-in, the words
    (the hook, the exception) and the plug-in's own file."""
    assert_clean(proc, 2)
    assert "this is a bug" not in proc.stderr, proc.stderr
    assert "'tiny-gunboats'" in proc.stderr or "'shipyard_tiny_gunboats'" in proc.stderr, proc.stderr
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)
    assert init_file(site) in proc.stderr, proc.stderr


def test_the_demo_plugin_works_before_anything_hostile_is_added(tmp_path: Path) -> None:
    site, sample = gunboats(tmp_path)
    proc = shipyard(site, "check", sample, "--json")
    assert_clean(proc)
    assert json.loads(proc.stdout)[0]["valid"] is True


RAISING_HOOKS = {
    "derive": "def derive(ctx):\n    raise RuntimeError('the plug-in broke')",
    "view": "def view(design, catalog):\n    raise RuntimeError('the plug-in broke')",
    "resolve": "def resolve(design, catalog):\n    raise RuntimeError('the plug-in broke')",
}


@pytest.mark.parametrize("hook", sorted(RAISING_HOOKS))
def test_a_hook_that_raises_is_the_plugins_error_not_a_bug_of_shipyard(hook: str, tmp_path: Path) -> None:
    """It said "this is a bug; run again with SHIPYARD_DEBUG=1" (exit 70), blaming Shipyard."""
    site, sample = gunboats(tmp_path, RAISING_HOOKS[hook])
    proc = shipyard(site, "check", sample)
    assert_blamed(proc, site, f"hook {hook!r}", "RuntimeError: the plug-in broke")
    lines = Path(init_file(site)).read_text(encoding="utf-8").splitlines()
    raising = next(i for i, ln in enumerate(lines, 1) if "raise RuntimeError" in ln)
    assert f"{init_file(site)}:{raising}" in proc.stderr, proc.stderr  # the line that raised
    # and the other designs of the same command are still checked
    both = shipyard(site, "check", ARROW, sample, "--no-user-catalog", "--json")
    assert both.returncode == 2, both.stderr
    first, second = json.loads(both.stdout)
    assert first["valid"] is True and second["valid"] is False and f"hook {hook!r}" in str(second["error"])


@pytest.mark.parametrize("status", ["7", "9", "None"])
def test_a_hook_that_calls_sys_exit_is_named_not_a_silent_end(status: str, tmp_path: Path) -> None:
    """``sys.exit(7)`` in ``derive`` ended ``shipyard check`` with exit 7 and no message at all."""
    site, sample = gunboats(tmp_path, f"import sys\ndef derive(ctx):\n    sys.exit({status})")
    proc = shipyard(site, "check", sample)
    assert_blamed(proc, site, "hook 'derive'", "SystemExit")


def test_a_rule_type_of_the_plugin_that_raises_is_named(tmp_path: Path) -> None:
    extra = (
        "def apply_guns_within_hull(ctx, p):\n    raise KeyError('guns')\n"
        "RULE_TYPES = {'guns-within-hull': RuleType(GunsParams, apply_guns_within_hull)}"
    )
    site, sample = gunboats(tmp_path, extra)
    proc = shipyard(site, "check", sample)
    assert_blamed(proc, site, "rule type 'guns-within-hull'", "KeyError")


def test_a_hook_returning_the_wrong_thing_names_what_it_returned_and_what_it_should(tmp_path: Path) -> None:
    site, sample = gunboats(tmp_path, "def variants(design):\n    return 42")
    proc = shipyard(site, "check", sample)
    assert_clean(proc, 2)
    assert "ruleset 'tiny-gunboats': hook 'variants' returned int 42, not a list of (name, design) pairs" in (
        proc.stderr
    )
    assert init_file(site) in proc.stderr


PRINTS = {
    "at import": "print('hello from the plug-in')",
    "in derive": ("_derive = derive\ndef derive(ctx):\n    print('hello from the plug-in')\n    return _derive(ctx)"),
    # past Python's sys.stdout, to the process's own output (as a C library or a child process writes)
    "at import, to fd 1": "import os\nos.write(1, b'hello from the plug-in\\n')",
    "at import, by a child": (
        "import subprocess, sys\n"
        "subprocess.run([sys.executable, '-c', 'print(\"hello from the plug-in\")'], check=True)"
    ),
}


@pytest.mark.parametrize("where", sorted(PRINTS))
def test_a_plugin_that_prints_leaves_json_on_stdout(where: str, tmp_path: Path) -> None:
    """A print at import came first on stdout: ``check --json`` and ``schema`` were no longer JSON."""
    site, sample = gunboats(tmp_path, PRINTS[where])
    check = shipyard(site, "check", sample, "--json")
    assert_clean(check)
    assert json.loads(check.stdout)[0]["valid"] is True
    assert "hello from the plug-in" in check.stderr  # what it printed is not lost
    schema = shipyard(site, "schema")
    assert_clean(schema)
    assert "tiny-gunboats" in json.dumps(json.loads(schema.stdout)), schema.stdout[:300]
    listing = shipyard(site, "rulesets", "--json")
    assert_clean(listing)
    assert "tiny-gunboats" in {r["id"] for r in json.loads(listing.stdout)["rulesets"]}


LOOPS = {
    "at import": "while True:\n    pass",
    "in derive": "def derive(ctx):\n    while True:\n        pass",
}


def test_a_plugin_that_loops_at_import_is_stopped_and_named(tmp_path: Path) -> None:
    """``rulesets``, ``schema`` and ``check`` hung forever."""
    site, sample = gunboats(tmp_path, LOOPS["at import"])
    for args in (("check", sample), ("schema", "--ruleset", "tiny-gunboats")):
        proc = shipyard(site, *args, timeout=60, limit=LOOP_LIMIT)
        assert_clean(proc, 2)
        assert "'shipyard_tiny_gunboats'" in proc.stderr and f"did not finish within {LOOP_LIMIT} s" in proc.stderr, (
            proc.stderr
        )
    listing = shipyard(site, "rulesets", timeout=60, limit=LOOP_LIMIT)
    assert_clean(listing)
    assert "tiny-gunboats" in listing.stdout and f"did not finish within {LOOP_LIMIT} s" in listing.stdout
    everything = shipyard(
        site, "schema", timeout=60, limit=LOOP_LIMIT
    )  # every ruleset's schema: this one is skipped, named
    assert_clean(everything, 2)
    assert f"did not finish within {LOOP_LIMIT} s" in everything.stderr


def test_a_plugin_whose_derive_loops_is_stopped_and_named(tmp_path: Path) -> None:
    site, sample = gunboats(tmp_path, LOOPS["in derive"])
    proc = shipyard(site, "check", sample, "--json", timeout=60, limit=LOOP_LIMIT)
    assert proc.returncode == 2, proc.stderr
    [result] = json.loads(proc.stdout)
    assert "hook 'derive'" in str(result["error"]) and f"did not finish within {LOOP_LIMIT} s" in str(result["error"])
    lines = Path(init_file(site)).read_text(encoding="utf-8").splitlines()
    looping = [i for i, ln in enumerate(lines, 1) if ln.strip() in ("while True:", "pass")][-2:]
    assert any(f"stopped at {init_file(site)}:{n}" in str(result["error"]) for n in looping), result  # the loop


def test_a_parent_package_that_loops_while_rulesets_are_found_is_stopped(tmp_path: Path) -> None:
    """Finding a plug-in imports its parent packages: a loop there hung even ``--help``."""
    site = _site(tmp_path / "site", {"looping": "looppkg.sub:manifest.yaml"}, dist="loop_rules-1.0.dist-info")
    (site / "looppkg").mkdir()
    (site / "looppkg" / "__init__.py").write_text("while True:\n    pass\n", encoding="utf-8")
    proc = shipyard(site, "check", ARROW, "--no-user-catalog", timeout=60, limit=LOOP_LIMIT)
    assert_clean(proc)
    assert "Result: PASSES" in proc.stdout
    help_ = shipyard(site, "--help", timeout=60, limit=LOOP_LIMIT)
    assert_clean(help_)
    assert any("'looping'" in ln and f"did not finish within {LOOP_LIMIT} s" in ln for ln in help_.stderr.splitlines())


FORMAT = (
    "MAX_TEXT_BYTES = 10_000\n\n\n"
    "def write(design, catalog, *, markdown=False):\n    {write}\n\n\n"
    "def lost(design, catalog):\n    return []\n"
)


@pytest.mark.parametrize(
    ("write", "said"),
    [
        ("raise ValueError('no text today')", "text format 'gunboat-text': hook 'write': ValueError: no text today"),
        ("return 42", "text format 'gunboat-text': hook 'write' returned int 42, not a str"),
    ],
)
def test_a_text_format_of_a_plugin_that_fails_is_named(write: str, said: str, tmp_path: Path) -> None:
    """A plug-in's text format's ``write`` that raised or returned no text was "this is a bug"."""
    site, sample = gunboats(tmp_path)
    folder = site / "shipyard_tiny_gunboats"
    (folder / "text.py").write_text(FORMAT.replace("{write}", write), encoding="utf-8")
    manifest = folder / "manifest.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        + "formats:\n  - {id: gunboat-text, name: gunboat text, module: shipyard_tiny_gunboats.text, reads: false}\n",
        encoding="utf-8",
    )
    proc = shipyard(site, "export", "gunboat-text", sample, "-o", tmp_path / "out.txt")
    assert_clean(proc, 2)
    assert f"ruleset 'tiny-gunboats': {said}" in proc.stderr, proc.stderr
    assert not (tmp_path / "out.txt").exists()


def test_a_text_formats_write_without_the_markdown_keyword_is_refused_by_name(tmp_path: Path) -> None:
    """Keyword arguments were not checked: ``write(design, catalog)`` failed at first use."""
    site, _sample = gunboats(tmp_path)
    folder = site / "shipyard_tiny_gunboats"
    text = FORMAT.replace("{write}", "return 'x'").replace(", *, markdown=False", ", *, md=False")
    (folder / "text.py").write_text(text, encoding="utf-8")
    manifest = folder / "manifest.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        + "formats:\n  - {id: gunboat-text, name: gunboat text, module: shipyard_tiny_gunboats.text, reads: false}\n",
        encoding="utf-8",
    )
    proc = shipyard(site, "rulesets", "--check", folder)
    assert_clean(proc, 2)
    assert (
        "hook 'write': takes write(design, catalog, *, md); Shipyard calls write(design, catalog, *, markdown=...)"
        in (proc.stderr)
    ), proc.stderr


def test_the_guard_leaves_the_process_as_it_found_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """After plug-in code, stopped or not: no timer left running, the alarm's handler and
    stdout as they were; a guard inside a guard is bounded by the outer one."""
    import signal
    import sys
    import threading

    from shipyard.core.errors import InputError
    from shipyard.core.plugincode import plugin_code

    monkeypatch.setenv("SHIPYARD_PLUGIN_TIMEOUT", "0.2")
    handler, stdout = signal.getsignal(signal.SIGALRM), sys.stdout
    with pytest.raises(InputError, match=r"plug-in 'x': did not finish within 0\.2 s"), plugin_code("plug-in 'x'"):
        with plugin_code("plug-in 'x', inner"):
            assert sys.stdout is sys.stderr
        while True:
            pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == handler and sys.stdout is stdout
    seen: list[object] = []

    def elsewhere() -> None:  # another thread: neither a timer nor stdout swapped
        with plugin_code("plug-in 'y'"):
            seen.append(sys.stdout)

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [stdout] and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize(("signal_name", "status"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_ctrl_c_or_sigterm_while_a_plugin_runs_stops_the_command_and_blames_no_one(
    signal_name: str, status: int, tmp_path: Path
) -> None:
    """The guard turns what a plug-in raises into its error, KeyboardInterrupt included; a
    person's Ctrl-C or the system's SIGTERM that arrives while the plug-in runs is neither:
    the command stops as it does anywhere else (128 + the signal), naming no plug-in."""
    import os
    import signal
    import sys
    import time

    marker = tmp_path / "in-derive"
    site, sample = gunboats(
        tmp_path,
        f"def derive(ctx):\n    import pathlib, time\n    pathlib.Path({str(marker)!r}).touch()\n"
        "    while True:\n        time.sleep(0.05)",
    )
    env = {k: v for k, v in os.environ.items() if k != "SHIPYARD_DEBUG"}
    env |= {"PYTHONPATH": str(site), "SHIPYARD_PLUGIN_TIMEOUT": "60"}
    # Started as a terminal starts a command, Ctrl-C not ignored. A test run started in the
    # background of a script (``.ci/run > log &``, no job control) ignores SIGINT, and so does
    # every process it starts: that command rightly kept ignoring it and looped until the
    # plug-in's limit. A handler of Python's is set back to the default at exec, an ignored
    # signal stays ignored; so one is set while the command starts.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "shipyard", "check", str(sample)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, before)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), proc.communicate(timeout=10)
        proc.send_signal(getattr(signal, signal_name))
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status, err
    assert "Traceback" not in err and "tiny-gunboats" not in err and "KeyboardInterrupt" not in err, err
