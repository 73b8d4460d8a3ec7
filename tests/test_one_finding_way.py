"""One way to make a finding: ``ctx.findings.add`` (:meth:`shipyard.core.findings.FindingSink.add`).

It is the published plug-in API (docs/reference/api.md, the API-1 example plug-in in
tests/data/api1-hulls), and it names every part of a finding where it is made: severity, code,
message, the design's place, the numbers, the rule and the section of the rules it quotes.
Shipyard's own rules, its capabilities, the scaffold a new ruleset starts from and the
plug-in author's docs all make findings that way; a second helper (the ``flag(ctx, p, ...)``
that filled in the rule and its source) must not come back, nor a rule building a
``Finding`` itself.
"""

from __future__ import annotations

import ast
import re

import shipyard.core.rules
from shipyard.core.findings import Finding, FindingSink, Severity

from .conftest import ROOT

PARTS = {"path", "actual", "limit", "rule", "source"}

# Where a Finding may be built directly, and why: neither is made by a rule.
BUILT_DIRECTLY = {
    "shipyard/core/findings.py": "FindingSink.add itself",
    "shipyard/core/artcheck.py": "the art warning, added by the report builder after the rules ran",
    "shipyard/_qt/document/document.py": "the editor's report when a plug-in failed: no rule ran",
}


def sources() -> list[tuple[str, str]]:
    """Shipyard's code, the scaffold's templates and the Python blocks of the plug-in docs."""
    found = [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8")) for p in (ROOT / "shipyard").rglob("*.py")]
    scaffold = ROOT / "shipyard" / "scaffold" / "files"
    found += [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8")) for p in scaffold.rglob("*.py.tmpl")]
    for doc in [ROOT / "docs" / "rulesets.md", *(ROOT / "docs" / "reference").glob("*.md")]:
        blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.DOTALL)
        found += [(f"{doc.relative_to(ROOT).as_posix()} block {n + 1}", b) for n, b in enumerate(blocks)]
    return sorted(found)


def other_ways(name: str, source: str) -> list[str]:
    """What in ``source`` makes a finding another way: a ``flag`` helper (defined, imported or
    called), a ``Finding(...)`` built outside :data:`BUILT_DIRECTLY`, or a ``findings.add`` that
    leaves a part of the finding unnamed."""
    out = []
    for node in ast.walk(ast.parse(source)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "flag":
            out.append(f"{where}: defines flag()")
        elif isinstance(node, ast.ImportFrom) and any(a.name == "flag" for a in node.names):
            out.append(f"{where}: imports flag")
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called == "flag":
                out.append(f"{where}: calls flag()")
            elif called == "Finding" and name not in BUILT_DIRECTLY:
                out.append(f"{where}: builds a Finding")
            elif called == "add" and isinstance(func, ast.Attribute) and _is_findings(func.value):
                unnamed = PARTS - {k.arg for k in node.keywords}
                if unnamed or len(node.args) != 3:
                    out.append(f"{where}: findings.add without {', '.join(sorted(unnamed)) or 'its three first'}")
    return out


def _is_findings(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "findings") or (
        isinstance(node, ast.Name) and node.id == "findings"
    )


def test_the_scan_finds_another_way() -> None:
    assert other_ways("x.py", "from shipyard.core.rules import flag\n") == ["x.py:1: imports flag"]
    assert other_ways("x.py", "def flag(ctx, p):\n    pass\n") == ["x.py:1: defines flag()"]
    assert other_ways("x.py", "flag(ctx, p, 'error', 'c', 'm', path='a', actual=1, limit=0)\n") == [
        "x.py:1: calls flag()"
    ]
    assert other_ways("x.py", "ctx.findings.items.append(Finding(severity='error', code='c', message='m'))\n") == [
        "x.py:1: builds a Finding"
    ]
    assert other_ways("x.py", "ctx.findings.add('error', 'c', 'm', path='a', rule=p.id)\n") == [
        "x.py:1: findings.add without actual, limit, source"
    ]
    whole = "ctx.findings.add('error', 'c', 'm', path='a', actual=1, limit=0, rule=p.id, source=s)\n"
    assert other_ways("x.py", whole) == []


def test_findings_are_made_one_way_everywhere() -> None:
    made = sources()
    assert any("scaffold/files" in name for name, _ in made) and any(" block " in name for name, _ in made)
    assert [w for name, text in made for w in other_ways(name, text)] == []
    assert not hasattr(shipyard.core.rules, "flag")
    for name in BUILT_DIRECTLY:  # each exception is still needed: a stale one would hide a new way
        assert any(w.endswith("builds a Finding") for w in other_ways("", (ROOT / name).read_text())), name


def test_the_scaffold_and_the_docs_teach_the_one_way() -> None:
    made = dict(sources())
    for kind in ("record", "point-buy"):
        text = made[f"shipyard/scaffold/files/{kind}/__PACKAGE__/__init__.py.tmpl"]
        assert "ctx.findings.add(" in text, kind
    assert any("ctx.findings.add(" in text for name, text in made.items() if name.startswith("docs/reference/"))


def test_a_finding_carries_every_part_it_is_given() -> None:
    sink = FindingSink()
    sink.add("warning", "c", "m", path="a.b", actual=3, limit=2, rule="r", source="Book")
    sink.add(Severity.ERROR, "d", "n")  # an API-1 plug-in may leave the parts it has not
    assert sink.sorted() == [
        Finding(severity=Severity.ERROR, code="d", message="n"),
        Finding(
            severity=Severity.WARNING, code="c", message="m", path="a.b", actual=3, limit=2, rule="r", source="Book"
        ),
    ]


def test_the_documented_rule_makes_its_finding_as_documented() -> None:
    """docs/rulesets.md's example rule, run as written on a built-in sample's evaluation."""
    from shipyard.core import registry
    from shipyard.core.designfile import load_design, sample_files
    from shipyard.core.evaluate import run_rules

    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL) if "findings.add" in b]
    names: dict[str, object] = {}
    exec(compile(block, "docs/rulesets.md", "exec"), names)
    for info in registry.rulesets():
        loaded = load_design(sample_files(info.samples)[0], use_user_folder=False)
        ctx = run_rules(loaded.design, loaded.catalog)
        stat = next((s for s, v in ctx.view.stats.items() if isinstance(v, int) and v > 0), None)
        if stat is not None:
            break
    assert stat is not None
    value = ctx.view.stats[stat]
    params = names["StatAtMostParams"](id="most", type="stat-at-most", source="Hulls", stat=stat, most=value - 1)
    before = len(ctx.findings.items)
    names["apply_stat_at_most"](ctx, params)
    (made,) = ctx.findings.items[before:]
    assert (made.severity, made.code, made.path, made.actual, made.limit, made.rule) == (
        Severity.ERROR,
        "stat-too-high",
        ctx.stat_path(stat),
        value,
        value - 1,
        "most",
    )
    assert made.source == loaded.catalog.cite("Hulls") and str(value) in made.message
