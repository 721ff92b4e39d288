#!/usr/bin/python3
"""Plot columns of `tsunagi sweep`'s sweep.csv against a swept key (docs/cli.md, "tsunagi sweep").

    tools/plot_sweep.py OUT/sweep.csv --x protocol.shortcut_capacity --y workload.makespan_ns

One panel per --y, each with its own y axis, stacked over a shared x axis. In each panel, one
line per combination of the other swept keys (the columns before `ok` that take more than one
value, the seed key excepted), or per value of --by. Runs of one point that differ only in the
seed key (--seed-key, default `seed`: `tsunagi sweep --seeds`) are averaged: the line is their
mean and the band around it the 95 % confidence interval of the mean (Student t, as in the
sweep's summary.csv); a point with one seed has no band. Runs that failed (ok = false) and empty
cells are left out, and counted on stderr. true/false plot as 1/0. X values that are all numbers
are spaced as numbers, otherwise they are categories in the order of the file.

The PNG goes to --out, by default next to the CSV (OUT/sweep-<y>-vs-<x>.png). The script prints
the file it wrote on stdout, and on stderr a line with the panels it drew, which the PNG also
holds as its Description text. Needs matplotlib (Debian's python3-matplotlib, installed by
tools/install-deps.sh for /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import re
import sys

# t(0.975, df) for df = 1..30, as app/sweep_stats.cpp (mpmath's incomplete beta at 30 digits).
T95 = [12.7062047361747, 4.302652729749464, 3.18244630528371, 2.776445105197794,
       2.570581835636316, 2.44691185114497, 2.364624251592785, 2.306004135204167,
       2.262157162798206, 2.228138851986275, 2.20098516009164, 2.178812829667229,
       2.160368656462793, 2.144786687917804, 2.131449545559776, 2.119905299221255,
       2.109815577833317, 2.100922040241038, 2.09302405440831, 2.085963447265865,
       2.07961384472768, 2.073873067904026, 2.068657610419049, 2.063898561628026,
       2.059538552753298, 2.055529438642873, 2.051830516480286, 2.048407141795245,
       2.045229642132704, 2.042272456301238]


def t_quantile_95(df):
    """Two-sided 95 % quantile of Student's t: the table, then Abramowitz & Stegun 26.7.5."""
    if df <= len(T95):
        return T95[df - 1]
    z = 1.9599639845400542
    g = [(z**3 + z) / 4, (5 * z**5 + 16 * z**3 + 3 * z) / 96,
         (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
         (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160]
    return z + sum(gi / df**(i + 1) for i, gi in enumerate(g))


def mean_and_interval(values):
    """(mean, half width of the 95 % interval or None for one value)."""
    n = len(values)
    mean = values[0] + sum(v - values[0] for v in values) / n
    if n < 2:
        return mean, None
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t_quantile_95(n - 1) * sd / math.sqrt(n)


def number(text):
    """The cell as a float, or None (empty, not a number)."""
    if text in ("true", "false"):
        return 1.0 if text == "true" else 0.0
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def default_output(csv_path, x, ys):
    def safe(key):
        return re.sub(r"[^A-Za-z0-9._-]", "_", key)

    name = f"{os.path.splitext(os.path.basename(csv_path))[0]}-{'+'.join(map(safe, ys))}" \
           f"-vs-{safe(x)}.png"
    return os.path.join(os.path.dirname(os.path.abspath(csv_path)), name)


def read_csv(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            return reader.fieldnames or [], list(reader)
    except OSError as error:
        sys.exit(f"plot_sweep: {error}")


def series(rows, x, y, by, group, position):
    """[(x position, mean, half width or None, n)] of column y for one line, sorted by x."""
    values = {}
    for r in rows:
        if tuple(r[k] for k in by) != group:
            continue
        value = number(r[y])
        if value is not None:
            values.setdefault(position(r[x]), []).append(value)
    return sorted((p,) + mean_and_interval(v) + (len(v),) for p, v in values.items())


def draw_panel(axes, rows, args, y, by, position):
    """One --y: a line (and band) per group; returns the number of lines drawn."""
    lines = 0
    for group in dict.fromkeys(tuple(r[k] for k in by) for r in rows):
        points = series(rows, args.x, y, by, group, position)
        if not points:
            continue
        xs = [p[0] for p in points]
        means = [p[1] for p in points]
        label = ", ".join(f"{k}={v}" for k, v in zip(by, group))
        line, = axes.plot(xs, means, marker="o", label=label or None)
        if any(p[2] is not None for p in points):
            half = [p[2] or 0.0 for p in points]
            axes.fill_between(xs, [m - h for m, h in zip(means, half)],
                              [m + h for m, h in zip(means, half)],
                              color=line.get_color(), alpha=0.2, linewidth=0)
        lines += 1
    axes.set_ylabel(y)
    if args.logy:
        axes.set_yscale("log")
    axes.grid(True, alpha=0.3)
    if any(not line.get_label().startswith("_") for line in axes.get_lines()):
        axes.legend(fontsize="small")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="sweep.csv written by tsunagi sweep")
    parser.add_argument("--x", required=True, help="column for the x axis (a swept key)")
    parser.add_argument("--y", required=True, action="append",
                        help="column for a panel's y axis (repeatable: one panel each)")
    parser.add_argument("--by", action="append", default=None,
                        help="columns that make separate lines (default: the other swept keys "
                             "but the seed key)")
    parser.add_argument("--seed-key", default="seed",
                        help="swept key whose runs are averaged, with a 95 %% interval "
                             "(default: seed)")
    parser.add_argument("--out", help="PNG to write (default: next to the CSV)")
    parser.add_argument("--title", help="plot title (default: the CSV's directory)")
    parser.add_argument("--logx", action="store_true", help="logarithmic x axis")
    parser.add_argument("--logy", action="store_true", help="logarithmic y axes")
    args = parser.parse_args()

    header, rows = read_csv(args.csv)
    if "ok" not in header:
        sys.exit(f"plot_sweep: {args.csv}: no 'ok' column; is it a tsunagi sweep CSV?")
    for key in [args.x] + args.y + (args.by or []):
        if key not in header:
            sys.exit(f"plot_sweep: no column {key!r} in {args.csv}; columns: {', '.join(header)}")

    swept = header[:header.index("ok")]
    if args.by is None:
        by = [k for k in swept
              if k not in (args.x, args.seed_key) and len({r[k] for r in rows}) > 1]
    else:
        by = args.by
    failed = [r for r in rows if r["ok"] != "true"]
    rows = [r for r in rows if r["ok"] == "true"]
    if failed:
        print(f"plot_sweep: {len(failed)} failed run(s) left out", file=sys.stderr)

    numeric_x = all(number(r[args.x]) is not None for r in rows)
    categories = list(dict.fromkeys(r[args.x] for r in rows))

    def position(text):
        return number(text) if numeric_x else categories.index(text)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_sweep: needs matplotlib: run with /usr/bin/python3 and Debian's "
                 "python3-matplotlib (tools/install-deps.sh)")

    # One panel per --y: figures of different scales (a makespan of 2e7 ns, a connection count
    # of 10) each get their own axis instead of flattening one another.
    figure, panels = plt.subplots(len(args.y), 1, sharex=True, squeeze=False,
                                  figsize=(7, 1.0 + 2.8 * len(args.y)))
    panels = [row[0] for row in panels]
    empty = [y for y, axes in zip(args.y, panels)
             if draw_panel(axes, rows, args, y, by, position) == 0]
    if empty:
        sys.exit(f"plot_sweep: nothing to plot: no successful point has a number in "
                 f"{', '.join(empty)}")
    bottom = panels[-1]
    if not numeric_x:
        bottom.set_xticks(range(len(categories)))
        bottom.set_xticklabels(categories, rotation=30 if len(categories) > 6 else 0)
    if args.logx:
        bottom.set_xscale("log")
        if numeric_x:
            # Ticks at the swept values, printed as they are (8, not 8x10^0 on a minor tick).
            from matplotlib.ticker import NullFormatter, ScalarFormatter
            bottom.set_xticks(sorted({number(r[args.x]) for r in rows}))
            bottom.xaxis.set_major_formatter(ScalarFormatter())
            bottom.xaxis.set_minor_formatter(NullFormatter())
    bottom.set_xlabel(args.x)
    title = args.title or os.path.basename(os.path.dirname(os.path.abspath(args.csv)))
    panels[0].set_title(title)
    figure.tight_layout()

    seeds = len({r[args.seed_key] for r in rows}) if args.seed_key in swept else 1
    description = f"tsunagi plot_sweep: {len(panels)} panel(s): {'; '.join(args.y)}; " \
                  f"x {args.x}; mean over {seeds} {args.seed_key} value(s)"
    out = args.out or default_output(args.csv, args.x, args.y)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    figure.savefig(out, dpi=120, metadata={"Title": title, "Description": description})
    print(description.replace("tsunagi plot_sweep", "plot_sweep"), file=sys.stderr)
    print(out)


if __name__ == "__main__":
    main()
