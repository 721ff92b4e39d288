#!/usr/bin/python3
"""The docs say what the program does (tests/docs/README.md): every `tsunagi` command line in
README.md, docs/*.md and validation/README.md runs, or at least parses, every scenario key
they name exists, every key the loader accepts is documented, and every marked sample output is
what its command prints.

  check_docs.py --tsunagi BIN --schema-keys BIN --src DIR [--keys-only] [--limit S] [--no-ns3]
                [--update-outputs]

Commands are found in code blocks (fenced or indented, `$ ` prompts and `\\` continuations
allowed) and in inline code spans that start with `tsunagi <command>`. Each one is either
  * a synopsis: it holds placeholders (SCENARIO, DIR_A, N, KEY=VALUE, [...], a|b, ...): its
    command must exist and every option it shows must be in `tsunagi <command> --help`;
  * runnable: it is run from a scratch directory that sees the source tree's scenarios/,
    validation/ and tools/, with every --out / --pcap redirected there. A run that ends within
    --limit seconds must exit 0; one still running then is stopped and counts as parsed (bad
    arguments, unknown keys and bad values exit 2 at once, before anything runs). realnet runs
    get --dry-run, which builds the whole launch plan and runs nothing. `tsunagi compare A B`
    compares the runs A and B if this check made them, else two runs of the teaching scenario.
Keys: every `--set KEY=...` of any command, and every code span in prose that names a dotted
key under network., protocol., placement., simgrid., workload. or faults., must be a key of the
schema (tests/docs/schema_keys.cpp prints it) or a field of result.json; KNOWN_NOT_KEYS lists
the names the docs mention on purpose as not being keys. Both ways: every key of the schema has a
row in a key table of docs/scenario-format.md (or a line in one of its TOML examples), and every
key those document is in the schema; and schemas/scenario.schema.json names exactly the same
keys, each of the same kind (json_schema_keys.py).
Samples: a fenced block after `<!-- output of: tsunagi ... -->` is that command's stdout (after
`<!-- output lines of: ... -->`, some of its lines in order), times masked; --update-outputs
writes what the commands print into the pages instead of failing.
"""
import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_tables  # noqa: E402  (beside this file)
import json_schema_keys  # noqa: E402

SCENARIO_TABLES = ("network", "protocol", "placement", "simgrid", "workload", "faults")
# Named in the docs precisely to say they are not keys (docs/scenario-format.md), and fields of
# result.json that the teaching run below does not write (docs/result-schema.md: realnet only).
KNOWN_NOT_KEYS = {"protocol.processes", "protocol.seed", "workload.makespan_unscaled_s"}
PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*")
TEACHING = "scenarios/teaching/two-switches.toml"


def doc_files(src):
    files = [os.path.join(src, "README.md"), os.path.join(src, "validation", "README.md")]
    docs = os.path.join(src, "docs")
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    # Scenario files explain themselves in comments, commands included.
    for top in ("scenarios", "validation"):
        for folder, _, names in sorted(os.walk(os.path.join(src, top))):
            files += sorted(os.path.join(folder, n) for n in names if n.endswith(".toml"))
    return files


# ------------------------------------------------------------------ extraction

def is_tsunagi_command(text):
    # `tsunagi` or a path to it (build/app/tsunagi), then a space: not tsunagi-node, not
    # model/include/tsunagi/..., not TSUNAGI=build/app/tsunagi python3 ...
    m = re.match(r"^(?:[\w.-]*/)*tsunagi(?:\s+(\S+)|$)", text)
    if not m:
        return False
    word = m.group(1) or ""
    return not word.endswith(":")  # "tsunagi sweep: ..." is a message, not a command


