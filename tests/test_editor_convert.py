"""Import and conversion in the editor: stat blocks through the clipboard, Trinity vessels.

Driven like the rest of the editor tests (pytest-qt, offscreen): real modal dialogs fail
the test at once, so every question and report is answered by patching the methods of
the window's ConvertActions; the Trinity form itself is built for real and filled by typing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from shipyard._qt.actions.converting import ConvertActions, actions_of
from shipyard._qt.dialogs.convertdialogs import ReportDialog, report_html
from shipyard._qt.window.window import MainWindow
from shipyard.core.evaluate import evaluate
from shipyard.core.findings import Severity
from shipyard.rulesets.space_fighter_alpha.qt import TrinityDialog, TrinityInput
from shipyard.rulesets.space_fighter_alpha.statblock import (
    export_statblock,
    holdable,
    import_statblock,
    import_statblocks,
)
from shipyard.rulesets.space_fighter_alpha.trinity import convert_vessel, load_vessel

from .conftest import EXAMPLES, FURY_EXAMPLES, ROOT, SAMPLES, as_published, published, sample, sfa
from .test_editor import _quiet, no_blocking_dialogs, type_into, window  # noqa: F401  (shared; the autouse one applies)

TRINITY = ROOT / "catalogs" / "trinity" / "examples"
CONVERSION = "space-fighter-alpha:trinity"  # the Trinity conversion, as its ruleset's manifest offers it


class Answers:
    """What the patched questions were asked and what the reports showed."""

    def __init__(self, actions: ConvertActions) -> None:
        self.reports: list[tuple[str, str]] = []
        self.partial: list[list[Any]] = []
        self.open_partial = False
        self.form: TrinityInput | None = None
        self.file: Path | None = None
        self.catalog = actions.catalog
        actions.show_report = lambda title, text: self.reports.append((title, text))  # type: ignore[method-assign]
        actions.ask_open_partial = lambda reports: self.partial.append(reports) or self.open_partial  # type: ignore[method-assign]
        actions.ask_form = lambda offer: self.converted(offer)  # type: ignore[method-assign]
        actions.ask_file = lambda offer: self.file  # type: ignore[method-assign]

    def converted(self, offer: Any) -> Any:
        """What the form gives when filled with ``form`` (None: cancelled), converted as OK does."""
        if self.form is None:
            return None
        f = self.form
        catalog = self.catalog(offer.info.id)
        return convert_vessel(f.vessel, catalog, structure=f.structure, power=f.power, crew=f.crew)


@pytest.fixture
def answers(window: MainWindow) -> Answers:
    return Answers(actions_of(window))


def errors(window: MainWindow) -> list[tuple[str, str]]:
    return window.errors  # type: ignore[attr-defined, no-any-return]


def paste(window: MainWindow, text: str) -> None:
    QApplication.clipboard().setText(text)
    actions_of(window).paste_action.trigger()


# --- the menus ----------------------------------------------------------------------------------


def test_the_menus_offer_paste_copy_and_import_without_stealing_text_editing_keys(window: MainWindow) -> None:
    actions = actions_of(window)
    menus = {a.menu().title(): a.menu() for a in window.menuBar().actions() if a.menu() is not None}
    edit = [a.text() for a in menus["&Edit"].actions() if not a.isSeparator()]
    assert edit[-3:] == ["&Paste as design", "&Copy as text", "Copy as &Markdown"]
    assert actions.paste_action.shortcut() == QKeySequence("Ctrl+Shift+V")
    assert actions.copy_action.shortcut() == QKeySequence("Ctrl+Shift+C")
    taken = {
        k.toString()
        for std in (QKeySequence.StandardKey.Paste, QKeySequence.StandardKey.Copy, QKeySequence.StandardKey.Cut)
        for k in QKeySequence.keyBindings(std)
    }
    assert {actions.paste_action.shortcut().toString(), actions.copy_action.shortcut().toString()}.isdisjoint(taken)
    file = [a.text() for a in menus["&File"].actions()]
    assert file[file.index("Open &recent") + 1] == "&Import"
    assert [a.text() for a in actions.import_menu.actions()] == ["Trinity vessel…", "Trinity vessel file…"]
    # nothing to copy on the welcome page; something once a design is open
    assert not actions.copy_action.isEnabled() and not actions.copy_markdown_action.isEnabled()
    window.open_sample(EXAMPLES / "rebel-fighter.ship")
    assert actions.copy_action.isEnabled() and actions.copy_markdown_action.isEnabled()
    window.close_tab(0)
    assert not actions.copy_action.isEnabled()


def test_copy_as_stat_block_is_greyed_out_for_a_ruleset_without_stat_blocks(window: MainWindow) -> None:
    actions = actions_of(window)
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    window.open_sample(FURY_EXAMPLES / "interceptor.ship")
    edit.aboutToShow.emit()
    assert not actions.copy_action.isEnabled() and not actions.copy_markdown_action.isEnabled()
    assert actions.copy_action.statusTip() == "Space Fury has no text format"
    window.open_sample(EXAMPLES / "rebel-fighter.ship")
    edit.aboutToShow.emit()
    assert actions.copy_action.isEnabled() and actions.copy_markdown_action.isEnabled()
    assert actions.copy_action.statusTip() == "Copy the design as stat-block text"
    assert actions.copy_action.text() == "&Copy as stat-block text"  # the ruleset's format, by its name


# --- Edit > Paste as design ---------------------------------------------------------------------


def test_pasting_a_published_block_opens_the_sample_design_and_shows_the_report(
    window: MainWindow, answers: Answers
) -> None:
    paste(window, published("rebel-fighter"))
    assert errors(window) == [] and answers.partial == []
    docs = window.documents()
    assert len(docs) == 1
    doc = docs[0]
    assert doc.design == as_published("rebel-fighter")
    assert doc.path is None and doc.modified  # unsaved work: closing asks, autosave keeps it
    assert window.windowTitle() == "Rebel Fighter[*] — Shipyard"
    [(title, text)] = answers.reports
    assert title == "Import report"
    assert text.splitlines()[0] == "Rebel Fighter: 23 used"
    assert "'Ejection Seat' is a name of Ejection Pods" in text


def test_pasting_all_of_appendix_1_opens_six_designs_with_what_differs_reported(
    window: MainWindow, answers: Answers
) -> None:
    paste(window, published("appendix-1"))
    docs = window.documents()
    assert [d.design.name for d in docs] == [sample(n).design.name for n in SAMPLES]
    for doc, name in zip(docs, SAMPLES, strict=True):
        expected = sample(name).design
        assert doc.design.model_dump(exclude={"notes"}) == expected.model_dump(exclude={"notes"}), name
    [(_title, text)] = answers.reports
    assert "Alien Disk-Fighter: 20 used, 1 differs" in text
    assert "published cost 3, the catalog's is 5 Power Points" in text
    assert "skipped" in text  # the section heading is reported, not dropped


@pytest.mark.parametrize(
    ("clipboard", "message"),
    [
        ("hello world, this is not a ship", "no stat-block labels found"),
        ("   \n  ", "The clipboard holds no text"),
        ("Name: Nobody\nScale: Dreadnought\nHandling: 0", "clipboard:2:"),
        ("x" * (300 * 1024), "stat-block text is limited to"),
    ],
)
def test_pasting_bad_text_shows_the_engines_message_and_opens_nothing(
    window: MainWindow, answers: Answers, clipboard: str, message: str
) -> None:
    before = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert before is not None
    design = before.doc.design
    paste(window, clipboard)
    [(title, text)] = errors(window)
    assert title == "Cannot paste as design" and message in text
    assert window.tabs.count() == 1 and before.doc.design == design and not before.doc.modified
    assert answers.reports == [] and answers.partial == []


MISSPELT = published("rebel-fighter").replace("1 Missile", "1 Misile")


def test_a_block_with_parts_not_understood_asks_first_and_cancel_opens_nothing(
    window: MainWindow, answers: Answers
) -> None:
    answers.open_partial = False
    paste(window, MISSPELT)
    [reports] = answers.partial
    [report] = reports
    [missed] = report.not_understood
    assert missed.text == "1 Misile" and "Missile" in missed.suggestions
    assert window.tabs.count() == 0 and answers.reports == [] and errors(window) == []
    assert "Nothing opened" in window.statusBar().currentMessage()


def test_opening_anyway_keeps_the_parts_not_understood_in_the_notes(window: MainWindow, answers: Answers) -> None:
    answers.open_partial = True
    paste(window, MISSPELT)
    assert len(answers.partial) == 1
    [doc] = window.documents()
    assert doc.design.name == "Rebel Fighter"
    assert [w.weapon for w in doc.design.weapons] == ["light-laser"]  # the missile was not understood
    assert doc.design.notes.startswith("Not understood when imported from a stat block:\n")
    assert '"1 Misile"' in doc.design.notes and "did you mean 'Missile'" in doc.design.notes


def test_the_partial_question_lists_what_was_not_understood_first(qtbot: Any) -> None:
    from shipyard._qt.dialogs.convertdialogs import partial_question, partial_text

    result = import_statblocks(MISSPELT, sfa(), source="clipboard")
    reports = [r.report for r in result]
    dlg = ReportDialog(None, "Parts not understood", partial_text(reports), ask=partial_question(reports))
    qtbot.addWidget(dlg)
    assert dlg.question.text().startswith("<b>1 part of the pasted text was not understood. Open the design anyway?")
    lines = dlg.text.splitlines()
    assert lines[0] == "Not understood:" and lines[1].startswith('  not understood  Rebel Fighter: Weapons: "1 Misile"')
    plain = dlg.view.toPlainText()
    assert "did you mean 'Missile'" in plain and "Rebel Fighter: 22 used, 1 not understood" in plain
    qtbot.mouseClick(dlg.open_button, Qt.MouseButton.LeftButton)
    assert dlg.result() == QDialog.DialogCode.Accepted


def test_the_report_is_a_table_with_what_needs_attention_in_bold() -> None:
    page = report_html("Ship: 1 used, 1 differs\n  used     Name: x\n  differs  Force Field (3)")
    assert "<b>Ship: 1 used, 1 differs</b>" in page
    assert '<td style="white-space: pre">used</td><td>Name: x</td>' in page
    assert "<b>differs</b></td><td><b>Force Field (3)</b>" in page


def test_a_shown_report_does_not_block_the_editor(qtbot: Any, window: MainWindow) -> None:
    actions_of(window).show_report("Import report", "Rebel Fighter: 23 used\n  used  Name: x")
    [dlg] = [d for d in window.findChildren(ReportDialog) if d.isVisible()]
    assert not dlg.isModal() and dlg.windowTitle() == "Import report"
    dlg.close()


# --- Edit > Copy as stat block / Markdown ------------------------------------------------------


@pytest.mark.parametrize("markdown", [False, True])
@pytest.mark.parametrize("name", ["rebel-frigate", "federation-space-station"])
def test_copy_as_stat_block_round_trips_through_the_clipboard(
    window: MainWindow, answers: Answers, name: str, markdown: bool
) -> None:
    view = window.open_file(EXAMPLES / f"{name}.ship")
    assert view is not None
    action = actions_of(window).copy_markdown_action if markdown else actions_of(window).copy_action
    action.trigger()
    mime = QApplication.clipboard().mimeData()
    text = mime.text()
    assert text == export_statblock(view.doc.design, view.doc.catalog, markdown=markdown)
    assert mime.hasFormat("text/markdown") == markdown
    assert import_statblock(text, view.doc.catalog).design == holdable(view.doc.design, view.doc.catalog)
    # and pasting it back opens an equal design
    actions_of(window).paste_action.trigger()
    assert window.tabs.count() == 2 and errors(window) == []
    assert window.documents()[1].design == holdable(view.doc.design, view.doc.catalog)


def test_copying_says_what_a_stat_block_cannot_hold(window: MainWindow) -> None:
    view = window.open_file(EXAMPLES / "alien-mothership.ship")
    assert view is not None
    actions_of(window).copy_action.trigger()
    message = window.statusBar().currentMessage()
    assert (
        message.startswith("Copied Alien Mothership as stat-block text, without")
        and "notes" in message
        and message.endswith(", preset sample-ships")
    )


# --- File > Import > Trinity vessel -------------------------------------------------------------


def kestrel() -> Any:
    vessel, _doc = load_vessel(TRINITY / "kestrel-hybrid-fighter.yaml")
    return vessel


def test_the_trinity_form_converts_into_a_new_design_whose_budgets_are_advice(
    window: MainWindow, answers: Answers
) -> None:
    answers.form = TrinityInput(kestrel(), structure=12)
    actions_of(window).form_actions[CONVERSION].trigger()
    assert errors(window) == []
    [doc] = window.documents()
    expected = convert_vessel(kestrel(), sfa(), structure=12)
    assert doc.design == expected.design and doc.modified and doc.path is None
    assert doc.design.structure == 12 and doc.design.power == 5  # given, and the "average" default
    over = next(f for f in evaluate(doc.design, doc.catalog).findings if f.code == "pool-over-budget")
    assert over.severity == Severity.ADVICE and "shown for information: the design is converted" in over.message
    assert "Kestrel-9 Interceptor: converted from Trinity" in doc.design.notes
    assert "Cost (construction points): 240 CP -> Resources 8" in doc.design.notes
    [(title, text)] = answers.reports
    assert title == "Conversion report" and text.startswith("Kestrel-9 Interceptor: converted from Trinity\n")
    assert "  assumed" in text and "The report is kept in the design's notes" in text


def test_a_cancelled_trinity_form_opens_nothing(window: MainWindow, answers: Answers) -> None:
    answers.form = None
    actions_of(window).form_actions[CONVERSION].trigger()
    assert window.tabs.count() == 0 and errors(window) == [] and answers.reports == []


def test_bad_trinity_values_show_the_engines_message_and_open_nothing(window: MainWindow, answers: Answers) -> None:
    view = window.open_file(EXAMPLES / "rebel-fighter.ship")
    assert view is not None
    answers.form = TrinityInput(kestrel().model_copy(update={"vt": "Hybrid Fightr"}))
    actions_of(window).form_actions[CONVERSION].trigger()
    [(title, text)] = errors(window)
    assert title == "Cannot convert Trinity vessel"
    assert "VT 'Hybrid Fightr' is not in the Appendix 2 table" in text and "did you mean 'Hybrid Fighter'" in text
    answers.form = TrinityInput(kestrel(), structure=40)
    actions_of(window).form_actions[CONVERSION].trigger()
    assert "the Structure given, 40, is outside the Space Fighter Alpha range" in errors(window)[1][1]
    assert window.tabs.count() == 1 and not view.doc.modified and answers.reports == []


def test_a_trinity_file_converts_like_the_command_line(window: MainWindow, answers: Answers) -> None:
    answers.file = TRINITY / "wren-hybrid-shuttle.json"
    actions_of(window).file_actions[CONVERSION].trigger()
    [doc] = window.documents()
    vessel, _ = load_vessel(answers.file)
    assert doc.design == convert_vessel(vessel, sfa()).design
    assert answers.reports and answers.reports[0][0] == "Conversion report"
    answers.file = None  # cancelled
    actions_of(window).file_actions[CONVERSION].trigger()
    assert window.tabs.count() == 1


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [
        (
            "name: X\nvt: Frigate\nvs: 2\nhandling: 0\nsoak: 1\nspeed: 3\n",
            ".yaml",
            ":6:1 at speed: unknown field 'speed'",
        ),
        ("name: X\nvt: Frigate\nvs: fast\nhandling: 0\nsoak: 1\n", ".yaml", ":3:"),
        ("name: X\nvt: Frigate\nvs: 2\nhandling: 0\nsoak: 2 [3]\n", ".yaml", "Soak scale mark [3] is not in the"),
        ('{"name": "X", "vt": "Frigate",', ".json", "malformed JSON"),
        ("", ".yaml", "file is empty"),
    ],
)
def test_a_bad_trinity_file_shows_the_engines_message_and_opens_nothing(
    window: MainWindow, answers: Answers, tmp_path: Path, content: str, suffix: str, message: str
) -> None:
    bad = tmp_path / f"bad{suffix}"
    bad.write_text(content)
    answers.file = bad
    actions_of(window).file_actions[CONVERSION].trigger()
    [(title, text)] = errors(window)
    assert title == "Cannot import Trinity vessel"
    assert str(bad) in text and message in text
    assert window.tabs.count() == 0 and answers.reports == []


# --- the Trinity form, filled by typing --------------------------------------------------------


def choose(widget: QComboBox, text: str) -> None:
    index = widget.findData(text)
    assert index >= 0, text
    widget.setCurrentIndex(index)


def fill_kestrel(qtbot: Any, dlg: TrinityDialog) -> None:
    """Type the Kestrel-9 example (catalogs/trinity/examples) into the form."""
    type_into(qtbot, dlg.name, "Kestrel-9 Interceptor")
    choose(dlg.vt, "Hybrid Fighter")
    choose(dlg.tech, "Hardtech")
    type_into(qtbot, dlg.cs, "1,800 kph")
    type_into(qtbot, dlg.ts, "9,000 kph")
    type_into(qtbot, dlg.vs, "4")
    type_into(qtbot, dlg.handling, "2")
    type_into(qtbot, dlg.mass, "14 tons")
    type_into(qtbot, dlg.tolerance, "6")
    type_into(qtbot, dlg.cost, "240")
    type_into(qtbot, dlg.soak, "3")
    type_into(qtbot, dlg.soak_mark, "5")
    weapons = [
        {"name": "Twin Pulse Laser", "accuracy": "2", "damage": "6", "mark": "5", "range": "2 km"},
        {
            "name": "Smart Missile Rack",
            "accuracy": "3",
            "damage": "10",
            "mark": "10",
            "count": "2",
            "notes": "fire-and-forget",
        },
    ]
    weapons[1]["notes"] = "fire-and-forget"
    for row, weapon in enumerate(weapons):
        qtbot.mouseClick(dlg.add_button, Qt.MouseButton.LeftButton)
        assert dlg.weapons.rowCount() == row + 1
        for column, text in weapon.items():
            type_into(qtbot, dlg.weapons.cell(row, column), text)
    dlg.notes.setFocus()
    qtbot.keyClicks(dlg.notes, "Fictional example vessel.")


def test_the_trinity_form_typed_in_gives_the_vessel_of_the_example_file(qtbot: Any) -> None:
    dlg = TrinityDialog(None, sfa())
    qtbot.addWidget(dlg)
    dlg.show()
    fill_kestrel(qtbot, dlg)
    assert dlg.vessel() == kestrel()
    type_into(qtbot, dlg.structure, "12")
    assert (dlg.structure.value(), dlg.power.value(), dlg.crew.text()) == (12, 5, "guideline")
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dlg.result() == QDialog.DialogCode.Accepted and dlg.error.isHidden()
    assert dlg.value() == TrinityInput(kestrel(), structure=12, power=None, crew=None)  # Power left at 5: assumed


def test_the_trinity_form_refuses_bad_values_in_place_and_keeps_what_was_typed(qtbot: Any) -> None:
    dlg = TrinityDialog(None, sfa())
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.activateWindow()
    fill_kestrel(qtbot, dlg)
    type_into(qtbot, dlg.weapons.cell(0, "mark"), "3")
    ok = dlg.buttons.button(dlg.buttons.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dlg.result() != QDialog.DialogCode.Accepted and dlg.isVisible()
    assert not dlg.error.isHidden()
    assert "weapons[0].damage: Twin Pulse Laser scale mark [3] is not in the Appendix 2 table" in dlg.error.text()
    assert dlg.name.text() == "Kestrel-9 Interceptor" and dlg.weapons.rowCount() == 2  # nothing lost
    assert dlg.widget_at("weapons[0].damage") is dlg.weapons.cell(0, "damage")
    assert dlg.widget_at("soak.mark") is dlg.soak_mark and dlg.widget_at("vt") is dlg.vt
    # an empty weapon name is the engine's message too
    type_into(qtbot, dlg.weapons.cell(0, "mark"), "5")
    dlg.weapons.cell(1, "name").clear()
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert "weapons[1].name" in dlg.error.text() and dlg.isVisible()
    # fixed: accepted
    type_into(qtbot, dlg.weapons.cell(1, "name"), "Smart Missile Rack")
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dlg.result() == QDialog.DialogCode.Accepted


def test_removing_a_weapon_renames_the_rows_for_screen_readers(qtbot: Any) -> None:
    dlg = TrinityDialog(None, sfa())
    qtbot.addWidget(dlg)
    assert not dlg.remove_button.isEnabled()
    for _ in range(3):
        qtbot.mouseClick(dlg.add_button, Qt.MouseButton.LeftButton)
    dlg.weapons.cell(1, "name").setText("Middle")
    dlg.weapons.setCurrentCell(0, 0)
    qtbot.mouseClick(dlg.remove_button, Qt.MouseButton.LeftButton)
    assert dlg.weapons.rowCount() == 2
    assert dlg.weapons.cell(0, "name").text() == "Middle"
    assert dlg.weapons.cell(0, "name").accessibleName() == "Weapon 1 name"
    assert dlg.weapons.cell(1, "mark").accessibleName() == "Weapon 2 scale mark"


def test_the_form_through_the_menu_opens_the_converted_design(qtbot: Any, window: MainWindow) -> None:
    """The real form, filled and accepted, is what File > Import > Trinity vessel converts."""
    actions = actions_of(window)
    reports: list[str] = []
    actions.show_report = lambda title, text: reports.append(title)  # type: ignore[method-assign]

    def fill_and_accept(offer: Any) -> Any:  # what the real ask_form does, with typing instead of exec()
        module, _, name = offer.entry.form.partition(":")
        assert (module, name) == ("shipyard.rulesets.space_fighter_alpha.qt", "TrinityDialog")
        dlg = TrinityDialog(window, actions.catalog(offer.info.id))
        qtbot.addWidget(dlg)
        dlg.show()
        fill_kestrel(qtbot, dlg)
        dlg.accept()
        return dlg.converted() if dlg.result() == QDialog.DialogCode.Accepted else None

    actions.ask_form = fill_and_accept  # type: ignore[method-assign]
    actions.form_actions[CONVERSION].trigger()
    [doc] = window.documents()
    assert doc.design == convert_vessel(kestrel(), sfa()).design and reports == ["Conversion report"]


def test_every_field_of_the_form_has_a_label_and_an_accessible_name(qtbot: Any) -> None:
    dlg = TrinityDialog(None, sfa())
    qtbot.addWidget(dlg)
    dlg.weapons.add_weapon()
    inputs = [
        w
        for w in dlg.findChildren(QWidget)
        if isinstance(w, QLineEdit | QSpinBox | QComboBox | QPlainTextEdit | QPushButton) and w.isVisibleTo(dlg)
    ]
    inputs = [w for w in inputs if not isinstance(w.parent(), QAbstractSpinBox | QComboBox)]  # their inner editors
    assert [w for w in inputs if not w.accessibleName()] == []
    labels = [lab for lab in dlg.findChildren(QLabel) if lab.buddy() is not None]
    buddies = {lab.buddy() for lab in labels}
    cells = {dlg.weapons.cellWidget(0, c) for c in range(dlg.weapons.columnCount())}
    fields = [w for w in inputs if not isinstance(w, QPushButton) and w not in cells]
    assert [w.accessibleName() for w in fields if w not in buddies] == []
    assert dlg.weapons in buddies  # the table is labelled; its columns are named by the header
    keys = [lab.text().lower().split("&")[1][0] for lab in labels if "&" in lab.text()]
    keys += [b.text().lower().split("&")[1][0] for b in (dlg.add_button, dlg.remove_button)]
    assert len(keys) == len(set(keys)), sorted(keys)  # every mnemonic reaches one field
    assert [dlg.weapons.cellWidget(0, c).accessibleName() for c in range(dlg.weapons.columnCount())] == [
        "Weapon 1 name",
        "Weapon 1 count",
        "Weapon 1 accuracy",
        "Weapon 1 damage",
        "Weapon 1 scale mark",
        "Weapon 1 range",
        "Weapon 1 notes",
    ]


def test_the_shortcuts_work_while_typing_and_leave_plain_paste_to_the_field(
    qtbot: Any, window: MainWindow, answers: Answers
) -> None:
    view = window.open_file(EXAMPLES / "rebel-frigate.ship")
    assert view is not None
    window.activateWindow()
    name = view.binder.bindings["name"].widget
    name.setFocus()
    qtbot.keyClick(name, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.clipboard().text().startswith("Name: Rebel Frigate\n")
    qtbot.keyClick(name, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert [d.design.name for d in window.documents()] == ["Rebel Frigate", "Rebel Frigate"]
    # plain Ctrl+V still pastes text into the field being edited
    first = window.tabs.widget(0)
    window.tabs.setCurrentIndex(0)
    field = first.binder.bindings["name"].widget  # type: ignore[attr-defined]
    field.setFocus()
    field.selectAll()
    QApplication.clipboard().setText("Pasted name")
    qtbot.keyClick(field, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert field.text() == "Pasted name" and window.tabs.count() == 2
