"""Hostile caches (issue 44, items 2 and 6): what sits in the user's cache folder is only a
shortcut, never a wrong answer and never code that runs.

- A house-rule catalog edited without changing its size or modification time was still
  served from the cache (on disk, and in a running process); a cached catalog of one
  ruleset copied under another's cache name was used as the other's.
- A pickle planted in a world-writable cache folder ran its code on ``shipyard --help``:
  the folder and its files were trusted without a look at owner and mode, the folder was
  made 0755, and the caches were pickles. Compiled sheet templates are code, so they must
  also carry this user's seal.

Every test has its own cache folder (``XDG_CACHE_HOME`` under ``tmp_path``); the catalogs
loaded in this process are forgotten around each test, as a new process would start.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shipyard.core import cachefile, catalog_cache, plaindata
from shipyard.core import catalog as catalog_module
from shipyard.core.catalog import load_catalog
from shipyard.render import templates

from ..conftest import ROOT, call_shipyard, run_shipyard

RULESET = "space-fighter-alpha"  # has the force field the tampering below changes
OTHER, THIRD = "future-perfect", "wing-commander"
FRIGATE = ROOT / "catalogs" / OTHER / "examples" / "frigate.ship"
CHEAP_PRESET = """\
preset:
  id: cheap
  name: Cheap force fields
  source: House rules
  overrides:
    technology:
      force-field: {cost: 1}
"""


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of this test's own, and nothing remembered from another test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("SHIPYARD_NO_CACHE", raising=False)
    monkeypatch.setenv(cachefile.NOTED_VARIABLE, "")  # none said yet (and put back as it was after)
    monkeypatch.setattr(cachefile, "_noted", False)
    forget()
    yield tmp_path / "cache" / "shipyard"
    forget()


def forget() -> None:
    """What a new process starts without: its catalogs and compiled templates."""
    catalog_module._load_layers.cache_clear()
    templates._environment.cache_clear()
    templates.kept_compiled.cache_clear()


def entry(folder: Path, ruleset: str) -> Path:
    [found] = folder.glob(f"catalog-{ruleset}-*.json")
    return found


def force_field_cost() -> Any:
    forget()
    return load_catalog(RULESET, use_user_folder=False).item("technology", "force-field").cost  # type: ignore[union-attr]


def envelope(path: Path) -> Any:
    """A cache file's envelope as Shipyard reads it: its seal checked, then its JSON."""
    data = cachefile.read_sealed(path.name)
    assert data is not None, f"{path.name} is not sealed by this user's Shipyard"
    return json.loads(data)


def reseal(path: Path, value: Any) -> None:
    """Write ``value`` as the envelope of cache file ``path``, sealed as this user's Shipyard seals it."""
    assert cachefile.write_sealed(path.name, json.dumps(value).encode("utf-8"))


def tamper(path: Path, cost: Any, sealed: bool = True) -> None:
    """Change the force field's cost everywhere in a cached catalog, the key left as it is:
    ``sealed``, as this user's own Shipyard would have written it; else edited in place, the
    seal left as it was (a file damaged on disk, or edited by hand or by another program)."""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            fields = node.get("d")
            if node.get("$") == "m" and isinstance(fields, dict) and fields.get("id") == "force-field":
                fields["cost"] = cost
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    if not sealed:  # the bytes after the seal edited, the seal kept as it was
        data = path.read_bytes()
        head = len(cachefile.SEAL_HEADER) + 32 if data.startswith(cachefile.SEAL_HEADER) else 0
        stored = json.loads(data[head:])
        walk(stored["value"])
        path.write_bytes(data[:head] + json.dumps(stored).encode("utf-8"))
        return
    stored = envelope(path)
    walk(stored["value"])
    reseal(path, stored)


def same_size_and_time(path: Path, old: str, new: str) -> None:
    """Edit ``path`` as an editor or ``git checkout`` can: same size, same modification time."""
    assert len(old) == len(new)
    st = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def house_rules(tmp_path: Path) -> tuple[Path, Path]:
    house = tmp_path / "house"
    preset = house / RULESET / "presets" / "cheap.yaml"
    preset.parent.mkdir(parents=True)
    preset.write_text(CHEAP_PRESET, encoding="utf-8")
    return house, preset


# --- item 2: the key is the content and the ruleset ----------------------------------------


