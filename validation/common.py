"""Shared helpers of the validation drivers: find the tsunagi binary, run a grid of settings with
`tsunagi sweep` (or one scenario with `tsunagi run`), load results, choose where the CSV and PNG
go."""
import argparse
import csv
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = os.path.join(ROOT, "docs", "figures")  # every generated picture (tools/figures.sh)


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


def sweep(scenario, out_dir, grid=(), sets=(), columns=(), jobs=1, failures_ok=False,
          backend="simgrid"):
    """Runs one `tsunagi sweep` (docs/cli.md) of `scenario` into out_dir and returns its points
    in grid order, one dict each: the swept keys' values as given (strings), "ok" (bool) and
    each result.json key of `columns` parsed (None when empty). `grid` holds (key, values)
    pairs, the first varying slowest; `sets` are KEY=VALUE overrides for every point, given
    before the grid's. A sweep run again into the same out_dir runs only the points it is
    missing. A failed point stops the driver unless failures_ok (a run that ends in time-outs
    can be a result)."""
    forget_other_builds(out_dir)
    cmd = [tsunagi_binary(), "sweep", os.path.join(ROOT, scenario), "--backend", backend,
           "--out", out_dir, "-j", str(jobs)]
    if columns:
        cmd += ["--columns", ",".join(columns)]
    for s in sets:
        cmd += ["--set", s]
    for key, values in grid:
        cmd += ["--set", f"{key}={','.join(str(v) for v in values)}"]
    print("+", shlex.join(cmd), file=sys.stderr, flush=True)
    status = subprocess.run(cmd, stdout=sys.stderr).returncode
    if status not in ((0, 1) if failures_ok else (0,)):
        sys.exit(f"tsunagi sweep exited with status {status}: see {out_dir}")
    with open(os.path.join(out_dir, "sweep.csv"), newline="") as f:
        points = list(csv.DictReader(f))
    for point in points:
        point["ok"] = point["ok"] == "true"
        for column in columns:
            point[column] = _cell(point[column])
    return points


def forget_other_builds(out_dir):
    """A sweep resumes by scenario, backend and overrides, not by program: points that another
    build of tsunagi ran would be reused as they are. So the sweep's directory records the
    program's hash, and is emptied when the program differs (a rebuilt tsunagi runs all again)."""
    with open(tsunagi_binary(), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(out_dir, "tsunagi.sha256")
    if os.path.isdir(out_dir):
        try:
            with open(stamp) as f:
                same = f.read().strip() == digest
        except FileNotFoundError:
            same = False
        if not same:
            print(f"{out_dir}: runs of another tsunagi build, run again", file=sys.stderr)
            shutil.rmtree(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    with open(stamp, "w") as f:
        f.write(digest + "\n")


def _cell(text):
    """A sweep.csv figure: JSON (numbers, booleans, arrays) as parsed, a bare string as is."""
    if text == "":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def add_output_options(parser):
    """--out DIR and --update: a driver writes its CSV and PNG into build/validation/<driver>/ by
    default, and over the copies committed in the source tree (which validation/README.md
    shows) only when asked to: the CSV beside the driver, the PNG in docs/figures/."""
    parser.add_argument("--out", help="directory for the CSV and PNG "
                        "(default: build/validation/<driver>/ in the source tree's build dir)")
    parser.add_argument("--update", action="store_true",
                        help="write the committed CSV (beside the driver) and PNG "
                        "(docs/figures/) in the source tree instead")


def add_jobs_option(parser):
    """-j N: points of the driver's sweep run at once (one core each; default 1)."""
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="runs at once (tsunagi sweep -j; default 1)")


def output_dir(args, committed, name, under="validation"):
    """The directory --out / --update chose (created); `committed` is where the copies in the
    source tree live, `name` the driver's subdirectory of build/<under>/."""
    if args.update and args.out:
        sys.exit("--out and --update exclude each other: --update writes the committed copies")
    path = committed if args.update else (args.out or os.path.join(ROOT, "build", under, name))
    os.makedirs(path, exist_ok=True)
    print(f"output: {path}" + (" (the committed copies)" if args.update else ""), file=sys.stderr)
    return path


def figure_path(args, dest, name):
    """Where a driver's PNG goes: beside its CSV in the output directory, or with --update into
    docs/figures/, the one folder of the repository's generated pictures (tools/figures.sh
    remakes each of them; docs/figures/README.md)."""
    return os.path.join(FIGURES, name) if args.update else os.path.join(dest, name)


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
    add_jobs_option(parser)
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
