"""Bad input to the exports for the table: awkward names, folders that exist or refuse
writing, art that is missing. Each gets a clear message; nothing is written half and
nothing is replaced unless --force asks for it."""

from __future__ import annotations

import errno
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from shipyard.core import registry

from .conftest import ROOT, call_shipyard

AWKWARD = 'Rebel "Ace" <b>Bold</b> & Co / Wing\u0007 X'


def _design(tmp_path: Path, name: str, **more: Any) -> Path:
    doc = json.loads((registry.get("space-fighter-alpha").samples / "rebel-fighter.ship").read_text())
    doc["design"] |= {"name": name, **more}
    file = tmp_path / "awkward.ship"
    file.write_text(json.dumps(doc))
    return file


def test_a_name_with_quotes_html_a_control_character_and_a_slash_is_kept_and_drawn(tmp_path: Path) -> None:
    design = _design(tmp_path, AWKWARD)
    out = tmp_path / "vtt"
    proc = call_shipyard("export", design, "--format", "foundry", "-o", out, "--no-user-catalog")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["awkward-token.png", "awkward.json"]  # named by the file
    actor = json.loads((out / "awkward.json").read_text())
    assert actor["name"] == actor["prototypeToken"]["name"] == AWKWARD  # the JSON keeps the name as written
    with Image.open(out / "awkward-token.png") as token:
        assert token.mode == "RGBA" and token.size == (154, 154)  # 1 in and the cut line at 150 dpi
    from shipyard.core.designfile import load_design
    from shipyard.core.evaluate import evaluate
    from shipyard.render.tokenimages import token_svgs
    from shipyard.render.tokens import TokenSpec

    loaded = load_design(design, use_user_folder=False)
    svg = token_svgs([loaded], [evaluate(loaded.design, loaded.catalog)], TokenSpec(25.4, "square"))[0]
    assert "<b>" not in svg and "&lt;b&gt;" in svg and "\u0007" not in svg and "&#34;Ace&#34;" in svg
    for fmt in ("token-png", "card-png"):
        proc = call_shipyard("export", design, "--format", fmt, "-o", tmp_path / fmt, "--no-user-catalog")
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr


def test_an_export_into_a_folder_that_holds_the_files_replaces_nothing_without_force(tmp_path: Path) -> None:
    design = _design(tmp_path, "Rebel Fighter")
    out = tmp_path / "vtt"
    out.mkdir()
    (out / "awkward.json").write_text("mine")
    proc = call_shipyard("export", design, "--format", "foundry", "-o", out, "--no-user-catalog")
    assert proc.returncode == 2 and "exists; use --force to replace it" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["awkward.json"] and (out / "awkward.json").read_text() == "mine"
    proc = call_shipyard("export", design, "--format", "foundry", "-o", out, "--force", "--no-user-catalog")
    assert proc.returncode == 0 and json.loads((out / "awkward.json").read_text())["name"] == "Rebel Fighter"


