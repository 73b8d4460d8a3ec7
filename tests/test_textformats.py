"""The contracts of text formats and conversions (shipyard.core.textformats, docs/conversion.md).

A plug-in's manifest names the modules; a module without what its entry declares is a
clear error naming the module, the manifest and the names needed, before any call, not an
AttributeError from inside a command.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shipyard.cli import main
from shipyard.core.textformats import ImportReport, TextImport

from .conftest import RULESETS, install_ruleset, published, sfa


def _dock_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, entries: str, module: str) -> Path:
    """The Dock Test ruleset installed as package ``name`` (a name of its own a test: Python
    keeps an imported package) with ``entries`` added to its manifest and a module
    ``NAME.half`` holding ``module``; the manifest's path."""
    package = tmp_path / "pkgs" / name
    shutil.copytree(RULESETS / "dock_test", package)
    manifest = package / "manifest.yaml"
    rid = name.replace("_", "-")
    manifest.write_text(manifest.read_text().replace("id: dock-test", f"id: {rid}") + entries)
    (package / "half.py").write_text(module)
    install_ruleset(monkeypatch, tmp_path / "site", package, rid)
    return manifest


def test_a_format_module_without_read_is_refused_naming_what_it_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = _dock_with(
        tmp_path,
        monkeypatch,
        "dock_text",
        "formats:\n  - {id: docktext, name: dock text, module: dock_text.half}\n",
        "def write(design, catalog, *, markdown=False):\n    return ''\n",
    )
    text = tmp_path / "dock.txt"
    text.write_text("Dock: one\n")
    out = tmp_path / "dock.ship"
    assert main(["import", "docktext", str(text), "-o", str(out), "--no-user-catalog"]) == 2
    err = capsys.readouterr().err
    half = manifest.parent / "half.py"
    what = "ruleset 'dock-text': text format 'docktext': its module 'dock_text.half' lacks"
    assert err.splitlines() == [
        f"shipyard: error: {half}: {what} MAX_TEXT_BYTES",
        f"shipyard: error: {half}: {what} read(text, catalog, *, source=...)",
        f"shipyard: error: {half}: {what} lost(design, catalog)",
    ]
    assert not out.exists()


def test_a_format_function_that_cannot_take_what_shipyard_passes_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same check as a ruleset's hooks: read(text) cannot be called as read(text, catalog)."""
    manifest = _dock_with(
        tmp_path,
        monkeypatch,
        "dock_sig",
        "formats:\n  - {id: docksig, name: dock text, module: dock_sig.half, writes: false}\n",
        "MAX_TEXT_BYTES = 0\n\n\ndef read(text):\n    return []\n",
    )
    text = tmp_path / "dock.txt"
    text.write_text("Dock: one\n")
    assert main(["import", "docksig", str(text), "-o", str(tmp_path / "dock.ship"), "--no-user-catalog"]) == 2
    half = manifest.parent / "half.py"
    what = "ruleset 'dock-sig': text format 'docksig': hook"
    assert capsys.readouterr().err.splitlines() == [
        f"shipyard: error: {half}: {what} 'MAX_TEXT_BYTES': is 0, not a number of bytes (a whole number, 1 or more)",
        f"shipyard: error: {half}:4: {what} 'read': takes read(text); "
        "Shipyard calls read(text, catalog, *, source=...)",
    ]


def test_a_conversion_module_without_convert_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _dock_with(
        tmp_path,
        monkeypatch,
        "dock_record",
        "conversions:\n  - {id: dockrecord, name: dock record, module: dock_record.half}\n",
        "def convert(path, catalog, options):\n    return None\n",
    )
    record = tmp_path / "dock.yaml"
    record.write_text("name: one\n")
    out = tmp_path / "dock.ship"
    assert main(["convert", "dockrecord", str(record), "-o", str(out), "--no-user-catalog"]) == 2
    err = capsys.readouterr().err
    assert (
        "ruleset 'dock-record': conversion 'dockrecord': its module 'dock_record.half' lacks "
        "convert_file(file, catalog, options)"
    ) in err
    assert "Traceback" not in err and not out.exists()


def test_the_stat_block_format_returns_the_neutral_report() -> None:
    """Space Fighter Alpha's stat blocks read into the core's TextImport and ImportReport, the
    types the command line and the editor's dialogs are written against."""
    from shipyard.core.registry import get
    from shipyard.core.textformats import text_format

    info = get("space-fighter-alpha")
    [entry] = info.formats
    [result] = text_format(info, entry).read(published("rebel-fighter"), sfa(), source="rebel-fighter.txt")
    assert type(result) is TextImport and type(result.report) is ImportReport
    assert result.ok and result.report.lines()[0] == "Rebel Fighter: 23 used"


def test_rulesets_check_names_every_module_that_misses_its_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An author's ``shipyard rulesets --check PATH`` (the package not installed) imports
    the formats' and conversions' modules and lists what each lacks, all at once."""
    package = tmp_path / "pkgs" / "dock_check"
    shutil.copytree(RULESETS / "dock_test", package)
    manifest = package / "manifest.yaml"
    manifest.write_text(
        manifest.read_text().replace("id: dock-test", "id: dock-check")
        + "formats:\n  - {id: docktext, name: dock text, module: dock_check.half, writes: false}\n"
        + "conversions:\n  - {id: dockrecord, name: dock record, module: dock_check.half}\n"
        + "  - {id: gone, name: gone record, module: dock_check.nowhere}\n"
    )
    (package / "half.py").write_text("MAX_TEXT_BYTES = 1000\n")
    assert main(["rulesets", "--check", str(package)]) == 2
    err = capsys.readouterr().err
    assert "text format 'docktext': its module 'dock_check.half' lacks read(text, catalog, *, source=...)" in err
    assert "conversion 'dockrecord': its module 'dock_check.half' lacks convert_file(file, catalog, options)" in err
    assert "module 'dock_check.nowhere' cannot be imported: ModuleNotFoundError" in err
    assert "Traceback" not in err
