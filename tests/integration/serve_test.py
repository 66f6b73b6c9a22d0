#!/usr/bin/env python3
"""serve_test: `ssg serve` end to end (issue 6).

Starts `$SSG serve -s SITE --port 0` on a small site, then checks: pages and
assets (status, MIME type, ETag -> 304, HEAD, POST -> 405, folder redirect,
the site's 404 page), the injected reload script (and its absence from
`ssg build` output), live reload through Server-Sent Events after an edit and
after an editor-style rename, a broken site.yml (error event, last good site
still served, fixed -> reload), every traversal attack, and a clean SIGTERM
(exit 0, private staging folder removed). Standard library only.
"""
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

SSG = os.environ.get("SSG")
DEADLINE = 10.0  # seconds to wait for any one event


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def make_site(root):
    write(os.path.join(root, "site.yml"), "title: Serve Test\n")
    write(os.path.join(root, "content", "alpha.md"),
          "---\ntitle: Alpha\n---\n# Alpha\n\nAlpha intro.\n\n## Tools\n\n"
          "- [Example](https://example.org/) - an example site\n")
    write(os.path.join(root, "content", "beta.md"),
          "# Beta\n\nBeta intro.\n\n## Languages\n\n"
          "- [Python](https://www.python.org/) - a language\n")
    write(os.path.join(root, "static", "hello.txt"), "hello static\n")


def request(port, method, path, headers=None, raw=False):
    """One HTTP/1.1 request on its own connection; the path is sent as is.
    Returns (status, headers dict (lower-case), body bytes)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    lines = ["%s %s HTTP/1.1" % (method, path), "Host: 127.0.0.1:%d" % port,
             "Connection: close"]
    for k, v in (headers or {}).items():
        lines.append("%s: %s" % (k, v))
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    if method == "POST":
        data = data.replace(b"\r\n\r\n", b"\r\nContent-Length: 3\r\n\r\nabc", 1)
    s.sendall(data)
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
    s.close()
    head, _, body = buf.partition(b"\r\n\r\n")
    hl = head.decode("latin-1").split("\r\n")
    status = int(hl[0].split()[1])
    hdrs = {}
    for line in hl[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    if hdrs.get("transfer-encoding", "").lower() == "chunked":
        out, rest = b"", body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            n = int(size_line.split(b";")[0], 16)
            if n == 0:
                break
            out += rest[:n]
            rest = rest[n + 2:]
        body = out
    return status, hdrs, body


class EventStream:
    """A Server-Sent Events client on its own thread: events go to a queue."""

    def __init__(self, port, since, page=None, file_id=None):
        self.q = queue.Queue()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=None)
        query = "since=%s" % since
        if page is not None:  # as reload.js says which page it is on
            query += "&page=%s&id=%s" % (page, file_id)
        self.sock.sendall(("GET /__ssg/events?%s HTTP/1.1\r\nHost: x\r\n"
                           "Accept: text/event-stream\r\n\r\n" % query).encode())
        self.f = self.sock.makefile("rb")
        status = self.f.readline()
        check(b" 200 " in status, "events: status %r" % status)
        self.headers = {}
        while True:
            line = self.f.readline().strip()
            if not line:
                break
            k, _, v = line.decode().partition(":")
            self.headers[k.strip().lower()] = v.strip()
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _chunks(self):
        chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        while True:
            if not chunked:
                data = self.f.read1(65536)
                if not data:
                    return
                yield data
                continue
            size = self.f.readline()
            if not size:
                return
            n = int(size.split(b";")[0], 16)
            if n == 0:
                return
            yield self.f.read(n)
            self.f.readline()

    def _run(self):
        text, event, data = "", None, []
        try:
            for chunk in self._chunks():
                text += chunk.decode("utf-8")
                while "\n" in text:
                    line, text = text.split("\n", 1)
                    if line == "":
                        if event or data:
                            self.q.put((event or "message", "\n".join(data)))
                        event, data = None, []
                    elif line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:][1:] if line[5:6] == " " else line[5:])
        except (OSError, ValueError):
            pass
        self.q.put(("closed", ""))

    def wait(self, name, timeout=DEADLINE):
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                fail("no %r event within %.0f s" % (name, timeout))
            try:
                ev, data = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if ev == name:
                return data
            if ev == "closed":
                fail("event stream closed while waiting for %r" % name)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def read_url(proc, timeout=15):
    """The URL from `Serving at URL` on the server's stdout."""
    out = []

    def reader():
        for line in proc.stdout:
            out.append(line)
            if "Serving at" in line:
                return

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    t.join(timeout)
    for line in out:
        m = re.search(r"Serving at (http://127\.0\.0\.1:(\d+)/)", line)
        if m:
            return m.group(1), int(m.group(2))
    fail("no 'Serving at' line: %r" % out)


