"""Reading the tables of a Markdown page, for the checks that hold a page to the code
(tests/docs/README.md). Only what the docs use: pipe tables with a header row, code spans,
HTML comments that name what a table lists, and fenced code blocks."""
import re

SPAN = re.compile(r"`([^`]+)`")
MARKER = re.compile(r"<!--\s*([\w ]+):\s*(.*?)\s*-->")


class Table:
    """One pipe table: where it starts, the `## ` section it is in, the marker comment just above
    it (None if none), its header cells and its rows (line number, cells)."""

    def __init__(self, line, section, marker, header):
        self.line, self.section, self.marker, self.header = line, section, marker, header
        self.rows = []


def cells(line):
    # `a \| b` inside a cell is an escaped pipe, not a column break.
    parts = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [p.strip() for p in parts]


def tables(path):
    """Every pipe table outside fenced blocks. A marker (`<!-- what: value -->`) counts for the
    table right after it when only blank lines or prose lie between: it names that table."""
    found, current, marker, section = [], None, None, ""
    fenced = False
    for number, raw in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            current = None
            continue
        if fenced:
            continue
        m = MARKER.search(raw)
        if m:
            marker = (m.group(1).strip(), m.group(2))
            continue
        if raw.lstrip().startswith("|"):
            if current is None:
                current = Table(number, section, marker, cells(raw))
                found.append(current)
                marker = None
            elif not re.fullmatch(r"[\s|:-]+", raw):
                current.rows.append((number, cells(raw)))
            continue
        current = None
        if raw.startswith("#"):
            marker = None  # a marker never reaches past a heading
            if raw.startswith("## "):
                section = raw[3:].strip()
    return found


def spans(text):
    return SPAN.findall(text)


def fenced_blocks(path, language):
    """(first line, text) of every ```language block."""
    blocks, lines, start = [], None, 0
    for number, raw in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        stripped = raw.strip()
        if lines is None and stripped == "```" + language:
            lines, start = [], number + 1
        elif lines is not None and stripped.startswith("```"):
            blocks.append((start, "\n".join(lines)))
            lines = None
        elif lines is not None:
            lines.append(raw)
    return blocks