def test_a_house_rule_edited_without_changing_size_or_time_is_read_afresh_by_a_new_process(
    tmp_path: Path, own_cache: Path
) -> None:
    house, preset = house_rules(tmp_path)
    code = (
        "from pathlib import Path\nfrom shipyard.core.catalog import load_catalog\n"
        f"c = load_catalog({RULESET!r}, (Path({str(house)!r}),), use_user_folder=False, preset='cheap')\n"
        "print(c.item('technology', 'force-field').cost)\n"
    )

    def cost() -> str:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert cost() == "1"
    cached = entry(own_cache, RULESET)
    same_size_and_time(preset, "{cost: 1}", "{cost: 7}")
    assert cost() == "7"  # was 1: the cache's key was the file's size and time
    assert entry(own_cache, RULESET) != cached  # the new content is a new entry; the old one is gone


def test_a_house_rule_edited_without_changing_size_or_time_is_read_afresh_in_a_running_process(
    tmp_path: Path,
) -> None:
    """The editor runs for hours: its catalogs are kept by what they were made from, not by folder."""
    house, preset = house_rules(tmp_path)

    def cost() -> Any:
        catalog = load_catalog(RULESET, (house,), use_user_folder=False, preset="cheap")
        return catalog.item("technology", "force-field").cost  # type: ignore[union-attr]

    assert cost() == 1
    same_size_and_time(preset, "{cost: 1}", "{cost: 7}")
    assert cost() == 7  # was 1: the catalogs loaded were kept by ruleset and folders only
    assert cost() == 7


def test_another_rulesets_cached_catalog_under_this_rulesets_name_is_not_used(own_cache: Path) -> None:
    mine = load_catalog(OTHER, use_user_folder=False)
    load_catalog(THIRD, use_user_folder=False)
    shutil.copyfile(entry(own_cache, THIRD), entry(own_cache, OTHER))  # the file copied under the name
    forget()
    again = load_catalog(OTHER, use_user_folder=False)
    assert again.meta.id == OTHER and again.items == mine.items
    # and with the envelope's key made to say it is this ruleset's: the catalog says whose it is
    load_catalog(OTHER, use_user_folder=False)  # a good entry again
    forget()
    good = envelope(entry(own_cache, OTHER))
    loaded = load_catalog(THIRD, use_user_folder=False)
    assert loaded.meta.id == THIRD
    theirs = envelope(entry(own_cache, THIRD))
    reseal(entry(own_cache, OTHER), {**good, "value": theirs["value"]})
    forget()
    again = load_catalog(OTHER, use_user_folder=False)
    assert again.meta.id == OTHER and again.items == mine.items


def test_a_cached_catalog_changed_outside_shipyard_is_not_used(own_cache: Path) -> None:
    """A catalog cache kept under its right key with a number changed was trusted: a cost of
    9 flipped verdicts, a cost of "two" made every check an internal error until the file was
    deleted. A file this user's Shipyard did not seal as it is now is read as no cache."""
    built = force_field_cost()
    for planted in (9, "two"):
        tamper(entry(own_cache, RULESET), planted, sealed=False)
        assert force_field_cost() == built
        tamper(entry(own_cache, RULESET), planted, sealed=False)  # the cache just made again, changed again
        forget()
        proc = call_shipyard(
            "check", ROOT / "catalogs" / RULESET / "examples" / "rebel-fighter.ship", "--no-user-catalog"
        )
        assert proc.returncode == 0 and "internal error" not in proc.stderr, proc.stderr


def test_a_cached_entry_says_whose_it_is(own_cache: Path) -> None:
    load_catalog(RULESET, use_user_folder=False)
    stored = envelope(entry(own_cache, RULESET))
    assert stored["format"] == cachefile.FORMAT
    ruleset, folders, depends = stored["key"]["v"]
    assert ruleset == RULESET and folders["v"] == [str(ROOT / "catalogs" / RULESET)]
    ruleset_yaml = ROOT / "catalogs" / RULESET / "ruleset.yaml"
    assert f"{ruleset_yaml}:{cachefile.digest(ruleset_yaml)}" in depends["v"]  # the content's digest
    assert cachefile.digest(ruleset_yaml) == __import__("hashlib").sha256(ruleset_yaml.read_bytes()).hexdigest()
    assert catalog_cache.folder() == own_cache


# --- item 6: whose folder, and data that cannot run -----------------------------------------


