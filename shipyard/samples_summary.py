"""The engine's verdict on the sample designs of a ruleset, as a Markdown table.

docs/rules.md embeds this table between ``<!-- samples:begin -->`` and
``<!-- samples:end -->``; a test regenerates it so the documented figures always equal
what ``shipyard check`` says. Refresh it with
``python -m shipyard.samples_summary RULESET-ID DOC.md``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from shipyard.core.catalog import load_catalog
from shipyard.core.designfile import atomic_write_text, load_design
from shipyard.core.evaluate import evaluate
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
            r = evaluate(loaded.design, loaded.catalog, preset)

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


def embed(doc: str, table: str) -> str:
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    return pattern.sub(lambda _: f"{BEGIN}\n{table}{END}", doc)


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: python -m shipyard.samples_summary RULESET-ID DOC.md", file=sys.stderr)
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
