"""A file given where a design belongs that another command reads: a ruleset's text, another game's record.

``shipyard print appendix-1.txt`` answered "malformed JSON: Expecting value"; the file
was a ruleset's published text, which ``shipyard import FORMAT`` reads. When a file
cannot be read as a design, the installed rulesets' text formats and conversions whose
suffixes it has are asked whether they read it, and the refusal names the command that
does. Only on that error path: a design that loads costs nothing here.
"""

from __future__ import annotations

from pathlib import Path

from shipyard.core.errors import InputError


def reader_of(file: Path, text: str) -> str | None:
    """The command that reads ``file`` (its ``text``), in words, or None when nothing installed does."""
    from shipyard.core.catalog import load_catalog
    from shipyard.core.registry import rulesets
    from shipyard.core.textformats import conversion, text_format

    suffix = file.suffix.lower()
    for info in rulesets():
        for fmt in info.formats:
            if not fmt.reads or suffix not in fmt.suffixes:
                continue
            try:
                found = text_format(info, fmt).read(text, load_catalog(info.id, use_user_folder=False))
            except (InputError, ValueError):
                continue
            if found:
                return f"{fmt.name} of {info.name}; `shipyard import {fmt.id} {file} -o FOLDER/` reads it"
        for conv in info.conversions:
            if suffix not in conv.suffixes:
                continue
            options = {o.name: None for o in conv.options}
            try:
                conversion(info, conv).convert_file(file, load_catalog(info.id, use_user_folder=False), options)
            except (InputError, ValueError):
                continue
            return f"a {conv.name} for {info.name}; `shipyard convert {conv.id} {file} -o DESIGN.ship` converts it"
    return None


# Shipyard's own files that are no design, by what their names end in: what each is, and
# what reads it (``check raid.roster`` said "malformed JSON: Expecting value").
OWN_FILES = {
    ".roster": "a roster; `shipyard roster check {file}` reads it",
    ".yaml": "a YAML file, as a catalog's are; a catalog is given by its folder, with --catalog",
    ".yml": "a YAML file, as a catalog's are; a catalog is given by its folder, with --catalog",
}


def refusal(file: Path, text: str, error: InputError) -> InputError:
    """``error`` (the file is no design), or, when another command reads the file, one that names it."""
    try:
        reader = reader_of(file, text)
    except InputError:
        reader = None
    if reader is None and (own := OWN_FILES.get(file.suffix.lower())) is not None:
        reader = own.format(file=file)
    if reader is None:
        return error
    return InputError.single(f"this is not a design file but {reader}", file=file)
