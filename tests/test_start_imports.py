"""What a start leaves unimported (issues 46 and 47): the editor until its window shows a
design, and ``shipyard check`` until it has answered, import only what that needs; what is
left for later is imported when it is first used. Each start runs in a process of its own
and says which modules it holds once it is done. Behaviour only: nothing here is timed
(the figures are bench/bench_gui.py's and bench/bench_cli.py's).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shipyard import _speedups

from .conftest import EXAMPLES, ROOT

SAMPLE = EXAMPLES / "rebel-frigate.ship"

# The editor, started as shipyard-gui starts it (--smoke: it quits once its window is
# shown); the modules it holds are printed the moment it says it is shown.
EDITOR = """
import builtins, json, runpy, sys
say = builtins.print
def shown(*a, **k):
    say(*a, **k)
    if a and str(a[0]).startswith("shown:"):
        say("MODULES " + json.dumps(sorted(sys.modules)), flush=True)
        tokenize = sys.modules.get("tokenize")
        say("TOKENIZE_PATTERNS", tokenize._compile.cache_info().currsize if tokenize else 0, flush=True)
builtins.print = shown
sys.argv[0] = "shipyard-gui"
runpy.run_module("shipyard._qt.app", run_name="__main__")
"""

# `shipyard check FILE`, the command in this process, then the modules it holds.
CHECK = """
import contextlib, io, json, sys
from shipyard.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def run(script: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
        timeout=180,
        check=False,
    )


