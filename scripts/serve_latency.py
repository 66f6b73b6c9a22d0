#!/usr/bin/env python3
"""serve_latency: what a contributor waits for under `ssg serve`, from saving
an edit of one document to the reload event its open pages get (Server-Sent
Events, /__ssg/events), serve's wait for a quiet moment included (10 ms
after a save seen whole, a file written and closed: watch.h).
Used by scripts/bench-serve.sh (attached to the serve it started) and by
scripts/bench.sh's serve step (which has it start serve itself, and takes
its figures as hyperfine's JSON for the summary).

usage: serve_latency.py (--port PORT | --serve SSG SITE) DOC EDITS KIND [OUT.json]
  DOC   the document to edit (a path; with --serve, relative to SITE/content)
  KIND  entry: a line on the last entry of DOC's list, which goes on its
        description (build_descs.h);
        prose: a paragraph of its own (patched into the page);
        link: a new entry, linking to a resource no document cites
        insert: the same, put before DOC's first entry
Two times per edit: to the first reload event, and to the reload event of
the site built whole (the same event unless the first was a preview's:
build_patch.h). Each edit is made on DOC as it first was (insert: on DOC
as the last edit left it). The first edit warms up and is not counted; DOC
is restored afterwards."""
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time


def start_serve(ssg, site):
    p = subprocess.Popen([ssg, "serve", "-q", "-s", site, "-p", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in p.stdout:
        m = re.search(r"Serving at http://[^:]+:(\d+)/", line)
        if m:
            return p, int(m.group(1))
    sys.exit("serve_latency: serve did not start")


def edit_line(kind, n):
    if kind == "link":
        return "- [New resource %d](https://example.com/new/%d) - added\n" % (n, n)
    return ("\n\n" if kind == "prose" else "") + "Edited at %d.\n" % n


def measure(port, path, edits, kind):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /__ssg/events HTTP/1.1\r\nHost: x\r\n\r\n")
    f = s.makefile("rb")
    while f.readline().strip():
        pass  # status line and headers

    def wait_reload():
        """The next reload event: whether it is a preview's (a build follows)."""
        s.settimeout(900)
        reload = False
        while True:
            line = f.readline()  # chunk sizes and SSE lines alike: the event name is enough
            if not line:
                sys.exit("serve_latency: event stream closed")
            if line.startswith(b"event: reload"):
                reload = True
            elif reload and line.startswith(b"data: "):
                return b'"preview":true' in line
            if line.startswith(b"event: build-error"):
                sys.exit("serve_latency: the build failed during the benchmark")

    original = open(path, "rb").read()
    times, whole = [], []
    try:
        for i in range(edits + 1):
            time.sleep(0.5)
            t0 = time.monotonic()
            if kind == "insert":
                with open(path, encoding="utf-8") as doc:
                    lines = doc.read().split("\n")
                first = next(k for k, l in enumerate(lines) if l.startswith("- ["))
                lines.insert(first, edit_line("link", time.time_ns()).rstrip("\n"))
                with open(path, "w", encoding="utf-8") as out:
                    out.write("\n".join(lines))
            else:
                # made on the document as it first was, as the bench's
                # edit step makes it: each edit is the same edit
                with open(path, "wb") as out:
                    out.write(original + edit_line(kind, time.time_ns()).encode())
            preview = wait_reload()
            t1 = time.monotonic()
            while preview:
                preview = wait_reload()
            if i:
                times.append(t1 - t0)
                whole.append(time.monotonic() - t0)
    finally:
        with open(path, "wb") as out:
            out.write(original)
    return times, whole


def main():
    args = sys.argv[1:]
    serve = None
    if args[:1] == ["--port"]:
        port, args = int(args[1]), args[2:]
        doc = args[0]
    elif args[:1] == ["--serve"]:
        serve, port = start_serve(args[1], args[2])
        doc = os.path.join(args[2], "content", args[3])
        args = args[3:]
    else:
        sys.exit(__doc__)
    edits, kind = int(args[1]), args[2]
    out = args[3] if len(args) > 3 else None
    try:
        times, whole = measure(port, doc, edits, kind)
    finally:
        if serve:
            serve.terminate()
            serve.wait()
    for what, ts in (("reload event", times), ("site built whole", whole)):
        print("save -> %s (%s edits): median %.0f ms, min %.0f, max %.0f (n=%d)"
              % (what, kind, statistics.median(ts) * 1000, min(ts) * 1000, max(ts) * 1000,
                 len(ts)))
    if out:
        results = []
        for what, ts in (("to reload", times), ("to the site whole", whole)):
            results.append({"command": "ssg serve 10000 one %s edit, %s" % (kind, what),
                            "mean": statistics.mean(ts), "median": statistics.median(ts),
                            "min": min(ts), "max": max(ts), "user": 0.0, "system": 0.0,
                            "times": ts})
        with open(out, "w") as f:
            json.dump({"results": results}, f, indent=1)


if __name__ == "__main__":
    main()
