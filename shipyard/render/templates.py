"""Sheet templates: jinja2's immutable sandbox, autoescaped, strict about undefined names.

Templates and design files may come from strangers: the sandbox stops attribute tricks,
autoescape turns a design named ``<link rel="attachment" ...>`` into text, and
StrictUndefined makes a typo in a template an error that names the file and line instead
of a silently blank field.

``fillable`` is a global of the environment, not a variable of one render: the shared
macros (templates/common/parts.html) read it to draw a box or a form field, and a
template that imports them without ``with context`` still gets the right one.
"""

from __future__ import annotations

import traceback
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.sandbox import ImmutableSandboxedEnvironment


class TemplateProblem(Exception):
    """A template could not be rendered; the message names the template file and line."""


def environment(dirs: list[Path], fillable: bool = False) -> ImmutableSandboxedEnvironment:
    return _environment(tuple(dirs), fillable)


@lru_cache(maxsize=8)
def _environment(dirs: tuple[Path, ...], fillable: bool) -> ImmutableSandboxedEnvironment:
    """One environment per set of template folders and kind of sheet (flat or fillable), so
    a worker compiles each template once (jinja2 still notices a template file that changed
    on disk)."""
    env = ImmutableSandboxedEnvironment(
        loader=FileSystemLoader([str(d) for d in dirs]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["fillable"] = fillable
    return env


def _where(exc: BaseException, dirs: list[Path]) -> str:
    roots = [str(d.resolve()) for d in dirs]
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        name = frame.filename
        if any(name.startswith(r) for r in roots) or name.endswith((".html", ".css", ".j2")):
            return f"{name}:{frame.lineno}"
    return ""


def render_html(dirs: list[Path], name: str, context: dict[str, Any], fillable: bool = False) -> str:
    """The HTML of template ``name``; with ``fillable`` the shared macros draw form fields."""
    env = environment(dirs, fillable)
    try:
        return env.get_template(name).render(**context)
    except TemplateSyntaxError as exc:
        raise TemplateProblem(
            f"{exc.filename or exc.name}:{exc.lineno}: template syntax error: {exc.message}"
        ) from None
    except TemplateError as exc:
        where = _where(exc, dirs) or name
        raise TemplateProblem(f"{where}: template error: {exc}") from None
    except RecursionError:
        raise TemplateProblem(f"{name}: template recursion too deep (a macro calls itself without end?)") from None
