"""The core stays neutral and light: no Qt, no WeasyPrint, no Space Fighter Alpha."""

from __future__ import annotations

import re
import subprocess
import sys

from .conftest import EXAMPLES, ROOT


def test_core_and_check_never_load_qt_or_weasyprint() -> None:
    code = (
        "import sys, shipyard.core.catalog, shipyard.core.evaluate, shipyard.core.designfile, shipyard.cli\n"
        f"shipyard.cli.main(['check', {str(EXAMPLES / 'rebel-fighter.ship')!r}, '--json', '--no-user-catalog'])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'weasyprint', 'shiboken6'))\n"
        "print('LOADED', bad, file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert "LOADED []" in out.stderr, out.stderr


def test_core_names_no_ruleset() -> None:
    """Nothing under shipyard/core may mention a particular rule system or its terms."""
    banned = re.compile(r"space.fighter|starfighter|starship|freebie|weapon.points|handling|fury", re.I)
    offenders = []
    for path in sorted((ROOT / "shipyard" / "core").glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if banned.search(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


def test_only_a_rulesets_qt_parts_reach_qt() -> None:
    """A ruleset's hand-written editor parts are its ``qt`` module; no other module of a ruleset
    reaches PySide6 or the editor, not even through that module (the import contracts in
    pyproject.toml allow the ``qt`` module's own imports of PySide6 and nothing else)."""
    import grimp

    graph = grimp.build_graph("shipyard", include_external_packages=True)
    rulesets = [m for m in graph.modules if m.startswith("shipyard.rulesets.")]
    qt_parts = {m for m in rulesets if m.split(".")[3:4] == ["qt"]}
    assert "shipyard.rulesets.space_fighter_alpha.qt" in qt_parts  # the Trinity vessel form
    editor = [m for m in graph.modules if m == "PySide6" or m.startswith(("PySide6.", "shipyard._qt"))]
    reaching = [
        (m, target)
        for m in sorted(set(rulesets) - qt_parts)
        for target in (*editor, *qt_parts)
        if graph.chain_exists(importer=m, imported=target)
    ]
    assert reaching == []


def test_modules_defining_model_fields_give_pydantic_types_not_strings() -> None:
    """docs/rulesets.md: with ``from __future__ import annotations`` every field's annotation
    reaches pydantic as a string it compiles and evaluates again when the class is made,
    which the editor's start and every check pay. A module that defines a model with fields
    imports no such future (``shipyard.core.model`` keeps it for its protocols; its one
    model, the rule parameters' four-field head, measured no difference)."""
    code = (
        "import __future__, importlib, pkgutil, sys, shipyard\n"
        "from pydantic import BaseModel\n"
        "names = [m.name for m in pkgutil.walk_packages(shipyard.__path__, 'shipyard.')\n"
        "         if not m.name.startswith('shipyard._qt') and not m.name.endswith(('.qt', '__main__'))]\n"
        "for name in names: importlib.import_module(name)\n"
        "seen, todo, found = set(), [BaseModel], set()\n"
        "while todo:\n"
        "    for c in todo.pop().__subclasses__():\n"
        "        if c not in seen:\n"
        "            seen.add(c); todo.append(c)\n"
        "            own = c.__dict__.get('__annotations__') or {}\n"
        "            if c.__module__.startswith('shipyard.') and any(not k.startswith('_') for k in own):\n"
        "                found.add(c.__module__)\n"
        "future = __future__.annotations\n"
        "postponed = sorted(m for m in found if getattr(sys.modules[m], 'annotations', None) is future)\n"
        "print('MODULES', len(found), 'POSTPONED', postponed)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    count, postponed = re.search(r"MODULES (\d+) POSTPONED (.*)", out.stdout).groups()  # type: ignore[union-attr]
    assert int(count) >= 25  # the walk found the model modules of the core and all five rulesets
    assert postponed == "['shipyard.core.model']"


def _builtin_rulesets() -> list[tuple[str, str, str, list[str]]]:
    """Each built-in ruleset's id, package (module) name, display name and the ids of the
    text formats and conversions it contributes, from its manifest."""
    from ruamel.yaml import YAML

    out = []
    for manifest in sorted((ROOT / "shipyard" / "rulesets").glob("*/manifest.yaml")):
        data = YAML(typ="safe").load(manifest.read_text(encoding="utf-8"))
        own = [e["id"] for e in (*data.get("formats", []), *data.get("conversions", []))]
        out.append((data["id"], manifest.parent.name, data["name"], own))
    return out


def test_no_source_outside_the_rulesets_names_one() -> None:
    """Shipyard outside ``shipyard/rulesets`` knows no particular ruleset: no id
    (``space-fighter-alpha``), package (``space_fighter_alpha``) or name ("Space Fighter
    Alpha", "The Cluster Falk"), and no id of a format or conversion one contributes
    (``statblock``, ``trinity``), in any of its files, comments and docstrings included. An
    example of one in a neutral module reads as a dependency and goes stale when the
    ruleset changes; the example belongs in the ruleset, or is said neutrally."""
    found = _builtin_rulesets()
    assert len(found) == 5  # the five that come with Shipyard
    words = set()
    for rid, package, name, own in found:
        words |= {rid, package, name.removeprefix("The ").split(" (")[0], *own}
    assert {"statblock", "trinity"} <= words
    # any case, and a hyphen, underscore or space between the parts ("Cluster Falk", "cluster_falk")
    banned = re.compile(
        "|".join(r"[-_ ]?".join(map(re.escape, re.split(r"[-_ ]", w))) for w in sorted(words)), re.IGNORECASE
    )
    offenders = []
    for path in sorted((ROOT / "shipyard").rglob("*")):
        rel = path.relative_to(ROOT / "shipyard")
        if not path.is_file() or rel.parts[0] == "rulesets" or "__pycache__" in rel.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an icon or another binary file
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if banned.search(line):
                offenders.append(f"shipyard/{rel}:{n}: {line.strip()}")
    assert offenders == []


def test_the_import_contract_covers_everything_but_the_rulesets() -> None:
    """The import-linter contract "Nothing outside the rulesets imports one" lists every
    top-level module of ``shipyard`` but ``rulesets``: a new package is covered the day it
    is added, or this fails naming it."""
    import pkgutil
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = [
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["name"] == "Nothing outside the rulesets imports one"
    ]
    assert contract["forbidden_modules"] == ["shipyard.rulesets"]
    top = {f"shipyard.{m.name}" for m in pkgutil.iter_modules([str(ROOT / "shipyard")])} - {"shipyard.rulesets"}
    assert sorted(contract["source_modules"]) == sorted(top)
    assert "shipyard._qt" in top and "shipyard.exports" in top  # the walk found packages and modules
