"""What a ruleset's text format and conversion modules provide, and the neutral import report.

A ruleset's manifest names modules (``formats:`` and ``conversions:``, see
:mod:`shipyard.core.manifest`); ``shipyard import``/``export``/``convert``, the editor's
Paste as design, Copy as text and File > Import, and the refusal that names the command
reading a file that is no design (:mod:`shipyard.core.otherformats`) call them. The calls
they make are written down here as protocols, so those callers are typed against this
module and never against a ruleset's own classes, and :func:`text_format` and
:func:`conversion` check a module has what its entry declares before it is used: a
plug-in that misses ``read`` gets a message naming the module and the names it lacks,
not an AttributeError deep in a command.

The import report (:class:`ImportReport`, one :class:`ImportEntry` a piece of the text) is
neutral: every text format reports what became of each piece of its text in it, the
command line prints its ``lines()`` (``--json``: its fields) and the editor shows it.
docs/conversion.md describes both contracts.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, cast

from pydantic import BaseModel, ConfigDict, Field

from shipyard.core.errors import InputError
from shipyard.core.loaded import LoadedDesign
from shipyard.core.model import Catalog

Status = Literal["used", "differs", "assumed", "not-understood", "skipped"]
STATUSES: tuple[Status, ...] = ("used", "differs", "assumed", "not-understood", "skipped")
NOTES_LIMIT = 20_000  # what of a report a design's notes take at most (a design file's notes hold more)


def short(text: str, limit: int = 80) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ImportEntry(BaseModel):
    """What became of one piece of the text."""

    model_config = ConfigDict(frozen=True)

    status: Status
    label: str = Field(default="", description="the label the piece was written under, as the format names it")
    text: str = Field(default="", description="the piece of text, as written")
    field: str = Field(default="", description="where it went in the design (path)")
    value: str = Field(default="", description="what it became")
    message: str = ""
    suggestions: list[str] = Field(default_factory=list, description="closest catalog names")
    line: int | None = None
    column: int | None = None

    def describe(self) -> str:
        where = f" (line {self.line}, column {self.column})" if self.line is not None else ""
        head = f"{self.label}: " if self.label else ""
        text = f'"{short(self.text)}"' if self.text else "(not given)"
        out = f"{head}{text}{where}"
        if self.field:
            out += f" -> {self.field}"
            if self.value:
                out += f" = {self.value}"
        if self.message:
            out += f"; {self.message}"
        if self.suggestions:
            out += f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?"
        return out


class ImportReport(BaseModel):
    """Every piece of one design's text and what became of it."""

    model_config = ConfigDict(frozen=True)

    name: str
    entries: list[ImportEntry]

    def by_status(self, status: Status) -> list[ImportEntry]:
        return [e for e in self.entries if e.status == status]

    @property
    def not_understood(self) -> list[ImportEntry]:
        return self.by_status("not-understood")

    def lines(self) -> list[str]:
        counts = {s: len(self.by_status(s)) for s in STATUSES}
        summary = ", ".join(f"{n} {s.replace('-', ' ')}" for s, n in counts.items() if n)
        out = [f"{self.name}: {summary}"]
        width = max(len(e.status) for e in self.entries) if self.entries else 0
        out += [f"  {e.status.replace('-', ' '):<{width}}  {e.describe()}" for e in self.entries]
        return out


def loaded_design(design: Any, catalog: Catalog, file: Path | None) -> LoadedDesign:
    """A design made from text or another game's record, as a loaded design of ``catalog``'s
    ruleset and preset (to save, or to open in the editor)."""
    preset = catalog.preset.id if catalog.preset else catalog.meta.default_preset
    return LoadedDesign(file, catalog.meta.id, preset, design, catalog)


@dataclass
class TextImport:
    """A design read from text, its report, and the catalog it was read against.

    ``origin`` says what the text was ("a stat block"), for the heading of the notes that
    keep what was not understood.
    """

    design: Any
    report: ImportReport
    catalog: Catalog
    origin: str = "text"

    @property
    def ok(self) -> bool:
        """True when every piece of the text was understood."""
        return not self.report.not_understood

    def loaded(self, file: Path | None = None) -> LoadedDesign:
        return loaded_design(self.design, self.catalog, file)

    def design_with_report_notes(self, limit: int = NOTES_LIMIT) -> Any:
        """The design with every piece that was not understood written into its notes."""
        missed = self.report.not_understood
        if not missed:
            return self.design
        lines = [self.design.notes] if self.design.notes else []
        lines.append(f"Not understood when imported from {self.origin}:")
        for i, e in enumerate(missed):
            line = f"- {e.describe()}"
            if sum(len(x) + 1 for x in lines) + len(line) > limit - 40:
                lines.append(f"- ... and {len(missed) - i} more")
                break
            lines.append(line)
        return self.design.model_copy(update={"notes": "\n".join(lines)})


# --- the modules' contracts --------------------------------------------------------------------


class TextFormatModule(Protocol):
    """A text format's module (a manifest's ``formats:`` entry names it).

    ``MAX_TEXT_BYTES`` and ``read`` when the entry ``reads``; ``write`` and ``lost`` when it
    ``writes``. ``read`` returns one :class:`TextImport` a design in the text and raises
    InputError (with the source, line and column) when the text makes no design at all;
    what it merely did not understand is in the reports. ``lost`` lists the design's paths
    the text cannot hold (``shipyard export`` and Copy as text warn of them).
    """

    MAX_TEXT_BYTES: int

    def read(self, text: str, catalog: Catalog, *, source: str | Path | None = None) -> Sequence[TextImport]: ...

    def write(self, design: Any, catalog: Catalog, *, markdown: bool = False) -> str: ...

    def lost(self, design: Any, catalog: Catalog) -> list[str]: ...


