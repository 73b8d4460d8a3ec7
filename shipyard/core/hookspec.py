"""The hook specification: every name a ruleset's package may define, and how it is checked.

A ruleset's Python package provides what its catalog data cannot say, under fixed names
(its *hooks*): the required ones every ruleset has, the optional ones Shipyard does
without. :data:`HOOKS` declares each one once — its name, whether it is required, what it
is (a function with the positional parameters Shipyard passes, a model, a mapping, a list
of names), what it returns and which part of a report or of the editor that feeds — and
everything else reads it from here: :func:`check` when the package is imported (by
:func:`shipyard.core.rulesetimport.import_package`, so for every command, the editor and
``shipyard rulesets --check``), :func:`optional` wherever an optional hook is used, and
the hook table of docs/rulesets.md. Nothing is written into a plug-in's module: an
optional hook the package leaves out is answered by its declared default where it is used.

A misspelt hook used to be silently ignored (``pair_figure`` gave no comparison rows and
no message). So a public name the package defines itself that is close to a hook's name
(difflib, the same test as every other did-you-mean) but is none is an error naming the
closest hook; a package's own helper with such a name starts with ``_``. A hook whose
signature cannot take what Shipyard passes is an error naming the hook and the expected
signature. Like the pytest/pluggy hook specifications (docs: /work/shared/design/plugins.md),
the check is by parameter count and kind, not by type annotations: a plug-in may
annotate as it likes; the keyword arguments Shipyard passes (``source=``, ``markdown=``) are
checked by name.

What a function hook returns is checked each time Shipyard calls it (:attr:`Hook.accepts`):
the package is used through :class:`HookedModule`, which also runs a plug-in's hooks, rule
types and form calls under the plug-in guard (:mod:`shipyard.core.plugincode`). The
``RulesetModule`` Protocol (the type checker's view) is held to :data:`HOOKS` by a test, and
docs/reference/hooks.md is made from it (scripts/reference.py).
"""

from __future__ import annotations

import difflib
import inspect
import types
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from shipyard.core.errors import InputError, Problem

T = TypeVar("T")

Shape = Literal["function", "model", "mapping", "names", "size"]
# How close (difflib's ratio, on lower-case names) a name must be to a hook's to be taken for
# a misspelling of it: "pair_figure", "fix_hint", "form_calls", "compare_variant" are.
LOOKS_LIKE = 0.8


@dataclass(frozen=True)
class Hook:
    """One name a ruleset's package may define: what it is, what it gives, who reads it."""

    name: str
    shape: Shape
    required: bool
    params: tuple[str, ...] = ()  # the positional arguments Shipyard passes a function hook
    returns: str = ""
    keywords: tuple[str, ...] = ()  # the keyword arguments Shipyard passes it too, by name
    # What a function hook's result must be, checked each time Shipyard calls it (HookedModule):
    # the words for it, and the test (given the result and the package).
    result: str = ""
    accepts: Callable[[Any, Any], bool] | None = None
    used_by: str = ""
    default: Callable[[], Any] | None = None  # an optional hook's stand-in, made afresh each use
    lazy: bool = False  # may be given by the package's ``__getattr__`` (core.lazy): checked when read

    @property
    def signature(self) -> str:
        if self.shape != "function":
            return self.name
        keywords = [f"{k}=..." for k in self.keywords]
        return f"{self.name}({', '.join([*self.params, *(['*'] if keywords else []), *keywords])})"


def _is_design(value: Any, module: Any) -> bool:
    return isinstance(value, module.Design)


def _is_view(value: Any, module: Any) -> bool:
    from shipyard.core.model import DesignView

    return isinstance(value, DesignView)


def _is_derived(value: Any, module: Any) -> bool:
    from shipyard.core.report import Derived

    return isinstance(value, Derived)


def _is_none(value: Any, module: Any) -> bool:
    return value is None


def _pairs(value: Any, test: Callable[[Any], bool]) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(p, list | tuple) and len(p) == 2 and all(test(v) for v in p[:1]) for p in value
    )


