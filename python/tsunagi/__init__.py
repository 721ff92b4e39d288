"""Load what the tsunagi simulator writes, as Python dicts and pandas DataFrames.

`load(path)` looks at what the directory holds and returns a `Run` (a `tsunagi run --out`
directory: result.json, trace.jsonl, topology.json) or a `Sweep` (a `tsunagi sweep --out`
directory: sweep.csv and one run directory per point). docs/python.md has the details.
"""

from .errors import NotATsunagiOutput
from .run import Run
from .sweep import Sweep
from .trace import flatten_detail, read_trace

__all__ = ["load", "Run", "Sweep", "NotATsunagiOutput", "read_trace", "flatten_detail"]
__version__ = "0.1.0"


def load(path):
    """Return a `Run` or a `Sweep` for `path` (a directory, or a file inside one).

    One entry point for both, because users get a directory name from the program's output
    ("files  out/x/result.json", "csv  out/x-sweep/sweep.csv") and should not have to know
    which kind it is. A path to result.json or sweep.csv loads its directory.
    """
    from pathlib import Path

    p = Path(path)
    if p.is_file() and p.name in ("result.json", "trace.jsonl", "topology.json", "sweep.csv"):
        p = p.parent
    if not p.exists():
        raise NotATsunagiOutput(f"{p}: no such directory")
    if not p.is_dir():
        raise NotATsunagiOutput(
            f"{p} is a file, not an output directory: give the directory `tsunagi run --out` "
            "or `tsunagi sweep --out` wrote")
    if (p / "result.json").is_file():
        return Run(p)
    if (p / "sweep.csv").is_file():
        return Sweep(p)
    hint = ""
    if any(p.glob("*/sweep-point.json")) or (p / "sweep.lock").exists():
        hint = (" It looks like a `tsunagi sweep --out` directory without sweep.csv: the sweep "
                "writes it at the end (also on Ctrl-C); run the same sweep command again to "
                "finish it.")
    raise NotATsunagiOutput(
        f"no result.json in {p}: is it a `tsunagi run --out` directory? "
        f"(a `tsunagi sweep --out` directory has sweep.csv instead).{hint}")
