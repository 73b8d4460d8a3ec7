"""Design files: a small JSON envelope (format version, ruleset, preset) around a design.

Why JSON with an envelope: any tool can read it, the ruleset id says which module and
catalog understand the body, and ``format_version`` lets a chain of pure migration
functions upgrade old files. Files from a newer Shipyard are refused rather than guessed.
Saving goes through :mod:`shipyard.core.atomicwrite` (temporary file, fsync, rename, under
the file's write lock), so a crash or a full disk never leaves a half-written design behind.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from shipyard.core.aswritten import AsWritten, kept_text

# the atomic-write library lived here first; its names stay importable from designfile
from shipyard.core.atomicwrite import atomic_write_bytes as atomic_write_bytes
from shipyard.core.atomicwrite import atomic_write_many as atomic_write_many
from shipyard.core.atomicwrite import atomic_write_text as atomic_write_text
from shipyard.core.atomicwrite import expect_new as expect_new
from shipyard.core.atomicwrite import make_folder as make_folder
from shipyard.core.atomicwrite import refuse_non_regular as refuse_non_regular
from shipyard.core.atomicwrite import write_into_folder as write_into_folder
from shipyard.core.catalog import available_rulesets, load_catalog
from shipyard.core.errors import InputError, Problem, format_path
from shipyard.core.hookspec import held
from shipyard.core.loaded import FORMAT_VERSION as FORMAT_VERSION
from shipyard.core.loaded import LoadedDesign as LoadedDesign
from shipyard.core.presets import with_preset
from shipyard.core.suggest import did_you_mean
from shipyard.core.termtext import quote, shorten
from shipyard.core.usertext import decode, read_limited, validate_strictly

EXTENSION = ".ship"
MAX_DESIGN_BYTES = 2 * 1024 * 1024
ENVELOPE_KEYS = ("format_version", "ruleset", "preset", "tags", "design")
MAX_TAGS = 50
MAX_TAG_LENGTH = 40
TAGS_ALLOWED = f"a list of up to {MAX_TAGS} words or short phrases, each 1 to {MAX_TAG_LENGTH} characters on one line"


def check_tags(value: Any, file: str | None = None, path: str = "tags") -> list[str]:
    """A design's ``tags`` (the person's own labels, outside any ruleset's design), checked:
    a list of short one-line texts, each once; every problem an InputError at its place."""
    if not isinstance(value, list):
        raise InputError.single("tags must be a list of words", file=file, path=path, allowed=TAGS_ALLOWED)
    if len(value) > MAX_TAGS:
        raise InputError.single(f"{len(value)} tags is too many", file=file, path=path, allowed=TAGS_ALLOWED)
    out: list[str] = []
    for i, tag in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(tag, str) or not tag.strip():
            raise InputError.single("a tag must be a word (text)", file=file, path=where, allowed=TAGS_ALLOWED)
        tag = tag.strip()
        if len(tag) > MAX_TAG_LENGTH or any(c in tag for c in "\n\r\t") or not tag.isprintable():
            raise InputError.single(
                f"the tag {quote(tag, 30)} is too long or not one line of text",
                file=file,
                path=where,
                allowed=TAGS_ALLOWED,
            )
        if tag not in out:
            out.append(tag)
    return out


def _migrate_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 1 kept the design's fields at the top level beside the ruleset id. What the
    envelope holds (the preset, the tags) stays in the envelope: a key left out of both
    was dropped without a word, and gone at the next save."""
    body = {k: v for k, v in doc.items() if k not in ENVELOPE_KEYS}
    out: dict[str, Any] = {"format_version": 2, "ruleset": doc.get("ruleset"), "design": body}
    for key in ENVELOPE_KEYS:
        if key not in out and key in doc:
            out[key] = doc[key]
    return out


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _migrate_1_to_2}


def migrate(doc: dict[str, Any], file: str | None = None) -> dict[str, Any]:
    """Upgrade a parsed design document to the current format, one version at a time."""
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InputError.single(
            "format_version must be a whole number", file=file, path="format_version", allowed=f"1 to {FORMAT_VERSION}"
        )
    if version > FORMAT_VERSION:
        raise InputError.single(
            f"this design was saved by a newer Shipyard (format {version}); this version reads "
            f"formats up to {FORMAT_VERSION}. Update Shipyard to open it.",
            file=file,
            path="format_version",
        )
    if version < 1:
        raise InputError.single(
            f"format_version {version} does not exist",
            file=file,
            path="format_version",
            allowed=f"1 to {FORMAT_VERSION}",
        )
    while version < FORMAT_VERSION:
        doc = MIGRATIONS[version](doc)
        version = doc["format_version"]
    return doc