def _is_named_designs(value: Any, module: Any) -> bool:
    return _pairs(value, lambda name: isinstance(name, str))


def _is_figure_pairs(value: Any, module: Any) -> bool:
    from shipyard.core.report import Figure

    return isinstance(value, list | tuple) and all(
        isinstance(p, list | tuple) and len(p) == 2 and all(isinstance(f, Figure) for f in p) for p in value
    )


def _is_text(value: Any, module: Any) -> bool:
    return isinstance(value, str)


def _is_lines(value: Any, module: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)


def _is_list(value: Any, module: Any) -> bool:
    return isinstance(value, list | tuple)


def _is_conversion(value: Any, module: Any) -> bool:
    return callable(getattr(value, "loaded", None)) and callable(getattr(value, "report_lines", None))


def _is_changes(value: Any, module: Any) -> bool:
    def change(c: Any) -> bool:
        return isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str)

    return isinstance(value, list | tuple) and all(
        change(h) or (isinstance(h, list) and all(change(c) for c in h)) for h in value
    )


HOOKS: tuple[Hook, ...] = (
    Hook(
        "Design",
        "model",
        True,
        returns="a pydantic model of the design file's `design` object",
        used_by="reading and writing design files, `shipyard schema`, the editor's field types and ranges",
    ),
    Hook(
        "ITEM_KINDS",
        "mapping",
        True,
        returns="`{section: CatalogItem subclass}`, the catalog sections of the ruleset's own",
        used_by="loading the catalog",
    ),
    Hook(
        "RULE_TYPES",
        "mapping",
        True,
        returns='`{"type-name": RuleType(ParamsModel, apply)}`, the rule mechanisms of the ruleset\'s own',
        used_by="loading `rules.yaml`",
    ),
    Hook(
        "resolve",
        "function",
        True,
        ("design", "catalog"),
        returns="the design with every name and alias made a catalog id; `InputError` with a path if not",
        used_by="reading a design, every edit",
        result="a {Design}",
        accepts=_is_design,
    ),
    Hook(
        "view",
        "function",
        True,
        ("design", "catalog"),
        returns="the neutral `DesignView` (scale, stats by id, item selections) the shared rules work on",
        used_by="every evaluation, the comparison's item rows",
        result="a DesignView",
        accepts=_is_view,
    ),
    Hook(
        "derive",
        "function",
        True,
        ("ctx",),
        returns="a `Derived`: the report's figures, tables, tracks, slots and actions",
        used_by="every report, sheet and editor summary",
        result="a Derived",
        accepts=_is_derived,
    ),
    Hook(
        "new_design",
        "function",
        True,
        ("kind", "name", "catalog"),
        returns="an empty design of one of the manifest's kinds",
        used_by="`shipyard new`, File > New",
        result="a {Design}",
        accepts=_is_design,
    ),
    Hook(
        "variants",
        "function",
        False,
        ("design",),
        returns="`[(name, design)]`, other forms evaluated beside the design (a transformation, a force's members)",
        used_by="the report's `forms`",
        default=lambda: _none,
        result="a list of (name, design) pairs",
        accepts=_is_named_designs,
    ),
    Hook(
        "compare_variants",
        "function",
        False,
        ("ctx", "forms"),
        returns=(
            "None; adds findings to `ctx.findings` that relate the forms to the design; it only reads"
            " the forms' contexts (evaluate remembers each form's context by its content and hands the"
            " same one to later evaluations)"
        ),
        used_by="the report's findings",
        default=lambda: _nothing,
        result="None",
        accepts=_is_none,
    ),
    Hook(
        "pair_figures",
        "function",
        False,
        ("first", "other", "catalog"),
        returns="`[(first's Figure, other's Figure)]`, numbers that hold between two ships, each with its "
        "`detail` and `source`",
        used_by="the comparison's section \"Between the ships\" (`compare`, its sheet, the editor's Compare with...)",
        default=lambda: _none,
        result="a list of (first's Figure, other's Figure)",
        accepts=_is_figure_pairs,
    ),
    Hook(
        "fix_hints",
        "function",
        False,
        ("design", "report", "catalog"),
        returns="changes worth trying, each `(path, value)` or a list of them made together",
        used_by="Fix... and `check --suggest`",
        default=lambda: _none,
        result="a list of changes, each a (path, value) tuple or a list of them",
        accepts=_is_changes,
    ),
    Hook(
        "FIX_NEVER",
        "names",
        False,
        returns="design paths (prefixes) the search for fixes never changes",
        used_by="Fix... and `check --suggest`",
        default=tuple,
    ),
    Hook(
        "FORM_CALLS",
        "mapping",
        False,
        returns="`{name: fn(form_context, **params)}`, what the declared form calls for values the engine computes",
        used_by="the editor's declared form (`call:` of a figure, a choice or an action)",
        default=dict,
        lazy=True,
    ),
)
BY_NAME = {h.name: h for h in HOOKS}

