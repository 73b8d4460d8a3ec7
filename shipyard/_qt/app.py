"""Start the editor: `shipyard-gui [FILE...]` or `shipyard gui [FILE...]`."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from shipyard._speedups import pause_collection
from shipyard._speedups import resume_collection as _speedups_resume

if TYPE_CHECKING:
    import argparse
    import threading
    from collections.abc import Sequence
    from pathlib import Path

    from PySide6.QtGui import QPalette


def dark_palette() -> QPalette:
    from PySide6.QtGui import QColor, QPalette

    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#24282f", QPalette.ColorRole.WindowText: "#e6e8eb",
        QPalette.ColorRole.Base: "#2c313a", QPalette.ColorRole.AlternateBase: "#333944",
        QPalette.ColorRole.Text: "#e6e8eb", QPalette.ColorRole.Button: "#2d323a",
        QPalette.ColorRole.ButtonText: "#e6e8eb", QPalette.ColorRole.Highlight: "#4a7bd0",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2d323a",
        QPalette.ColorRole.ToolTipText: "#e6e8eb", QPalette.ColorRole.PlaceholderText: "#8b929c",
        QPalette.ColorRole.Link: "#8ab4f8",
    }  # fmt: skip
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#6b717a"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor("#6b717a"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#6b717a"))
    return p


def _import_engine(files: Sequence[Path]) -> None:
    """Import the rules engine, and the rulesets of the files to open, before PySide6.

    Once PySide6 is imported, shiboken's import hook reads the source of every module
    imported after it, which makes pydantic and the rules slower to import
    (``bench/bench_gui.py --start-only`` measures it).
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from shipyard._speedups import generated_code_kept, no_pydantic_plugin_search, quicker_default_factories

    generated_code_kept()  # before the first dataclass and model of the engine
    no_pydantic_plugin_search()
    quicker_default_factories()
    import shipyard.core.designfile
    import shipyard.core.evaluate
    import shipyard.core.formview  # the declared form every generated page reads
    from shipyard.core.errors import InputError
    from shipyard.core.registry import ruleset_module

    for f in files:
        try:
            ruleset = shipyard.core.designfile.peek_ruleset(f)
            if ruleset is not None:
                ruleset_module(ruleset)
        except InputError:
            pass  # opening the file reports it


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The editor's options: ``shipyard-gui`` and ``shipyard gui`` both take exactly these."""
    from pathlib import Path

    parser.add_argument("files", nargs="*", type=Path, help="design files to open")
    parser.add_argument("--dark", action="store_true", help="use a dark palette")
    parser.add_argument("--no-preview", action="store_true", help="do not render the live sheet preview")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="start, show the window with its designs, print what loaded, and quit (checks and benchmarks)",
    )


def _preview_wanted(argv: Sequence[str]) -> bool:
    """Whether the command line leaves the preview on, read before argparse is imported (the
    render worker is started first thing, 20 ms sooner so): no ``--no-preview`` or a prefix
    of it argparse would take, and no ``--help``, which shows no window."""
    for arg in argv:
        if arg == "--":
            break
        if arg == "-h" or (
            len(arg) > 2 and arg.startswith("--") and any(o.startswith(arg) for o in ("--no-preview", "--help"))
        ):
            return False
    return True


