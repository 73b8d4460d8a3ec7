"""The library folders the person chose for the hangar, kept in their settings.

A small JSON file in the XDG config folder (``$XDG_CONFIG_HOME/shipyard/hangar.json``),
apart from the index: the index is a cache that may be deleted; the folders are the
person's choice and are not. An add or remove holds the file's write lock from before it
reads the list until its change is written (:func:`shipyard.core.atomicwrite.locked`), so
several at once (a script adding folders in the background) each land.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shlex
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shipyard.core.atomicwrite import atomic_write_text, locked, make_folder, write_if_absent
from shipyard.core.errors import InputError
from shipyard.core.safepaths import is_folder
from shipyard.core.termtext import quote

MAX_SETTINGS_BYTES = 256 * 1024


def settings_file() -> Path:
    home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(home) / "shipyard" / "hangar.json"


ALLOWED = 'a JSON object whose "folders" is a list of folders\' full paths, e.g. {"folders": ["/home/me/designs"]}'


@dataclass
class Settings:
    """The settings file as read: the library folders to index, and what it lists that is not one."""

    data: dict[str, Any]  # the file's object as it is: a change writes back all it holds
    folders: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # each entry left out, and why


def _json_kind(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    kinds = {str: "a text", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return next((word for t, word in kinds.items() if isinstance(value, t)), type(value).__name__)


def read_settings() -> Settings:
    """The settings as the file holds them (none yet: no folders). A file that cannot be read
    as settings (not JSON, not an object, ``folders`` not a list) is an InputError naming it
    and what it must hold, and is never written over; an entry of the list that is not a
    folder's full path (empty, relative, not a text) is left out with a note, never read
    against the current folder (``""`` indexed wherever Shipyard was started), and kept in
    the file."""
    file = settings_file()
    text = _settings_text(file)
    try:
        data = json.loads(text) if text.strip() else {}  # empty: being made by another Shipyard
    except ValueError as exc:
        raise InputError.single(
            f"the hangar's settings are not JSON ({exc}); the file is left as it is: correct it by hand, or "
            f"remove it to start again with no library folders ({LOST})",
            file=file,
            allowed=ALLOWED,
        ) from None
    if not isinstance(data, dict):
        raise InputError.single(
            f"the hangar's settings must be a JSON object, not {_json_kind(data)}; the file is left as it is",
            file=file,
            allowed=ALLOWED,
        )
    listed = data.get("folders", [])
    if not isinstance(listed, list):
        raise InputError.single(
            f"the hangar's settings list the library folders as {_json_kind(listed)}, not a list of folder "
            "paths; the file is left as it is: correct it by hand",
            file=file,
            path="folders",
            allowed=ALLOWED,
        )
    settings = Settings(data)
    for n, entry in enumerate(listed):
        why = _not_a_folder(entry)
        if why is None:
            settings.folders.append(Path(entry))
            continue
        how = f"`shipyard hangar remove {quote(entry)}` takes it out" if isinstance(entry, str) else "edit the file"
        settings.notes.append(
            f"the hangar's settings {file} list {quote(entry)} at folders[{n}], which is {why}, not a folder's "
            f"full path: it is left out ({how}; `shipyard hangar add FOLDER` writes a folder's full path)"
        )
    return settings


LOST = "the list of folders it holds is then lost; your design files are not touched"


def _settings_text(file: Path) -> str:
    """The settings file's text ("" when there is none). A file that cannot be read for its
    permissions, or something other than a file in its place (a folder), is an InputError
    saying so and what to do: never read as no folders (a folder there was "no library folders
    yet"), nor answered with advice to remove a file whose only fault is its permissions."""
    from shipyard.core.safepaths import kind_of
    from shipyard.core.usertext import decode

    try:
        mode = file.stat().st_mode
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise _unreadable(file, exc) from None
    if not stat.S_ISREG(mode):
        raise InputError.single(
            f"this is {kind_of(mode)}, not the hangar's settings file; it is left as it is: move or rename it "
            "(Shipyard then starts again with no library folders)",
            file=file,
            allowed=ALLOWED,
        )
    try:
        with file.open("rb") as fh:
            raw = fh.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        raise _unreadable(file, exc) from None
    if len(raw) > MAX_SETTINGS_BYTES:
        raise InputError.single(
            f"the hangar's settings are more than {MAX_SETTINGS_BYTES:,} bytes, far more than a list of folders; "
            "the file is left as it is",
            file=file,
            allowed=ALLOWED,
        )
    try:
        return decode(raw, str(file))
    except InputError as exc:
        said = exc.problems[0].message
        raise InputError.single(
            f"the hangar's settings cannot be read: {said}{' The' if said.endswith('?') else '; the'} file is left "
            f"as it is: correct it, or remove it to start again with no library folders ({LOST})",
            file=file,
            allowed=ALLOWED,
        ) from None


def _unreadable(file: Path, exc: OSError) -> InputError:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return InputError.single(
            "the hangar's settings cannot be read: permission denied; the file is left as it is: give yourself "
            f"permission to read and write it (chmod u+rw {shlex.quote(str(file))}) and run the command again",
            file=file,
        )
    return InputError.single(
        f"the hangar's settings cannot be read: {exc.strerror or exc}; the file is left as it is", file=file
    )


def _not_a_folder(entry: object) -> str | None:
    """Why a ``folders`` entry is not a library folder's full path; None when it is one."""
    if not isinstance(entry, str):
        return _json_kind(entry)
    if not entry.strip():
        return "empty"
    if "\0" in entry:
        return "a text no path can hold"
    if not Path(entry).is_absolute():
        return "a relative path"
    return None


def folders() -> list[Path]:
    """The library folders, in the order they were added (see :func:`read_settings`)."""
    return read_settings().folders


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@contextlib.contextmanager
def _changing() -> Iterator[Settings]:
    """The settings, read under the settings file's write lock, held until the block ends
    (and its :func:`_save`): two adds at once each read the list before the other wrote
    it, and each wrote its own over the other's, both saying "added". The file is made
    first when there is none (with no folders), since only a file that is there can be
    locked."""
    file = settings_file()
    make_folder(file.parent)
    write_if_absent(file, _text({"folders": []}).encode("utf-8"))
    with locked([file]):
        yield read_settings()


def _save(settings: Settings, listed: list[Any]) -> None:
    """Write ``listed`` as the folders, and all else the file held as it was."""
    atomic_write_text(settings_file(), _text({**settings.data, "folders": listed}))


def add(folder: str | Path) -> tuple[Path, bool]:
    """Add a folder (made absolute, links resolved); returns it and whether it was new."""
    if not is_folder(folder):
        what = "does not exist" if not os.path.lexists(folder) else "is not a folder"
        raise InputError.single(f"{folder} {what}", path="FOLDER", allowed="a folder that holds design files")
    real = Path(folder).resolve()
    with _changing() as settings:
        listed = settings.folders
        if real in listed:
            return real, False
        for f in listed:
            if real.is_relative_to(f):
                raise InputError.single(
                    f"{real} is inside the library folder {f}, which is indexed with everything in it", path="FOLDER"
                )
            if f.is_relative_to(real):
                raise InputError.single(
                    f"{real} holds the library folder {f}: take that one out first (`shipyard hangar remove {f}`)",
                    path="FOLDER",
                )
        _save(settings, [*settings.data.get("folders", []), str(real)])
    return real, True


def remove(folder: str | Path) -> str:
    """Remove a folder from the library (its files are left alone); returns the folder removed,
    as the settings held it. An entry of the settings that is not a folder's full path (see
    :func:`read_settings`) is taken out by its text as written."""
    with _changing() as settings:
        written = list(settings.data.get("folders", []))
        if isinstance(folder, str) and folder in written and _not_a_folder(folder) is not None:
            _save(settings, [f for f in written if f != folder])
            return folder
        listed = settings.folders
        for candidate in (Path(folder), Path(folder).expanduser().absolute(), Path(folder).resolve()):
            if candidate in listed:
                _save(settings, [f for f in written if not (isinstance(f, str) and Path(f) == candidate)])
                return str(candidate)
    raise InputError.single(
        f"{folder} is not a library folder",
        path="FOLDER",
        allowed=", ".join(str(f) for f in listed) or "none yet: add one with `shipyard hangar add FOLDER`",
    )
