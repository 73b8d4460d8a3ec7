"""Findings: what evaluation says about a design, each traceable to a rule.

A finding always carries the numbers (actual and limit), the path into the design where a
user fixes it, and the source section of the rule, so the explanation is built from the
data while evaluating rather than reconstructed afterwards.
"""

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    ADVICE = "advice"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.ADVICE: 2}


class Finding(BaseModel):
    model_config = ConfigDict(frozen=True)

    severity: Severity
    code: str
    message: str
    path: str = ""
    actual: Any = None
    limit: Any = None
    rule: str = ""
    source: str = ""


class FindingSink:
    """Collects findings during one evaluation; rules add, nothing removes.

    :meth:`add` (``ctx.findings.add``) is the one way a rule makes a finding: Shipyard's own
    rules, its capabilities and a plug-in's (the published API, docs/reference/api.md) alike,
    each naming every part where it is made. ``tests/test_one_finding_way.py`` refuses another."""

    def __init__(self) -> None:
        self.items: list[Finding] = []

    def add(
        self,
        severity: Severity | str,
        code: str,
        message: str,
        *,
        path: str = "",
        actual: Any = None,
        limit: Any = None,
        rule: str = "",
        source: str = "",
    ) -> None:
        """A finding: its ``severity`` (an error fails the design), ``code`` and ``message``;
        ``path``, the design's place a person fixes it at; ``actual`` and ``limit``, the numbers
        it compares; ``rule``, the id of the catalog rule that made it (``p.id``); ``source``,
        the section of the rules it quotes (``ctx.catalog.cite(p.source)``)."""
        self.items.append(
            Finding(
                severity=Severity(severity),
                code=code,
                message=message,
                path=path,
                actual=actual,
                limit=limit,
                rule=rule,
                source=source,
            )
        )

    def sorted(self) -> list[Finding]:
        return sorted(self.items, key=lambda f: SEVERITY_ORDER[f.severity])
