"""A ruleset's editor form, declared as data (the catalog's ``form`` section).

The editor builds its pages from this declaration; a ruleset writes no Qt code for them.
The form says *where* things go and *what they are called*; everything else comes from
elsewhere, so each fact has one home:

- a field's type, range and choices of fixed values come from the design model's schema
  (``Design`` of the ruleset's module), or from a catalog stat (``stat:``);
- choices that are catalog entries, scales or the result of a ruleset function are named
  by a :class:`Choices` source;
- help text may quote catalog numbers as ``{kind:id.field}`` (an item), ``{rule:id.field}``
  (a rule's parameter), ``{stat:id.field}``, ``{pool:id.field}`` or
  ``{scales.capacity_multiplier}``, resolved against the catalog the design uses (a house
  rule changes the help with the number); ``{{`` and ``}}`` are literal braces;
- read-only values are the report's figures (``figure:``).

Paths are the ones findings carry (``weapons[2].count``): a finding focuses its field.
Paths of list columns and details are relative to the list's entry; the path ``.`` is the
entry itself, for a list of plain values (aspects: a list of text; station ids). A condition, a choice
or a toggle may call a function the ruleset's module lists in ``FORM_CALLS`` (what the
rules compute stays in the engine). See docs/rulesets.md for the whole language.
"""

from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

Text = Annotated[str, Field(max_length=4000)]
Label = Annotated[str, Field(min_length=1, max_length=200)]
PathText = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_\-.\[\]{}]+$")]
CallName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=80)]
Widget = Literal["auto", "line", "multiline", "spin", "number", "check", "choice", "ladder", "percent", "name"]


class _Decl(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Condition(_Decl):
    """When a field is enabled, a toggle checked or a page shown: exactly one test.

    ``present``/``absent``: the value at a path is set (not null) / not set. ``equals``:
    each path has the value. ``item``: in a list row, the row's catalog item has this
    attribute true (``per_level``). ``call``: a function of the ruleset's ``FORM_CALLS``
    returning true or false. ``not``: the opposite of another condition. ``any`` / ``all``:
    at least one / every condition of a list holds.
    """

    present: PathText | None = None
    absent: PathText | None = None
    equals: dict[PathText, Any] | None = None
    item: Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_]*$")] | None = None
    call: CallName | None = None
    not_: "Condition | None" = Field(default=None, alias="not")
    any_: "list[Condition] | None" = Field(default=None, alias="any", min_length=1)
    all_: "list[Condition] | None" = Field(default=None, alias="all", min_length=1)

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, populate_by_name=True)

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        names = ("present", "absent", "equals", "item", "call", "not_", "any_", "all_")
        given = [n for n in names if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("a condition has exactly one of: present, absent, equals, item, call, not, any, all")
        return self


class Option(_Decl):
    value: Any
    label: Label


class Choices(_Decl):
    """Where a choice's options come from: exactly one of ``options``, ``catalog``, ``scales``, ``call``.

    ``scales: designable`` lists the scales a design may be at (the ladder's extension
    steps too); ``scales: component`` the ladder's named steps, for a component's scale.
    ``none`` adds a first option meaning "not set" with that label. ``unset`` (in a list's
    columns) is the label a row shows while its value is not set, without offering it on
    rows that have one: a custom entry's catalog id, which a catalog entry cannot drop.
    ``label`` (with ``catalog``) names a ruleset function that words each item as the list
    offers it (``fn(ctx, item=ID)``: "Move 1 range band (Helm, 2 AP)"), where the name
    alone leaves out what a player chooses by.
    """

    options: list[Option] | None = None
    catalog: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$")] | None = None
    scales: Literal["designable", "component"] | None = None
    call: CallName | None = None
    label: CallName | None = None
    none: Label | None = None
    unset: Label | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        given = [n for n in ("options", "catalog", "scales", "call") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("choices come from exactly one of: options, catalog, scales, call")
        if self.none is not None and self.unset is not None:
            raise ValueError("give none (a choice of 'not set') or unset (shown only where not set), not both")
        if self.label is not None and self.catalog is None:
            raise ValueError("label words catalog items: give it with catalog")
        return self


class FieldDecl(_Decl):
    """One value of the design, edited in a widget chosen from its type (``widget: auto``)."""

    path: PathText
    label: Label
    help: Text = ""
    widget: Widget = "auto"
    choices: Choices | None = None
    min: int | float | None = None
    max: int | float | None = None
    stat: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")] | None = Field(
        default=None, description="a catalog stat whose range (and description, as help) the field takes"
    )
    ladder: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$")] | None = Field(
        default=None, description="catalog kind of ladder steps (items with a value and a name) for widget: ladder"
    )
    none: Label | None = Field(default=None, description="what the widget shows when the value is not set")
    lines: Annotated[int, Field(ge=1, le=40)] | None = Field(
        default=None, description="how many lines of text a multiline field shows before it scrolls"
    )
    enabled: Condition | None = None
    why: Text = Field(default="", description="why the field is greyed while `enabled` does not hold: what to do first")


