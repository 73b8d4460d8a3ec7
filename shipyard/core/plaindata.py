"""Cached values written as JSON and read back without running any code they name.

The caches (:mod:`shipyard.core.cachefile`) used to be pickles, and reading a pickle runs
whatever code its author chose: a file planted in the cache folder ran on ``shipyard
--help``. JSON only holds data, so a cache is now a JSON tree made by :func:`encode`
and turned back into the objects it came from by :func:`decode`:

- JSON's own values (None, booleans, numbers, text, lists, objects with text keys) are
  themselves;
- a few others are tagged objects (``{"$": tag, ...}``): tuples, sets, dictionaries with
  other keys, bytes (base64), paths, fractions, enumeration members;
- an object of a class (a pydantic model, a dataclass, another plain object) is its
  class's name and its attributes; reading it makes the object with ``__new__`` and sets
  those attributes, as pickle does, but calls nothing the file chose: the class must be
  one of Shipyard's (or the caller's trusted packages'), already imported, and a model, a
  dataclass, an enumeration or a plain object. A class or function held as a value (a
  rule's parameter model and handler) is named the same way and looked up, never called;
- an object met twice (a catalog shares entries between its presets, and each preset's
  catalog points back at its base) is written once and referred to by number after.

Anything else (a lambda, an object of an untrusted module, a module) cannot be encoded:
:class:`Unencodable`, and the caller keeps no cache. Anything wrong while reading (a
name that is not an allowed class, a malformed tree) is :class:`Undecodable`.

Standard library only (pydantic is looked at only when it is already imported).
"""

from __future__ import annotations

import base64
import enum
import sys
import types
from fractions import Fraction
from pathlib import Path, PurePath
from typing import Any

TAG = "$"


class Unencodable(TypeError):
    """A value with no plain-data form here."""


class Undecodable(ValueError):
    """A tree that is not one :func:`encode` makes, or names a class that is not allowed."""


class Raw:
    """A tree kept encoded, to be decoded when first needed (see ``Catalog.form``)."""

    __slots__ = ("tree",)

    def __init__(self, tree: Any) -> None:
        self.tree = tree


def _model_base() -> type | None:
    pydantic = sys.modules.get("pydantic")
    return getattr(pydantic, "BaseModel", None) if pydantic is not None else None


def _plain_class(cls: type) -> bool:
    """Whether an object of ``cls`` is made again by ``object.__new__`` and its ``__dict__``
    (a dataclass, a plain class): not an exception, a class, an enumeration, nor a class
    with slots or a ``__new__`` of its own."""
    if issubclass(cls, BaseException | type | enum.Enum) or cls.__new__ is not object.__new__:
        return False
    return not any(c.__dict__.get("__slots__") for c in cls.__mro__)


def _trusted(module: str, trusted: tuple[str, ...]) -> bool:
    return any(module == t or module.startswith(t + ".") for t in trusted)


def _name(obj: Any, trusted: tuple[str, ...]) -> str:
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        raise Unencodable(f"{obj!r} has no name to be found by")
    if not _trusted(module, trusted):
        raise Unencodable(f"{module}.{qualname} is not in a trusted package ({', '.join(trusted)})")
    return f"{module}:{qualname}"


