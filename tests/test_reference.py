"""docs/reference/ is what scripts/reference.py makes from the models now, and its example runs.

An outside author works from these pages; a model that gained a field, or a rule type that
was added, makes them stale, and this test says which page to write again.
"""

import contextlib
import importlib.util
import io
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from shipyard.core.catalog import load_catalog
from shipyard.core.registry import rulesets

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference", ROOT / "scripts" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_is_up_to_date() -> None:
    made = _generator().pages()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "reference").glob("*.md")}
    stale = sorted(n for n in made.keys() | on_disk.keys() if made.get(n) != on_disk.get(n))
    assert stale == [], f"out of date (run scripts/reference.py): {stale}"


def test_every_rule_type_a_built_in_catalog_uses_has_its_parameters_listed() -> None:
    text = (ROOT / "docs" / "reference" / "rules.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^### `([a-z0-9-]+)`$", text, flags=re.MULTILINE))
    used = {
        rule.definition.type
        for info in rulesets()
        if info.distribution == "shipyard"
        for rule in load_catalog(info.id, use_user_folder=False).rules
    }
    assert used and sorted(used - listed) == []


def test_the_rule_api_example_runs_and_charges_the_pool() -> None:
    text = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    names: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/reference/api.md", "exec"), names)
    ctx = names["ctx"]
    structure = ctx.view.stats["structure"]
    assert ctx.ledger["freebies"].spent == names["before"] + structure  # one point a point of Structure
    finding = ctx.findings.items[-1]
    assert (finding.code, finding.path, finding.actual, finding.limit) == (
        "too-big-for-the-hangar",
        "structure",
        structure,
        2,
    )
    lines = out.getvalue().splitlines()
    assert lines[0] == f"scale: {ctx.scale.name}" and lines[0] != "scale: "
    assert lines[-1] == "view: Starship {'structure': 12} ['light-laser']"


def test_the_recipe_for_a_number_per_class_or_size_runs() -> None:
    """Issue 47: no recipe said how to look a number up per class or size, nor whether
    ``catalog.params(Model)`` returns None or raises when the catalog has no such rule."""
    text = (ROOT / "docs" / "reference" / "recipes.md").read_text(encoding="utf-8")
    recipe = text.split("## A number per class or size", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", recipe, flags=re.DOTALL)
    names: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/reference/recipes.md", "exec"), names)
    ctx = names["ctx"]
    assert out.getvalue().splitlines() == [
        f"crew: 1 at {ctx.view.scale.name}",
        "finding: no-crew-for-size at scale",
        "params of a rule the catalog lacks: None",
    ]
    assert "None** when no rule of the catalog has them" in (ROOT / "docs" / "reference" / "api.md").read_text()


def test_the_hook_reference_is_made_from_the_hook_table() -> None:
    from shipyard.core import hookspec

    text = (ROOT / "docs" / "reference" / "hooks.md").read_text(encoding="utf-8")
    for hook in (*hookspec.HOOKS, *hookspec.COMMAND_HOOKS, *hookspec.READ_HOOKS, *hookspec.WRITE_HOOKS):
        assert f"| `{hook.name}` | {'required' if hook.required else 'optional'} | `{hook.signature}` |" in text
    assert "`read(text, catalog, *, source=...)`" in text and "`write(design, catalog, *, markdown=...)`" in text