def editor_start(**env: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("PySide6")
    proc = run(EDITOR, str(SAMPLE), "--smoke", QT_QPA_PLATFORM="offscreen", **env)
    assert proc.returncode == 0 and "MODULES " in proc.stdout, proc.stderr
    assert "designs: 1" in proc.stdout  # the sample is open in the window
    return proc


def check_modules(**env: str) -> dict[str, Any]:
    proc = run(CHECK, "check", str(SAMPLE), "--no-user-catalog", **env)
    assert proc.returncode == 0, proc.stderr
    answer: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    assert answer["code"] in (0, 1)  # answered: all valid, or findings
    return answer


@pytest.fixture(scope="module")
def editor_started() -> subprocess.CompletedProcess[str]:
    """One start of the editor as it comes, read by every test of what such a start holds or
    says: each start is a process of its own that imports Qt and opens a window."""
    return editor_start()


@pytest.fixture(scope="module")
def check_answered() -> dict[str, Any]:
    """One ``shipyard check`` as it comes, read by every test of what it holds (:func:`check_modules`)."""
    return check_modules()


def modules_of(proc: subprocess.CompletedProcess[str]) -> set[str]:
    """The modules an editor start held once its window showed the design."""
    lines = [line for line in proc.stdout.splitlines() if line.startswith("MODULES ")]
    return set(json.loads(lines[0].removeprefix("MODULES ")))


# What pydantic's plug-in loader would import, though Shipyard asks for no plug-ins.
PLUGIN_SEARCH = ("importlib.metadata", "email.message")


@pytest.mark.speedups
@pytest.mark.skipif(not _speedups.enabled(), reason="SHIPYARD_NO_SPEEDUPS: pydantic's own loader looks for plug-ins")
def test_the_editor_shows_a_design_without_looking_for_pydantic_plugins(
    editor_started: subprocess.CompletedProcess[str],
) -> None:
    modules = modules_of(editor_started)
    assert "pydantic" in modules and "shipyard.core.model" in modules
    assert not [m for m in PLUGIN_SEARCH if m in modules]


def test_the_editor_shows_a_design_without_loading_rosters_or_composition_rules(
    editor_started: subprocess.CompletedProcess[str],
) -> None:
    """A roster's page, its document and model, and the composition rules load with the first
    roster (or the first catalog that has a composition rule), not at every start."""
    modules = modules_of(editor_started)
    assert "shipyard._qt.window.rosters" in modules  # the File menu's New roster… is there
    kept_out = (
        "shipyard._qt.view.rosterpage",
        "shipyard._qt.document.rosterdoc",
        "shipyard.hangar.roster",
        "shipyard.core.composition",
    )
    assert [m for m in kept_out if m in modules] == []


@pytest.mark.speedups
@pytest.mark.skipif(not _speedups.enabled(), reason="SHIPYARD_NO_SPEEDUPS: pydantic's own loader looks for plug-ins")
def test_shipyard_check_answers_without_looking_for_pydantic_plugins(check_answered: dict[str, Any]) -> None:
    modules = set(check_answered["modules"])
    assert "pydantic" in modules
    assert not [m for m in PLUGIN_SEARCH if m in modules]


@pytest.mark.skipif(
    not _speedups.enabled(),
    reason="SHIPYARD_NO_SPEEDUPS: pydantic's loader imports importlib.metadata, and tempfile",
)
def test_shipyard_check_answers_without_a_temporary_file_module_or_package_resources(
    check_answered: dict[str, Any],
) -> None:
    """A check writes nothing and finds Shipyard's data folders beside its package: the
    temporary files of a save (tempfile) and importlib.resources wait until they are used."""
    modules = set(check_answered["modules"])
    assert "shipyard.core.atomicwrite" in modules and "shipyard.core.resources" in modules
    assert "tempfile" not in modules
    assert "importlib.resources" not in modules


@pytest.mark.speedups
def test_switched_off_check_uses_pydantic_s_own_plugin_loader() -> None:
    modules = set(check_modules(**{_speedups.SWITCH: "1"})["modules"])
    assert "importlib.metadata" in modules  # pydantic's loader, as it comes: the same answer, found the slow way


# Stands in for pydantic's plug-in loader, then asks it for the plug-ins as pydantic does
# (plugin/_schema_validator.py), with PYDANTIC_DISABLE_PLUGINS as the first argument says.
LOADER = """
import json, os, sys
from shipyard._speedups import no_pydantic_plugin_search
no_pydantic_plugin_search()
from pydantic import BaseModel
class Ship(BaseModel):
    name: str
Ship(name="Kestrel")
first = "importlib.metadata" in sys.modules
os.environ["PYDANTIC_DISABLE_PLUGINS"] = sys.argv[1]
from pydantic.plugin._loader import get_plugins
plugins = list(get_plugins())
from pydantic.plugin._loader import get_plugins as again
print(json.dumps({"metadata_before": first, "plugins": len(plugins),
                  "own_loader": hasattr(sys.modules["pydantic.plugin._loader"], "PYDANTIC_ENTRY_POINT_GROUP"),
                  "metadata_after": "importlib.metadata" in sys.modules, "same_after": again is get_plugins}))
"""


@pytest.mark.speedups
@pytest.mark.skipif(not _speedups.enabled(), reason="SHIPYARD_NO_SPEEDUPS: pydantic's own loader from the start")
def test_the_stand_in_loader_answers_no_plugins_while_they_are_switched_off() -> None:
    proc = run(LOADER, "__all__", PYDANTIC_DISABLE_PLUGINS="__all__")
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout)
    assert said == {
        "metadata_before": False,
        "plugins": 0,
        "own_loader": False,
        "metadata_after": False,
        "same_after": True,
    }


@pytest.mark.speedups
@pytest.mark.skipif(not _speedups.enabled(), reason="SHIPYARD_NO_SPEEDUPS: pydantic's own loader from the start")
def test_plugins_switched_on_later_are_looked_for_by_pydantic_s_own_loader() -> None:
    """PYDANTIC_DISABLE_PLUGINS emptied after the first model: the stand-in hands over to
    pydantic's loader, which looks for plug-ins (none installed here) and stays in its place."""
    proc = run(LOADER, "", PYDANTIC_DISABLE_PLUGINS="__all__")
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout)
    assert said == {
        "metadata_before": False,
        "plugins": 0,
        "own_loader": True,
        "metadata_after": True,
        "same_after": False,
    }


def test_without_the_variable_nothing_stands_in_for_pydantic_s_loader() -> None:
    """A process that has not switched pydantic's plug-ins off (a caller of Shipyard's engine
    in a program of its own) keeps pydantic's loader and whatever plug-ins it finds."""
    script = LOADER.replace('os.environ["PYDANTIC_DISABLE_PLUGINS"] = sys.argv[1]', "")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout)
    assert said["metadata_before"] and said["own_loader"]


