#!/usr/bin/env python3
"""serve_edit: what a contributor waits for under `ssg serve`, from saving an
edit of one document to the reload event its open pages get (Server-Sent
Events, /__ssg/events), serve's wait for a quiet moment (80 ms) included.
Part of scripts/bench.sh (step serve); results as hyperfine's JSON, so that
the summary shows them beside the rest.

usage: serve_edit.py SSG SITE DOC KIND RUNS OUT.json
  KIND: entry (a line on the last entry of DOC's list) or link (a new entry)
DOC is restored afterwards."""
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time


def events(port, got):
    """Read the event stream; each reload's arrival time goes to got."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /__ssg/events?since=0 HTTP/1.1\r\nHost: x\r\n"
              b"Accept: text/event-stream\r\n\r\n")
    f = s.makefile("rb")
    for line in f:
        if line.startswith(b"event: reload"):
            got.append(time.monotonic())


def main():
    ssg, site, doc, kind, runs, out = sys.argv[1:7]
    runs = int(runs)
    path = os.path.join(site, "content", doc)
    keep = path + ".serve-edit"
    shutil.copyfile(path, keep)
    p = subprocess.Popen([ssg, "serve", "-q", "-s", site, "-p", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    times = []
    try:
        m = None
        for line in p.stdout:
            m = re.search(r"Serving at http://[^:]+:(\d+)/", line)
            if m:
                break
        if not m:
            sys.exit("serve_edit: serve did not start")
        got = []
        threading.Thread(target=events, args=(int(m.group(1)), got), daemon=True).start()
        time.sleep(1.0)  # the first event (the first build) comes and goes
        for i in range(runs + 1):  # the first edit warms up
            seen = len(got)
            n = time.time_ns()
            with open(path, "a", encoding="utf-8") as f:
                if kind == "link":
                    f.write("- [New resource %d](https://example.com/new/%d) - added\n" % (n, n))
                else:
                    f.write("Edited at %d.\n" % n)
            t0 = time.monotonic()
            while len(got) == seen:
                if time.monotonic() - t0 > 60:
                    sys.exit("serve_edit: no reload within 60 s")
                time.sleep(0.002)
            if i:
                times.append(got[seen] - t0)
            time.sleep(1.5)  # the model of the last build freed, the machine quiet
    finally:
        p.terminate()
        p.wait()
        shutil.move(keep, path)
    result = {"command": "ssg serve 10000 one %s edit, to reload" % kind,
              "mean": statistics.mean(times), "median": statistics.median(times),
              "min": min(times), "max": max(times), "user": 0.0, "system": 0.0,
              "times": times}
    with open(out, "w") as f:
        json.dump({"results": [result]}, f, indent=1)
    print("%s: median %.3f s (min %.3f, max %.3f, %d runs)"
          % (result["command"], result["median"], result["min"], result["max"], len(times)))


if __name__ == "__main__":
    main()