def extract_toml(path):
    """Commands in a scenario file's comments (`# ... tsunagi run FILE \\`, continued on the
    next comment line); every comment line is prose for the key check."""
    commands, prose = [], []
    pending, pending_line = "", 0
    for number, raw in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if "#" not in raw:
            continue
        text = raw[raw.index("#") + 1:].strip()
        prose.append((number, text))
        if pending:
            text = pending + " " + text
        else:
            m = re.search(r"(?:^|\s)((?:[\w.-]*/)*tsunagi\s+(?:run|sweep|compare)\b.*)", text)
            if not m:
                continue
            text, pending_line = m.group(1), number
        if text.endswith("\\"):
            pending = text[:-1].rstrip()
            continue
        commands.append((pending_line, text, "comment"))
        pending = ""
    return commands, prose


def extract(path):
    """(line, text, where) for every tsunagi command; where is 'block', 'span' or 'comment'.
    Also returns the prose lines (line, text) for the key check."""
    if path.endswith(".toml"):
        return extract_toml(path)
    commands, prose = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    fenced = False
    pending, pending_line = "", 0
    for number, raw in enumerate(lines, 1):
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        in_block = fenced or raw.startswith("    ")
        if not in_block:
            prose.append((number, raw))
            for span in re.findall(r"`([^`]+)`", raw):
                if is_tsunagi_command(span.strip()):
                    commands.append((number, span.strip(), "span"))
            continue
        text = raw.strip()
        if text.startswith("$ "):
            text = text[2:]
        if pending:
            text = pending + " " + text
        elif text.startswith("#"):
            continue
        if text.endswith("\\"):
            pending, pending_line = text[:-1].rstrip(), pending_line or number
            continue
        first = pending_line or number
        pending, pending_line = "", 0
        if is_tsunagi_command(text):
            commands.append((first, text, "block"))
    return commands, prose


def tokens_of(text):
    # The command ends at a shell separator; `# comment` is dropped.
    text = re.split(r"\s*(?:;|&&|\|\||\s\|\s)\s*", text)[0]
    text = re.split(r"\s(?:[12]?>>?|<)\s*\S", text)[0]  # `> job.sh`: a redirection, not an argument
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def is_placeholder(token):
    """SCENARIO, N, KEY=VALUE, [--dry-run], a|b, <point>, ...: not something to run as is."""
    bare = token.strip(",")
    if bare.startswith("[") or (bare.endswith("]") and "[" not in bare):
        return True
    if bare in ("...", "\u2026") or "|" in bare or "<" in bare or "$" in bare:
        return True  # ..., a|b, <point>, $s (a shell variable)
    return any(PLACEHOLDER.fullmatch(part.strip("[]")) for part in bare.split("="))


def is_synopsis(tokens):
    """Placeholders, or a command named in prose without what it needs (`tsunagi compare`)."""
    if not tokens or any(is_placeholder(t) for t in tokens):
        return True
    positional = [t for i, t in enumerate(tokens[1:], 1)
                  if not t.startswith("-") and not tokens[i - 1].startswith("-")]
    if tokens[0] in ("run", "sweep"):
        return not positional
    if tokens[0] == "compare":
        return len(positional) < 2
    if tokens[0] == "report":
        return not positional
    # `tsunagi collect DIR` needs the files a realnet batch job leaves (realnet:collect and
    # realnet:slurm_local run it for real); `tsunagi calibrate` runs realnet ping-pongs for
    # half a minute (realnet:calibrate_loopback runs it for real): here only their command and
    # options are checked.
    return tokens[0] in ("collect", "calibrate")


# ------------------------------------------------------------------ keys

class Keys:
    def __init__(self, schema_bin, result_paths):
        out = subprocess.run([schema_bin], check=True, capture_output=True, text=True).stdout
        self.kind = dict(line.split() for line in out.splitlines() if line.strip())
        if "protocol.shortcut_capacity" not in self.kind or len(self.kind) < 50:
            sys.exit(f"FAIL: the schema dump looks wrong ({len(self.kind)} keys)")
        self.results = result_paths

    def problem(self, key):
        """None when `key` names a scenario key (array entries by index or name allowed)."""
        key = re.sub(r"\[(\w+)\]", r".\1", key)
        path, picked = "", False
        for part in key.split("."):
            candidate = f"{path}.{part}" if path else part
            if candidate in self.kind:
                path, picked = candidate, False
            elif self.kind.get(path) == "array" and not picked and re.fullmatch(r"[\w-]+", part):
                picked = True  # one array entry, picked by index or by name
            else:
                return f"'{key}' is not a scenario key ('{part}' is unknown after '{path or '(top)'}')"
        return None


