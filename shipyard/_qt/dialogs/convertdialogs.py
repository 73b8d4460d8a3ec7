"""The dialogs of import and conversion: the report, and the question for parts not understood.

:class:`shipyard._qt.actions.converting.ConvertActions` opens them; they live apart so that the
editor's start-up (which builds the menus) does not pay for their many widget classes. A
conversion's own entry form, when it has one, is the ruleset's (its manifest names it).
The reports are the neutral ones of :mod:`shipyard.core.textformats`, whatever format made them.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from shipyard.core.textformats import ImportReport

# Statuses a reader must not miss, in the import report and the conversion report.
ATTENTION = ("not understood", "differs", "conflict")


def partial_question(reports: list[ImportReport]) -> str:
    n = sum(len(r.not_understood) for r in reports)
    parts = f"{n} part{'s' if n != 1 else ''}"
    designs = "the design" if len(reports) == 1 else f"the {len(reports)} designs"
    return (
        f"{parts} of the pasted text {'were' if n != 1 else 'was'} not understood. Open {designs} anyway? "
        "What was not understood is kept in the notes, so nothing is lost."
    )


def partial_text(reports: list[ImportReport]) -> str:
    """The parts not understood first (with 'did you mean'), then every report in full."""
    out = ["Not understood:"]
    for r in reports:
        out += [f"  not understood  {r.name}: {e.describe()}" for e in r.not_understood]
    out.append("")
    for r in reports:
        out += [*r.lines(), ""]
    return "\n".join(out).rstrip()


# --- the report dialog ----------------------------------------------------------------------


STATUS_WORDS = ("not understood", "kept as note", "converted", "assumed", "conflict", "differs", "skipped", "used")
_STATUS_LINE = re.compile(r"^ {2}(" + "|".join(STATUS_WORDS) + r") {2,}(.*)$")


def report_html(text: str) -> str:
    """Report lines as a two-column table (status, what), so wrapped lines stay in their column.

    Headings (lines that do not start with a space) and the statuses a reader must not miss
    (not understood, differs, conflict) are bold.
    """
    rows = []
    for line in text.splitlines():
        m = _STATUS_LINE.match(line)
        if m:
            status, what = html.escape(m.group(1)), html.escape(m.group(2))
            if m.group(1) in ATTENTION:
                status, what = f"<b>{status}</b>", f"<b>{what}</b>"
            rows.append(f'<tr><td style="white-space: pre">{status}</td><td>{what}</td></tr>')
        elif not line.strip():
            rows.append('<tr><td colspan="2">&nbsp;</td></tr>')
        elif line.startswith(" "):
            rows.append(f"<tr><td></td><td>{html.escape(line.strip())}</td></tr>")
        else:
            rows.append(f'<tr><td colspan="2"><b>{html.escape(line)}</b></td></tr>')
    return '<table cellspacing="0" cellpadding="2">' + "".join(rows) + "</table>"


class ReportDialog(QDialog):
    """An import or conversion report; with ``ask``, a question with Open anyway / Cancel."""

    def __init__(self, parent: QWidget | None, title: str, text: str, ask: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.text = text
        lay = QVBoxLayout(self)
        if ask:
            head = QHBoxLayout()
            icon = QLabel()
            icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(32, 32))
            icon.setAlignment(Qt.AlignmentFlag.AlignTop)
            self.question = QLabel(f"<b>{html.escape(ask)}</b>")
            self.question.setWordWrap(True)
            head.addWidget(icon)
            head.addWidget(self.question, 1)
            lay.addLayout(head)
        self.view = QTextBrowser()
        self.view.setAccessibleName(title)
        self.view.setHtml(report_html(text))
        label = QLabel("&Report")
        label.setBuddy(self.view)
        lay.addWidget(label)
        lay.addWidget(self.view)
        row = QHBoxLayout()
        copy = QPushButton("Cop&y report")
        copy.setAccessibleName("Copy the report to the clipboard")
        copy.setAutoDefault(False)
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text))
        row.addWidget(copy)
        row.addStretch(1)
        buttons = QDialogButtonBox()
        if ask:
            self.open_button = buttons.addButton("&Open anyway", QDialogButtonBox.ButtonRole.AcceptRole)
            cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
            cancel.setDefault(True)
            cancel.setFocus()  # opening anyway is a choice, not what Enter does
            buttons.accepted.connect(self.accept)
        else:
            close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
            close.setDefault(True)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        row.addWidget(buttons)
        lay.addLayout(row)
        self.resize(900, 520)
