"""Attributes of a ruleset's package that are imported the first time they are asked for.

A ruleset's package is imported whenever a design of it is read, by every ``shipyard
check``. Some of what it offers is for the editor only, such as the functions its
declared form calls (``FORM_CALLS``, which bring in the form language); importing those
on every check costs start-up time for nothing. A package names them instead::

    from shipyard.core.lazy import lazy_attributes

    __getattr__ = lazy_attributes(__name__, FORM_CALLS=".editing")

and ``package.FORM_CALLS`` imports ``package.editing`` when it is first read (PEP 562).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_attributes(package: str, **where: str) -> Callable[[str], object]:
    """A module ``__getattr__`` giving each named attribute from its module (``.editing`` is
    relative to ``package``), imported once and kept in the package's namespace."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