# ------------------------------------------------------------------ every key documented

FORMAT_PAGE = "docs/scenario-format.md"


def table_keys(table, problems, rel):
    """Keys of one key table of the format page, under the table its marker names
    (`<!-- scenario keys: network.tree -->`; `(top level)` for the file's own keys). A row may
    name several keys (`rows`, `cols`); a type `table {a, b}` names that table's keys too."""
    if table.marker is None or table.marker[0] != "scenario keys":
        problems.append(f"{rel}:{table.line}: a key table without `<!-- scenario keys: TABLE -->` "
                        "above it: say which table's keys it lists")
        return
    prefix = "" if table.marker[1] == "(top level)" else table.marker[1]
    for number, row in table.rows:
        for name in doc_tables.spans(row[0]):
            key = f"{prefix}.{name}" if prefix else name
            yield number, key
            inner = re.search(r"table `\{([\w, ]+)\}`", row[1]) if len(row) > 1 else None
            for child in inner.group(1).split(",") if inner else ():
                yield number, f"{key}.{child.strip()}"


def toml_keys(value, prefix):
    """Dotted keys of a parsed TOML example; the entries of an array of tables share a path."""
    if isinstance(value, dict):
        for name, inner in value.items():
            key = f"{prefix}.{name}" if prefix else name
            yield key
            yield from toml_keys(inner, key)
    elif isinstance(value, list):
        for entry in value:
            if isinstance(entry, dict):
                yield from toml_keys(entry, prefix)


def documented_keys(src, problems):
    """{key: line} for every key the format page documents: the rows of its key tables (the
    tables whose first column is `key`) and the keys of its ```toml examples (`...` lines, which
    stand for more of the same, left out)."""
    path = os.path.join(src, FORMAT_PAGE)
    found = {}
    for table in doc_tables.tables(path):
        if table.header and table.header[0] == "key":
            for number, key in table_keys(table, problems, FORMAT_PAGE):
                found.setdefault(key, number)
    for line, text in doc_tables.fenced_blocks(path, "toml"):
        # Blanked, not dropped, so that line numbers stay those of the page.
        text = "\n".join("" if l.strip() == "..." else l for l in text.split("\n"))
        try:
            example = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            problems.append(f"{FORMAT_PAGE}:{line}: the example is not TOML: {error}")
            continue
        for key in toml_keys(example, ""):
            found.setdefault(key, line_in_block(text, line, key))
    return found


def line_in_block(text, first, key):
    """The line of an example where `key`'s last part is set (`name = ...`, `{ name = ... }`),
    else the example's first line."""
    name = re.escape(key.rsplit(".", 1)[-1])
    for i, raw in enumerate(text.split("\n")):
        if re.search(r"(?:^|[{,\s])%s\s*=" % name, raw.split("#")[0]):
            return first + i
    return first


def both_ways_problems(keys, src):
    """Every key the loader accepts is documented on the format page, and every key the page
    documents is accepted: a key added to the schema without a row, or a row left behind by a
    renamed key, fails."""
    problems = []
    documented = documented_keys(src, problems)
    for key, line in sorted(documented.items(), key=lambda item: item[1]):
        if key not in keys.kind:
            problems.append(f"{FORMAT_PAGE}:{line}: documents '{key}', which the loader does not "
                            "accept (scenarios/src/schema.cpp)")
    for key, kind in keys.kind.items():
        # A table is documented by its keys; an array entry's keys by their own rows.
        if kind == "value" and key not in documented:
            problems.append(f"{FORMAT_PAGE}: '{key}' is accepted by the loader but has no row "
                            "in a key table or line in an example")
    return problems