def pydantic_s_check() -> tuple[Any, Any]:
    """(the check pydantic's schema builder calls, pydantic's own) for whether a default
    factory takes the validated data."""
    from pydantic._internal import _fields, _generate_schema

    used = _generate_schema.takes_validated_data_argument
    assert _fields.takes_validated_data_argument is used  # fields.py asks the same one
    return used, getattr(used, "__wrapped__", used)


@pytest.mark.speedups
def test_a_built_in_default_factory_is_answered_as_pydantic_answers_it() -> None:
    _speedups.quicker_default_factories()
    used, own = pydantic_s_check()
    assert (used is not own) == _speedups.enabled()
    for factory in _speedups.NO_DATA_FACTORIES:
        assert own(factory) is False, factory  # pydantic's own reading of its signature
        assert used(factory) is False, factory

    def with_data(data: dict[str, Any]) -> int:
        return len(data)

    def without() -> int:
        return 1

    assert own(with_data) is True and used(with_data) is True
    assert own(without) is False and used(without) is False


@pytest.mark.speedups
def test_a_factory_that_takes_the_validated_data_is_given_it() -> None:
    """A model built after the speed-up: a factory of its own still gets the data, a
    built-in one makes an empty value."""
    from pydantic import BaseModel, Field

    _speedups.quicker_default_factories()

    class Crew(BaseModel):
        names: list[str]
        size: int = Field(default_factory=lambda data: len(data["names"]))
        notes: list[str] = Field(default_factory=list)

    crew = Crew(names=["Ashe", "Vale"])
    assert crew.size == 2 and crew.notes == []


@pytest.mark.speedups
@pytest.mark.skipif(not _speedups.enabled(), reason="SHIPYARD_NO_SPEEDUPS: pydantic reads list's signature")
def test_the_editor_shows_a_design_without_parsing_a_built_in_s_signature(
    editor_started: subprocess.CompletedProcess[str],
) -> None:
    """No signature text of a built-in type is tokenized on the way (tokenize's patterns
    are compiled on its first use)."""
    said = editor_started.stdout
    assert "TOKENIZE_PATTERNS 0" in said


# The editor's start as above, counting the patterns re parses from text once Shipyard has begun.
COUNTED = EDITOR.replace(
    'sys.argv[0] = "shipyard-gui"',
    """import re._parser
parse = re._parser.parse
parsed = []
def counted(p, *a, **k):
    parsed.append(p)
    return parse(p, *a, **k)
re._parser.parse = counted
sys.argv[0] = "shipyard-gui"
import shipyard._qt.app
app_build = shipyard._qt.app.build
def build(*a, **k):
    parsed.clear()  # the patterns from here on: what a kept program can stand in for
    return app_build(*a, **k)
shipyard._qt.app.build = build""",
).replace('say("MODULES "', 'say("PARSED", len(parsed), flush=True); say("MODULES "')


def parsed_at_start(cache: Path, **env: str) -> int:
    pytest.importorskip("PySide6")
    proc = run(COUNTED, str(SAMPLE), "--smoke", QT_QPA_PLATFORM="offscreen", XDG_CACHE_HOME=str(cache), **env)
    assert proc.returncode == 0 and "designs: 1" in proc.stdout, proc.stderr
    counts = [int(line.split()[1]) for line in proc.stdout.splitlines() if line.startswith("PARSED ")]
    assert counts, proc.stdout
    return counts[0]


KEPT = Path("shipyard") / _speedups.PATTERNS_FILE
SEALED = b"shipyard-sealed-1\n"  # shipyard.core.cachefile.SEAL_HEADER