class Payload:
    """A pickle that, when loaded, makes the folder ``marker``: code run by reading a cache."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


def plant(folder: Path, marker: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(pickle.dumps({"format": "shipyard-cache-1", "key": None, "value": Payload(marker)}))


OLD_AND_NEW_NAMES = [
    "manifests.pickle",
    "manifests.json",
    "field-fonts.pickle",
    "field-fonts.json",
    "token-images.json",
    "preview-font-subsets.json",
]


def notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("shipyard: note:") and "cache folder" in line]


def test_a_pickle_planted_in_a_world_writable_cache_folder_does_not_run_on_help(tmp_path: Path) -> None:
    folder, marker = tmp_path / "cache" / "shipyard", tmp_path / "ran"
    plant(folder, marker, OLD_AND_NEW_NAMES)
    folder.chmod(0o777)
    proc = run_shipyard("--help", env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()  # was made: the manifests' pickle ran
    [note] = notes(proc.stderr)
    assert str(folder) in note and "written by other users (mode 0777)" in note and "chmod 700" in note


def test_a_world_writable_cache_folder_is_said_once_by_a_print_and_its_render_workers(tmp_path: Path) -> None:
    """``print`` (whose render workers are processes of their own, started before the
    catalog is read) prints as with a clean cache, writes nothing into the folder, and says
    so once."""
    folder = tmp_path / "cache" / "shipyard"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    printed = run_shipyard("print", FRIGATE, "--no-user-catalog", "-o", tmp_path / "f.pdf", env=env)
    assert printed.returncode == 0 and (tmp_path / "f.pdf").stat().st_size > 1000, printed.stderr
    assert len(notes(printed.stderr)) == 1, printed.stderr
    assert list(folder.iterdir()) == []


def test_folders_in_place_of_the_cache_files_mean_a_normal_read(tmp_path: Path, own_cache: Path) -> None:
    """A folder where a cache file (or the seal's secret) belongs opens as a file does: it
    was read as one, and every command, --help included, ended in a traceback."""
    load_catalog(RULESET, use_user_folder=False)  # the cache folder as a first use leaves it
    names = [p.name for p in own_cache.iterdir() if p.is_file()]
    assert "seal.key" in names and entry(own_cache, RULESET).name in names
    shutil.rmtree(own_cache)
    for name in [*names, *OLD_AND_NEW_NAMES]:
        (own_cache / name).mkdir(parents=True, exist_ok=True)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    helped = run_shipyard("--help", env=env)
    assert helped.returncode == 0 and "Traceback" not in helped.stderr, helped.stderr
    checked = run_shipyard("check", FRIGATE, "--no-user-catalog", env=env)
    assert checked.returncode in (0, 1) and checked.stderr == "", checked.stderr
    assert "Resolute" in checked.stdout  # the frigate's report


def test_pickles_in_place_of_the_users_own_cache_files_do_not_run(tmp_path: Path, own_cache: Path) -> None:
    """In the user's own private folder too: the caches are data (JSON) that cannot run code."""
    expected = force_field_cost()
    marker = tmp_path / "ran"
    names = [p.name for p in own_cache.iterdir() if p.is_file()]
    assert entry(own_cache, RULESET).name in names
    plant(own_cache, marker, [*names, *OLD_AND_NEW_NAMES])
    proc = run_shipyard("check", FRIGATE, "--no-user-catalog", env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr and notes(proc.stderr) == [], proc.stderr
    assert force_field_cost() == expected
    assert not marker.exists()


def test_a_cache_entry_is_used_only_from_a_private_folder_and_file_of_the_users_own(
    own_cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    built = force_field_cost()
    path = entry(own_cache, RULESET)
    tamper(path, 99)
    assert force_field_cost() == 99  # trusted: the entry is used (what the checks below refuse)
    key = catalog_module._cache_key(RULESET, ())

    def used() -> bool:
        return cachefile.read(path.name, key, ("shipyard",)) is not None

    assert used()
    path.chmod(0o664)  # a file others may write
    assert not used()
    path.chmod(0o600)
    assert used()
    link = own_cache / "elsewhere.json"
    path.rename(link)
    path.symlink_to(link)  # a link is not followed
    assert not used()
    path.unlink()
    link.rename(path)
    assert used()
    real = os.geteuid()
    monkeypatch.setattr(os, "geteuid", lambda: real + 1)  # a folder and file of another user
    assert not used()
    monkeypatch.setattr(os, "geteuid", lambda: real)
    assert used()
    assert notes(capsys.readouterr().err) == [
        f"shipyard: note: the cache folder {own_cache} is owned by another user (uid {real}, not {real + 1}); "
        f"Shipyard works without its cache (to use it again, make it yours and private: chmod 700 {own_cache}, "
        "or remove it)"
    ]
    own_cache.chmod(0o770)  # a folder others may write in
    assert not used()
    assert force_field_cost() == built  # read from the files, and said no more than once
    assert notes(capsys.readouterr().err) == []


def test_a_folder_others_may_write_in_is_said_once(own_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own_cache.mkdir(parents=True)
    own_cache.chmod(0o777)
    assert force_field_cost() == 5
    [note] = notes(capsys.readouterr().err)
    assert "can be written by other users (mode 0777)" in note
    forget()
    assert force_field_cost() == 5
    assert notes(capsys.readouterr().err) == []
    assert list(own_cache.iterdir()) == []  # nothing written there


def test_the_cache_folder_is_made_0700_and_its_files_0600(tmp_path: Path, own_cache: Path) -> None:
    xdg = tmp_path / "cache" / "new" / "xdg"
    proc = run_shipyard("check", FRIGATE, "--no-user-catalog", env={"XDG_CACHE_HOME": str(xdg)})
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "sheet.html").write_text("<p>{{ name }}</p>")
    os.environ["XDG_CACHE_HOME"] = str(xdg)  # (put back by own_cache's monkeypatch)
    assert templates.render_html([folder], "sheet.html", {"name": "Kestrel"}) == "<p>Kestrel</p>"
    made = tmp_path / "cache" / "new"
    ours = xdg / "shipyard"  # (fontconfig may keep a cache of its own beside it)
    folders = [made, xdg, ours, *(p for p in ours.rglob("*") if p.is_dir())]
    files = [p for p in ours.rglob("*") if p.is_file()]
    names = {p.name for p in files}
    assert {"manifests.json", cachefile.SECRET_FILE} <= names and any(n.startswith(f"catalog-{OTHER}") for n in names)
    assert any(p.suffix == ".cache" for p in files)  # the compiled template, sealed
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in folders} == {oct(0o700)}
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in files} == {oct(0o600)}
    for p in files:
        if p.suffix == ".json":
            assert cachefile.read_sealed(p.relative_to(ours).as_posix()) is not None, p  # sealed
            envelope(p) if p.parent == ours else None  # data, not pickles


# --- compiled templates: code, so sealed with the user's own secret ---------------------------


def forged(source_on_disk: str, planted: str) -> bytes:
    """A compiled template whose code prints ``planted``, in jinja2's own layout, for a
    template whose file holds ``source_on_disk`` (its checksum right: only a seal can tell)."""
    import hashlib

    from jinja2.bccache import Bucket

    env = templates.ImmutableSandboxedEnvironment()
    bucket = Bucket(env, "planted", hashlib.sha1(source_on_disk.encode("utf-8")).hexdigest())
    bucket.code = env.compile(planted, "sheet.html", "sheet.html")
    return bucket.bytecode_to_string()


def test_a_compiled_template_runs_only_with_the_users_own_seal(tmp_path: Path, own_cache: Path) -> None:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "sheet.html").write_text("<p>{{ name }}</p>")

    def render() -> str:
        forget()
        return templates.render_html([folder], "sheet.html", {"name": "Kestrel"})

    assert render() == "<p>Kestrel</p>"
    [kept] = (own_cache / templates.COMPILED_FOLDER).rglob("*.cache")
    planted = forged("<p>{{ name }}</p>", "PLANTED")
    name = str(kept.relative_to(own_cache))
    kept.write_bytes(planted)  # jinja2's own layout, no seal
    assert render() == "<p>Kestrel</p>"
    kept.write_bytes(cachefile.SEAL_HEADER + bytes(32) + planted)  # a seal, not this user's
    assert render() == "<p>Kestrel</p>"
    assert cachefile.write_sealed(name, planted)  # sealed with the user's secret: it is run
    assert render() == "PLANTED"
    assert cachefile.write_sealed(name, planted)
    secret = own_cache / cachefile.SECRET_FILE
    secret.chmod(0o640)  # a secret others may read seals nothing
    assert render() == "<p>Kestrel</p>"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600  # made again, the user's alone


