"""Fig. 3/4 of paper 004 as tsunagi ran them: message time and rate per message size, for the
longest pair (Hokkaido -> Kyushu, 42 ms), a scaled pair (Kyoto -> Kyushu, 10 ms) and one of
Tokyo's (no window scaling), default and tuned windows, one line style per backend."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

PAIRS = [("hokkaido", "kyushu"), ("kyoto", "kyushu"), ("tokyo", "kyoto")]
COLORS = {PAIRS[0]: "tab:blue", PAIRS[1]: "tab:red", PAIRS[2]: "tab:green"}  # one per pair
STYLES = {"simgrid": "-", "ns3": "--", "realnet": ":"}


def plot(series, path):
    plt = common.pyplot()
    if plt is None:
        return
    fig, (times, rates) = plt.subplots(1, 2, figsize=(12, 4.5))
    for backend in sorted({s[0] for s in series}):
        for profile in sorted({s[1] for s in series}):
            for a, b in PAIRS:
                points = [(int(s[4]), int(s[5]), float(s[6])) for s in series
                          if s[0] == backend and s[1] == profile and (s[2], s[3]) == (a, b)]
                if not points:
                    continue
                label = f"{a}→{b} {profile} ({backend})"
                style = STYLES.get(backend, "-")
                marker = "o" if profile == "tuned" else "x"
                look = dict(marker=marker, color=COLORS[(a, b)], label=label)
                times.plot([p[0] for p in points], [p[1] / 1e6 for p in points], style, **look)
                rates.plot([p[0] for p in points], [p[2] for p in points], style, **look)
    for ax, title, unit in ((times, "Fig. 3: message time (half a round trip)", "ms"),
                            (rates, "Fig. 4: rate per message size", "MB/s")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(f"{unit} (simulated or real per backend)")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
    rates.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)
