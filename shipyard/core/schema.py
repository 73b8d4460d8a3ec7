"""A design model's JSON schema as a small tree: the type, range and choices of each place.

The declared form (:mod:`shipyard.core.form`) names places in the design; what kind of
value each is, and its range, comes from the design model itself. Reading that from
pydantic's JSON schema once, when a catalog is built, gives a tree that is cached with
the catalog, so the editor opening a design generates no schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shipyard.core.paths import parse_path


@dataclass
class Spec:
    """What the design model says about one place: its type, range, fixed choices, help."""

    type: str = "any"  # string | integer | number | boolean | array | object | map | any
    nullable: bool = False
    minimum: float | None = None
    maximum: float | None = None
    enum: list[Any] | None = None
    max_length: int | None = None
    description: str = ""
    default: Any = None
    fields: dict[str, Spec] = field(default_factory=dict)  # an object's fields
    item: Spec | None = None  # an array's entries, a map's values


def _node(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Spec:
    if depth > 30:
        return Spec()
    if "$ref" in schema:
        ref = schema["$ref"].rsplit("/", 1)[-1]
        merged = {**defs.get(ref, {}), **{k: v for k, v in schema.items() if k != "$ref"}}
        return _node(merged, defs, depth + 1)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            options = [o for o in schema[union] if o.get("type") != "null"]
            nullable = len(options) != len(schema[union])
            spec = Spec()
            for option in options:  # a union of models: their fields together, the first wins
                s = _node(option, defs, depth + 1)
                if spec.type == "any":
                    spec = s
                elif s.type == "object":
                    for k, v in s.fields.items():
                        spec.fields.setdefault(k, v)
            spec.nullable = spec.nullable or nullable
            spec.description = schema.get("description", spec.description)
            if "default" in schema:
                spec.default = schema["default"]
            return spec
    kind = schema.get("type", "any")
    spec = Spec(
        type=kind if isinstance(kind, str) else "any",
        minimum=schema.get("minimum", schema.get("exclusiveMinimum")),
        maximum=schema.get("maximum", schema.get("exclusiveMaximum")),
        enum=list(schema["enum"]) if "enum" in schema else ([schema["const"]] if "const" in schema else None),
        max_length=schema.get("maxLength"),
        description=schema.get("description", ""),
        default=schema.get("default"),
    )
    if kind == "object":
        props = schema.get("properties", {})
        spec.fields = {k: _node(v, defs, depth + 1) for k, v in props.items()}
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not props:
            spec.type = "map"
            spec.item = _node(extra, defs, depth + 1)
    elif kind == "array" and isinstance(schema.get("items"), dict):
        spec.item = _node(schema["items"], defs, depth + 1)
    return spec


def design_schema(model: type[Any]) -> Spec:
    """The tree of a design model's JSON schema (once per catalog build)."""
    schema = model.model_json_schema()
    return _node(schema, schema.get("$defs", {}))


def spec_at(root: Spec, path: str) -> Spec | None:
    """The spec of a concrete path (``weapons[2].count``, ``skills.gunnery``, ``pilot.name``)."""
    node: Spec | None = root
    for part in parse_path(path):
        if node is None:
            return None
        node = node.item if isinstance(part, int) or node.type == "map" else node.fields.get(part)
    return node