def test_a_folder_that_refuses_writing_is_said_and_nothing_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A read-only folder (simulated: the tests may run as root, who writes anywhere)."""
    from shipyard.cli import main

    design = _design(tmp_path, "Rebel Fighter")
    out = tmp_path / "locked"
    out.mkdir()
    real = tempfile.mkstemp

    def mkstemp(*args: Any, **kw: Any) -> Any:
        if Path(kw.get("dir") or "") == out:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(*args, **kw)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    code = main(["export", str(design), "--format", "foundry", "-o", str(out), "--no-user-catalog"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write the file: Permission denied" in err and str(out) in err
    assert "Traceback" not in err and list(out.iterdir()) == []


def test_missing_art_is_said_and_the_token_shows_the_initials(tmp_path: Path) -> None:
    design = _design(tmp_path, "Rebel Fighter", art="gone.png")
    out = tmp_path / "vtt"
    proc = call_shipyard("export", design, "--format", "foundry", "-o", out, "--no-user-catalog")
    assert proc.returncode == 0, proc.stderr
    assert "warning: Rebel Fighter: the design's art is left out: " in proc.stderr and "gone.png" in proc.stderr
    assert "art file not found" in proc.stderr
    assert "a picture file at that path: PNG, JPEG or WebP (.png, .jpg, .jpeg, .webp), or SVG" in proc.stderr
    with Image.open(io.BytesIO((out / "awkward-token.png").read_bytes())) as token:
        assert token.getpixel((75, 75))[3] == 255  # drawn whole, on its colour


@pytest.mark.parametrize("fmt", ["foundry", "token-png", "card-png", "sheet-png"])
def test_every_export_with_pictures_says_once_that_the_art_is_missing(tmp_path: Path, fmt: str) -> None:
    """Each export that draws the design (its token, card, sheet or actor) warns of art it
    leaves out, once, beside the files it wrote; the stat-block text carries no art."""
    design = _design(tmp_path, "Rebel Fighter", art="gone.png")
    proc = call_shipyard("export", design, "--format", fmt, "-o", tmp_path / "out", "--no-user-catalog")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if "art is left out" in line]
    assert len(warnings) == 1, proc.stderr
    assert warnings[0].startswith("shipyard: warning: Rebel Fighter: ") and "gone.png" in warnings[0]
    assert "art file not found" in warnings[0] and any((tmp_path / "out").iterdir())


@pytest.mark.parametrize(
    "command",
    [
        ("print", "{ship}", "-o", "pdfs/"),
        ("print", "{ship}", "--sheet", "cards", "-o", "pdfs/"),
        ("fix", "{ship}", "--apply", "1", "-o", "pdfs/"),
        ("new", "Red Five", "--kind", "starfighter", "-o", "pdfs/"),
    ],
    ids=["print", "cards", "fix", "new"],
)
def test_an_output_file_named_with_a_slash_at_its_end_is_refused_as_a_folder(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    """``print -o pdfs/`` wrote a PDF called ``pdfs``: a name that ends in a slash names a folder."""
    ship = registry.get("space-fighter-alpha").samples / "alien-disk-fighter.ship"
    proc = call_shipyard(*(a.format(ship=ship) for a in command), cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "pdfs/ ends in a slash, so it names a folder; give the file to write, for example pdfs/NAME." in proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", ["card-png", "token-png", "sheet-png", "foundry"])
def test_an_export_folder_named_like_one_of_its_files_is_refused(fmt: str, tmp_path: Path) -> None:
    """``export --format card-png -o out/c.png`` made a folder ``c.png`` and wrote the card
    into it: these formats write their files into a folder, each named after its design."""
    ship = registry.get("space-fighter-alpha").samples / "rebel-fighter.ship"
    name = "c.json" if fmt == "foundry" else "c.png"
    proc = call_shipyard("export", fmt, ship, "-o", f"out/{name}", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"out/{name} is named like a file, but this writes its files into a folder" in proc.stderr
    assert "give a folder, for example out/c/" in proc.stderr and list(tmp_path.iterdir()) == []
    bare = call_shipyard("export", fmt, ship, "-o", name, cwd=tmp_path)  # no folder part: the name without its end
    assert bare.returncode == 2 and "give a folder, for example c/" in bare.stderr
    # a slash at its end says it is meant as a folder: taken, whatever its name
    assert call_shipyard("export", fmt, ship, "-o", f"out/{name}/", cwd=tmp_path).returncode == 0
    assert list((tmp_path / "out" / name).iterdir())
    (tmp_path / "cards.png").mkdir()  # a folder that is there is taken whatever its name
    assert call_shipyard("export", fmt, ship, "-o", "cards.png", cwd=tmp_path).returncode == 0
    assert list((tmp_path / "cards.png").iterdir())


def test_writing_into_a_folder_that_is_not_there_says_which_folder(tmp_path: Path) -> None:
    """The system's "No such file or directory" read as if the file were missing."""
    ship = registry.get("space-fighter-alpha").samples / "rebel-fighter.ship"
    for command in (
        ("print", ship, "-o", "nodir/sub/red.pdf"),
        ("set", ship, "name=Red Six", "-o", "nodir/sub/red.ship"),
        ("roster", "new", "nodir/sub/wing.roster", "--name", "Wing"),
        ("new", "Red Six", "--kind", "starfighter", "-o", "nodir/sub/red.ship"),
        (
            "fix",
            registry.get("space-fighter-alpha").samples / "alien-disk-fighter.ship",
            "--apply",
            "1",
            "-o",
            "nodir/sub/f.ship",
        ),
        ("export", "statblock", ship, "-o", "nodir/sub/red.txt"),
        (
            "convert",
            "trinity",
            ROOT / "catalogs" / "trinity" / "examples" / "anvil-frigate.yaml",
            "-o",
            "nodir/sub/k.ship",
        ),
    ):
        proc = call_shipyard(*command, cwd=tmp_path)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, command
        assert "the folder 'nodir/sub' does not exist: make it first, or write into a folder that does" in proc.stderr
        assert proc.stdout == "", command  # said before any work, not after a conversion's report
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "afile").write_text("a file where a folder was meant\n")
    for command in (
        ("print", ship, "-o", "afile/red.pdf"),
        ("convert", "trinity", ROOT / "catalogs" / "trinity" / "examples" / "anvil-frigate.yaml", "-o", "afile/k.ship"),
    ):
        proc = call_shipyard(*command, cwd=tmp_path)
        assert proc.returncode == 2 and "'afile' is a file, not a folder" in proc.stderr, command
