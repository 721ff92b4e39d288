"""Shared helpers of the validation drivers: find the tsunagi binary, run a scenario, load results,
choose where the CSV and PNG go."""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tsunagi_binary():
    """The built program: $TSUNAGI or build/app/tsunagi."""
    path = os.environ.get("TSUNAGI", os.path.join(ROOT, "build", "app", "tsunagi"))
    if not os.access(path, os.X_OK):
        sys.exit(f"tsunagi not found at {path}: run tools/build.sh first (or set TSUNAGI)")
    return path


def run(scenario, out_dir, sets=(), backend="simgrid"):
    """Runs one scenario and returns its result.json as a dict."""
    cmd = [tsunagi_binary(), "run", os.path.join(ROOT, scenario), "--backend", backend,
           "--out", out_dir, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out_dir, "result.json")) as f:
        return json.load(f)


def add_output_options(parser):
    """--out DIR and --update: a driver writes its CSV and PNG into build/validation/<driver>/ by
    default, and over the copies committed in the source tree (which validation/README.md
    shows) only when asked to."""
    parser.add_argument("--out", help="directory for the CSV and PNG "
                        "(default: build/validation/<driver>/ in the source tree's build dir)")
    parser.add_argument("--update", action="store_true",
                        help="write the committed CSV and PNG in the source tree instead")


def output_dir(args, committed, name, under="validation"):
    """The directory --out / --update chose (created); `committed` is where the copies in the
    source tree live, `name` the driver's subdirectory of build/<under>/."""
    if args.update and args.out:
        sys.exit("--out and --update exclude each other: --update writes the committed copies")
    path = committed if args.update else (args.out or os.path.join(ROOT, "build", under, name))
    os.makedirs(path, exist_ok=True)
    print(f"output: {path}" + (" (the committed copies)" if args.update else ""), file=sys.stderr)
    return path


def runs_dir(args, dest, *parts):
    """Where a driver's tsunagi runs go: under the output directory, or, with --update, under
    out/validation/ in the source tree (ignored by git)."""
    if args.update:
        return os.path.join(ROOT, "out", "validation", *parts)
    return os.path.join(dest, "runs", *parts)


def parse_with_overrides(doc, committed, name, argv=None):
    """For drivers whose other arguments are key=value overrides for every run: returns
    (output directory, overrides, args)."""
    parser = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    add_output_options(parser)
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE",
                        help="scenario override for every run (tsunagi run --set)")
    args = parser.parse_args(argv)
    return output_dir(args, committed, name), args.overrides, args


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(str(v) for v in row) + "\n")


def pyplot():
    """matplotlib.pyplot with a file-only backend, or None (the CSV is still written).
    Debian's python3-matplotlib is installed by tools/install-deps.sh for /usr/bin/python3."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing (run with /usr/bin/python3): CSV only", file=sys.stderr)
        return None
    return plt
