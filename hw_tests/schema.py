"""A small JSON Schema validator for the subset report.schema.json uses.

Keywords: type (one or a list), enum, const, properties, required, additionalProperties (bool or
schema), items, minItems, minimum, maximum, pattern, minLength, $ref to "#/$defs/NAME", and
description/title/$schema/$id (ignored). Anything else in a schema is an error, so the schema
cannot silently rely on a keyword this validator does not check.

    errors = validate(instance, schema)      # [] when valid; else "path: problem" strings
"""
import json
import os
import re

SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "report.schema.json")

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_ANNOTATIONS = {"description", "title", "$schema", "$id", "$defs", "examples"}
_KEYWORDS = {"type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems",
             "minimum", "maximum", "pattern", "minLength", "$ref"} | _ANNOTATIONS


class SchemaError(ValueError):
    """The schema itself uses something this validator does not know."""


def load_schema(path=SCHEMA_PATH):
    with open(path) as f:
        return json.load(f)


def validate(instance, schema, root=None):
    """Every way ``instance`` breaks ``schema``, as 'path: message' strings ([] when valid)."""
    errors = []
    _check(instance, schema, root if root is not None else schema, "$", errors)
    return errors


def _resolve(ref, root):
    if not ref.startswith("#/"):
        raise SchemaError(f"$ref {ref!r}: only local references (#/...) are supported")
    node = root
    for part in ref[2:].split("/"):
        if not isinstance(node, dict) or part not in node:
            raise SchemaError(f"$ref {ref!r} does not resolve")
        node = node[part]
    return node


def _check(value, schema, root, path, errors):
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise SchemaError(f"schema at {path} uses unsupported keyword(s): {', '.join(sorted(unknown))}")
    if "$ref" in schema:
        _check(value, _resolve(schema["$ref"], root), root, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        for t in types:
            if t not in _TYPES:
                raise SchemaError(f"schema at {path}: unknown type {t!r}")
        if not any(_TYPES[t](value) for t in types):
            errors.append(f"{path}: expected {' or '.join(types)}, got {_kind(value)}")
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: expected {schema['const']!r}, got {value!r}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append(f"{path}: string shorter than {schema['minLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{path}: {value!r} does not match /{schema['pattern']}/")
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} is above the maximum {schema['maximum']}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                errors.append(f"{path}: missing required property {key!r}")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                _check(item, props[key], root, f"{path}.{key}", errors)
            elif extra is False:
                errors.append(f"{path}: unexpected property {key!r}")
            elif isinstance(extra, dict):
                _check(item, extra, root, f"{path}.{key}", errors)
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                _check(item, schema["items"], root, f"{path}[{i}]", errors)


def _kind(value):
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](value):
            return name
    return type(value).__name__


def main(argv=None):
    """python -m hw_tests.schema REPORT.json: validate a saved report (exit 1 when invalid)."""
    import sys
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m hw_tests.schema REPORT.json", file=sys.stderr)
        return 2
    try:
        with open(args[0]) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"hw_tests.schema: cannot read {args[0]}: {e}", file=sys.stderr)
        return 2
    errors = validate(report, load_schema())
    for e in errors:
        print(e)
    print(f"{args[0]}: {'valid' if not errors else f'{len(errors)} problem(s)'}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
