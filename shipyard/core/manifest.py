"""A ruleset's manifest: what it is and what it contributes, read without importing its code.

The manifest is a small YAML file in the ruleset's Python package (``manifest.yaml``,
named by its ``shipyard.rulesets`` entry point). It says who the ruleset is (id, name,
version, source), where its catalog folder, templates and samples are, the kinds of new
design it offers, and the command-line subcommands, text formats and conversions it
contributes, each by the dotted name of a module that is imported only when used.

One way points at plug-in code: a module by its dotted import path (``my_ruleset.commands``),
an object in a module by that path, a colon and the object's name
(``my_ruleset.qt:EntryForm``), as Python's entry points write them. Older spellings still
read: a file path (``my_ruleset/commands.py``), a colon where a module is meant
(``my_ruleset:commands``), a dot where the colon belongs (``my_ruleset.qt.EntryForm``);
each is read as the one way, and ``shipyard rulesets --check`` says the line to write
(:func:`spelling_notes`). A bare name (``EntryForm``) names no module and is refused.

Paths are relative to the manifest's folder; ``shipyard-data:PATH`` is a path in
Shipyard's own data folders (the built-in rulesets keep their catalogs and templates at
the top of the source tree, as ``catalogs/<id>`` and ``templates/<id>``).
"""

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

MAX_ID = 60
# The plug-in API this Shipyard implements (docs/rulesets.md, "The plug-in API version"):
# a manifest's ``api`` must be one of SUPPORTED_APIS. Here, not in core.hookspec, because
# a cached manifest is valid as long as this file is unchanged (manifestreader._cache_key).
API_VERSION = 1
SUPPORTED_APIS = (1,)
Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=MAX_ID)]
# A kind's ``matches`` pattern: at most this many repetitions of more than one (``+``,
# ``*``, ``{2,}``), none inside another and none over an alternation; see check_kind_pattern.
MAX_REPEATS = 3
_SINGLE = {"LITERAL", "NOT_LITERAL", "IN", "ANY"}


def check_kind_pattern(pattern: str) -> str:
    """``pattern``, if it compiles and cannot backtrack catastrophically; ValueError otherwise.

    A kind id is at most 60 characters (:data:`MAX_ID`): :meth:`DesignKind.accepts` tries
    nothing longer, so what remains is the pattern's shape: ``(a|aa)+`` backtracks
    exponentially, each character of a kind multiplying the time. So a repetition of more than one
    may repeat only single characters or groups of them (``[0-9]+``, ``(ab)+``), never
    another repetition (``(a+)+``) or an alternation (``(a|aa)+``, write ``[ab]+``), and a
    pattern has at most :data:`MAX_REPEATS` of them (``a*a*a*a*...`` is polynomial in the
    number of them). Matching then takes at most ~C(63, 3) steps: microseconds.
    """
    import re._parser as sre_parse  # type: ignore[import-not-found]  # the standard library's own pattern parser

    try:
        parsed = sre_parse.parse(pattern)
    except re.error as exc:
        raise ValueError(f"not a regular expression: {exc}") from None
    repeats = 0

    def visit(items: Any, under_repeat: bool) -> None:
        nonlocal repeats
        for op, arg in items:
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                _low, high, body = arg
                many = high is sre_parse.MAXREPEAT or high > 1
                if many:
                    if under_repeat:
                        raise ValueError("a repetition inside a repetition ((a+)+) may take exponential time")
                    repeats += 1
                visit(body, under_repeat or many)
            elif name in ("BRANCH", "GROUPREF", "GROUPREF_EXISTS", "ASSERT", "ASSERT_NOT", "ATOMIC_GROUP"):
                if under_repeat:
                    raise ValueError(
                        "an alternation, back-reference or look-around inside a repetition ((a|aa)+) may take "
                        "exponential time; repeat a character class instead ([ab]+)"
                    )
                for sub in _branches(name, arg):
                    visit(sub, under_repeat)
            elif name == "SUBPATTERN":
                visit(arg[-1], under_repeat)
            elif under_repeat and name not in _SINGLE:
                raise ValueError(f"{name.lower()} inside a repetition is not allowed")

    visit(parsed, False)
    if repeats > MAX_REPEATS:
        raise ValueError(f"{repeats} repetitions; a kind pattern may have at most {MAX_REPEATS}")
    return pattern


