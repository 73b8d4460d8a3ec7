"""The declared plug-in contract: every hook a ruleset's package may define is checked when it
is imported and by ``shipyard rulesets --check``; the manifest's plug-in API is checked when
it is read. Tried on a copy of the example plug-in (Tiny Gunboats), edited as an author would."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from shipyard.core import hookspec, registry
from shipyard.core.errors import InputError
from shipyard.core.rulesetcheck import check_folder
from shipyard.core.rulesetinfo import RulesetInfo

from .conftest import ROOT, install_ruleset, run_shipyard

DEMO = Path(__file__).resolve().parent / "data" / "plugin-demo" / "shipyard_tiny_gunboats"


# A copy of Tiny Gunboats installed by a test has the installed one's id (conftest.fresh_catalogs).
pytestmark = pytest.mark.usefixtures("fresh_catalogs")


@pytest.fixture
def plugin(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A copy of the example plug-in under a package name of this test's own (a package is
    imported once per process, so each test's edited copy needs its own name)."""
    name = "tiny_" + re.sub(r"\W", "_", request.node.name)
    pkg = tmp_path / name
    shutil.copytree(DEMO, pkg)
    yield pkg
    _forget(pkg)


def _forget(pkg: Path) -> None:
    """The package imported afresh by the next check (as a new process would)."""
    for module in [m for m in sys.modules if m == pkg.name or m.startswith(pkg.name + ".")]:
        del sys.modules[module]


def _read(pkg: Path) -> RulesetInfo:
    _forget(pkg)
    return check_folder(pkg)


def _edit(pkg: Path, old: str, new: str, file: str = "__init__.py") -> Path:
    path = pkg / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _problems(pkg: Path) -> list[str]:
    with pytest.raises(InputError) as caught:
        _read(pkg)
    return [str(p) for p in caught.value.problems]


def _line(path: Path, start: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(start))


def test_the_example_plugin_is_read_whole_and_nothing_is_written_into_its_module(plugin: Path) -> None:
    info = _read(plugin)
    assert info.manifest.api == 1
    module = sys.modules[plugin.name]
    # it defines no optional hook, and none is added to it: each is answered where it is used
    assert not any(hasattr(module, h.name) for h in hookspec.HOOKS if not h.required)
    assert hookspec.optional(module, "variants")(object()) == []
    assert hookspec.optional(module, "pair_figures")(None, None, None) == []


def test_a_misspelt_hook_is_named_with_the_closest_hook(plugin: Path) -> None:
    init = _edit(
        plugin, "def new_design(", "def pair_figure(first, other, catalog):\n    return []\n\n\ndef new_design("
    )
    (problem,) = _problems(plugin)
    assert problem.startswith(f"{init}:{_line(init, 'def pair_figure(')}: ")
    assert (
        "the ruleset package 'tiny_test_a_misspelt_hook_is_named_with_the_closest_hook' defines 'pair_figure'"
        in problem
    )
    assert "did you mean 'pair_figures' (pair_figures(first, other, catalog))?" in problem
    assert "starts with '_'" in problem
    _edit(plugin, "def pair_figure(", "def _pair_figure(")  # a helper of its own is private, and fine
    assert _read(plugin).id == "tiny-gunboats"


def test_a_misspelt_constant_is_named_too(plugin: Path) -> None:
    init = _edit(plugin, "ITEM_KINDS: dict", 'FIX_NEVR = ("hull",)\nITEM_KINDS: dict')
    (problem,) = _problems(plugin)
    assert problem.startswith(f"{init}: ") and "'FIX_NEVR', which is no hook; did you mean 'FIX_NEVER'" in problem


def test_a_wrong_signature_names_the_hook_and_what_shipyard_calls(plugin: Path) -> None:
    init = _edit(plugin, "def derive(ctx: Context) -> Derived:", "def derive(ctx: Context, sheet: str) -> Derived:")
    (problem,) = _problems(plugin)
    assert problem.startswith(f"{init}:{_line(init, 'def derive(')}: ")
    assert "hook 'derive': takes derive(ctx, sheet); Shipyard calls derive(ctx)" in problem


