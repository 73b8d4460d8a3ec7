"""``shipyard rulesets``: what is installed, where it came from, what it offers.

Everything printed comes from the manifests (and, for the presets, the catalogs); a
ruleset that is declared but cannot be read is listed with the reason. ``--check PATH``
reads a ruleset package folder the way Shipyard would (its manifest and catalog), so a
homebrew author sees every problem with its file and line before installing it; ``--check``
without a path checks every installed ruleset.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from shipyard.core.commandline import EXIT_INPUT, EXIT_OK


def add_commands(sub: Any, catalog_opts: Any) -> None:
    p = sub.add_parser("rulesets", help="list the installed rulesets (id, name, version, kinds, presets)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per ruleset")
    p.add_argument(
        "--check",
        metavar="PATH",
        nargs="?",
        const="",
        help="check a ruleset package folder (its manifest.yaml and catalog); without PATH, every installed ruleset",
    )
    p.set_defaults(func=cmd_rulesets, reads_only=True)


def _describe(info: Any) -> dict[str, Any]:
    from shipyard.core.catalog import load_catalog
    from shipyard.core.errors import InputError

    try:
        catalog = load_catalog(info.id, use_user_folder=False)
        presets: list[str] | str = list(catalog.presets)
        default = catalog.meta.default_preset
    except InputError as exc:
        presets, default = f"catalog cannot be read: {str(exc).splitlines()[0]}", ""
    return {
        "id": info.id,
        "name": info.name,
        "version": info.version,
        "api": info.manifest.api,
        "description": info.manifest.description,
        "source": info.manifest.source.title,
        "distribution": f"{info.distribution} {info.dist_version}".strip(),
        "package": info.package,
        "manifest": str(info.manifest_file),
        "catalog": str(info.catalog),
        "kinds": [{"id": k.id, "name": k.name} for k in info.kinds],
        "presets": presets,
        "default_preset": default,
        "capabilities": list(info.manifest.capabilities),
        "commands": [c.name for c in info.commands],
        "formats": [f.id for f in info.formats],
        "conversions": [c.id for c in info.conversions],
    }


def cmd_rulesets(args: argparse.Namespace) -> int:
    from shipyard.core.registry import problems, rulesets

    if args.check is not None:
        return _check(Path(args.check)) if args.check else _check_installed()
    rows = [_describe(info) for info in rulesets()]
    broken = [str(p) for p in problems()]
    if args.json:
        print(json.dumps({"rulesets": rows, "problems": broken}, indent=2, ensure_ascii=False))
        return EXIT_OK
    for i, r in enumerate(rows):
        if i:
            print()
        print(f"{r['id']}  {r['name']} {r['version']}  (from {r['distribution']})")
        if r["description"]:
            print(f"  {r['description']}")
        print(f"  kinds: {', '.join(k['id'] for k in r['kinds'])}")
        presets = r["presets"]
        print(
            "  presets: "
            + (
                ", ".join(f"{p} (default)" if p == r["default_preset"] else p for p in presets)
                if isinstance(presets, list)
                else presets
            )
        )
        extras = [
            f"{label}: {', '.join(r[key])}"
            for key, label in (
                ("capabilities", "capabilities"),
                ("commands", "commands"),
                ("formats", "formats"),
                ("conversions", "conversions"),
            )
            if r[key]
        ]
        if extras:
            print("  " + "; ".join(extras))
        print(f"  catalog: {r['catalog']}")
    if not rows:
        print("no rulesets are installed")
    from shipyard.core.termtext import error_line

    for p in broken:
        print(f"shipyard: warning: {error_line(p)}", file=sys.stderr)
    return EXIT_OK


def _check_installed() -> int:
    """``rulesets --check`` without a path: every installed ruleset checked as ``--check``
    checks one folder, and every declared one that could not be read named."""
    from shipyard.core.registry import problems, rulesets
    from shipyard.core.termtext import error_line

    status = EXIT_OK
    for info in rulesets():
        status = max(status, _check(info.manifest_file))
    for p in problems():
        print(f"shipyard: error: {error_line(str(p))}", file=sys.stderr)
        status = EXIT_INPUT
    return status


def _check(folder: Path) -> int:
    """Read a ruleset folder as an installed ruleset would be read; print every problem."""
    from shipyard.core.errors import InputError
    from shipyard.core.manifest import API_VERSION
    from shipyard.core.rulesetcheck import check_folder
    from shipyard.core.textformats import check_contributions

    notes: list[str] = []
    try:
        info = check_folder(folder, notes)
        check_contributions(info)  # its text formats' and conversions' modules, against their contracts
    except InputError as exc:
        for line in str(exc).splitlines():
            print(f"shipyard: error: {line}", file=sys.stderr)
        return EXIT_INPUT
    print(
        f"{info.id}: {info.name} {info.version}: manifest and catalog read without problems "
        f"(plug-in API {info.manifest.api}, every hook as specified)"
    )
    for note in notes:
        print(f"shipyard: note: {info.manifest_file}: {note}", file=sys.stderr)
    if "api" not in info.manifest.model_fields_set:
        print(
            f"shipyard: note: {info.manifest_file}: the manifest does not say its plug-in API; it is read as "
            f"written for API 1. Write 'api: {API_VERSION}' to say so (docs/rulesets.md, 'The plug-in API version')",
            file=sys.stderr,
        )
    return EXIT_OK
