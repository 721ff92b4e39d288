"""The checks of validation/supersinet/table5.py: regressions against the committed tables, and
paper 004's findings that hold today. Each returns the list of failed checks (printed as it
goes); known misses are printed and not returned."""

FIELDS = ["TCP", "OH_64B", "OH_64KB", "BW_64KB", "BW_8MB", "MBps_8MB", "BW_8MB_default"]
# A simulated value may move this much before it counts as a regression (relative, absolute).
TOLERANCE = {"MBps_8MB": (0.05, 0.5)}
DEFAULT_TOLERANCE = (0.05, 0.02)
# The pairs without Tokyo, whose stacks scale windows (the paper's "fast" pairs).
FAST = lambda row: "tokyo" not in (row["from"], row["to"])  # noqa: E731
# Sites whose TCP rate limit is the paper's own best TCP index there (scenario: an input).
CALIBRATED = {("hokkaido", "kyoto"), ("kyoto", "hokkaido"), ("kyoto", "kyushu"),
              ("kyushu", "kyoto")}


def _number(text):
    return None if text in ("", None) else float(text)


def regressions(backend, rows, committed):
    """Every value of every pair within its tolerance of the committed run (simulators only:
    they are deterministic; real time on realnet is not)."""
    if backend == "realnet":
        return []
    failed = []
    for row in rows:
        old = committed.get((row["from"], row["to"]))
        if old is None:
            failed.append(f"{backend} {row['from']}->{row['to']}: not in the committed table")
            continue
        for field in FIELDS:
            new, before = row[field], _number(old[field])
            if (new is None) != (before is None):
                failed.append(f"{backend} {row['from']}->{row['to']} {field}: {before} -> {new}")
                continue
            if new is None:
                continue
            rel, absolute = TOLERANCE.get(field, DEFAULT_TOLERANCE)
            if abs(new - before) > max(rel * abs(before), absolute):
                failed.append(f"{backend} {row['from']}->{row['to']} {field}: {before:.3f} "
                              f"(committed) -> {new:.3f}")
    print(f"{backend}: regression check against the committed table: "
          f"{'ok' if not failed else f'{len(failed)} value(s) moved'}")
    return failed


def _point(series, profile, a, b, size):
    """(message_ns, MB/s) of one size of one pair and profile, or (None, None)."""
    for _, prof, src, dst, nbytes, message_ns, rate in series:
        if prof == profile and (src, dst) == (a, b) and nbytes == size:
            return message_ns, float(rate)
    return None, None


def _rate(series, profile, a, b, size):
    return _point(series, profile, a, b, size)[1]


def paper_checks(backend, rows, series, rtt_ms):
    failed = []

    def expect(name, ok, detail, known_miss=False):
        verdict = "met" if ok else ("known miss" if known_miss else "FAILED")
        print(f"  {backend} {name}: {detail}: {verdict}")
        if not ok and not known_miss:
            failed.append(f"{backend} {name}: {detail}")

    profiles = {s[1] for s in series}
    for row in rows:
        a, b = row["from"], row["to"]
        pair = f"{a}->{b}"
        rtt = rtt_ms.get((a, b)) or rtt_ms[(b, a)]
        if FAST(row):  # an output: the run's 8 MB ping-pong against the paper's
            ratio = row["MBps_8MB"] / row["paper_MBps_8MB"]
            expect(f"{pair} MB/s at 8 MB within 25 % of the paper", 0.75 <= ratio <= 1.25,
                   f"{row['MBps_8MB']:.1f} / {row['paper_MBps_8MB']} = {ratio:.2f}")
        if (a, b) in CALIBRATED:  # an input carried through: the site's rate limit
            ratio = row["TCP"] / row["paper_TCP"]
            expect(f"{pair} TCP index (calibrated input) within 25 %", 0.75 <= ratio <= 1.25,
                   f"{row['TCP']:.3f} / {row['paper_TCP']} = {ratio:.2f}")
        # OH_64B with the per-message host cost of table5.py (issue 32), which comes from the
        # pairs without Tokyo: there it is an input carried through, into Tokyo an output. From
        # Tokyo it is a known miss: the paper's figures would need 9, 57 and 62 ms per message
        # from the one sender, and Tokyo -> Kyoto's 64 B message took longer than its 64 KB one,
        # which no cost per message gives (validation/README.md, "Paper 004").
        ratio = row["OH_64B"] / row["paper_OH_64B"]
        role = ("input carried through" if FAST(row) else
                "output" if b == "tokyo" else "no per-message cost fits")
        expect(f"{pair} OH_64B within 25 % of the paper ({role})", 0.75 <= ratio <= 1.25,
               f"{row['OH_64B']:.3f} / {row['paper_OH_64B']} = {ratio:.2f}",
               known_miss=a == "tokyo")
        for profile in sorted(profiles):  # Fig. 3: a small message takes half the RTT
            t = _point(series, profile, a, b, 64)[0]
            if t is not None:
                expect(f"{pair} 64 B ({profile}) at RTT/2 within 10 %",
                       abs(t / 1e6 - rtt / 2) <= 0.1 * rtt / 2,
                       f"{t / 1e6:.2f} ms against {rtt / 2:.1f} ms")
        if {"default", "tuned"} <= profiles:  # Fig. 4: default windows flatten, tuned lift
            flat = _rate(series, "default", a, b, 8388608) / _rate(series, "default", a, b, 262144)
            expect(f"{pair} default windows: 8 MB rate at most 1.3x the 256 KB rate", flat <= 1.3,
                   f"{flat:.2f}x")
            if FAST(row):
                lift = (_rate(series, "tuned", a, b, 8388608) /
                        _rate(series, "default", a, b, 8388608))
                expect(f"{pair} tuned windows lift the 8 MB rate at least 5x", lift >= 5,
                       f"{lift:.1f}x")
    return failed