def build(argv: Sequence[str], options: argparse.Namespace | None = None) -> tuple[Any, Any]:
    """The application and its window, ready to show (tests and benchmarks use this).

    ``options``: already parsed by :func:`add_arguments`'s options (``shipyard gui``); else ``argv`` is."""
    from shipyard._speedups import patterns_kept

    patterns_kept()  # before argparse, pydantic and PySide6 compile theirs
    from shipyard._qt.preview.sharedworker import close_shared_worker, start_early

    early = options is None and _preview_wanted(argv)
    if early:  # before even argparse: the worker's import is what the first preview waits on
        start_early()  # WeasyPrint's import on the other core while the window is built
    if options is None:
        import argparse

        parser = argparse.ArgumentParser(prog="shipyard-gui", description="The Shipyard editor.")
        add_arguments(parser)
        options = parser.parse_args(list(argv))
    args = options

    if args.no_preview and early:  # cannot happen unless _preview_wanted missed a spelling
        close_shared_worker()
    elif not args.no_preview and not early:
        start_early()
    _import_engine(args.files)
    from shipyard._qt.window.syslibs import check_editor_libraries, new_application
    from shipyard._speedups import pyside_support_compiled_once

    with pyside_support_compiled_once():  # PySide6 is imported here first
        check_editor_libraries()  # a missing library or display: one clear message, before Qt aborts
    from shipyard._speedups import quicken_pyside_import_check

    quicken_pyside_import_check()  # the modules imported from here on are checked by a plain read
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from shipyard._qt.window.window import MainWindow, install_crash_autosave

    QCoreApplication.setOrganizationName("Shipyard")
    QCoreApplication.setApplicationName("Shipyard")
    app = QApplication.instance() or new_application(QApplication, [sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setDesktopFileName("org.example.Shipyard")  # lets task bars match the window to the menu entry
    if args.dark:
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    window = MainWindow(QSettings(), preview=not args.no_preview)
    install_crash_autosave(window.recovery)
    window.smoke = args.smoke  # before the files: a smoke run prints a file's error, no modal box
    for f in args.files:
        window.open_file(f)
    return app, window


def main(argv: Sequence[str] | None = None, options: argparse.Namespace | None = None) -> int:
    """``shipyard-gui``; ``shipyard gui`` passes its ``options``, parsed by the same :func:`add_arguments`."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--render-worker"]:  # a frozen bundle starts its render workers this way
        from shipyard.render.earlyworker import serve

        serve(argv[1:])
        return 0
    from shipyard._speedups import patterns_kept

    patterns_kept()  # before the first module with patterns of its own is imported
    from shipyard._qt.window.syslibs import CannotStart

    try:
        app, window = start(argv, options)
    except CannotStart as exc:
        print(f"shipyard-gui: error: {exc}", file=sys.stderr)
        return 1
    from PySide6.QtCore import QTimer

    if window.smoke:
        QTimer.singleShot(0, lambda: _smoke_report(app, window))
    else:
        QTimer.singleShot(0, window.recovery.offer_restore)
        QTimer.singleShot(SWEEP_AFTER_MS, _sweep_leftovers)
    return int(app.exec())


SWEEP_AFTER_MS = 10_000  # well after the window and its first sheet


def _sweep_leftovers() -> threading.Thread:
    """Remove, in the background, the temporary folders killed editors and workers left
    (:func:`shipyard.render.scratch.sweep_leftovers`): a look through the temporary folder
    has no place on the start. The thread is returned for whoever waits for it (a test)."""
    import threading

    from shipyard.render import scratch

    thread = threading.Thread(target=scratch.sweep_leftovers, daemon=True, name="shipyard-sweep-leftovers")
    thread.start()
    return thread


def start(argv: Sequence[str], options: argparse.Namespace | None = None) -> tuple[Any, Any]:
    """Build and show the editor, with cyclic garbage collection paused until it is up.

    Start-up creates many objects that live as long as the program (modules, classes, the
    catalog); the collector would walk them again and again for nothing. Collection resumes
    once the window is up, with those objects frozen out of later collections, so they cost
    no pauses while the user types (both are speed-ups: shipyard._speedups).
    """
    pause_collection()
    try:
        app, window = build(argv, options)
        window.show()
    except BaseException:
        _speedups_resume(freeze=False)
        raise
    from PySide6.QtCore import QTimer

    QTimer.singleShot(0, resume_collection)
    return app, window


def resume_collection() -> None:
    """The window is up: what start-up made is frozen out of later collections, which
    resume (bench/_editor.py does the same, so the editor benches collect as the editor does);
    the patterns and code the start compiled are kept for the next (shipyard._speedups)."""
    from shipyard._speedups import keep_generated_code, keep_patterns, keep_pyside_support

    _speedups_resume()
    keep_patterns()
    keep_pyside_support()
    keep_generated_code()


def _smoke_report(app: Any, window: Any) -> None:
    """One line a script can check: the window is up, what it shows, what it imported."""
    app.processEvents()
    docs = window.documents()
    view = window.current()
    # each budget of the design shown, by the pool's own name (a ruleset without pools has none)
    panel = view.budget if view is not None else None
    rows = range(panel.topLevelItemCount()) if panel is not None else range(0)
    budgets = {panel.cell_text(i, 0): panel.cell_text(i, 3) for i in rows} if panel is not None else {}
    heavy = sorted(m for m in ("weasyprint", "pydyf", "tinycss2") if m in sys.modules)
    print(
        f"shown: {window.isVisible()} designs: {len(docs)} title: {window.windowTitle()!r} "
        f"budgets: {budgets!r} heavy-imports: {heavy}",
        flush=True,
    )
    app.exit(2 if window.smoke_errors else 0)  # 2: a file could not be opened, as the command line says


if __name__ == "__main__":
    raise SystemExit(main())
