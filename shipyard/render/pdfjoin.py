"""Joining the PDF parts a print renders in parallel into one PDF (with qpdf, through pikepdf).

Every part is a tagged PDF; joining them keeps one structure tree (each part's elements
in page order under one Document), one form (the parts' fields), the outline (each part's
bookmarks, pointing at the joined pages), the language and the title.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


def join_pdfs(parts: list[bytes], title: str) -> bytes:
    """One PDF of the parts' pages, with their form fields and one structure tree.

    qpdf (through pikepdf) copies the parts' objects without parsing them into Python
    objects, so joining stays small beside rendering; pypdf parsed every object, which
    cancelled what rendering on parallel workers gained."""
    if len(parts) == 1:
        return parts[0]
    import pikepdf
    from pikepdf import Array, Dictionary

    out = pikepdf.new()
    tree = StructureTree(out)
    fields = Array()
    outline: list[Bookmark] = []
    lang = None
    for data in parts:
        part = pikepdf.open(io.BytesIO(data))
        first = len(out.pages)
        with warnings.catch_warnings():
            # pikepdf warns that extend() leaves the form's fields behind: the fields are
            # joined below (each widget copied with its page is its field), so the warning
            # would only tell a user printing a fillable fleet book something untrue
            warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
            out.pages.extend(part.pages)  # pages with their annotations (the form's widgets)
        tree.add(part, out.pages[first:])
        outline += _outline_of(part, first)
        form = part.Root.get("/AcroForm")
        if form is not None:
            for f in form.get("/Fields", []):
                fields.append(_copied(out, part, f))  # the widget copied with its page is the field
            if "/AcroForm" not in out.Root:  # the first part's form: its resources and settings
                out.Root.AcroForm = _copied(out, part, form)
        lang = lang if lang is not None else part.Root.get("/Lang")
    if len(fields):
        out.Root.AcroForm.Fields = fields
    if outline:
        with out.open_outline() as joined:
            joined.root.extend(_outline_items(out, outline))
    if lang is not None:
        out.Root.Lang = lang
    if tree.tagged:
        out.Root.StructTreeRoot = tree.finish()
        out.Root.MarkInfo = Dictionary(Marked=True)
        out.Root.ViewerPreferences = Dictionary(DisplayDocTitle=True)
    out.docinfo = out.make_indirect(Dictionary({"/Title": pikepdf.String(title), "/Creator": "Shipyard"}))
    buf = io.BytesIO()
    out.save(buf, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buf.getvalue()


@dataclass(frozen=True)
class Bookmark:
    """One entry of a part's outline (WeasyPrint makes one a heading): its title, the
    joined PDF's page it points at, where on that page, and the entries under it."""

    title: str
    page: int | None
    view: tuple[Any, ...]
    children: list[Bookmark]


def _outline_of(part: Any, first: int) -> list[Bookmark]:
    """A part's bookmarks, their pages counted in the joined PDF (the part starts at
    page index ``first``). qpdf does not carry outlines with the pages, and a book
    without them has no bookmarks to jump to a design by."""
    if "/Outlines" not in part.Root:
        return []
    index = {page.obj.objgen: i for i, page in enumerate(part.pages)}

    def convert(item: Any) -> Bookmark:
        dest = item.destination
        page, view = None, ()
        if dest is not None and len(dest) and hasattr(dest[0], "objgen"):
            found = index.get(dest[0].objgen)
            page, view = (None, ()) if found is None else (first + found, tuple(dest[1:]))
        return Bookmark(str(item.title), page, view, [convert(c) for c in item.children])

    with part.open_outline() as outline:
        return [convert(item) for item in outline.root]


def _outline_items(out: Any, bookmarks: list[Bookmark]) -> list[Any]:
    from pikepdf import Array, OutlineItem

    items = []
    for b in bookmarks:
        item = OutlineItem(b.title)
        if b.page is not None:
            item.destination = Array([out.pages[b.page].obj, *b.view])
        item.children.extend(_outline_items(out, b.children))
        items.append(item)
    return items


class StructureTree:
    """The structure trees of several tagged PDFs joined as one: every part's elements
    under one Document element, in the parts' order, and one parent tree whose keys
    (a page's ``/StructParents``, an annotation's ``/StructParent``) are moved past the
    keys of the parts before. The elements' pages (``/Pg``) are the joined PDF's, as qpdf
    maps a part's pages to the copies it made of them."""

    def __init__(self, pdf: Any) -> None:
        from pikepdf import Array, Dictionary, Name

        self.pdf = pdf
        self.kids = Array()
        self.document = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, K=self.kids))
        self.nums = Array()
        self.next_key = 0
        self.tagged = False

    def add(self, part: Any, pages: Sequence[Any]) -> None:
        """Add one part: its PDF and the pages of the joined PDF it was appended as."""
        from pikepdf import Array

        part_root = part.Root.get("/StructTreeRoot")
        if part_root is None:
            return
        self.tagged = True
        cloned = self.pdf.copy_foreign(part_root)
        for part_doc in _items(cloned.get("/K")):
            for kid in _items(part_doc.get("/K")):
                kid.P = self.document
                self.kids.append(kid)
        nums = cloned.ParentTree.get("/Nums", Array())
        offset = self.next_key
        for i in range(0, len(nums), 2):
            key = int(nums[i]) + offset
            self.nums.append(key)
            self.nums.append(nums[i + 1])
            self.next_key = max(self.next_key, key + 1)
        for page in pages:
            obj = page.obj
            if "/StructParents" in obj:
                obj.StructParents = int(obj.StructParents) + offset
            for annot in obj.get("/Annots", []):
                if "/StructParent" in annot:
                    annot.StructParent = int(annot.StructParent) + offset

    def finish(self) -> Any:
        """The joined tree's root, added to the PDF."""
        from pikepdf import Array, Dictionary, Name

        root = self.pdf.make_indirect(
            Dictionary(
                Type=Name.StructTreeRoot,
                K=Array([self.document]),
                ParentTree=self.pdf.make_indirect(Dictionary(Nums=self.nums)),
                ParentTreeNextKey=self.next_key,
            )
        )
        self.document.P = root
        return root


def _copied(out: Any, part: Any, obj: Any) -> Any:
    """``obj`` of ``part`` copied into ``out`` (qpdf copies indirect objects only: a direct
    one, such as WeasyPrint's form dictionary, is made indirect in its part first)."""
    return out.copy_foreign(obj if obj.is_indirect else part.make_indirect(obj))


def _items(value: Any) -> list[Any]:
    """A structure element's kids: an array, one element, or none."""
    from pikepdf import Array

    if value is None:
        return []
    return list(value) if isinstance(value, Array) else [value]