class Toggle(_Decl):
    """A check box that changes several values at once (dividing Soak sets Armor and Shields).

    ``on``/``off`` map paths to values; a value ``{from: PATH}`` copies another value,
    ``{call: NAME}`` asks a ruleset function (e.g. the priority the engine chose).
    """

    toggle: Label
    help: Text = ""
    checked: Condition
    on: dict[PathText, Any]
    off: dict[PathText, Any]


class Column(_Decl):
    """One cell of a list row; ``path`` is relative to the entry (``count``, ``options.dexterity``)."""

    path: PathText
    label: Label
    help: Text = ""
    widget: Widget = "auto"
    choices: Choices | None = None
    min: int | float | None = None
    max: int | float | None = None
    none: Label | None = None
    enabled: Condition | None = None
    why: Text = Field(default="", description="why the cell is greyed while `enabled` does not hold for its row")
    show: CallName | None = Field(
        default=None,
        description="a read-only cell: what this ruleset function says of the entry (text, or text and tooltip)",
    )


class ListDecl(_Decl):
    """A list of entries in the design: a table with add and remove.

    With ``catalog``, a browser of that item kind adds entries (``new`` with ``"{id}"``
    replaced by the chosen item's id; ``key`` is the entry's field holding it, ``.`` when
    the entry is the id itself). Without, ``add`` is the button adding ``new`` as it is.
    With both, ``add`` is a second button that adds ``custom``: an entry of the list's own,
    not from the catalog (a stunt with its own name and text). ``detail`` sections edit
    the selected entry (paths relative to it), for entries with more than a row can hold
    (a list in an entry, long text).

    ``new`` may be ``{call: NAME}``: the entry a ruleset function makes (a level 1 pilot by
    the catalog's Pilot Level Table). ``adding`` names a ruleset function that returns the
    list's entries after the chosen catalog item is added (buying an enhancement the
    design has counts one more), instead of appending ``new``. ``browse`` names one that
    describes the browser's items (:class:`shipyard.core.formview.Browse`: each item's line
    and detail, and groups to filter by, such as the table an item is rolled on).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, populate_by_name=True)

    list_: PathText = Field(alias="list", description="the list's path in the design")
    label: Label
    help: Text = ""
    catalog: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$")] | None = None
    key: PathText | None = None
    new: Any = Field(default_factory=dict)
    add: Label | None = None
    custom: Any = Field(default=None, description="with a catalog: the entry the add button adds, not from the catalog")
    noun: Label | None = None
    name: PathText | None = Field(default=None, description="the entry's field that names a row (without a catalog)")
    adding: CallName | None = Field(
        default=None, description="with a catalog: the ruleset function giving the entries after an item is added"
    )
    browse: CallName | None = Field(
        default=None, description="with a catalog: the ruleset function describing the browser's items"
    )
    columns: list[Column] = Field(min_length=1)
    detail: "list[Section]" = Field(default_factory=list)
    named_in: list[PathText] = Field(
        default_factory=list,
        description=(
            "fields elsewhere in the design that hold an entry's name (``name``): ``crew[].station`` is the"
            " station of every crew member, ``plan.augmented{}`` the keys of a map; renaming an entry rewrites"
            " them in the same edit"
        ),
    )

    @model_validator(mode="after")
    def _catalog_needs_key(self) -> Self:
        if self.named_in and self.name is None:
            raise ValueError("'named_in' lists where an entry's name is written: give the field naming it (name)")
        if self.catalog is not None and self.key is None:
            raise ValueError("a list with a catalog names the entry field that holds the item id (key)")
        if self.catalog is None and self.add is None:
            raise ValueError("a list without a catalog needs an 'add' button label")
        if self.custom is not None and (self.catalog is None or self.add is None):
            raise ValueError("'custom' is what the 'add' button of a list with a catalog adds: give both")
        if (self.adding is not None or self.browse is not None) and self.catalog is None:
            raise ValueError("'adding' and 'browse' are about a catalog's items: give the list a catalog")
        return self


class MapDecl(_Decl):
    """A mapping in the design keyed by catalog ids (skills by skill id: percentages)."""

    map: PathText
    label: Label
    help: Text = ""
    keys: Choices
    widget: Widget = "auto"
    min: int | float | None = None
    max: int | float | None = None
    none: Label | None = Field(default=None, description="what a key without a value shows (it is then left out)")


class FigureRef(_Decl):
    """A read-only value from the report, shown where it helps (the priority chosen).

    Labelled with the figure's own label unless the form gives one. An id ending in ``*``
    shows every figure whose id starts with the rest (``boost-*``: one row for each boost
    the design has), each with its own label.
    """

    figure: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]*\*?$")]
    label: Label | None = None


class TableRef(_Decl):
    """One of the report's tables, read-only (the weapons, a roll log, a roster)."""

    table: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$")]
    label: Label | None = Field(default=None, description="the table's name; default: the report table's title")
    empty: Label = Field(default="None.", description="what is shown while the report has no rows for it")
    rows: Annotated[int, Field(ge=1, le=200)] = Field(default=12, description="rows shown before it scrolls")


