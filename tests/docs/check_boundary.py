#!/usr/bin/python3
"""The boundary and core tables of docs/architecture.md and docs/backend-contract.md against
the code (tests/docs/README.md, ctest docs:boundary).

  check_boundary.py --src DIR

* Boundary tables: the input kinds (`InputEvent`) and command kinds (`Command`) of
  model/include/tsunagi/model/io.hpp are read off their std::variant lists; a table marked
  `<!-- boundary: inputs, commands -->` (one word per column: `inputs`, `commands` or `-`)
  names kinds in code spans (`Connect{conn, to}` names Connect). Each page must name every kind
  of the code, and no kind the code does not have.
* The core table of architecture.md (`<!-- core table: model -->`): every folder of model/src
  and model/include/tsunagi/model, and every header directly in the latter, is named in its
  `file` column, and every path it names exists.
Reads files only: well under a second.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_tables  # noqa: E402  (beside this file)

IO_HPP = "model/include/tsunagi/model/io.hpp"
PAGES = ("docs/architecture.md", "docs/backend-contract.md")
CORE_PAGE = "docs/architecture.md"
INCLUDE = "model/include/tsunagi/model"


def variant_kinds(text, alias, suffix):
    """The alternatives of `using ALIAS = std::variant<...>;`, without their suffix
    (StartedInput -> Started, ConnectCmd -> Connect)."""
    m = re.search(r"using\s+%s\s*=\s*std::variant<([^;]*)>\s*;" % alias, text)
    if not m:
        sys.exit(f"FAIL: no `using {alias} = std::variant<...>` in {IO_HPP}")
    names = [n.strip() for n in m.group(1).split(",")]
    bad = [n for n in names if not n.endswith(suffix)]
    if bad:
        sys.exit(f"FAIL: {alias} holds {bad}, not named *{suffix}: teach this check the new rule")
    return {n[: -len(suffix)] for n in names}


def kinds_named(cell):
    """Kinds a table cell names: the leading identifier of each code span (`ArmTimer{...}`)."""
    for span in doc_tables.spans(cell):
        m = re.match(r"([A-Z]\w*)", span)
        if m:
            yield m.group(1)


def boundary_problems(src, page, code):
    """What `page` names against what the code has, for inputs and commands."""
    named = {"inputs": {}, "commands": {}}
    for table in doc_tables.tables(os.path.join(src, page)):
        if not table.marker or table.marker[0] != "boundary":
            continue
        roles = [r.strip() for r in table.marker[1].split(",")]
        for number, row in table.rows:
            for role, cell in zip(roles, row):
                for kind in kinds_named(cell) if role in named else ():
                    named[role].setdefault(kind, number)
    problems = []
    for role, kinds in code.items():
        if not named[role]:
            problems.append(f"{page}: no table marked `<!-- boundary: ... {role} ... -->`")
            continue
        for kind in sorted(kinds - named[role].keys()):
            problems.append(f"{page}: the {role} tables leave out `{kind}` ({IO_HPP})")
        for kind, number in sorted(named[role].items()):
            if kind not in kinds:
                problems.append(f"{page}:{number}: `{kind}` is not one of the {role} of {IO_HPP}")
    return problems


def core_units(src):
    """What the core table must name: model/src/X/ and tsunagi/model/X/ folders, and the
    headers directly in tsunagi/model."""
    units = set()
    for base in ("model/src", INCLUDE):
        for name in os.listdir(os.path.join(src, base)):
            if os.path.isdir(os.path.join(src, base, name)):
                units.add(name + "/")
    for name in os.listdir(os.path.join(src, INCLUDE)):
        if name.endswith(".hpp"):
            units.add(name)
    return units


def core_problems(src):
    """Every unit of model/ named in the core table, and every path it names real. A span is a
    path relative to tsunagi/model (`topology/rtt_tree.hpp`, `rng.hpp`), to model/ (`src/node/`)
    or, after a path in the same cell, a file beside it (`rtt_tree.hpp` after `topology/...`)."""
    tables = [t for t in doc_tables.tables(os.path.join(src, CORE_PAGE))
              if t.marker and t.marker[0] == "core table"]
    if not tables:
        return [f"{CORE_PAGE}: no table marked `<!-- core table: model -->`"]
    column = tables[0].header.index("file") if "file" in tables[0].header else 1
    named, problems = set(), []
    for number, row in tables[0].rows:
        folder = ""
        for span in doc_tables.spans(row[column]) if column < len(row) else ():
            path = span.rstrip("*").rstrip(".")
            if "/" in path.rstrip("/"):
                folder = path.rsplit("/", 1)[0] + "/"
            elif not path.endswith("/") and folder:
                path = folder + path
            candidates = [os.path.join(src, INCLUDE, path), os.path.join(src, "model", path)]
            if not any(os.path.exists(c) or _glob_exists(c) for c in candidates):
                problems.append(f"{CORE_PAGE}:{number}: `{span}` is neither under {INCLUDE} nor "
                                "under model/")
            named.add(unit_of(path))
    for unit in sorted(core_units(src) - named):
        problems.append(f"{CORE_PAGE}: the core table does not name `{unit}` (model/)")
    return problems


def unit_of(path):
    """The unit of model/ a path belongs to: its first folder, or the header itself."""
    path = path.removeprefix("src/")
    return path.split("/")[0] + "/" if "/" in path else path


def _glob_exists(path):
    # `lmmc_node.*` names lmmc_node.cpp and lmmc_node.hpp together.
    folder, stem = os.path.split(path)
    return os.path.isdir(folder) and any(n.startswith(stem) for n in os.listdir(folder))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", required=True)
    args = parser.parse_args()
    text = open(os.path.join(args.src, IO_HPP), encoding="utf-8").read()
    code = {"inputs": variant_kinds(text, "InputEvent", "Input"),
            "commands": variant_kinds(text, "Command", "Cmd")}
    problems = []
    for page in PAGES:
        problems += boundary_problems(args.src, page, code)
    problems += core_problems(args.src)
    if problems:
        print(f"FAIL: {len(problems)} problems:\n  " + "\n  ".join(problems))
        return 1
    print(f"ok: {len(code['inputs'])} input and {len(code['commands'])} command kinds in "
          f"{' and '.join(PAGES)}; the core table names every unit of model/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
