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
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from shipyard.core.errors import InputError
from shipyard.core.usertext import decode, read_limited

MAX_YAML_BYTES = 5 * 1024 * 1024


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


class _AliasFound(Exception):
    pass


def _plain(node: Any, seen: set[int] | None = None) -> Any:
    """Round-trip containers to plain dict/list so models never see ruamel types.

    A container met twice is a YAML alias (``*name``). Catalogs do not need them, and
    expanding them is how a few hundred bytes become gigabytes, so they are refused.
    """
    seen = set() if seen is None else seen
    if isinstance(node, dict | list):
        if id(node) in seen:
            raise _AliasFound
        seen.add(id(node))
    if isinstance(node, dict):
        return {str(k): _plain(v, seen) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v, seen) for v in node]
    # ruamel keeps quoting and number formats in str/int/float subclasses; catalogs need
    # plain values (they are pickled into the catalog cache and dumped to JSON)
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, str):
        return str(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node


def load_yaml(file: Path, what: str = "catalog file") -> YamlDocument:
    """Load one YAML file, raising :class:`InputError` with a position for any problem.

    ``what`` names the kind of file in messages ("catalog file", "Trinity vessel file").
    """
    text = decode(read_limited(file, str(file), MAX_YAML_BYTES, f"a {what}"), str(file))
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        nodes = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        col = mark.column + 1 if mark is not None else None
        what = exc.problem or exc.context or "malformed YAML"
        raise InputError.single(f"malformed YAML: {what}", file=file, line=line, column=col) from None
    except YAMLError as exc:
        raise InputError.single(f"malformed YAML: {exc}", file=file) from None
    except RecursionError:
        raise InputError.single("malformed YAML: nested too deeply", file=file) from None
    if nodes is None:
        raise InputError.single("file is empty", file=file)
    try:
        data = _plain(nodes)
    except _AliasFound:
        raise InputError.single(
            f"YAML anchors and aliases (&name / *name) are not supported in a {what}; write entries out",
            file=file,
        ) from None
    except RecursionError:
        raise InputError.single("malformed YAML: nested too deeply", file=file) from None
    return YamlDocument(file=file, data=data, nodes=nodes)


def validate(doc: YamlDocument, model: type[Any], data: Any, loc: tuple[object, ...]) -> Any:
    """``data`` (found at ``loc`` in ``doc``) validated as ``model``; every problem with its
    line and column, and an unknown key named with the keys that are allowed."""
    from pydantic import ValidationError

    from shipyard.core.errors import Problem, format_path

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            full = (*loc, *err["loc"])
            line, col = doc.position(full)
            if err["type"] == "extra_forbidden":
                allowed = ", ".join(sorted(model.model_fields))
                msg = f"unknown key {err['loc'][-1]!r}"
                problems.append(Problem(msg, str(doc.file), line, col, format_path(full), allowed=allowed))
                continue
            problems.append(Problem(err["msg"], str(doc.file), line, col, format_path(full)))
        raise InputError(problems) from None
