"""The user's guide (docs/guide/), README.md and CONTRIBUTING.md hold only what Shipyard does.

Every terminal session a page shows is run as it is written, in a folder of its own (see
tests/doccommands.py; a line that only runs ``shipyard`` runs in the test's process), and
must print what the page says; every relative link and picture of these pages leads to a
file that exists; every guide page is reachable from the guide's contents.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from . import doccommands
from .conftest import ROOT, call_shipyard

GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(GUIDE.glob("*.md"))
LINKED = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *PAGES, *sorted((ROOT / "docs" / "internals").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize(
    "page", [p for p in [ROOT / "README.md", *PAGES] if doccommands.commands(p)], ids=lambda p: p.name
)
def test_every_command_a_page_shows_prints_what_the_page_says(page: Path, tmp_path: Path) -> None:
    problems = doccommands.problems(page, tmp_path, call_shipyard)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("page", [p for p in LINKED if p.is_file()], ids=lambda p: p.name)
def test_every_link_and_picture_of_a_page_leads_to_a_file(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # links inside code are code
    missing = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_every_guide_page_is_in_the_contents_and_the_readme_leads_to_them() -> None:
    contents = (GUIDE / "README.md").read_text(encoding="utf-8")
    listed = {Path(t).name for t in LINK.findall(contents)}
    assert {p.name for p in PAGES} - {"README.md"} <= listed
    assert "docs/guide/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_runner_holds_a_page_to_its_output(tmp_path: Path) -> None:
    """A page that says the wrong output or exit status, or leaves a traceback, is caught."""
    page = tmp_path / "page.md"
    page.write_text(
        "```text file=hello.txt\nhello\n```\n\n```console\n$ cat hello.txt\nhello\n$ cat hello.txt\ngoodbye\n"
        "$ false\n$ exit 3\n[exit status 3]\n$ printf 'a\\nb\\nc\\n'\na\n...\n"
        "$ echo some more words\nsome ... words\n```\n",
        encoding="utf-8",
    )
    problems = doccommands.problems(page, tmp_path / "run")
    assert len(problems) == 2, problems
    assert "goodbye" in problems[0] and "exit status 1, the page says 0" in problems[1]


def test_a_line_that_only_runs_shipyard_runs_in_the_test_process_as_bash_hands_it_its_words(tmp_path: Path) -> None:
    """Bash parses and expands the line (quotes, globs, variables); a pipe, a redirection, a
    list or a command substitution keeps the whole line in bash; the page is held to what the
    command printed in the test's process as it is to what bash ran."""
    folder = tmp_path / "run"
    doccommands.prepare(folder)
    (folder / "a b.ship").write_text("{}", encoding="utf-8")

    def words(text: str) -> list[str] | None:
        return doccommands.shipyard_words(doccommands.Command(tmp_path / "page.md", 1, text), folder)

    assert words("shipyard find 'speed>=5' *.ship \"$HOME\"") == ["find", "speed>=5", "a b.ship", str(Path.home())]
    assert words('shipyard set x.ship \'weapons=[{"weapon": "laser"}]\' name="A B"') == [
        "set",
        "x.ship",
        'weapons=[{"weapon": "laser"}]',
        "name=A B",
    ]
    for shell in ("shipyard check *.ship | head -1", "shipyard check --json > r.json", "shipyard check; ls",
                  "shipyard check $(ls)", "echo shipyard", "shipyard check 'open"):  # fmt: skip
        assert words(shell) is None, shell
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ shipyard get 'a b.ship' nosuch\nsomething else\n[exit status 2]\n"
        "$ shipyard get missing.ship structure\nshipyard: error: missing.ship: cannot read file: ...\n"
        "$ shipyard get missing.ship structure | cat\nshipyard: error: missing.ship: cannot read file: ...\n```\n",
        encoding="utf-8",
    )
    problems = doccommands.problems(page, folder, call_shipyard)
    assert len(problems) == 2, problems  # the pipe's status is cat's
    assert "it printed:\nshipyard: error: a b.ship" in problems[0] and "exit status 2, the page says 0" in problems[1]


def test_help_guide_opens_the_page_of_the_open_design_s_ruleset_and_follows_links(qtbot: Any, tmp_path: Path) -> None:
    """Help > Guide, chosen from the menu by keyboard: the contents with no design open, the
    ruleset's own page with one, and a link clicked leads to the page it names."""
    pytest.importorskip("PySide6")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QTextBrowser

    from shipyard._qt.window import helpmenu
    from shipyard._qt.window.window import MainWindow
    from shipyard.core.registry import rulesets

    for info in rulesets():  # every ruleset that comes with Shipyard has its page
        assert helpmenu.guide_page(info.id) == GUIDE / f"{info.id}.md", info.id
    assert helpmenu.guide_page(None) == GUIDE / "README.md"
    assert helpmenu.guide_page("a-plug-in-s-ruleset") == GUIDE / "README.md"

    window = MainWindow(
        QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), use_user_folder=False, preview=False
    )
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window.activateWindow()
    qtbot.wait(300)  # a person looks at the window before reaching for the menu
    target = QApplication.focusWidget() or window
    QTest.keyClick(target, Qt.Key.Key_H, Qt.KeyboardModifier.AltModifier)  # the Help menu, as a person opens it
    qtbot.waitUntil(lambda: window.menus.help_menu.isVisible(), timeout=3000)
    QTest.keyClick(window.menus.help_menu, Qt.Key.Key_D)  # Gui&de
    qtbot.waitUntil(lambda: not window.menus.help_menu.isVisible(), timeout=3000)
    shown = [w for w in QApplication.topLevelWidgets() if w.isVisible() and w.findChild(QTextBrowser)]
    view = next(w.findChild(QTextBrowser) for w in shown if w.windowTitle().startswith("Guide"))
    assert view.toPlainText().startswith("Shipyard user's guide")
    from PySide6.QtCore import QUrl

    view.setSource(view.source().resolved(QUrl("compare.md")))  # what a click on the link does
    assert view.toPlainText().startswith("Compare two designs")
    view.window().close()

    window.open_file(ROOT / "catalogs" / "wing-commander" / "examples" / "arrow.ship")
    view = helpmenu.show_user_guide(window)
    assert view.source().toLocalFile() == str(GUIDE / "wing-commander.md")
    assert view.toPlainText().startswith("Wing Commander")
    view.window().close()
