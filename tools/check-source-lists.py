#!/usr/bin/python3
"""Every C++ source of the tree is in a CMake source list: the CMakeLists name their sources
(no GLOB), so a new file that nobody added would silently not be built or tested. Prints each
.cpp under model/, runner/, sim/, scenarios/, realnet/, app/ and tests/unit/ that no
CMakeLists.txt of its directory or a parent names, and exits 1 if there is one."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TREES = ["model", "runner", "sim", "scenarios", "realnet", "app", "tests/unit", "tests/conformance"]


def source_patterns(cmake):
    """The .cpp names a CMakeLists.txt mentions, as regular expressions (a ${VAR} in a name,
    as in foreach loops, stands for one path component)."""
    patterns = []
    for token in re.split(r"[\s()\"]+", cmake.read_text()):
        if token.endswith(".cpp"):
            parts = re.split(r"\$\{[^}]*\}", token)
            patterns.append(re.compile("(^|/)" + "[^/]+".join(map(re.escape, parts)) + "$"))
    return patterns


def listed(source):
    """True when a CMakeLists.txt in a directory above the file (up to the tree's top) names
    it by a path relative to that directory or to one of its subdirectories (a list that
    prepends a folder, as model/ does with src/)."""
    relative = str(source.relative_to(ROOT))
    for parent in source.parents:
        cmake = parent / "CMakeLists.txt"
        if cmake.exists():
            if any(p.search(relative) for p in source_patterns(cmake)):
                return True
        if parent == ROOT:
            return False
    return False


def main():
    missing = []
    for tree in TREES:
        for source in sorted((ROOT / tree).rglob("*.cpp")):
            if "fixtures" in source.parts:  # compiled on purpose by the purity tests
                continue
            if not listed(source):
                missing.append(source.relative_to(ROOT))
    for path in missing:
        print(f"{path}: in no CMakeLists.txt source list (add it, or it is never built)")
    if not missing:
        print("ok: every source file is in a CMake source list")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
