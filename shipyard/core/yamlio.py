"""Read YAML with ruamel.yaml so every error can name its line and column.

Catalogs are written by hand, by us and by users with house rules; a message that says
"technology.yaml:41:7: unknown key 'cots'" saves them the hunt. We keep the round-trip
node tree next to the plain data and map validation-error locations back to positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.scanner import RoundTripScanner

from shipyard.core.errors import InputError
from shipyard.core.safepaths import inside
from shipyard.core.usertext import NUMBER_RANGE, decode, read_limited

MAX_YAML_BYTES = 5 * 1024 * 1024
_MAX_NUMBER_TEXT = 40  # characters of one number as written (before it is converted)


class _Refused(MarkedYAMLError):
    """Something the YAML allows and Shipyard does not, with the place it is written."""

    written = ""


class _NoAliasComposer(Composer):
    """Refuses every alias (``*name``), of a mapping, a list or a single value.

    A few hundred bytes of aliases to aliases expand into gigabytes; catalogs do not need
    them. Refused while composing, before anything is expanded.
    """

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.parser.check_event(AliasEvent):
            event = self.parser.peek_event()
            raise _Refused(None, None, "aliases", event.start_mark)
        return super().compose_node(parent, index)


# Deeper than the composer can nest at Python's default recursion limit: such a file was
# always refused as nested too deeply, and is now refused before the scanner reads it all.
# A limit on hostile input, like MAX_YAML_BYTES, not a speed-up (shipyard/_speedups.py): with
# the speed-ups off, a few hundred kilobytes of brackets would still keep a core busy for hours.
MAX_FLOW_DEPTH = 300


class _Nested(YAMLError):
    """A file nested deeper than :data:`MAX_FLOW_DEPTH` (``[[[[...`` or ``{{{{...``)."""


class _FlowDepthScanner(RoundTripScanner):
    """Refuses a flow list or mapping nested more than :data:`MAX_FLOW_DEPTH` deep as it
    reads its opening bracket. The scanner reads every opening bracket of a line of them
    before it hands on the first (each may start a key), comparing each with all those
    before it, in a time that grows with the square of the depth: a few kilobytes of
    brackets kept a core busy long before the composer ran out of stack and the file was
    refused anyway."""

    def fetch_flow_collection_start(self, TokenClass: Any, to_push: str) -> None:
        if self.flow_level >= MAX_FLOW_DEPTH:
            raise _Nested
        super().fetch_flow_collection_start(TokenClass, to_push)


class _RangeConstructor(RoundTripConstructor):
    """Numbers as written are short, and within :data:`NUMBER_RANGE` (finite decimals)."""

    def construct_yaml_int(self, node: Any) -> Any:
        _check_length(node)
        return _check_range(node, super().construct_yaml_int(node))

    def construct_yaml_float(self, node: Any) -> Any:
        _check_length(node)
        return _check_range(node, super().construct_yaml_float(node))


def _check_length(node: Any) -> None:
    if len(str(node.value)) > _MAX_NUMBER_TEXT:
        raise _number_refused(node)


def _check_range(node: Any, value: Any) -> Any:
    if not -NUMBER_RANGE <= float(value) <= NUMBER_RANGE:  # false for NaN too
        raise _number_refused(node)
    return value


def _number_refused(node: Any) -> _Refused:
    exc = _Refused(None, None, "number", node.start_mark)
    exc.written = str(node.value)
    return exc


_RangeConstructor.add_constructor("tag:yaml.org,2002:int", _RangeConstructor.construct_yaml_int)
_RangeConstructor.add_constructor("tag:yaml.org,2002:float", _RangeConstructor.construct_yaml_float)


@dataclass(frozen=True)
class YamlDocument:
    """A loaded YAML file: plain Python data plus the node tree that knows positions."""

    file: Path
    data: Any
    nodes: Any

    def position(self, loc: tuple[object, ...] | list[object]) -> tuple[int | None, int | None]:
        """1-based (line, column) of the deepest node of ``loc`` that exists."""
        node = self.nodes
        line: int | None = None
        col: int | None = None
        for part in loc:
            lc = getattr(node, "lc", None)
            try:
                if isinstance(part, int) and isinstance(node, list):
                    if lc is not None:
                        line, col = lc.item(part)
                    node = node[part]
                elif isinstance(node, dict) and part in node:
                    if lc is not None:
                        line, col = lc.key(part)
                    node = node[part]
                else:
                    break
            except (KeyError, IndexError, TypeError):
                break
        if line is None and getattr(self.nodes, "lc", None) is not None:
            line, col = self.nodes.lc.line, self.nodes.lc.col
        return (line + 1 if line is not None else None, col + 1 if col is not None else None)

    def error(self, message: str, loc: tuple[object, ...] | list[object] = (), **kw: Any) -> InputError:
        from shipyard.core.errors import format_path

        line, col = self.position(loc)
        return InputError.single(
            message, file=self.file, line=line, column=col, path=format_path(loc) if loc else None, **kw
        )


def _plain(node: Any) -> Any:
    """Round-trip containers to plain dict/list so models never see ruamel types."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    # ruamel keeps quoting and number formats in str/int/float subclasses; catalogs need
    # plain values (they are kept in the catalog cache and dumped to JSON)
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, str):
        return str(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def load_yaml(
    file: Path, what: str = "catalog file", *, within: Path | None = None, max_bytes: int = MAX_YAML_BYTES
) -> YamlDocument:
    """Load one YAML file, raising :class:`InputError` with a position for any problem.

    ``what`` names the kind of file in messages ("catalog file", "vessel file").
    With ``within``, a file that is a link leading outside that folder is refused before
    it is read, and nothing of what it leads to is shown.
    """
    if within is not None and not inside(file, [within]):
        raise InputError.single(
            f"refused: this {what} is a link to a file outside its folder {within}; only files inside it are read",
            file=file,
        )
    text = decode(read_limited(file, str(file), max_bytes, f"a {what}"), str(file))
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    yaml.Scanner = _FlowDepthScanner
    yaml.Composer = _NoAliasComposer
    yaml.Constructor = _RangeConstructor
    try:
        nodes = yaml.load(text)
    except _Refused as exc:
        raise _refusal(exc, file, what) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        col = mark.column + 1 if mark is not None else None
        what = exc.problem or exc.context or "malformed YAML"
        raise InputError.single(f"malformed YAML: {what}", file=file, line=line, column=col) from None
    except (_Nested, RecursionError):
        raise InputError.single("malformed YAML: nested too deeply", file=file) from None
    except YAMLError as exc:
        raise InputError.single(f"malformed YAML: {exc}", file=file) from None
    if nodes is None:
        raise InputError.single("file is empty", file=file)
    try:
        data = _plain(nodes)
    except RecursionError:
        raise InputError.single("malformed YAML: nested too deeply", file=file) from None
    return YamlDocument(file=file, data=data, nodes=nodes)


def _refusal(exc: _Refused, file: Path, what: str) -> InputError:
    mark = exc.problem_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
    if exc.problem == "aliases":
        message = f"YAML anchors and aliases (&name / *name) are not supported in a {what}; write entries out"
        return InputError.single(message, file=file, line=line, column=col)
    from shipyard.core.termtext import quote

    return InputError.single(
        f"the number {quote(exc.written, 40)} is outside the range a {what} may hold",
        file=file,
        line=line,
        column=col,
        allowed=f"whole numbers and finite decimals from {-NUMBER_RANGE:,} to {NUMBER_RANGE:,}",
    )


def validate(doc: YamlDocument, model: type[Any], data: Any, loc: tuple[object, ...]) -> Any:
    """``data`` (found at ``loc`` in ``doc``) validated as ``model``; every problem with its
    line and column, and an unknown key named with the keys that are allowed."""
    from pydantic import ValidationError

    from shipyard.core.errors import Problem, format_path
    from shipyard.core.termtext import quote
    from shipyard.core.usertext import validate_strictly

    try:
        return validate_strictly(model, data)  # JSON-strict: `cost: true` or "3" is not a number
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            full = (*loc, *err["loc"])
            line, col = doc.position(full)
            if err["type"] == "extra_forbidden":
                allowed = ", ".join(sorted(model.model_fields))
                msg = f"unknown key {quote(err['loc'][-1])}"
                problems.append(Problem(msg, str(doc.file), line, col, format_path(full), allowed=allowed))
                continue
            # A validator's own ValueError is already in the user's words: without pydantic's prefix.
            msg = err["msg"].removeprefix("Value error, ") if err["type"] == "value_error" else err["msg"]
            problems.append(Problem(msg, str(doc.file), line, col, format_path(full)))
        raise InputError(problems) from None