@pytest.mark.speedups
def test_a_start_takes_the_programs_of_its_patterns_from_an_earlier_one_sealed_by_this_user(tmp_path: Path) -> None:
    """A start keeps the programs of the patterns it compiled; the next compiles few from
    text. A file planted in the cache folder, however well formed, is not this user's: its
    programs are not used, and every pattern is compiled from its text again."""
    parsed_at_start(tmp_path)  # the catalog cache and the kept programs, as after any first start
    kept = tmp_path / KEPT
    if not _speedups.enabled():
        assert not kept.exists()  # switched off: nothing kept, nothing read
        return
    body = kept.read_bytes()
    assert body.startswith(SEALED)
    kept.unlink()
    fresh = parsed_at_start(tmp_path)  # nothing kept: each pattern compiled (and parsed again to be kept)
    assert fresh >= 30  # argparse's, pydantic's, PySide6's and Shipyard's own
    assert parsed_at_start(tmp_path) <= fresh // 5  # nearly all from their kept programs
    planted = SEALED + bytes(32) + kept.read_bytes()[len(SEALED) + 32 :]
    kept.write_bytes(planted)
    kept.chmod(0o600)
    assert parsed_at_start(tmp_path) >= fresh - 2


PATTERNS = [
    (r"(?P<word>\w+)\s+(?P=word)", 0, ["the the cat", "no repeat"]),
    (r"^data:(?P<mime>[a-z0-9.+/-]+)(;[a-z0-9=._-]+)*;base64,", re.IGNORECASE, ["DATA:image/png;base64,xx", "data:x"]),
    (r"(?<=\d)(?=(\d{3})+(?!\d))", 0, ["1234567", "12"]),
    (
        r"""
        (\d+)   # a number
        \s* ([a-z]+)  # its unit
     """,
        re.VERBOSE,
        ["12 mm", "mm 12"],
    ),
    (r"[^\x00-\x7f]+|ü", 0, ["abc ünï", "plain"]),
    (r"a.b", re.DOTALL | re.MULTILINE, ["a\nb", "ab"]),
]


@pytest.mark.speedups
@pytest.mark.parametrize(("text", "flags", "samples"), PATTERNS)
def test_a_pattern_made_from_its_kept_program_matches_as_re_s_own(text: str, flags: int, samples: list[str]) -> None:
    compiler: Any = sys.modules["re._compiler"]
    own = re.compile(text, flags)
    code = _speedups._code_of(text, int(flags), compiler)
    assert code is not None
    made = _speedups._from_program(text, [own.flags, code, own.groups, dict(own.groupindex)])
    assert made is not None and made is not own
    assert (made.pattern, made.flags, made.groups, made.groupindex) == (
        own.pattern,
        own.flags,
        own.groups,
        own.groupindex,
    )
    for sample in samples:
        mine, theirs = made.search(sample), own.search(sample)
        assert (mine and (mine.span(), mine.groups())) == (theirs and (theirs.span(), theirs.groups()))
    for binary in (text.encode(),) if text.isascii() else ():
        bcode = _speedups._code_of(binary, int(flags), compiler)
        bown = re.compile(binary, flags)
        bmade = _speedups._from_program(binary, [bown.flags, bcode, bown.groups, dict(bown.groupindex)])
        assert bmade is not None
        first = samples[0].encode()
        assert bool(bmade.search(first)) == bool(bown.search(first))


@pytest.mark.speedups
def test_a_program_the_matcher_refuses_is_compiled_as_usual() -> None:
    own = re.compile(r"(a|b)+c")
    compiler: Any = sys.modules["re._compiler"]
    code = _speedups._code_of(r"(a|b)+c", 0, compiler)
    assert code is not None
    no_such_operation = [*code[:5], 999, *code[6:]]  # where REPEAT was
    assert _speedups._from_program(r"(a|b)+c", [own.flags, no_such_operation, own.groups, {}]) is None
    assert _speedups._from_program(r"(a|b)+c", [own.flags, code[:-3], own.groups, {}]) is None  # cut short
    assert _speedups._from_program(r"(a|b)+c", [own.flags, ["x"], own.groups, {}]) is None


def test_with_the_cache_bypassed_no_program_is_kept(tmp_path: Path) -> None:
    """SHIPYARD_NO_CACHE=1 bypasses the whole cache folder, the kept programs with it."""
    assert parsed_at_start(tmp_path, SHIPYARD_NO_CACHE="1") >= 30
    assert not (tmp_path / KEPT).exists()


