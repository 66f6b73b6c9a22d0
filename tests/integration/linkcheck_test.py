#!/usr/bin/env python3
"""linkcheck_test: `ssg check --links` against a local HTTP server (issue 7).

Starts a ThreadingHTTPServer on 127.0.0.1 (port 0) that answers 200, 301 (to
another path), 302, 404, 405 to HEAD but 200 to GET, 429 with Retry-After (in
seconds, then as an HTTP date) before 200, a redirect that only adds a
trailing slash, and a response slower than --links-timeout; a closed port
stands for a refused connection. A tiny site links to all of them. Checks each
finding (rule, severity, place, message), the exit status with and without
--strict, the cache file (written, atomically, with a line per URL), that a
rerun within the TTL sends no request, that a stale entry is asked again and
keeps its broken-since date, --links-exclude, --links-cache and --links-ttl 0.
Never touches the internet. Standard library only; run by
tests/run_integration.sh with $SSG set; exit 0 = pass.
"""
import email.utils
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

SSG = os.environ.get("SSG")
SLOW = 4.0      # seconds the slow page takes
TIMEOUT = "2"   # --links-timeout


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


class Handler(http.server.BaseHTTPRequestHandler):
    """Answers by path; records (method, path, time) of every request."""

    def log_message(self, *args):
        pass

    def record(self):
        with self.server.lock:
            self.server.log.append((self.command, self.path, time.monotonic()))
            return sum(1 for m, p, _ in self.server.log if p == self.path)

    def done(self):
        # the request stops counting as in flight before its answer is sent:
        # once the client has the answer it may rightly start the next one
        if getattr(self, "counted", False):
            self.counted = False
            with self.server.lock:
                self.server.inflight -= 1

    def answer(self, code, headers=(), body=b""):
        self.done()
        try:
            self.send_response(code)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except OSError:
            pass  # the client gave up (the slow page)

    def route(self):
        with self.server.lock:
            self.server.inflight += 1
            self.server.most = max(self.server.most, self.server.inflight)
        self.counted = True
        try:
            self.route_one()
        finally:
            self.done()

    def route_one(self):
        n = self.record()
        p = self.path
        base = "http://127.0.0.1:%d" % self.server.server_address[1]
        if p in ("/ok", "/new", "/temp-target", "/dir/", "/excluded"):
            return self.answer(200, body=b"fine\n")
        if p == "/old":
            return self.answer(301, [("Location", base + "/new")])
        if p == "/temp":
            return self.answer(302, [("Location", "/temp-target")])
        if p == "/dir":
            return self.answer(301, [("Location", "/dir/")])
        if p == "/gone":
            return self.answer(404, body=b"not here\n")
        if p == "/nohead":
            if self.command == "HEAD":
                return self.answer(405, [("Allow", "GET")])
            return self.answer(200, body=b"x" * 100000)
        if p == "/busy":
            if n == 1:
                return self.answer(429, [("Retry-After", "1")])
            return self.answer(200)
        if p == "/busydate":
            if n == 1:
                when = email.utils.formatdate(time.time() + 2, usegmt=True)
                return self.answer(429, [("Retry-After", when)])
            return self.answer(200)
        if p == "/slow":
            time.sleep(SLOW)
            return self.answer(200)
        return self.answer(404)

    def do_HEAD(self):
        self.route()

    def do_GET(self):
        self.route()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, *args):
        super().__init__(*args)
        self.lock = threading.Lock()
        self.log = []           # (method, path, monotonic time)
        self.inflight = self.most = 0


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PAGES = ["ok", "old", "temp", "dir/", "gone", "nohead", "busy", "busydate", "slow",
         "excluded"]


def make_site(root, port, refused):
    os.makedirs(os.path.join(root, "content"))
    with open(os.path.join(root, "site.yml"), "w") as f:
        f.write('title: Links\ntopics:\n  - id: all\n    title: Everything\n'
                '    match: { urls: ["*"] }\n')
    lines = ["# Links", "", "Intro.", ""]
    for name in PAGES:
        lines.append("- [Page %s](http://127.0.0.1:%d/%s) - the %s page"
                     % (name.strip("/"), port, name, name.strip("/")))
    lines.append("- [Refused](http://127.0.0.1:%d/nothing) - nobody listens" % refused)
    lines.append("")
    with open(os.path.join(root, "content", "links.md"), "w") as f:
        f.write("\n".join(lines))
    return lines


def run(args, cwd=None):
    # No proxy may stand between ssg and the local server.
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    t = time.monotonic()
    p = subprocess.run([SSG, "check"] + args, capture_output=True, text=True, cwd=cwd,
                       timeout=60, env=env)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t


FINDING = re.compile(r"^(\S+?):(\d+):(\d+): (note|warning|error): (.*) \[([a-z-]+)\]$")


