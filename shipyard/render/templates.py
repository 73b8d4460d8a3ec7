"""Sheet templates: jinja2's immutable sandbox, autoescaped, strict about undefined names.

Templates and design files may come from strangers: the sandbox stops attribute tricks,
autoescape turns a design named ``<link rel="attachment" ...>`` into text, and
StrictUndefined makes a typo in a template an error that names the file and line instead
of a silently blank field.

``fillable`` is a global of the environment, not a variable of one render: the shared
macros (templates/common/parts.html) read it to draw a box or a form field, and a
template that imports them without ``with context`` still gets the right one.

Compiled templates are kept in the user's cache folder (jinja2's bytecode cache, as Python
keeps .pyc files): compiling a record sheet's templates is a large part of a fresh
worker's first render (the editor's first preview, every start). Only the compiled code
is kept, never a rendered sheet; a template changed on disk is compiled again (its
source's digest is checked), a compiled file is run only when sealed by this user's
Shipyard (:class:`KeptCompiled`), and a cache that cannot be read or written is only slower.
"""

from __future__ import annotations

import os
import stat
import traceback
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import (
    BytecodeCache,
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateSyntaxError,
)
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment

from shipyard.core.numberwords import unit_for
from shipyard.core.safepaths import UnsafePath, kind_of, walk
from shipyard.core.termtext import shorten
from shipyard.core.usertext import document_text

# A template file is read whole; a sheet's templates are a few KB.
MAX_TEMPLATE_BYTES = 1024 * 1024


class TemplateProblem(Exception):
    """A template could not be rendered; the message names the template file and line."""


class RefusedTemplate(TemplateError):
    """A template name led to something other than a regular file inside the template folders."""


class FolderLoader(FileSystemLoader):
    """jinja2's file loader, reading only regular files inside its folders, links refused.

    ``{% include %}``, ``{% extends %}`` and ``{% import %}`` all come here. The name is
    walked from each template folder with :func:`shipyard.core.safepaths.walk`: no step
    may be a symbolic link (file or folder), and the file must be a regular one, so a
    link to ``/etc`` or ``/proc/self/environ`` or a pipe is refused before it is opened.
    The renderer's URL fetcher walks the same way.
    """

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        for folder in self.searchpath:
            try:
                path = walk(Path(folder), pieces)
                break
            except (FileNotFoundError, NotADirectoryError):
                continue
            except UnsafePath as exc:
                raise RefusedTemplate(
                    f"refused template {template!r}: it is {exc.what} ({exc.path}), not a regular file inside the "
                    f"template folders ({', '.join(self.searchpath)}); only regular files inside them are used, "
                    "never links"
                ) from None
        else:
            return super().get_source(environment, template)  # not found: jinja2's own message
        filename = str(path)
        try:
            st = path.stat()
            if not stat.S_ISREG(st.st_mode):  # swapped since the walk
                raise RefusedTemplate(f"refused template {template!r}: it is {kind_of(st.st_mode)}, not a file")
            if st.st_size > MAX_TEMPLATE_BYTES:
                raise RefusedTemplate(
                    f"refused template {template!r}: {st.st_size:,} bytes; a template is limited to "
                    f"{MAX_TEMPLATE_BYTES:,}"
                )
            contents = path.read_text(encoding=self.encoding)
        except OSError as exc:
            raise RefusedTemplate(f"cannot read template {template!r}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RefusedTemplate(f"template {template!r} is not {self.encoding} text") from None
        mtime = st.st_mtime

        def uptodate() -> bool:
            try:
                return path.stat().st_mtime == mtime
            except OSError:
                return False

        return contents, os.path.normpath(filename), uptodate


class KeptCompiled(BytecodeCache):
    """jinja2's bytecode cache in the user's cache folder, each file sealed with the user's
    own secret (:func:`shipyard.core.cachefile.write_sealed`).

    Loading compiled code is running it, so a compiled template is used only from the
    user's own private cache folder and only when its seal (an HMAC with a secret kept
    0600 beside it) proves this user's Shipyard wrote it: a file copied or planted there is
    compiled again, never run. The cache is kept, sealed, rather than dropped because
    compiling a sheet's templates costs many times what reading them sealed does, in every
    fresh render worker's first render (bench/bench_cache.py measures both). A file that
    cannot be read, written or made sense of is only a template compiled again."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def _name(self, bucket: Bucket) -> str:
        return f"{self.folder}/{bucket.key}.cache"

    def load_bytecode(self, bucket: Bucket) -> None:
        from shipyard.core import cachefile

        data = cachefile.read_sealed(self._name(bucket))
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # cut short, or not jinja2's: compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        from shipyard.core import cachefile

        cachefile.write_sealed(self._name(bucket), bucket.bytecode_to_string())


COMPILED_FOLDER = "sealed-templates"


@lru_cache(maxsize=1)
def kept_compiled() -> KeptCompiled | None:
    """Where this user's compiled templates are kept (one folder a jinja2 version: every
    environment here is made with the same options); None with SHIPYARD_NO_CACHE."""
    from jinja2 import __version__

    if os.environ.get("SHIPYARD_NO_CACHE"):
        return None
    return KeptCompiled(f"{COMPILED_FOLDER}/jinja2-{__version__}")


def environment(dirs: list[Path], fillable: bool = False) -> ImmutableSandboxedEnvironment:
    return _environment(tuple(dirs), fillable)


@lru_cache(maxsize=8)
def _environment(dirs: tuple[Path, ...], fillable: bool) -> ImmutableSandboxedEnvironment:
    """One environment per set of template folders and kind of sheet (flat or fillable), so
    a worker compiles each template once (jinja2 still notices a template file that changed
    on disk)."""
    env = ImmutableSandboxedEnvironment(
        loader=FolderLoader([str(d) for d in dirs]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=kept_compiled(),
    )
    env.globals["fillable"] = fillable
    # {{ n | unit("points") }}: "point" for one, "points" else (one helper for every count's unit)
    env.filters["unit"] = unit_for
    return env


def _where(exc: BaseException, dirs: list[Path]) -> str:
    roots = [str(d.resolve()) for d in dirs]
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        name = frame.filename
        if any(name.startswith(r) for r in roots) or name.endswith((".html", ".css", ".j2")):
            return f"{name}:{frame.lineno}"
    return ""


def render_html(dirs: list[Path], name: str, context: dict[str, Any], fillable: bool = False) -> str:
    """The HTML (or SVG) of template ``name``; with ``fillable`` the shared macros draw form fields.

    Every sheet, card and token is made here, so this is the one place a design's text
    enters a document, and the one place it is made fit for one (:func:`document_text`): a
    token's SVG drawn by resvg refused a design named with a control character ("a non-XML
    character") and the export failed as a bug."""
    env = environment(dirs, fillable)
    try:
        return document_text(env.get_template(name).render(**context))
    except TemplateSyntaxError as exc:
        raise TemplateProblem(
            f"{exc.filename or exc.name}:{exc.lineno}: template syntax error: {exc.message}"
        ) from None
    except TemplateError as exc:
        where = _where(exc, dirs) or name
        raise TemplateProblem(f"{where}: template error: {exc}") from None
    except RecursionError:
        raise TemplateProblem(f"{name}: template recursion too deep (a macro calls itself without end?)") from None
    except MemoryError:
        raise
    except Exception as exc:  # IndexError, OverflowError, ValueError ... raised by the template's own code
        where = _where(exc, dirs) or name
        raise TemplateProblem(f"{where}: template error: {type(exc).__name__}: {shorten(str(exc), 300)}") from None