# PySide6 imported as the editor imports it, counting the support modules shiboken compiles
# from their source (the compiles a kept code object stands in for never reach the count).
SUPPORT = """
import builtins, sys
compiled = []
plain = builtins.compile
def counted(source, filename, *a, **k):
    if isinstance(filename, str) and filename.startswith("shibokensupport/"):
        compiled.append(filename)
    return plain(source, filename, *a, **k)
builtins.compile = counted
from shipyard._speedups import keep_pyside_support, pyside_support_compiled_once
with pyside_support_compiled_once():
    from PySide6 import QtCore, QtWidgets
assert builtins.compile is counted
keep_pyside_support()
print("COMPILED", len(compiled))
try:
    QtCore.QObject().setObjectName(1)
except TypeError as wrong:  # told by shiboken's error handler, with the signatures its parser read
    print("SIGNATURE", str(wrong).splitlines()[-1].strip())
print("ENUM", QtWidgets.QSizePolicy.Policy.Expanding.name)
"""


def support_compiled(cache: Path, **env: str) -> int:
    pytest.importorskip("PySide6")
    proc = run(SUPPORT, XDG_CACHE_HOME=str(cache), QT_QPA_PLATFORM="offscreen", **env)
    assert proc.returncode == 0, proc.stderr
    said = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert said["SIGNATURE"] == "PySide6.QtCore.QObject.setObjectName(name: str, /)"  # its machinery at work
    assert said["ENUM"] == "Expanding"
    return int(said["COMPILED"])


SUPPORT_KEPT = Path("shipyard") / _speedups.SUPPORT_CODE_FILE


@pytest.mark.speedups
def test_pyside_s_support_modules_are_compiled_once_and_kept_sealed(tmp_path: Path) -> None:
    """The first import compiles shiboken's support modules and keeps their code; the next
    compiles none of them and works the same; a file not sealed by this user is not used."""
    first = support_compiled(tmp_path)
    assert first >= 10
    kept = tmp_path / SUPPORT_KEPT
    if not _speedups.enabled():
        assert not kept.exists()
        assert support_compiled(tmp_path) == first
        return
    assert kept.read_bytes().startswith(SEALED)
    assert support_compiled(tmp_path) == 0
    kept.write_bytes(SEALED + bytes(32) + kept.read_bytes()[len(SEALED) + 32 :])  # the seal is not this user's
    assert support_compiled(tmp_path) == first
    assert support_compiled(tmp_path, SHIPYARD_NO_CACHE="1") == first
    # PySide6's own modules without bytecode: importlib compiles them inside the block
    fresh = {"PYTHONPYCACHEPREFIX": str(tmp_path / "no-bytecode"), "PYTHONDONTWRITEBYTECODE": "1"}
    assert support_compiled(tmp_path / "again", **fresh) == first
    assert support_compiled(tmp_path / "again", **fresh) == 0


def test_a_compile_of_anything_else_while_pyside_is_imported_is_python_s_own() -> None:
    """Other compiles inside the block get what Python's own gives them outside it, the
    caller's __future__ flags included (this module's: postponed annotations)."""
    import builtins

    source = "def f(x: undefined_name) -> None: pass\nf(1)"
    plain = builtins.compile
    outside = plain(source, "<test>", "exec")
    with _speedups.pyside_support_compiled_once():
        assert (builtins.compile is not plain) == _speedups.enabled()
        inside = builtins.compile(source, "<test>", "exec")
        alone = builtins.compile(source, "<test>", "exec", dont_inherit=True)
        # as importlib compiles a module that has no bytecode yet
        optimized = builtins.compile("assert False", "<test>", "exec", dont_inherit=True, optimize=2)
        named = builtins.compile(source, "<test>", "exec", optimize=-1)
        expression = builtins.compile("1 + 2", "shibokensupport/x.py", "eval")
    assert builtins.compile is plain
    assert inside.co_flags == outside.co_flags
    exec(inside, {})  # the annotation is not evaluated, as outside the block
    with pytest.raises(NameError):
        exec(alone, {})  # without this module's flags it is
    assert eval(expression) == 3
    exec(optimized, {})  # optimize=2 took the assert out
    assert named.co_flags == outside.co_flags


