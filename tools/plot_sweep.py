#!/usr/bin/python3
"""Plot a column of `tsunagi sweep`'s sweep.csv against another (docs/cli.md, "tsunagi sweep").

    tools/plot_sweep.py OUT/sweep.csv --x protocol.shortcut_capacity --y workload.makespan_ns

One line per combination of the other swept keys (the columns before `ok` that take more than
one value), or per value of --by. Points that failed (ok = false) and empty cells are left out.
true/false plot as 1/0. X values that are all numbers are spaced as numbers, otherwise they are
categories in the order of the file.

The PNG goes to --out, by default next to the CSV (OUT/sweep-<y>-vs-<x>.png); when the CSV lies
inside the tsunagi source tree, the default is a fresh $TMPDIR/tsunagi-plots-XXXXXX/ instead (a
private directory: a fixed name in /tmp is one another user can plant a link at), so a plot
never lands in the source tree unless asked to. Needs matplotlib (Debian's python3-matplotlib,
installed by tools/install-deps.sh for /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import re
import sys
import tempfile

SOURCE_TREE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def number(text):
    """The cell as a float, or None (empty, not a number)."""
    if text in ("true", "false"):
        return 1.0 if text == "true" else 0.0
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def inside(path, directory):
    path, directory = os.path.realpath(path), os.path.realpath(directory)
    return os.path.commonpath([path, directory]) == directory


def default_output(csv_path, x, ys):
    def safe(key):
        return re.sub(r"[^A-Za-z0-9._-]", "_", key)

    name = f"{os.path.splitext(os.path.basename(csv_path))[0]}-{'+'.join(map(safe, ys))}" \
           f"-vs-{safe(x)}.png"
    directory = os.path.dirname(os.path.abspath(csv_path))
    if inside(directory, SOURCE_TREE):
        directory = tempfile.mkdtemp(prefix="tsunagi-plots-")  # mode 0700, a name nobody guessed
    return os.path.join(directory, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="sweep.csv written by tsunagi sweep")
    parser.add_argument("--x", required=True, help="column for the x axis (a swept key)")
    parser.add_argument("--y", required=True, action="append",
                        help="column for the y axis (repeatable: several lines)")
    parser.add_argument("--by", action="append", default=None,
                        help="columns that make separate lines (default: the other swept keys)")
    parser.add_argument("--out", help="PNG to write (default: next to the CSV, see above)")
    parser.add_argument("--title", help="plot title (default: the CSV's directory)")
    parser.add_argument("--logx", action="store_true", help="logarithmic x axis")
    parser.add_argument("--logy", action="store_true", help="logarithmic y axis")
    args = parser.parse_args()

    try:
        with open(args.csv, newline="") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            rows = list(reader)
    except OSError as error:
        sys.exit(f"plot_sweep: {error}")
    if "ok" not in header:
        sys.exit(f"plot_sweep: {args.csv}: no 'ok' column; is it a tsunagi sweep CSV?")
    for key in [args.x] + args.y + (args.by or []):
        if key not in header:
            sys.exit(f"plot_sweep: no column {key!r} in {args.csv}; columns: {', '.join(header)}")

    swept = header[:header.index("ok")]
    if args.by is None:
        by = [k for k in swept if k != args.x and len({r[k] for r in rows}) > 1]
    else:
        by = args.by
    failed = [r for r in rows if r["ok"] != "true"]
    rows = [r for r in rows if r["ok"] == "true"]
    if failed:
        print(f"plot_sweep: {len(failed)} failed point(s) left out", file=sys.stderr)

    numeric_x = all(number(r[args.x]) is not None for r in rows)
    categories = list(dict.fromkeys(r[args.x] for r in rows))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_sweep: needs matplotlib: run with /usr/bin/python3 and Debian's "
                 "python3-matplotlib (tools/install-deps.sh)")

    figure, axes = plt.subplots(figsize=(7, 4.5))
    lines = 0
    groups = list(dict.fromkeys(tuple(r[k] for k in by) for r in rows))
    for y in args.y:
        for group in groups:
            points = []
            for r in rows:
                if tuple(r[k] for k in by) != group:
                    continue
                value = number(r[y])
                if value is None:
                    continue
                position = number(r[args.x]) if numeric_x else categories.index(r[args.x])
                points.append((position, value))
            if not points:
                continue
            points.sort()
            label = ", ".join(f"{k}={v}" for k, v in zip(by, group))
            if len(args.y) > 1:
                label = f"{y} {label}".strip()
            axes.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                      label=label or None)
            lines += 1
    if lines == 0:
        sys.exit(f"plot_sweep: nothing to plot: no successful point has a number in "
                 f"{', '.join(args.y)}")
    if not numeric_x:
        axes.set_xticks(range(len(categories)))
        axes.set_xticklabels(categories, rotation=30 if len(categories) > 6 else 0)
    if args.logx:
        axes.set_xscale("log")
    if args.logy:
        axes.set_yscale("log")
    axes.set_xlabel(args.x)
    axes.set_ylabel(", ".join(args.y))
    axes.set_title(args.title or os.path.basename(os.path.dirname(os.path.abspath(args.csv))))
    axes.grid(True, alpha=0.3)
    if any(line.get_label() and not line.get_label().startswith("_")
           for line in axes.get_lines()):
        axes.legend(fontsize="small")
    figure.tight_layout()

    out = args.out or default_output(args.csv, args.x, args.y)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    figure.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
