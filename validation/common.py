"""Shared helpers of the validation drivers: find the tsunagi binary, run a scenario, load results."""
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