def _branches(name: str, arg: Any) -> list[Any]:
    """The sub-patterns of an alternation, a conditional group or a look-around."""
    if name == "BRANCH":
        return list(arg[1])
    if name == "GROUPREF_EXISTS":
        return [b for b in arg[1:] if b is not None]
    if name in ("ASSERT", "ASSERT_NOT"):
        return [arg[1]]
    if name == "ATOMIC_GROUP":
        return [arg]
    return []


KindPattern = Annotated[str, Field(max_length=200), AfterValidator(check_kind_pattern)]
_MODULE = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def _file_as_module(path: str) -> str:
    """``pkg/sub/mod.py`` (or without ``.py``) as the module path ``pkg.sub.mod``."""
    stem = path.strip().removesuffix(".py").replace("\\", "/").strip("/")
    return stem.replace("/", ".")


def module_spelling(value: str) -> str:
    """A module named as the manifest's one way, ``package.module``; older spellings (a file
    path, ``package:module``) read as it. Anything else is returned as it is, for the
    pattern to refuse."""
    text = value.strip()
    if re.fullmatch(_MODULE, text):
        return text
    if "/" in text or "\\" in text or text.endswith(".py"):
        text = _file_as_module(text)
    if text.count(":") == 1:
        text = text.replace(":", ".")
    return text if re.fullmatch(_MODULE, text) else value


def object_spelling(value: str) -> str:
    """An object named as the manifest's one way, ``package.module:Name``; older spellings
    (``package.module.Name``, ``package/module.py:Name``) read as it. A bare name names no
    module: a ValueError saying what to write."""
    text = value.strip()
    module, colon, name = text.rpartition(":")
    if not colon:
        module, dot, name = text.rpartition(".")
        if not dot:
            raise ValueError(
                f"{value!r} names no module: write the module's dotted path, a colon and the name, "
                f"as in 'my_ruleset.qt:{value.strip() or 'Name'}'"
            )
    if "/" in module or "\\" in module or module.endswith(".py"):
        module = _file_as_module(module)
    joined = f"{module}:{name}"
    return joined if re.fullmatch(f"{_MODULE}:{_NAME}", joined) else value


def _module(value: Any) -> Any:
    return module_spelling(value) if isinstance(value, str) else value


def _object(value: Any) -> Any:
    return object_spelling(value) if isinstance(value, str) else value


_MODULE_HELP = (
    "the module, by its dotted import path ('my_ruleset.commands'); an older spelling (a file path) "
    "reads, and rulesets --check says the line to write (docs/rulesets.md, 'Pointing at your code')"
)
# What a manifest points at code with (module docstring): each field reads an older spelling
# as the one way, and the pattern refuses what is neither.
ModuleName = Annotated[str, BeforeValidator(_module), Field(pattern=f"^{_MODULE}$", max_length=200)]
ObjectName = Annotated[str, BeforeValidator(_object), Field(pattern=f"^{_MODULE}:{_NAME}$", max_length=200)]
Text = Annotated[str, Field(max_length=2000)]
Label = Annotated[str, Field(min_length=1, max_length=120)]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class DesignKind(_Entry):
    """A kind of new design the ruleset offers in File > New and ``shipyard new --kind``."""

    id: Id
    name: Label = Field(description="what a design of this kind is, e.g. 'Gunboat'")
    menu: Label | None = Field(default=None, description="menu text with an & accelerator; default: the name")
    description: Text = ""
    matches: KindPattern | None = Field(
        default=None,
        description="a regular expression for further kind ids this one stands for (big+2 is a big ship)",
    )

    def accepts(self, kind_id: str) -> bool:
        """Whether ``kind_id`` is this kind: its id, or a kind id of at most 60 characters
        (``big+2``) that its ``matches`` pattern takes whole."""
        if kind_id == self.id:
            return True
        if self.matches is None or len(kind_id) > MAX_ID:
            return False
        return re.fullmatch(self.matches, kind_id) is not None


class Command(_Entry):
    """A subcommand of ``shipyard`` the ruleset contributes (``shipyard dice ...``).

    The module defines ``add_arguments(parser, catalog_opts)``, which adds the options and
    sets ``func`` (see ``shipyard.core.hookspec.COMMAND_HOOKS``); it is imported only when
    the subcommand runs, so ``shipyard --help`` lists it from the manifest.
    """

    name: Id
    help: Text
    module: ModuleName = Field(description=_MODULE_HELP)


