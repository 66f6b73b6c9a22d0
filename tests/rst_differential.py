#!/usr/bin/env python3
"""Differential test of ssg's reStructuredText reader against docutils.

Usage: rst_differential.py OUTLINE_BIN FILE...

For each FILE, builds the outline that tests/tools/rst_outline.c prints
(section titles with levels, lists and their items, literal blocks, table
cells, the sorted set of link URLs) from docutils' doctree
(docutils.core.publish_doctree) and compares it with OUTLINE_BIN's output.
Prints every mismatch; exits non-zero when any file differs; ends with
"rst-differential: N passed, N failed".
"""
import difflib
import io
import subprocess
import sys

from docutils import nodes
from docutils.core import publish_doctree

SETTINGS = {
    "report_level": 1,          # keep every system message in the tree ...
    "halt_level": 5,            # ... and never stop
    "warning_stream": io.StringIO(),
    "raw_enabled": False,       # ssg refuses raw and include by default
    "file_insertion_enabled": False,
    "syntax_highlight": "none",
    "input_encoding": "utf-8",
}

# Messages whose literal block ssg keeps as text (the construct's source).
KEPT_MESSAGES = ("Unknown directive type", '"raw" directive disabled',
                 '"include" directive disabled')

SKIP_TEXT = (nodes.footnote_reference, nodes.citation_reference, nodes.system_message,
             nodes.image, nodes.comment, nodes.substitution_definition, nodes.raw)


def text_of(node):
    parts = []

    def rec(n):
        if isinstance(n, nodes.Text):
            parts.append(str(n))
            return
        if isinstance(n, SKIP_TEXT):
            return
        for ch in n.children:
            rec(ch)
            if isinstance(ch, (nodes.Body, nodes.Structural)) and not isinstance(ch, nodes.Inline):
                parts.append(" ")

    rec(node)
    return " ".join("".join(parts).split())


def line(tag, text):
    return tag + (" " + text if text else "")


def kept_message(msg):
    return any(k in msg.astext() for k in KEPT_MESSAGES)


def docutils_outline(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    doc = publish_doctree(src, source_path=path, settings_overrides=dict(SETTINGS))
    has_title = any(isinstance(c, nodes.title) for c in doc.children)
    out, links = [], set()

    def in_dropped_message(n):
        p = n.parent
        while p is not None:
            if isinstance(p, nodes.system_message) and not kept_message(p):
                return True
            p = p.parent
        return False

    for n in doc.traverse():
        if in_dropped_message(n):
            continue
        if isinstance(n, nodes.title):
            if isinstance(n.parent, nodes.document):
                out.append(line("section 1", text_of(n)))
            elif isinstance(n.parent, nodes.section):
                depth, p = 0, n.parent
                while p is not None:
                    if isinstance(p, nodes.section):
                        depth += 1
                    p = p.parent
                out.append(line("section %d" % min(6, depth + (1 if has_title else 0)), text_of(n)))
        elif isinstance(n, nodes.subtitle) and isinstance(n.parent, nodes.document):
            out.append(line("section 2", text_of(n)))
        elif isinstance(n, nodes.bullet_list):
            out.append("list bullet")
        elif isinstance(n, nodes.enumerated_list):
            out.append("list ordered %d" % int(n.get("start", 1)))
        elif isinstance(n, nodes.list_item):
            kids = [c for c in n.children
                    if not isinstance(c, (nodes.system_message, nodes.Invisible))]
            first = kids[0] if kids else None
            out.append(line("item", text_of(first) if isinstance(first, nodes.paragraph) else ""))
        elif isinstance(n, (nodes.literal_block, nodes.doctest_block)):
            out.append("literal " + n.astext().rstrip("\n").replace("\n", "\\n"))
        elif isinstance(n, nodes.entry):
            out.append(line("cell", text_of(n)))
        elif isinstance(n, nodes.reference) and n.get("refuri"):
            links.add(n["refuri"])
    out.extend("link " + u for u in sorted(links, key=lambda s: s.encode("utf-8")))
    return out


def ssg_outline(binary, path):
    res = subprocess.run([binary, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if res.returncode != 0:
        return None, res.stderr.decode("utf-8", "replace")
    return res.stdout.decode("utf-8", "replace").splitlines(), ""


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary, files = argv[1], argv[2:]
    passed = failed = 0
    for path in files:
        want = docutils_outline(path)
        got, err = ssg_outline(binary, path)
        if got is None:
            failed += 1
            print("FAIL %s: outline tool failed: %s" % (path, err.strip()))
            continue
        if got == want:
            passed += 1
            print("ok   %s (%d outline lines)" % (path, len(want)))
            continue
        failed += 1
        print("FAIL %s" % path)
        for d in difflib.unified_diff(want, got, "docutils", "ssg", n=1, lineterm=""):
            print("    " + d)
    print("rst-differential: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