# --- the JSON a cache holds names classes; reading it imports and calls nothing --------------


def envelope_with(tree: Any) -> dict[str, Any]:
    return {"format": cachefile.FORMAT, "key": plaindata.encode("k"), "value": tree}


@pytest.mark.parametrize(
    "tree",
    [
        {"$": "fn", "c": "os:system"},  # a function outside Shipyard
        {"$": "o", "c": "subprocess:Popen", "d": {"args": "touch x"}},  # a class outside Shipyard
        {"$": "m", "c": "builtins:eval", "d": {}, "s": [], "x": None, "p": None},
        {"$": "o", "c": "shipyard.core.errors:InputError", "d": {}},  # Shipyard's, but not plain data
        {"$": "e", "c": "shipyard.core.model:Catalog", "v": 1},  # not an enumeration
        {"$": "c", "c": "shipyard.core.cachefile:write"},  # a function where a class is named
        {"$": "r", "i": 5},  # a reference to nothing
        {"$": "t", "v": [{"$": "r", "i": 0}]},  # a tuple holding itself
        {"$": "zz"},
        {"$": "b", "v": "not base64!"},
    ],
)
def test_a_cache_naming_what_it_may_not_is_not_used(own_cache: Path, tree: Any) -> None:
    own_cache.mkdir(parents=True, mode=0o700)
    (own_cache / "planted.json").write_text(json.dumps(envelope_with(tree)), encoding="utf-8")
    (own_cache / "planted.json").chmod(0o600)
    assert cachefile.read("planted.json", "k") is None
    with pytest.raises(plaindata.Undecodable):
        plaindata.decode(tree)


