#!/usr/bin/python3
"""The repository's generated pictures stay in one place, each with the command that remakes it
(docs/figures/README.md, tests/docs/README.md; ctest docs:figures).

  check_figures.py --src DIR

Fails when
* a PNG of the source tree lies outside docs/figures/ (the files git knows, tracked or new and
  not ignored; without git, every *.png outside build*/, out/ and .git/);
* a PNG of docs/figures/ has no recipe in `tools/figures.sh --list`, or a recipe names a file
  that is not there;
* no Markdown page of the repository shows or links a figure (`figures/NAME.png`).
Reads files and runs `tools/figures.sh --list` only: well under a second.
"""
import argparse
import os
import subprocess
import sys

FOLDER = "docs/figures"


def source_files(src, suffix):
    """Paths (relative to src) of the files that end in suffix, as git sees the tree."""
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "--cached", "--others",
                              "--exclude-standard", "--", "*" + suffix],
                             check=True, capture_output=True, text=True).stdout
        # ls-files lists a file deleted from the work tree but not from the index: skip those.
        return sorted(p for p in set(out.split("\n")) if p and os.path.exists(os.path.join(src, p)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for root, dirs, files in os.walk(src):
            rel = os.path.relpath(root, src)
            dirs[:] = [d for d in dirs if not (rel == "." and (d.startswith("build") or
                                                                 d in ("out", ".git")))]
            found += [os.path.normpath(os.path.join(rel, f)) for f in files if f.endswith(suffix)]
        return sorted(found)


def recipes(src):
    out = subprocess.run([os.path.join(src, "tools", "figures.sh"), "--list"], check=True,
                         capture_output=True, text=True).stdout
    return {line.split("\t")[0] for line in out.split("\n") if line}


def problems(src):
    found = []
    pngs = source_files(src, ".png")
    for path in pngs:
        if os.path.dirname(path) != FOLDER:
            found.append(f"{path}: a picture outside {FOLDER}/ (move it there and give "
                         "tools/figures.sh its recipe)")
    here = {os.path.basename(p) for p in pngs if os.path.dirname(p) == FOLDER}
    made = recipes(src)
    for name in sorted(here - made):
        found.append(f"{FOLDER}/{name}: tools/figures.sh has no recipe that remakes it")
    for name in sorted(made - here):
        found.append(f"tools/figures.sh makes {name}, which is not in {FOLDER}/")
    pages = "".join(open(os.path.join(src, p), encoding="utf-8").read()
                    for p in source_files(src, ".md"))
    for name in sorted(here):
        if f"figures/{name}" not in pages:
            found.append(f"{FOLDER}/{name}: no page shows it (`figures/{name}`)")
    return found, len(here)


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().split("\n")[0])
    parser.add_argument("--src", required=True, help="the source tree")
    args = parser.parse_args()
    found, count = problems(os.path.abspath(args.src))
    for line in found:
        print("FAIL: " + line)
    if found:
        sys.exit(1)
    print(f"ok: {count} figures, all in {FOLDER}/, each with its recipe and a page that shows it")


if __name__ == "__main__":
    main()