class ActionRef(_Decl):
    """A button for one of the form's ``actions``, on the page where it belongs (rolling a
    pilot beside the pilot). An action placed on a page is not repeated above the pages."""

    action: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]


class PresetRef(_Decl):
    """The design's preset (house rules), with each preset's description."""

    preset: Label = "&Preset"
    help: Text = ""


class BudgetsRef(_Decl):
    """The Storyteller's budget settings: one value a pool, at ``budgets.<pool id>``."""

    budgets: PathText
    help: Text = ""
    none: Label = "as the rules"


def _element_tag(value: Any) -> str | None:
    if isinstance(value, dict):
        for key in ("path", "toggle", "list", "map", "figure", "table", "action", "preset", "budgets"):
            if key in value:
                return key
        return None
    return _TAGS.get(type(value))


_TAGS: dict[type, str] = {}

Element = Annotated[
    Annotated[FieldDecl, Tag("path")]
    | Annotated[Toggle, Tag("toggle")]
    | Annotated[ListDecl, Tag("list")]
    | Annotated[MapDecl, Tag("map")]
    | Annotated[FigureRef, Tag("figure")]
    | Annotated[TableRef, Tag("table")]
    | Annotated[ActionRef, Tag("action")]
    | Annotated[PresetRef, Tag("preset")]
    | Annotated[BudgetsRef, Tag("budgets")],
    Discriminator(
        _element_tag,
        custom_error_type="form_element",
        custom_error_message=(
            "a form element is one of: path (a field), toggle, list, map, figure, table, action, preset, budgets"
        ),
    ),
]


_TAGS.update(
    {
        FieldDecl: "path",
        Toggle: "toggle",
        ListDecl: "list",
        MapDecl: "map",
        FigureRef: "figure",
        TableRef: "table",
        ActionRef: "action",
        PresetRef: "preset",
        BudgetsRef: "budgets",
    }
)


class OptionalObject(_Decl):
    """A section that edits an optional object: a check box adds ``default`` or removes it.

    ``enabled``: a condition the rules put on having the object (the Extreme consequence
    only from the Scale that has the slot); while it does not hold the check box cannot be
    ticked, and ``why`` (help text, catalog references allowed) says why in its tooltip.
    An object the design already has can always be removed."""

    path: PathText
    label: Label
    default: dict[str, Any]
    enabled: Condition | None = None
    why: Text = ""


class Section(_Decl):
    """A titled group of elements. The title, like help, may quote catalog numbers.

    ``when``: the section is shown only while the condition holds (a fighter's pilot parts
    while it has a pilot; in a list's detail, relative to the selected entry).
    """

    title: Annotated[str, Field(max_length=200)] = ""
    help: Text = ""
    when: Condition | None = None
    optional: OptionalObject | None = None
    fields: list[Element] = Field(min_length=1)


class Page(_Decl):
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    title: Label
    help: Text = ""
    when: Condition | None = Field(default=None, description="the page is shown only for designs where this holds")
    sections: list[Section] = Field(min_length=1)


class Param(_Decl):
    """A value an action asks for before it runs (how many enhancements to roll, a seed).

    ``kind: file`` is a design file's name, chosen in a file dialog. ``default`` may be
    ``{call: NAME}``: what a ruleset function says (the number of enhancements the design
    has now). ``none``: what an optional value shows while it is empty.
    """

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    label: Label
    help: Text = ""
    kind: Literal["int", "text", "choice", "file"] = "int"
    default: Any = None
    none: Label | None = None
    min: int | None = None
    max: int | None = None
    optional: bool = Field(default=False, description="may be left empty (e.g. a seed: empty is a fresh one)")
    choices: Choices | None = None


class ActionDecl(_Decl):
    """A button that asks for ``params`` and calls a ruleset function of ``FORM_CALLS``.

    ``result: new-design`` opens what the function returns as a new design; ``replace``
    makes it the open design's new state (one undo step).
    """

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    label: Label
    help: Text = ""
    call: CallName
    params: list[Param] = Field(default_factory=list)
    result: Literal["new-design", "replace"] = "new-design"
    when: Condition | None = None


class Form(_Decl):
    pages: list[Page] = Field(min_length=1)
    summary: list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$")]] = Field(
        default_factory=list, description="figures shown beside the budgets, live"
    )
    actions: list[ActionDecl] = Field(default_factory=list)

    def renames(self) -> list[tuple[str, str, list[str]]]:
        """The lists of the pages whose entries other fields hold by name: (the list's path,
        the entry's field naming it, the fields holding such a name) for each."""
        return [
            (element.list_, element.name, list(element.named_in))
            for page in self.pages
            for section in page.sections
            for element in section.fields
            if isinstance(element, ListDecl) and element.named_in and element.name is not None
        ]


# No model_rebuild() here: the models build their validators (resolving Section and the
# recursive Condition then) the first time a form is validated, when a catalog is read
# from its YAML. An editor start reads the catalog from its cache and never pays for it
# (building them at import cost ~40 ms of a ~600 ms start).
