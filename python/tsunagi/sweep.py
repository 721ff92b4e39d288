"""One `tsunagi sweep --out DIR` directory: sweep.csv and a run directory per point."""

import json
from functools import cached_property
from pathlib import Path

import pandas as pd

from .errors import NotATsunagiOutput
from .run import Run


class Sweep:
    """The output of one `tsunagi sweep` (docs/cli.md, "tsunagi sweep").

    `table` is sweep.csv: the swept keys, `ok`, then the --columns figures (dotted
    result.json keys), one row per point in grid order. `points` lists the point directories
    with their parameters (sweep-point.json) and `run(i)` loads one of them as a Run, for what
    the CSV does not hold (traces, series).
    """

    def __init__(self, path):
        self.path = Path(path)
        if not (self.path / "sweep.csv").is_file():
            raise NotATsunagiOutput(
                f"no sweep.csv in {self.path}: is it a `tsunagi sweep --out` directory?")

    def __repr__(self):
        return f"<tsunagi.Sweep {len(self.table)} points at {str(self.path)!r}>"

    @cached_property
    def table(self):
        """sweep.csv as a DataFrame. "true"/"false" cells become booleans, empty cells (null
        or absent figures) NaN; swept values that are not numbers ("[2,4]", "random") stay
        strings. The sweep writes cells as JSON writes numbers, so integers stay integers
        unless a column has an empty cell (then float, as pandas does for missing values)."""
        return pd.read_csv(self.path / "sweep.csv", true_values=["true"], false_values=["false"],
                           keep_default_na=False, na_values=[""])

    @cached_property
    def points(self):
        """One row per point directory that holds a sweep-point.json, by directory name: dir,
        exit_status, wall_s, backend, and one column per swept key (values as given, strings).
        Points stopped by Ctrl-C have no sweep-point.json and are not listed."""
        rows = []
        for marker in sorted(self.path.glob("*/sweep-point.json")):
            with open(marker, encoding="utf-8") as f:
                info = json.load(f)
            row = {"dir": str(marker.parent), "exit_status": info.get("exit_status"),
                   "wall_s": info.get("wall_s"), "backend": info.get("backend")}
            row.update(info.get("point") or {})
            rows.append(row)
        return pd.DataFrame(rows)

    def run(self, i):
        """The Run of point i of `points` (or of a directory name inside the sweep)."""
        if isinstance(i, str):
            return Run(self.path / i)
        return Run(self.points["dir"].iloc[i])