# What the module of a command the manifest contributes (``commands: [{module: ...}]``) defines.
COMMAND_HOOKS: tuple[Hook, ...] = (
    Hook(
        "add_arguments",
        "function",
        True,
        ("parser", "catalog_opts"),
        returns="None; adds the command's options (and subcommands) to its argparse parser and sets `func` "
        "on them, a handler returning an exit code",
        used_by="`shipyard NAME`",
    ),
)
# What the module of a manifest's text format or conversion provides (docs/conversion.md, The
# contracts; the protocols are shipyard.core.textformats'): checked by check_contribution
# when the module is first used and by ``rulesets --check``.
READ_HOOKS: tuple[Hook, ...] = (
    Hook(
        "MAX_TEXT_BYTES",
        "size",
        True,
        returns="the most bytes of text `read` takes; more is refused unread",
        used_by="`shipyard import`, the editor's Import",
    ),
    Hook(
        "read",
        "function",
        True,
        ("text", "catalog"),
        keywords=("source",),
        returns="the designs the text holds, each a `TextImport` (its design, its report, `loaded(file)`); "
        "called with `source=` the file it came from",
        used_by="`shipyard import`, the editor's Import",
        result="a list of TextImport",
        accepts=_is_list,
    ),
)
WRITE_HOOKS: tuple[Hook, ...] = (
    Hook(
        "write",
        "function",
        True,
        ("design", "catalog"),
        keywords=("markdown",),
        returns="the design as the format's text (`markdown=True`: for a Markdown page)",
        used_by="`shipyard export`, the editor's Export",
        result="a str",
        accepts=_is_text,
    ),
    Hook(
        "lost",
        "function",
        True,
        ("design", "catalog"),
        returns="what the text cannot hold of the design, a line each (said before writing)",
        used_by="`shipyard export`, the editor's Export",
        result="a list of str",
        accepts=_is_lines,
    ),
)
CONVERSION_HOOKS: tuple[Hook, ...] = (
    Hook(
        "convert_file",
        "function",
        True,
        ("file", "catalog", "options"),
        returns="a `ConversionResult`: the designs made, each with its report of what was kept and lost",
        used_by="`shipyard convert`, the editor's Convert",
        result="a ConversionResult (with `loaded` and `report_lines`)",
        accepts=_is_conversion,
    ),
)
# What a manifest's ``editor_pages: "package.module:Class"`` names (docs/rulesets.md,
# "Hand-written pages"): built by the editor with these arguments; checked by ``rulesets --check``.
EDITOR_PAGES_HOOK = Hook(
    "editor_pages",
    "function",
    True,
    ("document", "binder", "report_error"),
    returns="an object with `pages` (a list of (tab title, function building the page)) and `refresh()`",
    used_by="the editor's pages for a design of the ruleset, instead of its declared form",
)
REQUIRED = tuple(h.name for h in HOOKS if h.required)


def _nothing(*args: Any) -> None:
    return None


def _none(*args: Any) -> list[Any]:
    return []


