"""The engine's verdict on the sample designs of a ruleset, as a Markdown table.

docs/rules.md embeds this table between ``<!-- samples:begin -->`` and
``<!-- samples:end -->``; a test regenerates it so the documented figures always equal
what ``shipyard check`` says. Refresh it with
``python -m shipyard.samples_summary RULESET-ID DOC.md``.

``python -m shipyard.samples_summary --check`` (``scripts/run-app`` without a display)
checks every installed ruleset's samples under their own presets: one line a sample and
a summary, exit 0 when each behaves as published. What "as published" is for a sample
that does not pass is data beside it: ``examples/verdicts.yaml``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import atomic_write_text, load_design
from shipyard.core.designreport import design_report
from shipyard.core.findings import Finding, Severity

BEGIN, END = "<!-- samples:begin -->", "<!-- samples:end -->"


def summary(ruleset: str) -> str:
    catalog = load_catalog(ruleset, use_user_folder=False)
    examples = sorted((catalog.root / "examples").glob("*.ship"))
    pools = [p.name for p in catalog.pools]
    head = ["Design", "Preset", *[f"{p} (spent/left)" for p in pools], "Result", "Errors", "Warnings", "Advice"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for file in examples:
        loaded = load_design(file, use_user_folder=False)  # read once, evaluated under each preset
        for preset in sorted(catalog.presets):
            r = design_report(loaded.design, loaded.catalog, loaded.file, preset=preset)

            def codes(sev: Severity, findings: list[Finding] = r.findings) -> str:
                found = sorted({f.code for f in findings if f.severity == sev})
                return ", ".join(f"`{c}`" for c in found) or "—"

            cells = [
                r.name,
                preset,
                *[f"{p.spent}/{p.remaining}" for p in r.pools],
                "passes" if r.valid else "**does not pass**",
                codes(Severity.ERROR),
                codes(Severity.WARNING),
                codes(Severity.ADVICE),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


VERDICTS = "verdicts.yaml"


def expected(examples: Path) -> dict[str, tuple[bool, str]]:
    """Each sample's published verdict (passes?, why not) from ``examples/verdicts.yaml``; unnamed ones pass."""
    from shipyard.core.yamlio import load_yaml

    file = examples / VERDICTS
    if not file.is_file():
        return {}
    data = load_yaml(file, "sample verdicts file").data
    return {name: (bool(v.get("passes", True)), str(v.get("why", ""))) for name, v in data.items()}


def check_lines(published_in: Callable[[Path], dict[str, tuple[bool, str]]] | None = None) -> tuple[list[str], bool]:
    """One line a sample of every installed ruleset, then the summary; and whether all behave as published
    (``published_in``: each examples folder's verdicts, by default :func:`expected`)."""
    from shipyard.core.catalog import available_rulesets
    from shipyard.core.designfile import sample_files

    lines, counts, surprises = [], {True: 0, False: 0}, 0
    for ruleset in available_rulesets():
        examples = load_catalog(ruleset, use_user_folder=False).root / "examples"
        published = (published_in or expected)(examples)
        for file in sample_files(examples):
            loaded = load_design(file, use_user_folder=False)
            report = design_report(loaded.design, loaded.catalog, loaded.file)
            counts[report.valid] += 1
            passes, why = published.get(file.stem, (True, ""))
            verdict = "passes" if report.valid else "does not pass"
            if report.valid == passes:
                note = f" — as published: {why}" if why else ""
            else:
                surprises += 1
                note = (
                    f" — NOT as published (it {'should' if passes else 'should not'} pass{': ' + why if why else ''})"
                )
            lines.append(f"{ruleset}/{file.name}: {report.name} {verdict}{note}")
    n, ok, bad = counts[True] + counts[False], counts[True], counts[False]
    tail = "every sample as published" if not surprises else f"{surprises} NOT as published"
    lines.append(f"{n} designs: {ok} pass, {bad} do{'es' * (bad == 1)} not pass — {tail}")
    return lines, not surprises


def embed(doc: str, table: str) -> str:
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    return pattern.sub(lambda _: f"{BEGIN}\n{table}{END}", doc)


def main() -> int:
    if sys.argv[1:] == ["--check"]:
        lines, as_published = check_lines()
        print("\n".join(lines))
        return 0 if as_published else 1
    if len(sys.argv) != 3:
        print("usage: python -m shipyard.samples_summary RULESET-ID DOC.md | --check", file=sys.stderr)
        return 2
    ruleset, target = sys.argv[1], Path(sys.argv[2])
    doc = target.read_text(encoding="utf-8")
    if BEGIN not in doc:
        print(f"{target}: no {BEGIN} marker", file=sys.stderr)
        return 2
    atomic_write_text(target, embed(doc, summary(ruleset)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