def read_text(file: Path, max_bytes: int = MAX_DESIGN_BYTES) -> str:
    """Read a user's design file, refusing what is too big, binary or empty."""
    raw = read_limited(file, str(file), max_bytes, "a design file")
    if not raw.strip():
        raise InputError.single("file is empty", file=file)
    return decode(raw, str(file))


class DuplicateKey(ValueError):
    """A JSON object names the same key twice (json keeps the last one silently)."""

    pass


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "true/false"}


def parse_json(text: str, file: str | Path | None = None) -> Any:
    """JSON a user wrote: a duplicate key, deep nesting or a giant number is an input error with its place."""
    try:
        return json.loads(text, object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise InputError.single(f"malformed JSON: {exc.msg}", file=file, line=exc.lineno, column=exc.colno) from None
    except DuplicateKey as exc:
        raise InputError.single(
            f"malformed JSON: the key {exc.args[0]!r} appears twice in one object", file=file
        ) from None
    except RecursionError:
        raise InputError.single("malformed JSON: nested too deeply", file=file) from None
    except ValueError:  # an integer with more digits than Python will convert
        raise InputError.single(
            f"malformed JSON: a number has more than {sys.get_int_max_str_digits():,} digits", file=file
        ) from None


DESIGN_FILE = "a design file Shipyard wrote (.ship): a JSON object holding its format, ruleset and design"


def parse_document(text: str, file: str | None = None) -> dict[str, Any]:
    """A design file's JSON object. A file not named as a design that is not JSON at all is
    said to be no design (what it is, where Shipyard knows: :mod:`shipyard.core.otherformats`)."""
    try:
        doc = parse_json(text, file)
    except InputError as exc:
        if not (file and file.endswith(EXTENSION)) and not text.lstrip().startswith(("{", "[")):  # no design
            raise InputError.single("is not a design file: it is not JSON", file=file, allowed=DESIGN_FILE) from None
        for problem in exc.problems:
            problem.allowed = problem.allowed or DESIGN_FILE
        raise
    if not isinstance(doc, dict):
        kind = "null" if doc is None else _JSON_TYPES.get(type(doc), type(doc).__name__)
        raise InputError.single(f"a design file must hold a JSON object, not {kind}", file=file)
    return doc


# What a value of each JSON type is written as, for an error that got another type: design
# files and `shipyard set` take values strictly (true is not 1, "3" is not 3), and say so.
_TYPE_ALLOWED = {
    "int_type": "a whole number such as 3, without quotes",
    "int_from_float": "a whole number such as 3",
    "float_type": "a number such as 2.5, without quotes",
    "bool_type": "true or false, without quotes",
    "string_type": "text",
}


def _limit_allowed(err: Any) -> str | None:
    """What a place takes, from the bound pydantic says it broke ("1 or more", "'a' or 'b'"),
    or None where the error names none (a length's message says its limit itself)."""
    ctx = err.get("ctx") or {}
    if "ge" in ctx:
        return f"{ctx['ge']} or more"
    if "gt" in ctx:
        return f"more than {ctx['gt']}"
    if "le" in ctx:
        return f"{ctx['le']} or less"
    if "lt" in ctx:
        return f"less than {ctx['lt']}"
    if "expected" in ctx:
        return str(ctx["expected"])
    return None


def validation_problems(exc: ValidationError, file: str | None, prefix: tuple[object, ...]) -> list[Problem]:
    """Each of pydantic's errors as a problem at its place; a value of the wrong type names
    the value given and what the place takes, a value past a limit the limit."""
    out = []
    for err in exc.errors():
        path = format_path((*prefix, *err["loc"]))
        if err["type"] == "extra_forbidden":
            out.append(Problem(f"unknown field {err['loc'][-1]!r}", file, path=path))
        elif err["type"] in _TYPE_ALLOWED:
            given = json.dumps(err.get("input"), ensure_ascii=False, default=str)
            message = f"{err['msg']}, not {shorten(given, 60)}"
            out.append(Problem(message, file, path=path, allowed=_TYPE_ALLOWED[err["type"]]))
        else:
            out.append(Problem(err["msg"], file, path=path, allowed=_limit_allowed(err)))
    return out


def design_from_document(
    doc: dict[str, Any],
    *,
    file: str | None = None,
    preset: str | None = None,
    catalog_folders: tuple[Path, ...] = (),
    use_user_folder: bool = True,
) -> LoadedDesign:
    """Turn a parsed document into a resolved design; every problem is an InputError."""
    doc = migrate(doc, file)
    unknown = [k for k in doc if k not in ENVELOPE_KEYS]
    if unknown:
        raise InputError(
            [Problem(f"unknown field {k!r}", file, path=k, allowed=", ".join(ENVELOPE_KEYS)) for k in unknown]
        )
    from shipyard.core.registry import get

    ruleset = get(doc.get("ruleset"), file=file, path="ruleset").id
    preset_id = preset or doc.get("preset")
    if preset_id is not None and (not isinstance(preset_id, str) or not preset_id.strip()):
        raise InputError.single("preset must be a preset id (or left out for the default)", file=file, path="preset")
    catalog = load_catalog(ruleset, catalog_folders, use_user_folder=use_user_folder)
    preset_id = preset_id or catalog.meta.default_preset
    if preset_id not in catalog.presets:
        raise InputError.single(
            f"unknown preset {quote(preset_id)}; {did_you_mean(preset_id, catalog.presets)}".rstrip("; "),
            file=file,
            path="preset",
            allowed=", ".join(sorted(catalog.presets)),
        )
    catalog = with_preset(catalog, preset_id)
    body = doc.get("design")
    if not isinstance(body, dict):
        raise InputError.single("'design' must be a JSON object with the design's fields", file=file, path="design")
    try:
        design = validate_strictly(catalog.module.Design, body)
    except ValidationError as exc:
        raise InputError(validation_problems(exc, file, ("design",))) from None
    try:
        design = held(catalog.meta.id, "resolve", catalog.module.resolve(design, catalog), catalog.module.Design)
    except InputError as exc:
        for p in exc.problems:
            p.file = file
            p.path = f"design.{p.path}" if p.path else "design"
        raise
    tags = check_tags(doc.get("tags", []), file)
    return LoadedDesign(Path(file) if file else None, ruleset, preset_id, design, catalog, tags=tags)


def load_design(
    file: Path | str, *, preset: str | None = None, catalog_folders: tuple[Path, ...] = (), use_user_folder: bool = True
) -> LoadedDesign:
    file = Path(file)
    text = read_text(file)
    try:
        doc = parse_document(text, str(file))
        if "format_version" not in doc and file.suffix != EXTENSION:
            raise InputError.single("not a design file: it has no format_version", file=file, path="format_version")
        loaded = design_from_document(
            doc, file=str(file), preset=preset, catalog_folders=catalog_folders, use_user_folder=use_user_folder
        )
    except InputError as exc:
        if file.suffix == EXTENSION:
            raise
        from shipyard.core.otherformats import refusal  # a ruleset's text or another game's record, given by mistake

        raise refusal(file, text, exc) from None
    if doc.get("format_version") == FORMAT_VERSION:  # an older format is written anew, in today's
        baseline = loaded.envelope(defaults=True)
        if preset is not None:  # --preset for this run only: the file's own is what it was
            baseline["preset"] = doc.get("preset") or loaded.catalog.meta.default_preset
        loaded.written = AsWritten(text, doc, baseline)
    return loaded


def sample_files(folder: Path) -> list[Path]:
    """The design files in a ruleset's samples folder, by name."""
    return sorted(folder.glob(f"*{EXTENSION}")) if folder.is_dir() else []


def peek_ruleset(file: Path | str) -> str | None:
    """The ruleset id a design file names, read without loading it (None when it names none)."""
    doc = parse_document(read_text(Path(file)), str(file))
    ruleset = doc.get("ruleset")
    return ruleset if isinstance(ruleset, str) else None


def dumps(loaded: LoadedDesign) -> str:
    """The design file's text: the file it was read from with only the changes made, else anew."""
    if loaded.written is not None:
        return kept_text(loaded.written, loaded.envelope(defaults=True), loaded.envelope(), loaded.catalog)
    return json.dumps(loaded.envelope(), indent=2, ensure_ascii=False) + "\n"


def refuse_installed(file: Path | str) -> None:
    """A design is never saved inside the catalogs Shipyard is installed with: a bundled
    sample stays as it came (every user shares it), and a copy goes where the user keeps
    designs."""
    from shipyard.core.registry import is_installed

    if is_installed(file):
        raise InputError.single(
            "not saved: this is inside the catalogs Shipyard is installed with, which every user "
            "shares, and a sample there is never overwritten",
            file=str(file),
            allowed="a file in a folder of your own",
        )


def save_design(loaded: LoadedDesign, file: Path | str) -> None:
    from shipyard.core.saved import saved

    refuse_installed(file)
    atomic_write_text(Path(file), dumps(loaded))
    saved([Path(file)])


def save_designs(designs: list[tuple[LoadedDesign, Path]]) -> None:
    """Save several designs all or nothing (an import of many stat blocks, a skirmish's sides)."""
    for _, f in designs:
        refuse_installed(f)
    atomic_write_many([(Path(f), dumps(ld).encode("utf-8")) for ld, f in designs])
    from shipyard.core.saved import saved

    saved([Path(f) for _, f in designs])


def new_design(
    ruleset: str,
    name: str,
    kind: str,
    *,
    preset: str | None = None,
    catalog_folders: tuple[Path, ...] = (),
    use_user_folder: bool = True,
) -> LoadedDesign:
    """A new design of one of the kinds the ruleset's manifest offers (a fighter, a pilot, a fleet ...)."""
    from shipyard.core.registry import get

    info = get(ruleset)
    if not any(k.accepts(kind) for k in info.kinds):
        from shipyard.core.suggest import did_you_mean

        offered = [k.id for k in info.kinds]
        hint = did_you_mean(kind, offered)
        raise InputError.single(
            f"{info.name} has no kind of design {kind!r}" + (f"; {hint}" if hint else ""),
            path="--kind",
            allowed=", ".join(offered),
        )
    catalog = load_catalog(ruleset, catalog_folders, preset=preset, use_user_folder=use_user_folder)
    try:
        made = catalog.module.new_design(kind, name, catalog)
    except ValidationError as exc:
        # The name is the one thing a person gives a new design: a name the ruleset's model
        # refuses (over its length) is their input, said as such; anything else is the plug-in's.
        if not all(err["loc"][:1] == ("name",) for err in exc.errors()):
            raise
        raise InputError([Problem(f"the name: {err['msg']}", None, path="NAME") for err in exc.errors()]) from None
    design = held(ruleset, "new_design", made, catalog.module.Design)
    design = held(ruleset, "resolve", catalog.module.resolve(design, catalog), catalog.module.Design)
    return LoadedDesign(None, ruleset, catalog.preset.id if catalog.preset else "", design, catalog)


def schema_for(rulesets: list[str] | None = None) -> dict[str, Any]:
    """JSON Schema of a design file: the envelope, with one design shape per ruleset."""
    from typing import Annotated, Literal, Union

    from pydantic import Field, TypeAdapter, create_model

    variants: list[Any] = []
    for rid in rulesets or available_rulesets():
        catalog = load_catalog(rid, use_user_folder=False)
        design_model = catalog.module.Design
        fields: dict[str, Any] = {
            "format_version": (Literal[FORMAT_VERSION], ...),
            "ruleset": (Literal[rid], ...),
            "preset": (str | None, Field(default=None, description=f"preset id: {', '.join(sorted(catalog.presets))}")),
            "tags": (
                list[Annotated[str, Field(min_length=1, max_length=MAX_TAG_LENGTH)]],
                Field(default_factory=list, max_length=MAX_TAGS, description="the person's own labels"),
            ),
            "design": (design_model, ...),
        }
        variants.append(create_model(f"{design_model.__name__}File_{rid.replace('-', '_')}", **fields))
    union: Any = variants[0] if len(variants) == 1 else Union[tuple(variants)]  # noqa: UP007
    schema: dict[str, Any] = TypeAdapter(union).json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Shipyard design file"
    return schema
