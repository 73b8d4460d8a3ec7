"""HTML to PDF with WeasyPrint, locked down: no network, no files outside known folders.

Only ``data:`` URLs and regular files under the template and catalog folders (resolved
real paths) may be loaded. No redirects, no attachments, presentational hints off.
Imported only inside the render worker process.

Every PDF is tagged (WeasyPrint's ``pdf_tags``: a structure tree in document order, the
``<html lang>`` as its language, the ``<title>`` shown as its title).
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse


class RefusedResource(Exception):
    """A sheet asked for something outside what sheets may load."""


class SafeFetcher(URLFetcher):
    """Serve ``data:`` URLs and files under ``roots``; refuse everything else, loudly."""

    def __init__(self, roots: list[Path]) -> None:
        super().__init__(timeout=5, allowed_protocols={"data", "file"}, allow_redirects=False, fail_on_errors=True)
        self.roots = [r.resolve() for r in roots]

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file":
            raise RefusedResource(
                f"refused {url!r}: sheets may not load anything from the network; "
                "use data: URLs or files in the template folder"
            )
        path = Path(unquote(urlparse(url).path)).resolve()
        inside = any(path.is_relative_to(r) for r in self.roots)
        if not inside or not path.is_file():
            raise RefusedResource(
                f"refused {url!r}: only regular files inside the template and catalog folders may be loaded "
                f"({', '.join(str(r) for r in self.roots)})"
            )
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


def html_to_pdf(html: str, base: Path, roots: list[Path]) -> tuple[bytes, list[tuple[float, float]], dict[str, int]]:
    """Render ``html``: the PDF bytes, each page's size in mm, and the page each anchor is on."""
    document = HTML(string=html, base_url=base.resolve().as_uri() + "/", url_fetcher=SafeFetcher(roots)).render(
        presentational_hints=False, pdf_tags=True
    )
    document.metadata.attachments = []
    for page in document.pages:
        page.links = [link for link in page.links if link[0] != "attachment"]
    pdf: Any = document.write_pdf(pdf_tags=True)
    px_to_mm = 25.4 / 96
    sizes = [(round(p.width * px_to_mm, 1), round(p.height * px_to_mm, 1)) for p in document.pages]
    anchors: dict[str, int] = {}
    for index, page in enumerate(document.pages):
        for name in page.anchors:
            anchors.setdefault(name, index)
    return bytes(pdf), sizes, anchors