def optional(module: Any, name: str) -> Any:
    """The package's hook ``name``, or the hook's declared default when the package has none.

    A hook the package gives lazily (``FORM_CALLS``) is checked here, the first time it is
    read: a wrong one is an input error naming the hook, never a traceback deep in the editor."""
    hook = BY_NAME[name]
    value = getattr(module, name, None)
    if value is None:
        assert hook.default is not None, f"{name} is a required hook"
        return hook.default()
    if hook.lazy and name not in _checked.get(module, ()):
        problems = _check_value(hook, value, module)
        if problems:
            raise InputError(problems)
        _checked.setdefault(module, set()).add(name)
    return value


def returned(ruleset: str, hook: Hook, value: Any, module: Any, what: str = "") -> Any:
    """What the function hook ``hook`` returned, when it is what the specification says
    (:attr:`Hook.accepts`); otherwise an input error naming the ruleset, the hook, what it
    returned and what it should have, not an attribute error deep in the engine or a sheet."""
    if hook.accepts is None or hook.accepts(value, module):
        return value
    from shipyard.core.termtext import escape

    said = repr(value)
    said = said if len(said) <= 80 else said[:79] + "…"
    file, line = _where(module, getattr(module, hook.name, None))
    raise InputError.single(
        f"ruleset {ruleset!r}: {what}hook {hook.name!r} returned {type(value).__name__} {escape(said)}, "
        f"not {hook.result.replace('{Design}', getattr(getattr(module, 'Design', None), '__name__', 'Design'))}; "
        f"it should return {hook.returns}",
        file=file,
        line=line,
    )


class HookedModule:
    """A ruleset's package as Shipyard calls it: each function hook's result checked against
    :data:`HOOKS` every time it is called (:func:`returned`), and, for a plug-in (a package
    not Shipyard's own), its hooks, its rule types' ``apply`` and its ``FORM_CALLS`` run
    under :func:`shipyard.core.plugincode.plugin_code`: whatever they raise is an input
    error naming the ruleset, the hook and the plug-in's file and line, what they print goes
    to stderr, and a call that loops is stopped.

    Every other name is the package's own attribute. :func:`check` reads the package itself
    (``module``), never this."""

    def __init__(
        self,
        module: Any,
        ruleset: str,
        package: str,
        *,
        plugin: bool,
        hooks: tuple[Hook, ...] = HOOKS,
        what: str = "",
    ) -> None:
        self.__dict__.update(
            module=module,
            ruleset=ruleset,
            package=package,
            plugin=plugin,
            hooks={h.name: h for h in hooks},
            what=f"{what}: " if what else "",
        )

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.module, name)
        hook = self.hooks.get(name)
        if hook is None or value is None:
            return value
        if hook.shape == "function" and callable(value):
            value = self._function(hook, value)
        elif self.plugin and name == "FORM_CALLS" and isinstance(value, Mapping):
            value = {k: self._guard(f"form call {k!r}", f) if callable(f) else f for k, f in value.items()}
        elif self.plugin and name == "RULE_TYPES" and isinstance(value, Mapping):
            from shipyard.core.model import RuleType
            from shipyard.core.plugincode import GuardedApply

            value = {
                k: replace(t, apply=GuardedApply(f"ruleset {self.ruleset!r}: rule type {k!r}", self.package, t.apply))
                if isinstance(t, RuleType) and not isinstance(t.apply, GuardedApply) and _own(t.apply, self.package)
                else t
                for k, t in value.items()
            }
        self.__dict__[name] = value  # made once: the same object each time it is read
        return value

    def __dir__(self) -> list[str]:
        return dir(self.module)

    def __repr__(self) -> str:
        return f"<ruleset package {self.package!r} as Shipyard calls it>"

    def _guard(self, what: str, function: Any) -> Any:
        from shipyard.core.plugincode import guarded

        return guarded(
            f"ruleset {self.ruleset!r}: {self.what}{what}", function, self.package, _module_file(self.module)
        )

    def _function(self, hook: Hook, function: Any) -> Any:
        inner = self._guard(f"hook {hook.name!r}", function) if self.plugin else function
        ruleset, module, what = self.ruleset, self.module, self.what

        def call(*args: Any, **kwargs: Any) -> Any:
            return returned(ruleset, hook, inner(*args, **kwargs), module, what)

        call.__wrapped__ = function  # type: ignore[attr-defined]  # its signature is the plug-in's
        call.__name__ = hook.name
        return call