class _Encoder:
    def __init__(self, trusted: tuple[str, ...]) -> None:
        self.trusted = trusted
        self.seen: dict[int, int] = {}
        self.keep: list[Any] = []  # what was numbered stays alive, so its id is not reused
        self.model = _model_base()

    def number(self, value: Any) -> dict[str, Any] | None:
        """A reference if ``value`` was met before; else give it the next number."""
        at = self.seen.get(id(value))
        if at is not None:
            return {TAG: "r", "i": at}
        self.seen[id(value)] = len(self.keep)
        self.keep.append(value)
        return None

    def encode(self, value: Any) -> Any:
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None or kind is float:
            return value
        if kind is list:
            if (ref := self.number(value)) is not None:
                return ref
            return [self.encode(v) for v in value]
        if kind is dict:
            if (ref := self.number(value)) is not None:
                return ref
            if TAG not in value and all(type(k) is str for k in value):
                return {k: self.encode(v) for k, v in value.items()}
            return {TAG: "d", "v": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if kind is tuple:
            if (ref := self.number(value)) is not None:
                return ref
            return {TAG: "t", "v": [self.encode(v) for v in value]}
        if kind is frozenset or kind is set:
            if (ref := self.number(value)) is not None:
                return ref
            return {TAG: "fs" if kind is frozenset else "s", "v": [self.encode(v) for v in value]}
        if kind is bytes:
            return {TAG: "b", "v": base64.b64encode(value).decode("ascii")}
        if isinstance(value, PurePath):
            return {TAG: "p", "v": str(value)}
        if kind is Fraction:
            return {TAG: "f", "v": str(value)}
        if isinstance(value, Raw):
            return {TAG: "raw", "v": value.tree}
        if isinstance(value, enum.Enum):
            return {TAG: "e", "c": _name(kind, self.trusted), "v": self.encode(value.value)}
        if isinstance(value, type):
            return {TAG: "c", "c": _name(value, self.trusted)}
        if isinstance(value, types.FunctionType):
            return {TAG: "fn", "c": _name(value, self.trusted)}
        if isinstance(value, tuple) and hasattr(kind, "_fields"):  # a named tuple: its plain tuple
            return self.encode(tuple(value))
        return self.encode_object(value, kind)

    def encode_object(self, value: Any, kind: type) -> Any:
        name = _name(kind, self.trusted)
        if (ref := self.number(value)) is not None:
            return ref
        if self.model is not None and issubclass(kind, self.model):
            return {
                TAG: "m",
                "c": name,
                "d": self.encode(dict(value.__dict__)),
                "s": sorted(value.__pydantic_fields_set__),
                "x": self.encode(value.__pydantic_extra__),
                "p": self.encode(value.__pydantic_private__),
            }
        own_state = getattr(kind, "__getstate__", None)
        if own_state is not None and own_state is not getattr(object, "__getstate__", None):
            state = value.__getstate__()
        elif _plain_class(kind):
            state = dict(value.__dict__)
        else:
            raise Unencodable(f"{name}: not a model, a dataclass or a plain object")
        if not _plain_class(kind):
            raise Unencodable(f"{name}: not made again by object.__new__ and its attributes")
        if not isinstance(state, dict) or not all(type(k) is str for k in state):
            raise Unencodable(f"{name}: its state is not attributes by name")
        return {TAG: "o", "c": name, "d": self.encode(state)}


_PENDING = object()
_SCALARS = frozenset({str, int, bool, float, type(None)})


class _Decoder:
    def __init__(self, trusted: tuple[str, ...]) -> None:
        self.trusted = trusted
        self.table: list[Any] = []
        self.model = _model_base()
        self.found: dict[str, Any] = {}  # names looked up already
        self.paths: dict[str, Path] = {}

    def slot(self) -> int:
        self.table.append(_PENDING)
        return len(self.table) - 1

    def lookup(self, name: Any) -> Any:
        """The class or function ``name`` names, in a trusted module already imported."""
        if isinstance(name, str) and name in self.found:
            return self.found[name]
        if not isinstance(name, str) or name.count(":") != 1:
            raise Undecodable(f"not a name: {name!r}")
        module_name, qualname = name.split(":")
        if not _trusted(module_name, self.trusted) or "<" in qualname:
            raise Undecodable(f"{name} is not in a trusted package")
        found: Any = sys.modules.get(module_name)  # never imported here: importing runs code
        if found is None:
            raise Undecodable(f"{module_name} is not imported")
        for part in qualname.split("."):
            found = found.__dict__.get(part) if isinstance(found, type | types.ModuleType) else None
        if not isinstance(found, type | types.FunctionType):
            raise Undecodable(f"{name} is not a class or a function")
        self.found[name] = found
        return found

    def cls(self, name: Any) -> type:
        found = self.lookup(name)
        if not isinstance(found, type):
            raise Undecodable(f"{name} is not a class")
        return found

    def decode(self, tree: Any) -> Any:
        kind = type(tree)
        if kind in _SCALARS:
            return tree
        if kind is list:
            out: list[Any] = []
            self.table.append(out)  # before its items: an item may refer back to it
            out.extend([v if type(v) in _SCALARS else self.decode(v) for v in tree])
            return out
        if kind is not dict:
            raise Undecodable(f"not a value: {kind.__name__}")
        tag = tree.get(TAG)
        if tag is None:
            plain: dict[str, Any] = {}
            self.table.append(plain)
            plain.update({k: v if type(v) in _SCALARS else self.decode(v) for k, v in tree.items()})
            return plain
        if tag == "r":
            index = tree.get("i")
            if type(index) is not int or not 0 <= index < len(self.table) or self.table[index] is _PENDING:
                raise Undecodable(f"a reference to nothing: {index!r}")
            return self.table[index]
        if tag == "d":
            mapping: dict[Any, Any] = {}
            self.table.append(mapping)
            for k, v in tree["v"]:
                mapping[self.decode(k)] = self.decode(v)
            return mapping
        if tag in ("t", "fs", "s"):
            at = self.slot()
            items = [self.decode(v) for v in tree["v"]]
            made = tuple(items) if tag == "t" else frozenset(items) if tag == "fs" else set(items)
            self.table[at] = made
            return made
        if tag == "b":
            return base64.b64decode(tree["v"], validate=True)
        if tag == "p":  # the same few files, over and over (every entry's origin): made once
            text = _text(tree["v"])
            path = self.paths.get(text)
            if path is None:
                path = self.paths[text] = Path(text)
            return path
        if tag == "f":
            return Fraction(_text(tree["v"]))
        if tag == "raw":
            return Raw(tree["v"])
        if tag == "e":
            enum_class = self.cls(tree["c"])
            if not issubclass(enum_class, enum.Enum):
                raise Undecodable(f"{tree['c']} is not an enumeration")
            return enum_class(self.decode(tree["v"]))
        if tag in ("c", "fn"):
            found = self.lookup(tree["c"])
            if isinstance(found, type) != (tag == "c"):
                raise Undecodable(f"{tree['c']} is not a {'class' if tag == 'c' else 'function'}")
            return found
        if tag == "m":
            return self.decode_model(tree)
        if tag == "o":
            return self.decode_object(tree)
        raise Undecodable(f"unknown tag {tag!r}")

    def decode_model(self, tree: dict[str, Any]) -> Any:
        model_class = self.cls(tree["c"])
        if self.model is None or not issubclass(model_class, self.model):
            raise Undecodable(f"{tree['c']} is not a model")
        obj = model_class.__new__(model_class)
        self.table.append(obj)
        fields = self.decode(tree["d"])
        extra, private, fields_set = self.decode(tree["x"]), self.decode(tree["p"]), tree["s"]
        if not isinstance(fields, dict) or not isinstance(fields_set, list):
            raise Undecodable(f"{tree['c']}: malformed fields")
        if not (extra is None or isinstance(extra, dict)) or not (private is None or isinstance(private, dict)):
            raise Undecodable(f"{tree['c']}: malformed extra or private attributes")
        object.__setattr__(obj, "__dict__", fields)
        object.__setattr__(obj, "__pydantic_fields_set__", {_text(f) for f in fields_set})
        object.__setattr__(obj, "__pydantic_extra__", extra)
        object.__setattr__(obj, "__pydantic_private__", private)
        return obj

    def decode_object(self, tree: dict[str, Any]) -> Any:
        object_class = self.cls(tree["c"])
        if not _plain_class(object_class) or (self.model is not None and issubclass(object_class, self.model)):
            raise Undecodable(f"{tree['c']} is not a plain class")
        obj: Any = object.__new__(object_class)
        self.table.append(obj)
        state = self.decode(tree["d"])
        if not isinstance(state, dict):
            raise Undecodable(f"{tree['c']}: malformed attributes")
        obj.__dict__.update(state)  # as pickle does, without calling the class's __setstate__
        return obj


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Undecodable(f"not text: {value!r}")
    return value


def encode(value: Any, trusted: tuple[str, ...] = ("shipyard",)) -> Any:
    """``value`` as a tree of JSON values; :class:`Unencodable` when it has none."""
    try:
        return _Encoder(trusted).encode(value)
    except RecursionError:
        raise Unencodable("nested too deep") from None


def decode(tree: Any, trusted: tuple[str, ...] = ("shipyard",)) -> Any:
    """The value :func:`encode` made ``tree`` of; :class:`Undecodable` for anything else."""
    try:
        return _Decoder(trusted).decode(tree)
    except Undecodable:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError, ZeroDivisionError) as exc:
        raise Undecodable(f"malformed: {type(exc).__name__}: {exc}") from None


__all__ = ["Raw", "Undecodable", "Unencodable", "decode", "encode"]