# Classes and forward references made as the engine makes them, in a process that keeps
# their generated code: what it compiled from text, and that the classes work as Python's own.
GENERATED = """
import dataclasses, sys, typing
from shipyard import _speedups
_speedups.generated_code_kept()
@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0
    tags: list = dataclasses.field(default_factory=list)
p, q = Point(1, 2), Point(1, 3)
assert (p < q, p == Point(1, 2), repr(p)) == (True, True, "Point(x=1, y=2, tags=[])"), repr(p)
try:
    p.x = 5
except dataclasses.FrozenInstanceError:
    pass
else:
    raise SystemExit("a frozen dataclass took an assignment")
ref = typing.ForwardRef("list[Point]")
assert ref._evaluate(globals(), None, frozenset()) == list[Point]
try:
    typing.ForwardRef("not an expression (")
except SyntaxError as wrong:
    assert "Forward reference must be an expression" in str(wrong)
else:
    raise SystemExit("a broken forward reference was taken")
print("COMPILED", len(_speedups._generated_new))
_speedups.keep_generated_code()
"""


def generated_compiled(cache: Path, **env: str) -> int:
    proc = run(GENERATED, XDG_CACHE_HOME=str(cache), **env)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return int(proc.stdout.split()[-1])


GENERATED_KEPT = Path("shipyard") / _speedups.GENERATED_CODE_FILE


@pytest.mark.speedups
def test_generated_methods_and_forward_references_are_compiled_once_and_kept_sealed(tmp_path: Path) -> None:
    """The first process compiles the dataclass's methods and the forward reference and
    keeps their code; the next compiles none and its classes work the same; a file not
    sealed by this user is not used, and SHIPYARD_NO_CACHE keeps nothing."""
    first = generated_compiled(tmp_path)
    kept = tmp_path / GENERATED_KEPT
    if not _speedups.enabled():
        assert first == 0 and not kept.exists()
        return
    assert first >= 4  # __init__, __repr__, __eq__, the comparisons..., the reference
    assert kept.read_bytes().startswith(SEALED)
    assert generated_compiled(tmp_path) == 0
    kept.write_bytes(SEALED + bytes(32) + kept.read_bytes()[len(SEALED) + 32 :])  # the seal is not this user's
    assert generated_compiled(tmp_path) == first
    assert generated_compiled(tmp_path / "none", SHIPYARD_NO_CACHE="1") == 0
    assert not (tmp_path / "none" / GENERATED_KEPT).exists()


def test_exec_and_compile_as_dataclasses_and_typing_call_them_are_python_s_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exec() and compile() the speed-up gives both modules do what the built-ins do,
    called any way: without namespaces (the caller's), with flags, another file name or a
    closure, and with this module's __future__ flags (postponed annotations)."""
    import dataclasses
    import typing

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # this process keeps nothing: the test's own folder
    _speedups.generated_code_kept()
    exec_: Any = vars(dataclasses).get("exec", exec)
    compile_: Any = vars(typing).get("compile", compile)
    assert (exec_ is not exec) == (_speedups.enabled() and not os.environ.get("SHIPYARD_NO_CACHE"))
    local = 1
    exec_("found = local + 1")  # the caller's namespaces
    assert locals().get("found", 2) == 2
    names: dict[str, Any] = {}
    exec_("def f(x: undefined_name) -> None: return x", names)
    assert names["f"](3) == 3  # postponed annotations, as this module's own exec()
    exec_(b"def g(x: undefined_name) -> None: return x", names)
    assert names["g"](4) == 4
    assert (
        compile_("x: undefined_name", "<string>", "exec").co_flags
        == compile("x: undefined_name", "<string>", "exec").co_flags
    )
    assert eval(compile_("1 + 2", "<string>", "eval")) == 3
    assert compile_("1 + 2", "other.py", "eval", dont_inherit=True).co_filename == "other.py"
    assert eval(compile_("1 + 2", "<string>", "eval", 0, False, 2)) == 3  # optimize
    with pytest.raises(SyntaxError):
        compile_("1 +", "<string>", "eval")
    with pytest.raises(SyntaxError):
        exec_("def (", {})
