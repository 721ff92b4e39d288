#!/usr/bin/env python3
"""Checks schemas/*.schema.json against the repository and proves each check can fail.

  check_schemas.py scenarios SRC       every scenario file in the repo must validate; every
                                       file under a directory named "broken" and three broken
                                       copies of every scenario must not
  check_schemas.py results FILE...     every result.json given must validate; three broken
                                       copies of each must not

Which files are scenarios: `find scenarios validation tests -name '*.toml'` (the list
docs/scenario-format.md promises the schema accepts), minus files with a path component named
"broken" — deliberately invalid inputs (tests/python/broken/) whose first line says what is
wrong and which must be rejected. A rule, not a list: a broken input added later is excluded
by being put there, and a good one cannot hide by being left off a list.

Exits 77 (ctest SKIP_RETURN_CODE) without jsonschema, so that a machine without Debian's
python3-jsonschema reports the test as skipped, not as passed or failed.
"""

import copy
import json
import os
import sys
import tomllib

try:
    import jsonschema
except ImportError:
    print("SKIP: python module jsonschema missing (Debian: apt-get install python3-jsonschema; "
          "tools/install-deps.sh)")
    sys.exit(77)

SCENARIO_DIRS = ("scenarios", "validation", "tests")


def validator(src, name):
    """A Draft 2020-12 validator for schemas/<name>, after checking the schema itself."""
    with open(os.path.join(src, "schemas", name), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def first_error(v, document):
    """The first error as "path: message", or None when the document validates."""
    errors = sorted(v.iter_errors(document), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    return ".".join(str(p) for p in e.absolute_path) + ": " + e.message[:200]


def scenario_files(src):
    """(good, broken) relative paths, by the rule in the module docstring."""
    good, broken = [], []
    for top in SCENARIO_DIRS:
        for root, dirs, files in os.walk(os.path.join(src, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(".toml"):
                    continue
                path = os.path.relpath(os.path.join(root, name), src)
                (broken if "broken" in path.split(os.sep)[:-1] else good).append(path)
    return good, broken


def broken_scenario_copies(doc):
    """Three ways to break a valid scenario, one per kind of error the schema must catch."""
    unknown = copy.deepcopy(doc)
    unknown["sead"] = 1  # a typo of "seed": unknown top-level key
    wrong_type = copy.deepcopy(doc)
    wrong_type["seed"] = "1"  # a string where an integer belongs
    bad_enum = copy.deepcopy(doc)
    bad_enum.setdefault("protocol", {})["plan"] = "ring"  # not a connection plan
    return {"unknown top-level key 'sead'": unknown, "seed as a string": wrong_type,
            "protocol.plan = 'ring'": bad_enum}


def broken_result_copies(doc):
    """Three ways to break a valid result.json."""
    unknown = copy.deepcopy(doc)
    unknown["makespan"] = 1  # not a key of result.json
    wrong_type = copy.deepcopy(doc)
    wrong_type["processes"] = "8"
    bad_enum = copy.deepcopy(doc)
    bad_enum["backend"] = "omnet"
    return {"unknown top-level key 'makespan'": unknown, "processes as a string": wrong_type,
            "backend = 'omnet'": bad_enum}


def check_scenarios(src):
    v = validator(src, "scenario.schema.json")
    good, broken = scenario_files(src)
    failures = 0
    copies_rejected = copies = 0
    for path in good:
        with open(os.path.join(src, path), "rb") as f:
            doc = tomllib.load(f)
        error = first_error(v, doc)
        if error:
            failures += 1
            print(f"FAIL {path}: rejected by the schema: {error}")
        for what, bad in broken_scenario_copies(doc).items():
            copies += 1
            if first_error(v, bad) is None:
                failures += 1
                print(f"FAIL {path} with {what}: accepted by the schema")
            else:
                copies_rejected += 1
    for path in broken:
        with open(os.path.join(src, path), encoding="utf-8") as f:
            why = f.readline().lstrip("# ").strip()
        try:
            with open(os.path.join(src, path), "rb") as f:
                doc = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            print(f"ok   {path}: not TOML ({e})")
            continue
        error = first_error(v, doc)
        if error is None:
            failures += 1
            print(f"FAIL {path} ({why}): accepted by the schema")
        else:
            print(f"ok   {path} rejected ({why}): {error}")
    print(f"scenarios: {len(good)} repo files checked, {len(broken)} broken files (under */broken/), "
          f"{copies_rejected} of {copies} broken copies rejected, {failures} failures")
    return failures


def check_results(src, paths):
    v = validator(src, "result.schema.json")
    failures = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        error = first_error(v, doc)
        if error:
            failures += 1
            print(f"FAIL {path}: rejected by the schema: {error}")
        for what, bad in broken_result_copies(doc).items():
            if first_error(v, bad) is None:
                failures += 1
                print(f"FAIL {path} with {what}: accepted by the schema")
    print(f"results: {len(paths)} checked, {3 * len(paths)} broken copies, {failures} failures")
    return failures


def main(argv):
    src = os.environ.get("SRC") or os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    if len(argv) >= 1 and argv[0] == "scenarios":
        return 1 if check_scenarios(argv[1] if len(argv) > 1 else src) else 0
    if len(argv) >= 2 and argv[0] == "results":
        return 1 if check_results(src, argv[1:]) else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