def link_findings(out):
    """{url path: (line, col, severity, message, rule)} of the link-* findings."""
    found = {}
    for line in out.splitlines():
        m = FINDING.match(line)
        if not m or not m.group(6).startswith("link-"):
            continue
        url = re.search(r"https://127\.0\.0\.1:\d+(/\S*)", m.group(5))
        check(url, "finding without a URL: " + line)
        key = url.group(1).rstrip(":")
        check(key not in found, "two findings for %s:\n%s" % (key, out))
        found[key] = (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5),
                      m.group(6))
    return found


def line_of(lines, needle):
    for i, text in enumerate(lines):
        if needle in text:
            return i + 1, text.index("[") + 1
    fail("no line with " + needle)


def main():
    if not SSG:
        fail("set SSG")
    srv = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    refused = closed_port()
    tmp = tempfile.mkdtemp(prefix="ssg-linkcheck-")
    try:
        site = os.path.join(tmp, "site")
        lines = make_site(site, port, refused)
        test_first_run(site, lines, srv, port, refused)
        test_rerun_cached(site, srv)
        test_stale_entry(site, srv)
        test_options(site, srv, tmp)
    finally:
        srv.shutdown()
        srv.server_close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("linkcheck_test: passed")


def requests_since(srv, start):
    with srv.lock:
        return srv.log[start:]


def test_first_run(site, lines, srv, port, refused):
    excl = ["--links-exclude", "127.0.0.1/excluded"]
    rc, out, err, took = run(["-s", site, "--links", "--links-timeout", TIMEOUT] + excl)
    check(rc == 0, "warnings only: exit %d\n%s%s" % (rc, out, err))
    check(took < SLOW + 6, "took %.1f s: the slow page was not cut off" % took)
    f = link_findings(out)
    want = {
        "/gone": ("warning", "link-broken", "answers 404"),
        "/old": ("warning", "link-redirect",
                 "redirects permanently to http://127.0.0.1:%d/new" % port),
        "/temp": ("note", "link-redirect",
                  "redirects temporarily to http://127.0.0.1:%d/temp-target" % port),
        "/slow": ("warning", "link-timeout", "did not answer in time"),
        "/nothing": ("warning", "link-broken", "broken link"),
    }
    check(set(f) == set(want), "findings for %s, expected %s:\n%s" % (sorted(f), sorted(want),
                                                                       out))
    for key, (sev, rule, text) in want.items():
        path, line, col, fsev, msg, frule = f[key]
        check((fsev, frule) == (sev, rule), "%s: %s [%s], expected %s [%s]"
              % (key, fsev, frule, sev, rule))
        check(text in msg, "%s: message %r lacks %r" % (key, msg, text))
        needle = ":%d%s)" % (refused if key == "/nothing" else port, key)
        check((line, col) == line_of(lines, needle), "%s reported at %d:%d" % (key, line, col))
        check(path == site + "/content/links.md", "%s reported in %s" % (key, path))
    check('"https://127.0.0.1:%d/old: https://127.0.0.1:%d/new"' % (port, port) in f["/old"][4]
          and "aliases:" in f["/old"][4], "no alias suggested: " + f["/old"][4])
    check(re.search(r"^links: 11 URLs: 10 checked \(\d+ requests\), 0 from the cache, "
                    r"1 excluded$", err, re.M), "links summary line: " + err)
    check(srv.most <= 2, "%d requests at once to one host (at most 2)" % srv.most)
    check("after 0 ms" not in out and " ms:" not in out, "timings in messages: " + out)
    log = requests_since(srv, 0)
    paths = [p for _, p, _ in log]
    check("/excluded" not in paths, "an excluded URL was requested")
    check([m for m, p, _ in log if p == "/nohead"] == ["HEAD", "GET"],
          "HEAD 405 then GET: %s" % [m for m, p, _ in log if p == "/nohead"])
    check([m for m, p, _ in log if p == "/ok"] == ["HEAD"], "/ok: not one HEAD")
    check("/new" in paths and "/temp-target" in paths and "/dir/" in paths,
          "redirects not followed: %s" % paths)
    for busy, least in (("/busy", 0.9), ("/busydate", 0.5)):
        times = [t for _, p, t in log if p == busy]
        check(len(times) == 2, "%s: %d requests, expected 2 (429 then 200)" % (busy, len(times)))
        check(times[1] - times[0] >= least, "%s: retried after %.2f s, before Retry-After"
              % (busy, times[1] - times[0]))
    cache = os.path.join(site, ".ssg-cache", "links.tsv")
    check(os.path.isfile(cache), "no cache file " + cache)
    check(os.listdir(os.path.dirname(cache)) == ["links.tsv"],
          "leftovers beside the cache: %s" % os.listdir(os.path.dirname(cache)))
    rows = {}
    with open(cache) as fh:
        for row in fh:
            if not row.startswith("#"):
                cols = row.rstrip("\n").split("\t")
                check(len(cols) >= 5, "cache line with %d columns: %r" % (len(cols), row))
                rows[cols[0]] = cols
    check(len(rows) == 10, "%d cache lines, expected 10" % len(rows))
    gone = rows.get("https://127.0.0.1:%d/gone" % port)
    check(gone and gone[1] == "404" and re.match(r"\d{4}-\d\d-\d\d$", gone[3])
          and abs(int(gone[4]) - time.time()) < 120, "cache line for /gone: %s" % gone)
    ok = rows.get("https://127.0.0.1:%d/ok" % port)
    check(ok and ok[1] == "200" and ok[2] == "-" and ok[3] == "-", "cache line for /ok: %s" % ok)
    old = rows.get("https://127.0.0.1:%d/old" % port)
    check(old and old[2] == "http://127.0.0.1:%d/new" % port, "cache line for /old: %s" % old)