def held(ruleset: str, name: str, value: T, expected: type[Any]) -> T:
    """What the function hook ``name`` returned, when it is the type the specification says
    (``expected``: a ``DesignView`` from ``view``, a ``Derived`` from ``derive``, the
    package's ``Design`` from ``resolve`` and ``new_design``); otherwise an input error
    naming the ruleset and the hook, not an attribute error deep in the engine or a sheet."""
    if isinstance(value, expected):
        return value
    from shipyard.core.termtext import escape

    said = repr(value)
    said = said if len(said) <= 80 else said[:79] + "…"
    raise InputError.single(
        f"ruleset {ruleset!r}: hook {name!r} returned {type(value).__name__} {escape(said)}, "
        f"not a {expected.__name__}; it should return {BY_NAME[name].returns}"
    )


# The lazy hooks already checked, by module (weakly: a module dropped is forgotten with it).
_checked: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def check(module: Any, package: str, *, lazy: bool = False) -> None:
    """Check ``module`` (the package ``package``) against :data:`HOOKS`; every problem at once.

    ``lazy`` also reads the hooks the package gives only when asked (``shipyard rulesets
    --check`` does; an import for ``shipyard check`` does not, to keep the editor's form
    language out of it)."""
    module = module.module if isinstance(module, HookedModule) else module
    file = _module_file(module)
    declared = set(getattr(module, "__all__", ()))
    problems: list[Problem] = []
    missing = [n for n in REQUIRED if n not in vars(module) and n not in declared]
    if missing:
        problems.append(
            Problem(
                f"the ruleset package {package!r} lacks {', '.join(missing)}",
                file=file,
                allowed=", ".join(BY_NAME[n].signature for n in REQUIRED),
            )
        )
    for hook in HOOKS:
        if hook.name in missing or (hook.name not in vars(module) and not (lazy and hook.name in declared)):
            continue
        value = getattr(module, hook.name) if hook.name in vars(module) or lazy else None
        problems += _check_value(hook, value, module)
    problems += _misspelt(module, package, file, declared)
    if problems:
        raise InputError(problems)


def check_contribution(module: Any, hooks: tuple[Hook, ...], what: str) -> None:
    """Check the module of a manifest's contribution (``what``: "ruleset 'x': command 'dice'") against
    ``hooks``: each required one present and callable as Shipyard calls it."""
    problems: list[Problem] = []
    for hook in hooks:
        if hook.name not in vars(module):
            if hook.required:
                problems.append(
                    Problem(f"{what}: its module {module.__name__!r} lacks {hook.signature}", file=_module_file(module))
                )
            continue
        problems += [
            replace(p, message=f"{what}: {p.message}") for p in _check_value(hook, vars(module)[hook.name], module)
        ]
    if problems:
        raise InputError(problems)


def _misspelt(module: Any, package: str, file: str | None, declared: set[str]) -> list[Problem]:
    """A public name of the package's own that looks like a hook's but is none."""
    out = []
    lowered = {h.name.lower(): h.name for h in HOOKS}
    for name in sorted(set(vars(module)) | declared):
        if name.startswith("_") or name in BY_NAME:
            continue
        value = vars(module).get(name)
        if isinstance(value, types.ModuleType) or not _own(value, package):
            continue
        hits = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=LOOKS_LIKE)
        if hits:
            hook = BY_NAME[lowered[hits[0]]]
            where_file, line = _where(module, value)
            out.append(
                Problem(
                    f"the ruleset package {package!r} defines {name!r}, which is no hook; did you mean "
                    f"{hook.name!r} ({hook.signature})? A helper of the package's own with such a name "
                    "starts with '_'",
                    file=where_file or file,
                    line=line,
                    allowed=", ".join(h.name for h in HOOKS),
                )
            )
    return out