def flatten(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    out.add(prefix)


def set_keys(tokens):
    keys = []
    for i, token in enumerate(tokens):
        assignment = None
        if token == "--set" and i + 1 < len(tokens):
            assignment = tokens[i + 1]
        elif token.startswith("--set="):
            assignment = token[len("--set="):]
        if assignment and "=" in assignment:
            key = assignment.split("=", 1)[0]
            if not PLACEHOLDER.fullmatch(key):
                keys.append(key)
    return keys


def prose_keys(prose):
    """Dotted keys in code spans of prose, and KEY of every `--set KEY=` in prose or comments."""
    pattern = re.compile(r"`((?:%s)\.[A-Za-z0-9_.\[\]-]+)" % "|".join(SCENARIO_TABLES))
    for number, line in prose:
        for span in re.findall(r"`[^`]+`", line):
            m = pattern.match(span)
            if m:
                yield number, m.group(1).rstrip(".")
        for key in re.findall(r"--set[ =]['\"]?([a-z][\w.\[\]-]*)=", line):
            if key.split(".")[0].split("[")[0] in SCENARIO_TABLES:  # not `--set a=1`
                yield number, key


# ------------------------------------------------------------------ sample outputs

# Figures that change from run to run or with the machine: times (simulated ones too, which a
# change of the network model moves without any decision changing).
VOLATILE = re.compile(r"\d+(?:\.\d+)?\s?(?:ns|us|µs|ms|s|min)\b")


class Sample:
    """A fenced block a marker says is the output of a command:
    `<!-- output of: tsunagi run ... -->` the whole of its stdout, line by line;
    `<!-- output lines of: tsunagi run ... -->` some of its lines, in order."""

    def __init__(self, path, line, command, whole, lines, end):
        self.path, self.line, self.command, self.whole = path, line, command, whole
        self.lines, self.end = lines, end  # the block's text lines; the line of its closing ```


def samples(path):
    """The marked samples of a page, and the lines of markers with no block after them (a
    heading, or the end of the page, came first): those would check nothing, silently."""
    found, orphans, pending, block = [], [], None, None
    for number, raw in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        m = re.fullmatch(r"\s*<!--\s*output (lines )?of:\s*(.*?)\s*-->\s*", raw)
        if m:
            if pending:
                orphans.append(pending[2])
            pending = (bool(m.group(1)), m.group(2), number)
        elif block is not None and raw.strip().startswith("```"):
            found.append(Sample(path, block[0], block[1], not block[2], block[3], number))
            block = None
        elif block is not None:
            block[3].append(raw)
        elif raw.startswith("#") and pending:
            orphans.append(pending[2])
            pending = None
        elif pending and raw.strip().startswith("```"):
            block = (number + 1, pending[1], pending[0], [])
            pending = None
    return found, orphans + ([pending[2]] if pending else [])


def masked(line):
    return VOLATILE.sub("<time>", line.rstrip())


def sample_problem(sample, stdout):
    """None when the block is what the command printed, volatile figures aside."""
    have = [masked(l) for l in stdout.rstrip("\n").split("\n")]
    want = [(sample.line + i, masked(l)) for i, l in enumerate(sample.lines)]
    if sample.whole:
        for (number, line), got in zip(want, have + [""] * len(want)):
            if line != got:
                return number, f"the page has '{line}', the command prints '{got}'"
        if len(have) > len(want):
            return sample.end, f"the command prints more: '{have[len(want)]}'"
        return None
    rest = iter(have)
    for number, line in want:
        if not any(line == got for got in rest):
            return number, f"'{line}' is not among the lines it prints (in this order)"
    return None


def update_sample(sample, stdout):
    """Writes what the command printed into the page, in place of the block."""
    lines = open(sample.path, encoding="utf-8").read().split("\n")
    printed = stdout.rstrip("\n").split("\n")
    if not sample.whole:  # keep the selection: the printed lines that start the same way
        printed = [next((p for p in printed if p.split()[:1] == l.split()[:1]), l)
                   for l in sample.lines]
    lines[sample.line - 1:sample.end - 1] = printed
    open(sample.path, "w", encoding="utf-8").write("\n".join(lines))


# ------------------------------------------------------------------ running

class Runner:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.outs = {}  # a doc's --out value -> where this check put it
        self.pair = None
        self.help = {}
        self.done = {}
        for name in ("scenarios", "validation", "tools", "docs"):
            os.symlink(os.path.join(args.src, name), os.path.join(work, name))

    def run(self, argv, limit):
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=self.work, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=limit)
            return proc.returncode, out, err, time.monotonic() - started
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                out, err = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, err = proc.communicate()
            return None, out, err, time.monotonic() - started

    def help_of(self, command):
        if command not in self.help:
            argv = [self.args.tsunagi] + ([command] if command else []) + ["--help"]
            code, out, err, _ = self.run(argv, 30)
            self.help[command] = (code, out + err)
        return self.help[command]

    def output(self, command):
        """stdout of a sample's command, run as written in the scratch directory (its relative
        --out lands there and is printed as written)."""
        tokens = tokens_of(command)[1:]
        code, out, err, _ = self.run([self.args.tsunagi] + tokens, 120)
        if code != 0:
            return None, f"exits {code}: {(err.strip() or out.strip())[-300:]}"
        return out, None

    def redirect(self, value):
        target = os.path.join(self.work, "out", re.sub(r"[^\w.-]", "_", value.strip("/")))
        self.outs[value] = target
        return target

    def teaching_pair(self):
        if self.pair is None:
            self.pair = []
            for name in ("pair-a", "pair-b"):
                out = os.path.join(self.work, "out", name)
                code, _, err, _ = self.run([self.args.tsunagi, "run", TEACHING, "--quiet",
                                            "--out", out], 120)
                if code != 0:
                    sys.exit(f"FAIL: the teaching run for compare failed ({code}): {err}")
                self.pair.append(out)
        return self.pair

    def synopsis(self, tokens):
        command = tokens[0] if tokens and not tokens[0].startswith("-") else ""
        if is_placeholder(command):
            command = ""
        code, text = self.help_of(command)
        if code != 0:
            return f"`tsunagi {command} --help` exits {code}: is '{command}' a command?"
        for token in tokens:
            option = token.strip("[],").split("=", 1)[0]
            if re.fullmatch(r"--?[A-Za-z][\w-]*", option) and option not in ("-h", "--help"):
                if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), text):
                    return f"option {option} is not in `tsunagi {command} --help`"
        return None

    def runnable(self, tokens):
        """(problem or None, what happened); identical commands run once."""
        key = tuple(tokens)
        if key not in self.done:
            self.done[key] = self.run_command(tokens)
        return self.done[key]

    def run_command(self, tokens):
        argv = [self.args.tsunagi]
        command = tokens[0] if tokens else ""
        if "--backend" in tokens and tokens[tokens.index("--backend") + 1] == "ns3" \
                and self.args.no_ns3:
            return None, "skipped (no ns-3 in this build)"
        if command == "compare":
            dirs = [t for t in tokens[1:] if not t.startswith("-")][:2]
            mine = [self.outs.get(d) for d in dirs]
            if all(m and os.path.exists(os.path.join(m, "result.json")) for m in mine):
                rest = mine
            else:
                rest = self.teaching_pair()
            options = tokens[1:]
            for d in dirs:
                options.remove(d)
            argv += ["compare"] + rest + options
        elif command == "report":
            # The run the page made, if it got to write its results in the time limit; else a
            # teaching run.
            dirs = [t for t in tokens[1:] if not t.startswith("-")][:1]
            mine = self.outs.get(dirs[0]) if dirs else None
            done = mine and os.path.exists(os.path.join(mine, "result.json"))
            argv += ["report", mine if done else self.teaching_pair()[0]]
        else:
            i = 0
            while i < len(tokens):
                token = tokens[i]
                if token in ("--out", "--pcap") and i + 1 < len(tokens):
                    argv += [token, self.redirect(tokens[i + 1])]
                    i += 2
                    continue
                argv.append(token)
                i += 1
            if "--backend" in tokens and tokens[tokens.index("--backend") + 1] == "realnet" \
                    and "--dry-run" not in tokens:
                argv.append("--dry-run")
        code, out, err, took = self.run(argv, self.args.limit)
        if code is None:
            if re.search(r"(?m)^tsunagi[^\n]*(error|unknown|must be)", err):
                return f"stopped after {took:.0f} s with errors: {err.strip()[-300:]}", ""
            return None, f"parsed, still running after {self.args.limit:.0f} s: stopped"
        if code != 0:
            first = (err.strip() or out.strip()).splitlines()[-1:] or ["(no output)"]
            return f"exits {code} after {took:.1f} s: {first[0][:300]}", ""
        return None, f"ran, exit 0 in {took:.1f} s"