def test_rerun_cached(site, srv):
    start = len(requests_since(srv, 0))
    rc, out, err, took = run(["--links", "--strict", "--format", "json", "--links-timeout",
                              TIMEOUT, "--links-exclude", "127.0.0.1/excluded"], cwd=site)
    check(rc == 1, "--strict with broken links: exit %d" % rc)
    check(not requests_since(srv, start),
          "a rerun within the TTL sent requests: %s" % requests_since(srv, start))
    rules = {}
    for row in out.splitlines():
        obj = json.loads(row)
        if (obj.get("code") or "").startswith("link-"):
            rules.setdefault(obj["code"], []).append(obj["severity"])
            check(obj["file"] == "content/links.md", "json file: %s" % obj["file"])
    check(sorted(rules.get("link-broken", [])) == ["error", "error"]
          and rules.get("link-timeout") == ["error"]
          and sorted(rules.get("link-redirect", [])) == ["error", "note"],
          "cached findings under --strict: %s" % rules)
    check("10 from the cache" in err, "summary: " + err)


def test_stale_entry(site, srv):
    cache = os.path.join(site, ".ssg-cache", "links.tsv")
    with open(cache) as fh:
        text = fh.read()
    lines = []
    for row in text.splitlines(True):
        cols = row.split("\t")
        if cols[0].endswith("/gone"):
            cols[3], cols[4] = "2020-01-02", "1000"
        lines.append("\t".join(cols))
    with open(cache, "w") as fh:
        fh.write("".join(lines))
    start = len(requests_since(srv, 0))
    rc, out, err, _ = run(["-s", site, "--links", "--links-exclude", "127.0.0.1/excluded"])
    got = [p for _, p, _ in requests_since(srv, start)]
    check(got == ["/gone"], "only the stale entry is asked again: %s" % got)
    f = link_findings(out)
    check("broken since 2020-01-02" in f.get("/gone", ("",) * 5)[4],
          "the first broken date is not reported: %s" % out)
    with open(cache) as fh:
        row = [r for r in fh if r.split("\t")[0].endswith("/gone")][0].split("\t")
    check(row[3] == "2020-01-02" and int(row[4]) > 1000, "history not kept: %s" % row)


def test_options(site, srv, tmp):
    custom = os.path.join(tmp, "elsewhere", "c.tsv")
    start = len(requests_since(srv, 0))
    rc, out, err, took = run(["-s", site, "--links", "--links-ttl", "0", "--links-cache", custom,
                              "--links-exclude", "127.0.0.1/excluded", "--links-exclude",
                              "127.0.0.1/slo*"])
    got = {p for _, p, _ in requests_since(srv, start)}
    check("/ok" in got and "/gone" in got, "--links-ttl 0 did not check again: %s" % got)
    check("/slow" not in got and "/excluded" not in got, "excluded URLs requested: %s" % got)
    check(os.path.isfile(custom), "--links-cache file not written")
    f = link_findings(out)
    check("/slow" not in f and "/gone" in f, "findings with /slow excluded: %s" % sorted(f))
    check(took < SLOW, "took %.1f s with the slow page excluded" % took)
    rc, out, err, _ = run(["-s", site, "--links-timeout", "0"])
    check(rc == 2, "--links-timeout 0: exit %d, expected a usage error" % rc)
    rc, out, err, _ = run(["-s", site, "--links-ttl", "soon"])
    check(rc == 2, "--links-ttl soon: exit %d, expected a usage error" % rc)
    start = len(requests_since(srv, 0))
    rc, out, err, _ = run(["-s", site])
    check(not requests_since(srv, start) and "link-" not in out,
          "links checked without --links")


if __name__ == "__main__":
    main()