class TextFormat(_Entry):
    """A text format designs are read from and written to (``shipyard import/export ID``).

    The module defines ``MAX_TEXT_BYTES``, ``read(text, catalog, *, source)`` (a list of
    imports, each with its design and report) when ``reads``, and ``write(design, catalog,
    *, markdown)`` and ``lost(design, catalog)`` (what the text cannot hold) when ``writes``;
    see docs/rulesets.md.
    """

    id: Id
    name: Label
    help: Text = ""
    module: ModuleName = Field(description=_MODULE_HELP)
    reads: bool = True
    writes: bool = True
    suffixes: list[Annotated[str, Field(pattern=r"^\.[A-Za-z0-9]+$")]] = Field(default_factory=lambda: [".txt"])


class Option(_Entry):
    """An option of a conversion (``--structure 12``): a whole number or a text."""

    name: Id
    type: Literal["int", "text"] = "int"
    help: Text = ""


class Conversion(_Entry):
    """A conversion of records from another game into this ruleset's designs (``shipyard convert ID``).

    The module defines ``convert_file(path, catalog, options) -> result`` (the result has
    ``notes``, ``report_lines()`` and ``loaded(path)``; bad input raises InputError with
    the file's positions). ``form``, optional, names a hand-written dialog ("module:Class",
    a Qt widget of the ruleset's own ``qt`` module) for entering a record by hand.
    """

    id: Id
    name: Label
    help: Text = ""
    module: ModuleName = Field(description=_MODULE_HELP)
    data: str | None = Field(default=None, description="a folder of the conversion's own tables and examples")
    options: list[Option] = Field(default_factory=list)
    suffixes: list[Annotated[str, Field(pattern=r"^\.[A-Za-z0-9]+$")]] = Field(default_factory=list)
    form: ObjectName | None = Field(
        default=None, description="a hand-written entry form, 'my_ruleset.qt:EntryForm' (module path, colon, class)"
    )


FigureId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$", max_length=80)]


class Bar(_Entry):
    """A bar at the table (health, power), read from the report: ``value`` and ``max`` name
    figures (a power bank's charge and capacity); or ``rating`` names the figure that is the
    bar's maximum and ``track`` the track whose ticked boxes are taken from it (Structure 15,
    a box ticked per point of damage); or ``track`` alone: its boxes are the maximum and each
    ticked box is one fewer left."""

    label: Label | None = Field(default=None, description="the bar's word; default: the figure's or track's name")
    track: FigureId | None = Field(default=None, description="the report track whose ticked boxes are spent")
    rating: FigureId | None = Field(default=None, description="the report figure that is the bar's maximum")
    value: FigureId | None = Field(default=None, description="the report figure that is the bar's value")
    max: FigureId | None = Field(default=None, description="with value: the report figure that is its maximum")

    @model_validator(mode="after")
    def _one_way(self) -> "Bar":
        if (self.value is None) != (self.max is None):
            raise ValueError("a bar names both value and max, or neither")
        if self.value is None and self.track is None:
            raise ValueError("a bar names a track (and maybe its rating), or a value and a max")
        return self


class Tabletop(_Entry):
    """What a design shows at the table: the figure of its report a token prints beside its
    name (a ship's Structure, its Scale), by the figure's id, and the word for it; for a
    virtual tabletop's actor, its health and power bars and the tables that are its items.
    A ruleset without Power declares no ``power``: no output shows one."""

    key_figure: FigureId = Field(description="the id of the report figure printed on a design's token")
    key_label: Label | None = Field(default=None, description="the word printed with it; default: the figure's label")
    health: FigureId | Bar | None = Field(
        default=None,
        description="the actor's health bar: a report track (its boxes, less those ticked) or a Bar (Foundry VTT)",
    )
    power: Bar | None = Field(default=None, description="the actor's power bar; none for a ruleset without Power")
    card: list[FigureId] = Field(
        default_factory=list, description="the report figures a stat card prints (checked against the record sheet)"
    )
    summaries: list[FigureId] = Field(
        default_factory=list,
        description="report figures that sum up what the record sheet shows as tables or tracks (a link group's "
        "guns, a compartment's components): a virtual tabletop's actor carries them, the sheet shows their parts; "
        "an id ending in '.' names every figure whose id begins with it",
    )
    items: list[FigureId] = Field(
        default_factory=list, description="the report tables whose rows a Foundry VTT actor carries as items"
    )


