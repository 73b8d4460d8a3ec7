"""Pictures decoded and drawn in a process of their own, with limits: never in the
editor's process or the command line's.

A design's picture comes from strangers. The core reads it cheaply first (its size from
its header; an SVG read as a stream for scripts, outside references, nesting and what its
``<use>`` elements draw: :mod:`shipyard.core.artcheck`), but a decoder or a rasteriser is C or
Rust code that a picture passing every check may still crash (an SVG of 20,000 nested
groups overflowed resvg's stack and took the editor down with every unsaved edit). So
Pillow's decoding and scaling, resvg's drawing of tokens and of SVG thumbnails, and
PDFium's rasterising of printed pages run here, in a worker that:

- may use at most :data:`MEMORY_LIMIT` of address space (``RLIMIT_AS``, set in the
  worker: a picture asking for more fails there, not in the machine);
- is given a time limit for each job and killed when it passes;
- is started as a new interpreter (never forked from the editor's threads) and dies with
  its parent (the render worker's watchdog);
- when it crashes or is killed, the caller gets a :class:`PictureProblem` saying so in
  words, the picture is left out with a warning, and the next job starts a new worker.

One worker serves a process, started on the first job and kept for the next (the editor
draws a thumbnail after each change of the art; a print scales each design's picture);
threads take turns on it.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

from shipyard.render.workercommand import PICTURE_ENV, limit_address_space

MEMORY_LIMIT = 2**30
"""Address space the picture worker may use: a picture of the most pixels the core lets
through (40 million) takes 160 MB decoded."""
TIMEOUT = 20.0
"""Seconds a job may take, plus :data:`TIMEOUT_EACH` for each picture it holds."""
TIMEOUT_EACH = 2.0


class PictureProblem(Exception):
    """A picture could not be decoded or drawn; the message says why in the user's words."""


# --- the jobs, as the worker runs them -----------------------------------------------------


MAX_PIXELS = 40_000_000
"""Pillow's own limit, as the core's (shipyard.core.artcheck.MAX_ART_PIXELS, checked from the header
before a picture is sent here; the worker imports nothing of the core, so it starts sooner)."""
_PIL_FORMATS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP"}


def decode(data: bytes, kind: str, long_side: int) -> Any:
    """The picture decoded, turned upright and scaled to fit ``long_side`` pixels (a PIL image), or None."""
    from PIL import Image, ImageFile, ImageOps

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # the core checked the header; Pillow checks again
    # WeasyPrint, once imported, tells Pillow to pass truncated or broken pixels as whatever
    # it could read: a picture would then decode into garbage in a process that has imported
    # it and be left out in one that has not. Strict here; the setting is put back after.
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(data), formats=[_PIL_FORMATS[kind]]) as opened:
            if opened.format == "JPEG":
                opened.draft("RGB", (long_side, long_side))  # decode at 1/2, 1/4 or 1/8 when that is enough
            image = ImageOps.exif_transpose(opened)
            image.load()
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    if image.mode not in ("RGB", "RGBA", "L", "LA"):
        image = image.convert("RGBA" if "transparency" in image.info or image.mode == "P" else "RGB")
    image.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
    return image


def _scale(data: bytes, kind: str, long_side: int, embed: bool) -> tuple[bytes, str, int, int] | None:
    """The picture decoded, upright, scaled and encoded again (None: it cannot be decoded)."""
    image = decode(data, kind, long_side)
    if image is None:
        return None
    out = io.BytesIO()
    alpha = image.mode in ("RGBA", "LA") or (not embed and "transparency" in image.info)
    if alpha:
        image.convert("RGBA").save(out, "PNG", optimize=embed)
        mime = "image/png"
    else:
        image.convert("RGB").save(out, "JPEG", quality=85 if embed else 88)
        mime = "image/jpeg"
    return out.getvalue(), mime, image.width, image.height


def _draw(svgs: list[str], dpi: int) -> list[bytes]:
    """Each SVG drawn by resvg as a PNG."""
    import resvg_py

    return [bytes(resvg_py.svg_to_bytes(svg_string=svg, dpi=dpi)) for svg in svgs]


def _thumbnail(data: bytes, kind: str, width: int, height: int, box: tuple[int, int]) -> bytes | None:
    """A PNG of the picture fitting ``box`` (None: it cannot be decoded)."""
    from PIL import Image

    if kind == "svg":
        import resvg_py

        # drawn at the box's size, never at the size the SVG declares (it may declare a huge one)
        scale = min(box[0] / width, box[1] / height) if width and height else None
        wide = max(1, round(width * scale)) if scale else box[0]
        png = bytes(resvg_py.svg_to_bytes(svg_string=data.decode("utf-8", "replace"), width=wide))
        with Image.open(io.BytesIO(png)) as drawn:
            drawn.load()
            image = drawn.copy()
    else:
        scaled = _scale(data, kind, max(box), False)
        if scaled is None:
            return None
        with Image.open(io.BytesIO(scaled[0])) as opened:
            opened.load()
            image = opened.copy()
    image.thumbnail(box)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _pages(pdf: bytes, dpi: int) -> list[bytes]:
    from shipyard.render.rasterize import rasterize_pages

    return rasterize_pages(pdf, dpi)


def _cards(pdf: bytes, dpi: int, paper: str) -> list[bytes]:
    from shipyard.render.rasterize import card_pngs

    return card_pngs(pdf, dpi, paper)


JOBS: dict[str, Callable[..., Any]] = {
    "scale": _scale,
    "draw": _draw,
    "thumbnail": _thumbnail,
    "pages": _pages,
    "cards": _cards,
}