def test_a_cache_naming_a_module_not_imported_does_not_import_it(own_cache: Path) -> None:
    module = "shipyard.rulesets"  # Shipyard's own, trusted, but not imported by this
    code = (
        "import json, sys\nfrom shipyard.core import cachefile, plaindata\n"
        f"tree = {{'$': 'o', 'c': '{module}.planted:Planted', 'd': {{}}}}\n"
        "open(sys.argv[1], 'w').write(json.dumps({'format': cachefile.FORMAT, 'key': plaindata.encode('k'), "
        "'value': tree}))\n"
        "import os; os.chmod(sys.argv[1], 0o600)\n"
        f"print(cachefile.read('planted.json', 'k'), {module!r} in sys.modules)\n"
    )
    own_cache.mkdir(parents=True, mode=0o700)
    proc = subprocess.run(
        [sys.executable, "-c", code, str(own_cache / "planted.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout.split() == ["None", "False"], proc.stderr


def test_what_a_catalog_shares_is_shared_again_after_the_cache(own_cache: Path) -> None:
    """A catalog's presets point back at it and share its entries: one object each, as built."""
    built = load_catalog(RULESET, use_user_folder=False)
    forget()
    cached = load_catalog(RULESET, use_user_folder=False)
    assert cached is not built and cached.meta.id == RULESET
    base, built_base = cached.base, built.base
    assert base is not None and built_base is not None
    assert all(applied.base is base for applied in base.applied.values())

    def shared(catalog: Any) -> list[bool]:
        item = catalog.item("technology", "force-field")
        return [a.item("technology", "force-field") is item for a in catalog.applied.values()]

    assert shared(base) == shared(built_base)
    assert isinstance(base.declared_form, plaindata.Raw)  # decoded only when first asked for
    assert base.form == built_base.form


def test_what_older_versions_kept_is_removed_not_read(
    tmp_path: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    plant(own_cache, marker, [*cachefile.LEGACY_FILES, f"catalog-{RULESET}-0-0.pickle"])
    old_templates = own_cache / cachefile.LEGACY_FOLDER / "jinja2-3"
    old_templates.mkdir(parents=True)
    (old_templates / "__jinja2_0.cache").write_bytes(b"j2")
    kept = own_cache / "unrelated.pickle"  # not one of ours: left alone
    kept.write_bytes(b"")
    monkeypatch.setattr(cachefile, "_tidied", False)  # as in a new process
    assert force_field_cost() == 5
    assert sorted(p.name for p in own_cache.iterdir() if p.suffix == ".pickle") == ["unrelated.pickle"]
    assert not (own_cache / cachefile.LEGACY_FOLDER).exists() and not marker.exists()