class Source(_Entry):
    title: Label
    file: str = Field(default="", max_length=200, description="the rules text the ruleset is read from")


def check_api(api: int) -> int:
    """``api``, if this Shipyard implements that plug-in API; a ValueError naming both otherwise."""
    if api not in SUPPORTED_APIS:
        supported = ", ".join(str(a) for a in SUPPORTED_APIS)
        raise ValueError(
            f"the manifest is written for plug-in API {api}; this Shipyard supports API {supported} "
            "(a newer plug-in needs a newer Shipyard, or a version of the plug-in written for API "
            f"{SUPPORTED_APIS[-1]}; see docs/rulesets.md, 'The plug-in API version')"
        )
    return api


class Manifest(_Entry):
    api: Annotated[int, AfterValidator(check_api)] = Field(
        default=1,
        description=(
            "the plug-in API the ruleset is written for (docs/rulesets.md, 'The plug-in API version'); "
            "a manifest without it is read as written for API 1"
        ),
    )
    id: Id
    name: Label
    version: Annotated[str, Field(min_length=1, max_length=40)]
    description: Text = ""
    source: Source
    catalog: str = Field(default="catalog", description="the catalog folder")
    templates: str | None = Field(default=None, description="the sheet templates folder")
    samples: str | None = Field(default=None, description="sample designs; default: the catalog's examples/")
    samples_note: Text = Field(
        default="",
        description="one sentence on how the samples are meant (shown on the welcome page and the fleet cover)",
    )
    reading: str | None = Field(
        default=None,
        max_length=300,
        description="how Shipyard reads the rules, a Markdown file (the editor's Help > Rules reading)",
    )
    guide: Annotated[str, Field(max_length=4000)] = Field(
        default="",
        description=(
            "how a design of this ruleset is filled in, page by page, in a few lines of Markdown "
            "(the editor's Help > Getting started); no rule's numbers: those are the catalog's"
        ),
    )
    capabilities: list[Id] = Field(
        default_factory=list,
        max_length=20,
        description=(
            "shared rule mechanisms the catalog may use, by capability id (point-buy: priority, stat and item "
            "costs, exchanges, pool limits, scale limits; docs/rulesets.md, 'Capabilities')"
        ),
    )
    crew: Label | None = Field(
        default=None,
        description=(
            "what its rules call who flies or crews a design ('Pilot', 'Crew'): a roster's members table "
            "shows that column for its members; none: its designs have neither, and the column is not shown"
        ),
    )
    kinds: list[DesignKind] = Field(min_length=1, description="the kinds of new design, the first the default")
    commands: list[Command] = Field(default_factory=list)
    formats: list[TextFormat] = Field(default_factory=list)
    conversions: list[Conversion] = Field(default_factory=list)
    tabletop: Tabletop | None = Field(default=None, description="what a design's token shows of its report")
    editor_pages: ObjectName | None = Field(
        default=None,
        description=(
            "hand-written editor pages, 'package.module:Class', used instead of the pages the editor "
            "builds from the catalog's declared form (the escape hatch for pages a form cannot say)"
        ),
    )


def spelling_notes(data: Any) -> list[tuple[tuple[object, ...], str]]:
    """Where a manifest as written (its YAML's plain data) points at code in an older
    spelling: each place (a path into the data) with the line to write instead."""
    if not isinstance(data, dict):
        return []
    places: list[tuple[tuple[object, ...], Any, bool]] = [(("editor_pages",), data.get("editor_pages"), True)]
    for section in ("commands", "formats", "conversions"):
        entries = data.get(section)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict):
                places.append(((section, i, "module"), entry.get("module"), False))
                if section == "conversions":
                    places.append(((section, i, "form"), entry.get("form"), True))
    notes = []
    for loc, value, is_object in places:
        if not isinstance(value, str):
            continue
        try:
            one_way = object_spelling(value) if is_object else module_spelling(value)
        except ValueError:
            continue  # refused when the manifest is read
        if one_way != value and re.fullmatch(f"{_MODULE}:{_NAME}" if is_object else _MODULE, one_way):
            notes.append(
                (
                    loc,
                    f"{value!r} is an older way to point at code, read as {one_way!r}; write "
                    f"'{loc[-1]}: {one_way}' (docs/rulesets.md, 'Pointing at your code')",
                )
            )
    return notes