def check_samples(args, runner, problems):
    """Every marked sample output is what its command prints now (or, with --update-outputs,
    becomes it). Pages are read bottom-up so that an update keeps the line numbers above."""
    report = []
    for path in doc_files(args.src):
        rel = os.path.relpath(path, args.src)
        marked, orphans = samples(path) if path.endswith(".md") else ([], [])
        for line in orphans:
            problems.append(f"{rel}:{line}: an output marker with no fenced block after it")
        for sample in reversed(marked):
            out, why = runner.output(sample.command)
            problem = (sample.line, why) if why else sample_problem(sample, out)
            if problem and args.update_outputs and not why:
                update_sample(sample, out)
                report.append(f"{rel}:{sample.line}: sample updated: {sample.command}")
            elif problem:
                problems.append(f"{rel}:{problem[0]}: sample output of `{sample.command}`: "
                                f"{problem[1]}")
            else:
                report.append(f"{rel}:{sample.line}: sample output as printed: {sample.command}")
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tsunagi", required=True)
    parser.add_argument("--schema-keys", required=True)
    parser.add_argument("--src", required=True)
    parser.add_argument("--keys-only", action="store_true")
    parser.add_argument("--no-ns3", action="store_true")
    parser.add_argument("--limit", type=float, default=15.0)
    parser.add_argument("--update-outputs", action="store_true",
                        help="write what each sample's command prints into the page")
    args = parser.parse_args()
    args.tsunagi = os.path.abspath(args.tsunagi)
    args.src = os.path.abspath(args.src)

    problems, report = [], []
    with tempfile.TemporaryDirectory(prefix="tsunagi-docs.") as work:
        runner = Runner(args, work)
        # result.json's own fields (workload.makespan_ns, ...) may be named in prose too.
        pair = runner.teaching_pair()
        results = set()
        flatten(json.load(open(os.path.join(pair[0], "result.json"))), "", results)
        keys = Keys(args.schema_keys, results)
        problems += both_ways_problems(keys, args.src)
        problems += json_schema_keys.problems(keys.kind, args.src)
        found = 0
        for path in doc_files(args.src):
            rel = os.path.relpath(path, args.src)
            commands, prose = extract(path)
            for number, key in prose_keys(prose):
                if key in KNOWN_NOT_KEYS or key in results:
                    continue
                why = keys.problem(key)
                if why:
                    problems.append(f"{rel}:{number}: {why}")
            for number, text, where in commands:
                found += 1
                tokens = tokens_of(text)[1:]
                for key in set_keys(tokens):
                    why = keys.problem(key)
                    if why:
                        problems.append(f"{rel}:{number}: --set {why}")
                if args.keys_only:
                    continue
                if is_synopsis(tokens):
                    why, what = runner.synopsis(tokens), "synopsis: command and options exist"
                else:
                    why, what = runner.runnable(tokens)
                if why:
                    problems.append(f"{rel}:{number}: `{text}`: {why}")
                report.append(f"{rel}:{number}: {what or 'FAILED'}: {text[:110]}")
        if not args.keys_only:
            report += check_samples(args, runner, problems)
    print("\n".join(report))
    if problems:
        print(f"FAIL: {len(problems)} problems in the docs:\n  " + "\n  ".join(problems))
        return 1
    what = "keys" if args.keys_only else "commands and keys"
    print(f"ok: {found} tsunagi command lines found; {what} checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