def test_a_hook_that_is_no_function_and_a_missing_one_are_each_reported(plugin: Path) -> None:
    _edit(plugin, "def resolve(design: Design, catalog: Catalog) -> Design:\n    return design\n", "resolve = 3\n")
    _edit(plugin, "def new_design(", "def _new_design(")
    problems = _problems(plugin)
    assert any("lacks new_design" in p and "new_design(kind, name, catalog)" in p for p in problems), problems
    assert any(
        "hook 'resolve': is an int, not a function; Shipyard calls resolve(design, catalog)" in p for p in problems
    )


def test_a_lazy_hook_is_checked_by_rulesets_check(plugin: Path) -> None:
    """``FORM_CALLS`` given by the package's ``__getattr__`` is read by --check, not by every import."""
    (plugin / "editing.py").write_text("FORM_CALLS = {'firepower': 3}\n", encoding="utf-8")
    _edit(
        plugin,
        "ITEM_KINDS: dict",
        "from shipyard.core.lazy import lazy_attributes\n\n__getattr__ = lazy_attributes(__name__, "
        'FORM_CALLS=".editing")\n__all__ = ["FORM_CALLS"]\n\nITEM_KINDS: dict',
    )
    (problem,) = _problems(plugin)
    assert "hook 'FORM_CALLS': entry 'firepower' is an int, not a function fn(form_context, **params)" in problem


