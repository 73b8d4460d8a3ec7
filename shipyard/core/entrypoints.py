"""Finding the ``shipyard.rulesets`` (and ``shipyard.capabilities``) entry points installed on ``sys.path``.

A distribution declares its ruleset as an entry point, the built-in ones exactly like a
ruleset installed with ``pip install``::

    [project.entry-points."shipyard.rulesets"]
    my-ruleset = "my_ruleset:manifest.yaml"

The value names the package and its manifest file. Why not ``importlib.metadata``:
importing it pulls in email, zipfile, csv and more, a cost paid by every start of the
editor and of ``shipyard --help``, for one group of one file per distribution. Entry
points live in ``*.dist-info/entry_points.txt`` (an INI file, per the PyPA entry points
specification) on ``sys.path``; reading those is a few small file reads. Each is read as a
stranger's file: one that cannot be read is a noted problem, never a hang or a crash.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from shipyard.core.errors import InputError, Problem

if TYPE_CHECKING:
    pass

GROUP = "shipyard.rulesets"
DEFAULT_MANIFEST = "manifest.yaml"
# Shipyard's own distribution: the rulesets it installs win over a plug-in declaring their id.
BUILTIN_DISTRIBUTION = "shipyard"
BUILTIN_PACKAGE = "shipyard.rulesets."
# A distribution's entry points are a few hundred bytes; a bigger file is refused unread.
MAX_ENTRY_POINTS_BYTES = 256 * 1024


@dataclass(frozen=True)
class EntryPoint:
    """One ``shipyard.rulesets`` entry: the ruleset id, its package and manifest, who installed it."""

    name: str
    package: str
    manifest: str
    distribution: str
    version: str
    location: str


def _parse_entry_points(text: str) -> dict[str, dict[str, str]]:
    """The sections of an ``entry_points.txt``: ``[group]`` headers and ``name = value`` lines."""
    groups: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1].strip(), {})
        elif current is not None and "=" in line:
            name, _, value = line.partition("=")
            current.setdefault(name.strip(), value.strip())
    return groups


def _distribution(folder: str) -> tuple[str, str]:
    """(name, version) from a ``name-version.dist-info`` or ``name.egg-info`` folder name."""
    stem = folder.rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    return name.replace("_", "-").lower(), version


def entry_points(
    path: list[str] | None = None, problems: list[Problem] | None = None, group: str = GROUP
) -> list[EntryPoint]:
    """Every entry of ``group`` (``shipyard.rulesets``, or ``shipyard.capabilities``: see
    :mod:`shipyard.core.capability`) on ``path`` (default ``sys.path``), first distribution wins.

    Any installed distribution's ``entry_points.txt`` is read, so each is read as a
    stranger's file (:func:`_read_entry_points`): one that cannot be read is noted in
    ``problems`` and skipped, never a hang or a crash."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for where in sys.path if path is None else path:
        try:
            names = sorted(e for e in os.listdir(where or ".") if e.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
        for folder in names:
            dist, version = _distribution(folder)
            if dist in seen:
                continue
            file = Path(where or ".", folder, "entry_points.txt")
            try:
                text = _read_entry_points(file)
            except InputError as exc:
                if problems is not None:
                    problems += [
                        replace(p, message=f"distribution {dist} {version}: {p.message}; skipped") for p in exc.problems
                    ]
                continue
            if text is None:
                continue
            seen.add(dist)
            for name, value in _parse_entry_points(text).get(group, {}).items():
                package, _, manifest = value.partition(":")
                found.append(
                    EntryPoint(name, package.strip(), manifest.strip() or DEFAULT_MANIFEST, dist, version, where)
                )
    return found


def _read_entry_points(file: Path) -> str | None:
    """The text of a distribution's ``entry_points.txt``; None when it has none.

    A pipe, a device or a folder is refused before it is opened (a FIFO would wait
    forever), a file over :data:`MAX_ENTRY_POINTS_BYTES` is refused unread, and text that
    is not UTF-8 is an input error naming the file."""
    from shipyard.core.usertext import decode, read_limited

    try:
        os.lstat(file)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise InputError.single(f"cannot read file: {exc.strerror or exc}", file=file) from None
    raw = read_limited(file, str(file), MAX_ENTRY_POINTS_BYTES, "an entry_points.txt")
    return decode(raw, str(file))


def is_builtin(ep: EntryPoint) -> bool:
    """Whether ``ep`` is one of the rulesets Shipyard itself installs."""
    return ep.distribution == BUILTIN_DISTRIBUTION and ep.package.startswith(BUILTIN_PACKAGE)