def left_out_of_text(fmt: TextFormatModule, design: Any, catalog: Catalog) -> list[str]:
    """What a text written in ``fmt`` cannot hold of the design, for the warning before it is
    written: the format's own list, and the preset the design is read under where it is not
    its ruleset's default. No text format names a preset, so the text read back is read
    under the default, and its budgets and findings may differ (a sample ship over budget)."""
    lost = list(fmt.lost(design, catalog))
    preset = catalog.preset
    if preset is not None and preset.id != catalog.meta.default_preset:
        lost.append(f"preset {preset.id}")
    return lost


class ReportNote(Protocol):
    """One line of a conversion report (``shipyard convert --json`` prints each's fields)."""

    def model_dump(self, *, mode: str = ...) -> dict[str, Any]: ...


class ConversionResult(Protocol):
    """A converted design: its report notes, the report as lines, and the design to save or open."""

    @property
    def notes(self) -> Sequence[ReportNote]: ...

    def report_lines(self) -> list[str]: ...

    def loaded(self, file: Path | None = None) -> LoadedDesign: ...


class ConversionModule(Protocol):
    """A conversion's module (a manifest's ``conversions:`` entry names it).

    ``convert_file`` reads a record of another game and converts it, taking the options
    the entry declares (``{name: value or None}``; None: the conversion's default); bad
    input raises InputError with the file's positions.
    """

    def convert_file(self, file: Path, catalog: Catalog, options: dict[str, Any]) -> ConversionResult: ...


class ConversionForm(Protocol):
    """A conversion's entry form (the entry's ``form: "module:Class"``, a Qt dialog of the
    ruleset's ``qt`` module), made as ``Class(parent, catalog)``: ``exec()`` shows it and
    returns 1 when accepted, ``converted()`` then gives the result."""

    def exec(self) -> int: ...

    def converted(self) -> ConversionResult: ...


ConversionFormClass = Callable[[Any, Catalog], ConversionForm]


# --- the modules, checked ------------------------------------------------------------------------


def text_format(info: Any, entry: Any) -> TextFormatModule:
    """The module of ``info``'s text format ``entry``, imported and held to the hooks its entry
    declares (:data:`shipyard.core.hookspec.READ_HOOKS` for a format that reads, ``WRITE_HOOKS``
    for one that writes): each present, each function taking what Shipyard passes."""
    from shipyard.core import hookspec
    from shipyard.core.rulesetimport import contributed

    hooks = (hookspec.READ_HOOKS if entry.reads else ()) + (hookspec.WRITE_HOOKS if entry.writes else ())
    module = contributed(info, entry.module)
    hookspec.check_contribution(module, hooks, f"ruleset {info.id!r}: text format {entry.id!r}")
    return cast(TextFormatModule, _hooked(info, entry.module, module, hooks, f"text format {entry.id!r}"))


def _hooked(info: Any, name: str, module: Any, hooks: tuple[Any, ...], what: str) -> Any:
    """A contribution's module as Shipyard calls it: each hook's result checked, and a
    plug-in's hooks run under the plug-in guard (:class:`shipyard.core.hookspec.HookedModule`)."""
    from shipyard.core.entrypoints import BUILTIN_DISTRIBUTION, BUILTIN_PACKAGE
    from shipyard.core.hookspec import HookedModule

    plugin = info.distribution != BUILTIN_DISTRIBUTION or not info.package.startswith(BUILTIN_PACKAGE)
    return HookedModule(module, info.id, name, plugin=plugin, hooks=hooks, what=what)


def conversion(info: Any, entry: Any) -> ConversionModule:
    """The module of ``info``'s conversion ``entry``, imported and held to
    :data:`shipyard.core.hookspec.CONVERSION_HOOKS` (``convert_file(file, catalog, options)``)."""
    from shipyard.core import hookspec
    from shipyard.core.rulesetimport import contributed

    module = contributed(info, entry.module)
    hookspec.check_contribution(module, hookspec.CONVERSION_HOOKS, f"ruleset {info.id!r}: conversion {entry.id!r}")
    return cast(
        ConversionModule,
        _hooked(info, entry.module, module, hookspec.CONVERSION_HOOKS, f"conversion {entry.id!r}"),
    )


def check_contributions(info: Any) -> None:
    """Import every text format and conversion module ``info``'s manifest names and check
    each has what its entry declares (``shipyard rulesets --check``); every problem at once.
    A conversion's form is a Qt class and is not imported here."""
    problems = []
    for check, entries in ((text_format, info.formats), (conversion, info.conversions)):
        for entry in entries:
            try:
                check(info, entry)
            except InputError as exc:
                problems += exc.problems
    if problems:
        raise InputError(problems)


def conversion_form(info: Any, entry: Any) -> ConversionFormClass:
    """The class of a conversion's entry form (``entry.form``, "module:Class")."""
    from shipyard.core.rulesetimport import contributed

    module_name, _, name = str(entry.form).partition(":")
    module = contributed(info, module_name)
    if not callable(getattr(module, name, None)):
        raise InputError.single(
            f"ruleset {info.id!r}: conversion {entry.id!r}: its form module {module_name!r} lacks the class {name!r} "
            "(docs/conversion.md, The contracts)",
            file=str(info.manifest_file),
        )
    return cast(ConversionFormClass, getattr(module, name))