def test_a_plugin_with_a_misspelt_hook_is_refused_at_import_too(
    plugin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _edit(plugin, "def new_design(", "def fix_hint(design, report, catalog):\n    return []\n\n\ndef new_design(")
    install_ruleset(monkeypatch, tmp_path / "site", plugin, "tiny-gunboats")
    with pytest.raises(InputError) as caught:
        registry.ruleset_module("tiny-gunboats")
    assert "did you mean 'fix_hints' (fix_hints(design, report, catalog))?" in str(caught.value)


def test_an_unsupported_api_is_refused_naming_both_versions_and_the_line(plugin: Path) -> None:
    manifest = _edit(plugin, "api: 1 ", "api: 2 ", "manifest.yaml")
    (problem,) = _problems(plugin)
    assert problem.startswith(f"{manifest}:1:")
    assert "the manifest is written for plug-in API 2; this Shipyard supports API 1" in problem
    _edit(plugin, "api: 2 ", 'api: "1" ', "manifest.yaml")
    (problem,) = _problems(plugin)
    assert problem.startswith(f"{manifest}:1:") and "valid integer" in problem


def test_a_manifest_without_api_is_read_as_api_1(plugin: Path) -> None:
    manifest = plugin / "manifest.yaml"
    manifest.write_text("".join(manifest.read_text().splitlines(True)[1:]), encoding="utf-8")
    assert _read(plugin).manifest.api == 1
    proc = run_shipyard("rulesets", "--check", plugin)
    assert proc.returncode == 0, proc.stderr
    assert "(plug-in API 1, every hook as specified)" in proc.stdout
    assert f"{manifest}: the manifest does not say its plug-in API; it is read as written for API 1" in proc.stderr


def test_rulesets_check_reports_a_wrong_signature_without_a_traceback(plugin: Path) -> None:
    _edit(plugin, "def view(design: Design, catalog: Catalog)", "def view(design: Design)")
    proc = run_shipyard("rulesets", "--check", plugin)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "hook 'view': takes view(design); Shipyard calls view(design, catalog)" in proc.stderr


def test_every_builtin_manifest_says_its_api() -> None:
    for info in registry.rulesets():
        if info.package.startswith("shipyard.rulesets."):
            assert "api" in info.manifest.model_fields_set and info.manifest.api == 1, info.id


def test_every_hook_is_given_by_a_builtin_ruleset_and_checks_clean() -> None:
    """A hook no built-in ruleset uses is dead contract: each is given by one at least."""
    given: dict[str, list[str]] = {h.name: [] for h in hookspec.HOOKS}
    for info in registry.rulesets():
        module = registry.ruleset_module(info.id)
        hookspec.check(module, info.package, lazy=True)
        for name in given:
            if name in vars(module) or name in getattr(module, "__all__", ()):
                given[name].append(info.id)
    assert [name for name, ids in given.items() if not ids] == []
    assert given["pair_figures"] == ["cluster-falk"] and given["FIX_NEVER"] == ["space-fighter-alpha"]


def test_docs_list_every_hook_with_its_signature() -> None:
    docs = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for hook in hookspec.HOOKS:
        assert f"| `{hook.signature}` |" in docs, hook.signature


def test_the_example_and_test_plugins_follow_the_docs_on_future_annotations() -> None:
    """docs/rulesets.md: a module defining pydantic models does not start with ``from
    __future__ import annotations``; the example plug-in is what authors copy."""
    folders = [DEMO, *(p for p in (ROOT / "tests" / "data" / "rulesets").iterdir() if p.is_dir())]
    offenders = []
    for path in sorted(f for folder in folders for f in folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"^from pydantic import .*BaseModel", text, re.M) and re.search(
            r"^from __future__ import annotations", text, re.M
        ):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_pair_figures_returning_no_figures_is_an_error_naming_the_hook(
    plugin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signature is right, the result is not: the comparison says which hook gave what."""
    from shipyard.core.compare import compare
    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate

    _edit(
        plugin, "def new_design(", "def pair_figures(first, other, catalog):\n    return [(1, 2)]\n\n\ndef new_design("
    )
    install_ruleset(monkeypatch, tmp_path / "site", plugin, "tiny-gunboats")
    loaded = load_design(plugin / "catalog" / "examples" / "sea-wasp.ship", use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    with pytest.raises(InputError) as caught:
        compare([("A", loaded.design, loaded.catalog, report), ("B", loaded.design, loaded.catalog, report)])
    [problem] = caught.value.problems
    assert problem.message.startswith(
        "ruleset 'tiny-gunboats': hook 'pair_figures' returned list [(1, 2)], "
        "not a list of (first's Figure, other's Figure); it should return"
    )
    assert problem.file == str(plugin / "__init__.py") and problem.line is not None  # the hook's own place


def test_a_contributed_command_is_held_to_its_hook(plugin: Path) -> None:
    """A command in the manifest names a module that must define add_arguments(parser, catalog_opts)."""
    _edit(
        plugin,
        "kinds:\n",
        f"commands:\n  - {{name: broadside, help: roll a broadside, module: {plugin.name}.dice}}\nkinds:\n",
        "manifest.yaml",
    )
    dice = plugin / "dice.py"
    dice.write_text("def add_argument(parser, catalog_opts):\n    pass\n", encoding="utf-8")
    (problem,) = _problems(plugin)
    assert problem == (
        f"{dice}: ruleset 'tiny-gunboats': command 'broadside': its module '{plugin.name}.dice' lacks "
        "add_arguments(parser, catalog_opts)"
    )
    dice.write_text("def add_arguments(parser):\n    pass\n", encoding="utf-8")
    (problem,) = _problems(plugin)
    assert problem == (
        f"{dice}:1: ruleset 'tiny-gunboats': command 'broadside': hook 'add_arguments': takes "
        "add_arguments(parser); Shipyard calls add_arguments(parser, catalog_opts)"
    )
    dice.write_text("def add_arguments(parser, catalog_opts):\n    parser.set_defaults(func=len)\n", encoding="utf-8")
    assert _read(plugin).commands[0].name == "broadside"


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "    d = ctx.design\n    return Derived(",
            "    d = ctx.design\n    return dict(",
            "ruleset 'tiny-gunboats': hook 'derive' returned dict {'figures': [Figure(id='firepower', "
            "label='Firepower', value=6, unit='', detail…, not a Derived; it should return a `Derived`: "
            "the report's figures, tables, tracks, slots and actions",
        ),
        (
            'return DesignView(None, {"hull": design.hull, "guns": design.guns}, [])',
            'return {"hull": design.hull}',
            "ruleset 'tiny-gunboats': hook 'view' returned dict {'hull': 4}, not a DesignView; it should return "
            "the neutral `DesignView` (scale, stats by id, item selections) the shared rules work on",
        ),
        (
            "def resolve(design: Design, catalog: Catalog) -> Design:\n    return design",
            "def resolve(design: Design, catalog: Catalog) -> Design:\n    return design.model_dump()",
            "ruleset 'tiny-gunboats': hook 'resolve' returned dict {'name': 'Sea Wasp', 'hull': 4, 'guns': 3, "
            "'notes': ''}, not a Design; it should return the design with every name and alias made a catalog id; "
            "`InputError` with a path if not",
        ),
    ],
    ids=["derive", "view", "resolve"],
)
def test_a_hook_returning_the_wrong_thing_is_an_error_naming_it_not_a_traceback(
    plugin: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    said: str,
) -> None:
    """The signature is right, the result is not: ``shipyard check`` names the hook, what it
    returned and what it should, and exits 2 (bad input), with no traceback."""
    from shipyard.cli import main

    _edit(plugin, old, new)
    install_ruleset(monkeypatch, tmp_path / "site", plugin, "tiny-gunboats")
    ship = plugin / "catalog" / "examples" / "sea-wasp.ship"
    assert main(["check", str(ship), "--no-user-catalog"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err, err


def test_older_ways_to_point_at_code_read_as_the_one_way_and_check_says_the_line_to_write(plugin: Path) -> None:
    (plugin / "commands.py").write_text(
        "def add_arguments(parser, catalog_opts):\n    parser.set_defaults(func=lambda args: 0)\n", encoding="utf-8"
    )
    manifest = plugin / "manifest.yaml"
    lines = manifest.read_text(encoding="utf-8").splitlines(True)
    lines += ["commands:\n", f"  - {{name: gunboat-dice, help: dice, module: {plugin.name}/commands.py}}\n"]
    manifest.write_text("".join(lines), encoding="utf-8")
    assert _read(plugin).commands[0].module == f"{plugin.name}.commands"
    proc = run_shipyard("rulesets", "--check", plugin)
    assert proc.returncode == 0, proc.stderr
    assert (
        f"shipyard: note: {manifest}: line {len(lines)}: commands[0].module: '{plugin.name}/commands.py' is an older "
        f"way to point at code, read as '{plugin.name}.commands'; write 'module: {plugin.name}.commands'"
    ) in proc.stderr


def test_a_bare_name_points_at_no_module_and_is_refused_saying_what_to_write(plugin: Path) -> None:
    manifest = plugin / "manifest.yaml"
    text = manifest.read_text(encoding="utf-8") + "editor_pages: GunboatPages\n"
    manifest.write_text(text, encoding="utf-8")
    proc = run_shipyard("rulesets", "--check", plugin)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    line = len(text.splitlines())
    assert f"{manifest}:{line}:1 at editor_pages: 'GunboatPages' names no module" in proc.stderr
    assert "'my_ruleset.qt:GunboatPages'" in proc.stderr


def test_the_spellings_of_code_read_as_the_one_way() -> None:
    from shipyard.core.manifest import module_spelling, object_spelling

    assert [module_spelling(v) for v in ("a.b", "a/b.py", "a/b", "a:b")] == ["a.b"] * 4
    assert [object_spelling(v) for v in ("a.b:C", "a.b.C", "a/b.py:C")] == ["a.b:C"] * 3
    assert module_spelling("a b") == "a b"  # neither: left for the field's pattern to refuse


def test_the_builtin_manifests_point_at_code_the_one_way() -> None:
    from shipyard.core.manifest import spelling_notes
    from shipyard.core.yamlio import load_yaml

    for info in registry.rulesets():
        if info.package.startswith("shipyard.rulesets."):
            assert spelling_notes(load_yaml(info.manifest_file, "ruleset manifest").data) == [], info.id
