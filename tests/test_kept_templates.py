"""Compiled sheet templates are kept in the user's cache folder (shipyard.render.templates):
a fresh render worker compiles nothing compiled before, a template changed on disk prints
its new text, and a cache that is damaged or cannot be made only means compiling again.
Each "fresh worker" here is this process with the template environments forgotten."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment

from shipyard.render import templates


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A cache folder of this test's own; the names each fresh worker compiled."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    compiled: list[str] = []
    real = ImmutableSandboxedEnvironment.compile

    def counting(self: Any, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(str(name))
        return real(self, source, name, *args, **kwargs)

    monkeypatch.setattr(ImmutableSandboxedEnvironment, "compile", counting)
    forget()
    yield compiled
    forget()


def forget() -> None:
    """What a new worker process starts without: its environments and where its cache is."""
    templates._environment.cache_clear()
    templates.kept_compiled.cache_clear()


def sheet(tmp_path: Path, body: str) -> list[Path]:
    folder = tmp_path / "templates"
    folder.mkdir(exist_ok=True)
    (folder / "part.html").write_text("<b>{{ name }}</b>")
    (folder / "sheet.html").write_text(body)
    return [folder]


def test_a_fresh_worker_renders_from_the_kept_compiled_templates(tmp_path: Path, fresh: list[str]) -> None:
    dirs = sheet(tmp_path, "<p>{% include 'part.html' %} of {{ fleet }}</p>")
    first = templates.render_html(dirs, "sheet.html", {"name": "Kestrel", "fleet": "Ash"})
    assert first == "<p><b>Kestrel</b> of Ash</p>"
    assert sorted(fresh) == ["part.html", "sheet.html"]
    kept = list((tmp_path / "cache" / "shipyard" / templates.COMPILED_FOLDER).rglob("*.cache"))
    assert len(kept) == 2
    forget()
    fresh.clear()
    assert templates.render_html(dirs, "sheet.html", {"name": "Wren", "fleet": "Oak"}) == "<p><b>Wren</b> of Oak</p>"
    assert fresh == []  # nothing compiled again


def test_a_template_changed_on_disk_prints_its_new_text(tmp_path: Path, fresh: list[str]) -> None:
    dirs = sheet(tmp_path, "<p>{{ name }}</p>")
    assert templates.render_html(dirs, "sheet.html", {"name": "Kestrel"}) == "<p>Kestrel</p>"
    forget()
    (dirs[0] / "sheet.html").write_text("<h1>{{ name }} (refit)</h1>")
    assert templates.render_html(dirs, "sheet.html", {"name": "Kestrel"}) == "<h1>Kestrel (refit)</h1>"
    assert fresh == ["sheet.html", "sheet.html"]


def test_a_damaged_kept_template_is_compiled_again(tmp_path: Path, fresh: list[str]) -> None:
    dirs = sheet(tmp_path, "<p>{{ name }}</p>")
    templates.render_html(dirs, "sheet.html", {"name": "Kestrel"})
    (kept,) = (tmp_path / "cache" / "shipyard" / templates.COMPILED_FOLDER).rglob("*.cache")
    for damage in (kept.read_bytes()[:40], b"not jinja2's at all", b""):
        kept.write_bytes(damage)
        forget()
        assert templates.render_html(dirs, "sheet.html", {"name": "Wren"}) == "<p>Wren</p>"
    assert len(fresh) == 4  # the first render and each of the three damaged ones compiled


def test_a_cache_folder_that_cannot_be_made_only_compiles_again(
    tmp_path: Path, fresh: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    forget()
    dirs = sheet(tmp_path, "<p>{{ name }}</p>")
    for name in ("Kestrel", "Wren"):
        forget()
        assert templates.render_html(dirs, "sheet.html", {"name": name}) == f"<p>{name}</p>"
    assert fresh == ["sheet.html", "sheet.html"]