def _own(value: Any, package: str) -> bool:
    """Whether ``value`` is the package's own (a function or class defined in it, or data):
    what it imports from Shipyard or pydantic (``RuleType``, ``Field``) is not its to name."""
    where = getattr(value, "__module__", None)
    if not isinstance(where, str) or isinstance(value, Mapping | list | tuple):
        return True
    return where == package or where.startswith(package + ".")


def _check_value(hook: Hook, value: Any, module: Any) -> list[Problem]:
    said = _said(value)

    def bad(message: str) -> list[Problem]:
        file, line = _where(module, value)
        return [Problem(f"hook {hook.name!r}: {message}", file=file, line=line)]

    if hook.shape == "function":
        if not callable(value):
            return bad(f"is {said}, not a function; Shipyard calls {hook.signature}")
        try:
            sig = inspect.signature(value)
        except (TypeError, ValueError):
            return []  # a builtin without a signature: nothing to hold it to
        try:
            sig.bind(*hook.params, **dict.fromkeys(hook.keywords))
        except TypeError:
            bare = sig.replace(
                parameters=[p.replace(annotation=p.empty, default=p.empty) for p in sig.parameters.values()],
                return_annotation=sig.empty,
            )
            return bad(f"takes {getattr(value, '__name__', hook.name)}{bare}; Shipyard calls {hook.signature}")
        return []
    if hook.shape == "model":
        from pydantic import BaseModel

        if not (isinstance(value, type) and issubclass(value, BaseModel)):
            return bad(f"is {said}, not a pydantic model class")
        return []
    if hook.shape == "size":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return bad(f"is {value!r}, not a number of bytes (a whole number, 1 or more)")
        return []
    if hook.shape == "names":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            return bad(f"is {said}, not a list of design paths")
        return []
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        return bad(f"is {said}, not a mapping of names")
    return [p for key, v in value.items() for p in _check_entry(hook, key, v, module)]


def _check_entry(hook: Hook, key: str, value: Any, module: Any) -> list[Problem]:
    """One entry of a mapping hook: an item kind's model, a rule type, a form call."""
    from shipyard.core.items import CatalogItem
    from shipyard.core.model import RuleType

    if hook.name == "ITEM_KINDS" and not (isinstance(value, type) and issubclass(value, CatalogItem)):
        problem = f"entry {key!r} is {_said(value)}, not a CatalogItem subclass"
    elif hook.name == "RULE_TYPES" and not isinstance(value, RuleType):
        problem = f"entry {key!r} is {_said(value)}, not a RuleType(ParamsModel, apply)"
    elif hook.name == "FORM_CALLS" and not callable(value):
        problem = f"entry {key!r} is {_said(value)}, not a function fn(form_context, **params)"
    elif hook.name == "FORM_CALLS":
        try:
            inspect.signature(value).bind("form_context")
        except TypeError:
            problem = f"entry {key!r} cannot be called as fn(form_context, **params)"
        except ValueError:
            return []
        else:
            return []
    else:
        return []
    file, line = _where(module, value)
    return [Problem(f"hook {hook.name!r}: {problem}", file=file, line=line)]


def _said(value: Any) -> str:
    """``value`` in a few words: "an int", "a dict", "the class Ship"."""
    if isinstance(value, type):
        return f"the class {value.__name__}"
    kind = type(value).__name__
    return f"{'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}"


def _module_file(module: Any) -> str | None:
    file = getattr(module, "__file__", None)
    return str(file) if file else None


def _where(module: Any, value: Any) -> tuple[str | None, int | None]:
    """Where ``value`` is defined (a function's or class's file and line), else the module's file."""
    value = inspect.unwrap(value) if callable(value) else value
    code = getattr(value, "__code__", None)
    if isinstance(code, types.CodeType):
        return code.co_filename, code.co_firstlineno
    if isinstance(value, type):
        try:
            return inspect.getsourcefile(value), inspect.getsourcelines(value)[1]
        except (OSError, TypeError):
            pass
    return _module_file(module), None