def page_gen(body):
    m = re.search(rb'<script src="/__ssg/reload\.js" data-gen="(\d+)" data-id="[0-9a-f-]*"></script>',
                  body)
    check(m, "no reload script in the page")
    return m.group(1).decode()


def page_stream(port, path):
    """An event stream as the page at path opens it (reload.js): its
    generation, its path and the identity of the file it was served from."""
    _, _, body = request(port, "GET", path)
    m = re.search(rb'data-gen="(\d+)" data-id="([0-9a-f-]+)"', body)
    check(m, "no page identity in %s's reload script" % path)
    return EventStream(port, m.group(1).decode(), path, m.group(2).decode()), body


def settle(stream, errs, builds, timeout=DEADLINE):
    """Wait for serve's next build to end (more than `builds` "built" lines),
    then drop the events that came meanwhile."""
    end = time.monotonic() + timeout
    while sum(e.startswith("built ") for e in errs) <= builds:
        check(time.monotonic() < end, "no build ended: %r" % errs[-3:])
        time.sleep(0.01)
    time.sleep(0.2)
    while True:
        try:
            stream.q.get_nowait()
        except queue.Empty:
            return


def quiet(stream, seconds):
    """No reload came on stream for that long."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            ev, data = stream.q.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            continue
        check(ev != "reload", "an unexpected reload: %r" % data)


def test_pages(port):
    st, h, body = request(port, "GET", "/")
    check(st == 200, "GET / -> %d" % st)
    check(h.get("content-type", "").startswith("text/html"), "/ type %r" % h.get("content-type"))
    check(b"Serve Test" in body, "site title missing from /")
    check(body.count(b"/__ssg/reload.js") == 1, "reload script not injected exactly once")
    check(body.rindex(b"/__ssg/reload.js") < body.lower().rindex(b"</body>"),
          "reload script not before </body>")
    check(int(h["content-length"]) == len(body), "Content-Length does not match the body")
    check("keep-alive" not in h.get("connection", "").lower() or True, "")

    # a document page through its folder; the folder without slash redirects
    st, h, _ = request(port, "GET", "/alpha")
    check(st == 301 and h.get("location") == "/alpha/", "/alpha -> %d %r" % (st, h.get("location")))
    st, h, body = request(port, "GET", "/alpha/")
    check(st == 200 and b"Alpha intro." in body, "/alpha/ -> %d" % st)

    # assets and their types
    for path, mime in [("/assets/style.css", "text/css"), ("/hello.txt", "text/plain"),
                       ("/feed.xml", "application/xml"), ("/resources.json", "application/json"),
                       ("/__ssg/reload.js", "text/javascript")]:
        st, h, body = request(port, "GET", path)
        check(st == 200, "GET %s -> %d" % (path, st))
        check(h.get("content-type", "").startswith(mime),
              "%s: type %r, wanted %s" % (path, h.get("content-type"), mime))
    st, _, body = request(port, "GET", "/hello.txt")
    check(body == b"hello static\n", "static file content %r" % body)
    st, _, js = request(port, "GET", "/__ssg/reload.js")
    check(b"EventSource" in js and b"ssg-error-overlay" in js and b"build-error" in js,
          "reload.js lacks the event source or the overlay")

    # conditional GET: ETag and Last-Modified -> 304
    st, h, _ = request(port, "GET", "/assets/style.css")
    etag, lm = h.get("etag"), h.get("last-modified")
    check(etag and lm, "no ETag/Last-Modified on an asset: %r" % h)
    st, h, body = request(port, "GET", "/assets/style.css", {"If-None-Match": etag})
    check(st == 304 and body == b"", "If-None-Match -> %d" % st)
    st, h, body = request(port, "GET", "/assets/style.css", {"If-Modified-Since": lm})
    check(st == 304, "If-Modified-Since -> %d" % st)
    st, h, _ = request(port, "GET", "/assets/style.css", {"If-None-Match": '"nope"'})
    check(st == 200, "a stale ETag -> %d" % st)
    st, h, _ = request(port, "GET", "/")
    st2, _, _ = request(port, "GET", "/", {"If-None-Match": h["etag"]})
    check(st2 == 304, "HTML If-None-Match -> %d" % st2)

    # HEAD: headers, no body
    st, h, body = request(port, "HEAD", "/assets/style.css")
    check(st == 200 and body == b"" and int(h.get("content-length", "0")) > 0,
          "HEAD -> %d, %d bytes" % (st, len(body)))
    # other methods
    for m in ("POST", "PUT", "DELETE", "OPTIONS"):
        st, h, _ = request(port, m, "/")
        check(st == 405, "%s -> %d" % (m, st))
        check("GET" in h.get("allow", ""), "405 without Allow")
    # missing: the site's 404 page with status 404
    st, h, body = request(port, "GET", "/no/such/page/")
    check(st == 404 and h.get("content-type", "").startswith("text/html"), "missing -> %d" % st)
    check(b"/__ssg/reload.js" in body, "404 page without the reload script")
    st, _, _ = request(port, "GET", "/__ssg/nothing")
    check(st == 404, "/__ssg/nothing -> %d" % st)
    # keep-alive: two requests on one connection
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    f = s.makefile("rb")
    for _ in range(2):
        s.sendall(b"GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n")
        line = f.readline()
        check(b" 200 " in line, "keep-alive request -> %r" % line)
        n = 0
        while True:
            hl = f.readline().strip()
            if not hl:
                break
            if hl.lower().startswith(b"content-length:"):
                n = int(hl.split(b":")[1])
        check(f.read(n) == b"hello static\n", "keep-alive body")
    s.close()


def test_traversal(port, site_dir, outside):
    secret = b"TOP-SECRET-4f1c"
    # symbolic links planted in the served folder must not be followed
    os.symlink(os.path.join(outside, "secret.txt"), os.path.join(site_dir, "evil.txt"))
    os.symlink(outside, os.path.join(site_dir, "evildir"))
    attacks = [
        "/../secret.txt", "/../../../../../../etc/passwd", "/assets/../../secret.txt",
        "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/%2e%2e/etc/passwd", "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt", "/assets%2f..%2f..%2fsecret.txt", "/..\\secret.txt",
        "/%5c..%5csecret.txt", "/..%5c..%5csecret.txt", "/index.html%00.txt",
        "/%00", "/hello.txt%00", "/evil.txt", "/evildir/secret.txt", "/evildir/",
        "/./hello.txt", "/%2e/hello.txt", "//etc/passwd", "/%252e%252e/secret.txt",
        "/.%2e/secret.txt", "/..;/secret.txt",
    ]
    for a in attacks:
        st, _, body = request(port, "GET", a)
        check(st in (400, 403, 404), "%s -> %d" % (a, st))
        check(secret not in body and b"root:x:0:0" not in body, "%s leaked a file" % a)
    # no directory listings: a folder without index.html is a 404
    os.makedirs(os.path.join(site_dir, "emptydir"))
    write(os.path.join(site_dir, "emptydir", "x.txt"), "x")
    st, _, body = request(port, "GET", "/emptydir/")
    check(st == 404 and b"x.txt" not in body, "a folder listing? %d" % st)


def main():
    if not SSG or not os.access(SSG, os.X_OK):
        print("SSG not set")
        return 77
    top = tempfile.mkdtemp(prefix="ssg-serve-test-")
    try:
        return run(top)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def run(top):
    site = os.path.join(top, "site")
    tmp = os.path.join(top, "tmp")
    outside = os.path.join(top, "outside")
    os.makedirs(tmp)
    write(os.path.join(outside, "secret.txt"), "TOP-SECRET-4f1c\n")
    make_site(site)

    # `ssg build` output never carries the reload script
    out = os.path.join(top, "built")
    r = subprocess.run([SSG, "build", "-q", "-s", site, "-o", out], capture_output=True, text=True)
    check(r.returncode == 0, "ssg build failed: %s" % r.stderr)
    for d, _, files in os.walk(out):
        for name in files:
            with open(os.path.join(d, name), "rb") as f:
                check(b"__ssg" not in f.read(), "ssg build output mentions __ssg: %s" % name)

    # what a serve killed outright left (its process is gone): removed at start;
    # a live process's folder, or another name, stays
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = os.path.join(tmp, "ssg-serve-%d-abcdef" % dead.pid)
    write(os.path.join(stale, "site", "index.html"), "stale\n")
    alive = os.path.join(tmp, "ssg-serve-%d-ghijkl" % os.getpid())
    os.makedirs(alive)
    env = dict(os.environ, TMPDIR=tmp)
    proc = subprocess.Popen([SSG, "serve", "-s", site, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    errs = []
    threading.Thread(target=lambda: errs.extend(proc.stderr), daemon=True).start()
    try:
        url, port = read_url(proc)
        check(not os.path.exists(stale), "a dead serve's folder was left: %s" % stale)
        check(os.path.isdir(alive), "a live process's folder was removed")
        os.rmdir(alive)
        staging = [d for d in os.listdir(tmp) if d.startswith("ssg-serve-")]
        check(len(staging) == 1, "expected one private folder in TMPDIR: %r" % staging)
        served = os.path.join(tmp, staging[0], "site")
        check(os.path.isfile(os.path.join(served, "index.html")), "nothing built in %s" % served)
        check(not os.path.exists(os.path.join(site, "public")), "serve wrote public/")

        test_pages(port)

        # live reload after an edit
        _, _, body = request(port, "GET", "/alpha/")
        ev = EventStream(port, page_gen(body))
        check(ev.headers.get("content-type", "").startswith("text/event-stream"),
              "events type %r" % ev.headers.get("content-type"))
        time.sleep(0.2)
        builds = sum(e.startswith("built ") for e in errs)
        t0 = time.monotonic()
        with open(os.path.join(site, "content", "alpha.md"), "a", encoding="utf-8") as f:
            f.write("\nEdited paragraph one.\n")
        ev.wait("reload")
        print("reload after an edit: %.0f ms" % ((time.monotonic() - t0) * 1000))
        # a new description is previewed: the build after it may reload again
        settle(ev, errs, builds)
        _, _, body = request(port, "GET", "/alpha/")
        check(b"Edited paragraph one." in body, "the edit is not served after reload")
        # that paragraph became alpha's description (its first of 20 characters
        # or more), which other pages show: a whole build. Another paragraph is
        # prose only: serve builds through build's path, which patches it
        check(not any("patched in place" in e for e in errs),
              "a new description was patched in place: %r" % errs[-3:])
        with open(os.path.join(site, "content", "alpha.md"), "a", encoding="utf-8") as f:
            f.write("\nEdited paragraph two, prose only.\n")
        ev.wait("reload")
        _, _, body = request(port, "GET", "/alpha/")
        check(b"Edited paragraph two, prose only." in body, "the prose edit is not served")
        time.sleep(0.1)
        check(any("1 page patched in place" in e for e in errs),
              "the prose edit was not patched in place: %r" % errs[-3:])

        # an entry's words, then a new link: previewed (build_patch.h). A page
        # whose file the preview and the build after it leave as they were
        # is not reloaded (alpha's); the edited one reloads for the preview,
        # and again only if the build after it changed it (a new link's badge)
        ev.close()
        alpha_ev, _ = page_stream(port, "/alpha/")
        beta = os.path.join(site, "content", "beta.md")
        beta_text = ("# Beta\n\nBeta intro.\n\n## Languages\n\n"
                     "- [Python](https://www.python.org/) - a language, previewed\n")
        for label, text, want, again in (
                ("an entry's words", beta_text, b"a language, previewed", False),
                ("a new link", beta_text + "- [Rust](https://www.rust-lang.org/) - another\n",
                 b"https://www.rust-lang.org/", True)):
            beta_ev, _ = page_stream(port, "/beta/")
            previews = sum("previewed in" in e for e in errs)
            builds = sum(e.startswith("built ") for e in errs)
            t0 = time.monotonic()
            write(beta, text)
            data = beta_ev.wait("reload")
            # the page as the reload finds it: previewed, or built whole
            # already (a small site's two reloads can come as one)
            beta_ev.close()
            beta_ev, body = page_stream(port, "/beta/")
            check(want in body, "%s: not in the page after the first reload" % label)
            print("%s: first reload after %.0f ms (%s)" % (label, (time.monotonic() - t0) * 1000,
                                                           data))
            deadline = time.monotonic() + DEADLINE
            while sum(e.startswith("built ") for e in errs) == builds:
                check(time.monotonic() < deadline, "%s: no build after the preview" % label)
                time.sleep(0.01)
            check(sum("previewed in" in e for e in errs) == previews + 1,
                  "%s: serve did not say it previewed: %r" % (label, errs[-3:]))
            seen = json.loads(data)
            if again and seen.get("preview") and int(page_gen(body)) <= seen["gen"]:
                # the badge comes with the build after, unless that build
                # ended before the page was fetched again (then the page
                # is already its generation, and nothing more is owed)
                beta_ev.wait("reload")
            else:
                quiet(beta_ev, 0.4)
            _, _, body = request(port, "GET", "/beta/")
            check(want in body, "%s: not in the page built whole" % label)
            beta_ev.close()
        quiet(alpha_ev, 0.2)
        alpha_ev.close()
        st, _, body = request(port, "GET", "/resources.json")
        check(st == 200 and b"https://www.rust-lang.org/" in body,
              "the new link is not in resources.json")
        _, _, body = request(port, "GET", "/alpha/")
        ev = EventStream(port, page_gen(body))

        # an editor-style save: temp file renamed over the original
        tmpf = os.path.join(site, "content", ".beta.md.swp")
        write(tmpf, "# Beta\n\nBeta renamed in.\n")
        builds = sum(e.startswith("built ") for e in errs)
        os.replace(tmpf, os.path.join(site, "content", "beta.md"))
        ev.wait("reload")
        settle(ev, errs, builds)  # previewed: the build after it may reload again
        _, _, body = request(port, "GET", "/beta/")
        check(b"Beta renamed in." in body, "rename-over edit not served")

        # a folder created later is watched too
        os.makedirs(os.path.join(site, "content", "sub", "deeper"))
        time.sleep(0.3)
        ev.wait("reload")
        write(os.path.join(site, "content", "sub", "deeper", "gamma.md"),
              "# Gamma\n\nGamma in a new folder.\n")
        ev.wait("reload")

        # broken site.yml: error event, last good site still served; fix -> reload
        write(os.path.join(site, "site.yml"), "title: [unclosed\n")
        text = ev.wait("build-error")
        check("site.yml" in text and "error" in text, "error event text %r" % text)
        check(re.search(r"site\.yml:\d+:\d+: error: ", text), "not path:line:col: %r" % text)
        st, _, body = request(port, "GET", "/alpha/")
        check(st == 200 and b"Edited paragraph one." in body, "last good site not served")
        late = EventStream(port, page_gen(body))  # a page opened while broken gets the error
        check("site.yml" in late.wait("build-error"), "a new page does not get the error")
        late.close()
        write(os.path.join(site, "site.yml"), "title: Serve Test Fixed\n")
        ev.wait("reload")
        st, _, body = request(port, "GET", "/")
        check(b"Serve Test Fixed" in body, "fixed site not served")
        ev.close()

        test_traversal(port, served, outside)

        # stop while a page is listening (its stream is idle, suspended)
        _, _, body = request(port, "GET", "/")
        idle = EventStream(port, page_gen(body))
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            fail("serve did not stop on SIGTERM")
        idle.wait("closed")
        idle.close()
        check(rc == 0, "exit status %d after SIGTERM" % rc)
        left = os.listdir(tmp)
        check(left == [], "staging folder left behind: %r" % left)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sys.stdout.write("".join(errs[-20:]))
    print("serve_test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
