"""schemas/scenario.schema.json against the keys the loader accepts (scenarios/src/schema.cpp,
printed by schema_keys): the JSON Schema Python users validate scenario files with
(docs/python.md) must name the same keys, so a key added to the loader and forgotten there (or
left there after a rename) fails docs:keys like one the format page forgets."""
import json
import os

SCHEMA = "schemas/scenario.schema.json"


def _resolve(node, defs):
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return _resolve(defs[ref[len("#/$defs/"):]], defs)
    return node


def _walk(node, prefix, defs, out):
    """Every key under node as `dotted.path -> kind` (value, table, array: schema_keys' words)."""
    node = _resolve(node, defs)
    for name, sub in node.get("properties", {}).items():
        path = f"{prefix}.{name}" if prefix else name
        sub = _resolve(sub, defs)
        items = _resolve(sub.get("items", {}), defs)
        if sub.get("type") == "array" and "properties" in items:
            out[path] = "array"
            _walk(items, path, defs, out)
        elif "properties" in sub:
            out[path] = "table"
            _walk(sub, path, defs, out)
        else:
            # A value; one that is a table or an array of tables in TOML only sometimes (a
            # `oneOf` of a number and a table) counts as a value, as the loader sees it.
            out[path] = "value"


def schema_keys(src):
    schema = json.load(open(os.path.join(src, SCHEMA), encoding="utf-8"))
    out = {}
    _walk(schema, "", schema.get("$defs", {}), out)
    return out


def problems(loader_kinds, src):
    """Keys of one side the other lacks; a kind that differs (a table here, a value there)."""
    found = []
    json_kinds = schema_keys(src)
    for key in sorted(set(loader_kinds) - set(json_kinds)):
        found.append(f"{SCHEMA}: '{key}' is accepted by the loader (scenarios/src/schema.cpp) "
                     "but not in the JSON Schema")
    for key in sorted(set(json_kinds) - set(loader_kinds)):
        found.append(f"{SCHEMA}: names '{key}', which the loader does not accept")
    for key in sorted(set(json_kinds) & set(loader_kinds)):
        if json_kinds[key] != loader_kinds[key]:
            found.append(f"{SCHEMA}: '{key}' is a {json_kinds[key]} there, a "
                         f"{loader_kinds[key]} to the loader")
    return found