def serve(conn: Connection, parent: int | None) -> None:
    """The worker's loop: answer each job with ("ok", result) or ("error", why) until told to stop."""
    from shipyard.render.workercommand import watch_parent

    watch_parent(os.getppid() if parent is None else parent)
    limit_address_space(MEMORY_LIMIT)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        name, args = message
        try:
            answer: tuple[Any, ...] = ("ok", JOBS[name](*args))
        except MemoryError:
            answer = ("error", f"decoding it needed more than {MEMORY_LIMIT // 2**20:,} MB of memory")
        except Exception as exc:  # a decoder's or a renderer's error, explained
            answer = ("error", f"it cannot be drawn ({type(exc).__name__}: {str(exc)[:200]})")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


# --- the caller's end --------------------------------------------------------------------


def _command(fd: int) -> list[str]:
    """How the worker is started: this module (it imports Pillow and resvg when a job needs
    them, nothing of the core); a frozen app has no ``-m``: itself as a render worker, told
    by :data:`PICTURE_ENV` to serve pictures."""
    import sys

    from shipyard.render.workercommand import worker_command

    if getattr(sys, "frozen", False):
        return worker_command(fd)
    return [sys.executable, "-m", "shipyard.render.pictureworker", str(fd)]


def _ended(code: int | None) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"it was ended by {signal.Signals(-code).name}"
    return f"exit code {code}"


class PictureWorker:
    """The process pictures are decoded and drawn in; started on the first job, again after a crash."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: Any = None
        self._conn: Any = None
        self._stderr: Any = None  # what the worker wrote there (a decoder's last words before a crash)

    def _start(self) -> None:
        import tempfile

        from shipyard.render.worker import _Subprocess

        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open as long as the worker
        proc = _Subprocess({PICTURE_ENV: "1"}, stderr=self._stderr, command=_command)
        self._proc, self._conn = proc, proc.conn

    def run(self, name: str, *args: Any, items: int = 1, timeout: float | None = None) -> Any:
        """The answer of job ``name`` on ``args``; :class:`PictureProblem` when it fails, crashes the
        worker or passes its time limit (``items``: how many pictures the job holds, for the limit)."""
        limit = timeout if timeout is not None else TIMEOUT + TIMEOUT_EACH * items
        with self._lock:
            if self._proc is None or not self._proc.is_alive():
                self._start()
            try:
                self._conn.send((name, args))
            except (BrokenPipeError, OSError):
                raise PictureProblem(self._crashed()) from None
            deadline = time.monotonic() + limit
            if not self._conn.poll(max(0.0, deadline - time.monotonic())):
                self._stop()
                raise PictureProblem(f"drawing it stopped after the {limit:g} s time limit")
            try:
                answer = self._conn.recv()
            except (EOFError, OSError):
                raise PictureProblem(self._crashed()) from None
        if answer[0] == "error":
            raise PictureProblem(answer[1])
        return answer[1]

    def _crashed(self) -> str:
        self._proc.join(2)
        code = self._proc.exitcode
        said = self._last_words()
        self._stop()
        if "memory allocation" in said:
            said = f"it needed more than the {MEMORY_LIMIT // 2**20:,} MB of memory allowed"
        return f"the process drawing it crashed ({_ended(code)}{': ' + said if said else ''}); Shipyard is unharmed"

    def _last_words(self) -> str:
        """The first line the worker wrote to its error output (a Rust panic says its reason there)."""
        try:
            self._stderr.seek(0)
            text = self._stderr.read(4096).decode("utf-8", "replace")
        except (OSError, ValueError, AttributeError):
            return ""
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        return lines[0][:200] if lines else ""

    def _stop(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(2)
            with contextlib.suppress(OSError):
                self._conn.close()
        if self._stderr is not None:
            with contextlib.suppress(OSError):
                self._stderr.close()
        self._proc = self._conn = self._stderr = None

    def pid(self) -> int | None:
        """The worker's process id while it runs (for tests and diagnostics)."""
        return self._proc.pid if self._proc is not None and self._proc.is_alive() else None

    def close(self) -> None:
        with self._lock:
            if self._proc is not None and self._proc.is_alive():
                with contextlib.suppress(BrokenPipeError, OSError):
                    self._conn.send(None)
                self._proc.join(1)
            self._stop()


_shared = PictureWorker()
atexit.register(_shared.close)


def run(name: str, *args: Any, items: int = 1, timeout: float | None = None) -> Any:
    """Job ``name`` on the process's picture worker (see :meth:`PictureWorker.run`)."""
    return _shared.run(name, *args, items=items, timeout=timeout)


def draw_svgs(svgs: Sequence[str], dpi: int) -> list[bytes | PictureProblem]:
    """Each SVG drawn as a PNG, or why it could not be: all in one job, and when that one
    fails, each alone, so one SVG that crashes the worker costs only its own drawing."""
    if not svgs:
        return []
    try:
        return list(run("draw", list(svgs), dpi, items=len(svgs)))
    except PictureProblem as exc:
        if len(svgs) == 1:
            return [exc]
    out: list[bytes | PictureProblem] = []
    for svg in svgs:
        try:
            out.append(run("draw", [svg], dpi)[0])
        except PictureProblem as exc:
            out.append(exc)
    return out


def shared_pid() -> int | None:
    return _shared.pid()


def main(argv: list[str]) -> None:
    """``python -m shipyard.render.pictureworker FD``: serve pictures on the inherited socket ``FD``."""
    from shipyard.render.workercommand import PARENT_ENV

    parent = os.environ.get(PARENT_ENV, "")
    serve(Connection(int(argv[0])), int(parent) if parent.isdigit() else None)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])


__all__ = [
    "MEMORY_LIMIT",
    "PICTURE_ENV",
    "TIMEOUT",
    "PictureProblem",
    "PictureWorker",
    "draw_svgs",
    "run",
    "shared_pid",
]
