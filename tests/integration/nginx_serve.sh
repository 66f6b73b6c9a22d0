#!/bin/sh
# nginx_serve: the built portal works served by a plain web server. Debian's
# nginx runs unprivileged from a config in a temp dir (127.0.0.1 only, its own
# pid, logs and temp paths) with two servers: the site at the root, and the
# site deployed under /portal/ (built with --base-url /portal/). Checks pages,
# assets and their MIME types, the data files, the 404 page (status, and its
# stylesheet loads from any depth), and crawls every internal link from the
# home page over HTTP. Run by tests/run_integration.sh with $SSG set;
# exit 0 = pass, 77 = skip when nginx or python3 is missing.
set -u
: "${SSG:?set SSG to the ssg binary}"
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "nginx missing"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
ROOT=$(pwd)
TMP=$(mktemp -d)
NGINX_PID=
cleanup() {
	[ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

"$SSG" build -q -s "$ROOT" -o "$TMP/root" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; exit 1; }
mkdir -p "$TMP/sub"
"$SSG" build -q -s "$ROOT" -o "$TMP/sub/portal" --base-url /portal/ >"$TMP/build.log" 2>&1 ||
	{ cat "$TMP/build.log"; exit 1; }

# two free ports on the loopback
PORTS=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))
for x in s: x.close()')
P1=${PORTS% *}
P2=${PORTS#* }
MIME=/etc/nginx/mime.types
[ -r "$MIME" ] || { echo "no $MIME"; exit 77; }
mkdir -p "$TMP/t"
cat >"$TMP/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $TMP/nginx.pid;
error_log $TMP/error.log warn;
events { worker_connections 64; }
http {
	include $MIME;
	default_type application/octet-stream;
	access_log off;
	client_body_temp_path $TMP/t/body;
	proxy_temp_path $TMP/t/proxy;
	fastcgi_temp_path $TMP/t/fastcgi;
	uwsgi_temp_path $TMP/t/uwsgi;
	scgi_temp_path $TMP/t/scgi;
	server {
		listen 127.0.0.1:$P1;
		root $TMP/root;
		index index.html;
		error_page 404 /404.html;
	}
	server {
		listen 127.0.0.1:$P2;
		root $TMP/sub;
		index index.html;
		error_page 404 /portal/404.html;
	}
}
EOF
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/error.log" &
NGINX_PID=$!

python3 - "$P1" "$P2" <<'EOF'
import sys, time, urllib.request, urllib.error
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit, urldefrag

p1, p2 = sys.argv[1], sys.argv[2]
errors = []

def get(url):
    """(status, content-type, body) following redirects; never raises."""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.headers.get('Content-Type', ''), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get('Content-Type', ''), e.read()
    except Exception as e:
        return 0, '', str(e).encode()

# wait for nginx (bounded)
for _ in range(100):
    if get('http://127.0.0.1:%s/' % p1)[0] == 200 and get('http://127.0.0.1:%s/portal/' % p2)[0] == 200:
        break
    time.sleep(0.05)
else:
    print('FAIL: nginx did not answer'); sys.exit(1)

def expect(url, status, ctype=None, contains=None):
    s, t, b = get(url)
    if s != status:
        errors.append('%s: status %s, want %s' % (url, s, status)); return b
    if ctype and not t.startswith(ctype):
        errors.append('%s: Content-Type %s, want %s' % (url, t, ctype))
    if contains and contains.encode() not in b:
        errors.append('%s: no %r in the body' % (url, contains))
    return b

class Refs(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True); self.refs = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ('href', 'src'):
            if a.get(k) and tag in ('a', 'link', 'script', 'img'):
                self.refs.append(a[k])

for base in ('http://127.0.0.1:%s/' % p1, 'http://127.0.0.1:%s/portal/' % p2):
    expect(base, 200, 'text/html', '<main id="ssg-main"')
    expect(base + 'cuda-basics/', 200, 'text/html', 'Last updated')
    expect(base + 'cuda-basics', 200, 'text/html')  # the server's redirect to the folder
    expect(base + 'quick-reference/', 200, 'text/html')
    expect(base + 'resources/', 200, 'text/html')
    expect(base + 'assets/style.css', 200, 'text/css')
    expect(base + 'assets/site.js', 200, 'application/javascript')
    expect(base + 'assets/theme.js', 200, 'application/javascript')
    expect(base + 'assets/favicon.svg', 200, 'image/svg+xml')
    expect(base + 'search-index.json', 200, 'application/json')
    expect(base + 'resources.json', 200, 'application/json')
    expect(base + 'feed.xml', 200, 'text/xml', '<feed')
    expect(base + 'sitemap.xml', 200, 'text/xml', '<urlset')
    expect(base + 'robots.txt', 200, 'text/plain', 'User-agent')
    # the 404 page, from any depth, with its stylesheet and links working
    for missing in ('no-such-page', 'topic/nothing/here/', 'r/x/y/z.html'):
        body = expect(base + missing, 404, 'text/html', 'Page not found')
        if body:
            p = Refs(); p.feed(body.decode('utf-8', 'replace'))
            for ref in p.refs:
                if ref.startswith('#'):
                    continue
                u = urljoin(base + missing, ref)
                if urlsplit(u).netloc == urlsplit(base).netloc:
                    s = get(urldefrag(u)[0])[0]
                    if s != 200:
                        errors.append('404 page at %s: %s gives %s' % (missing, ref, s))

    # crawl every internal link from home (bounded)
    seen, todo, n = set(), [base], 0
    while todo and n < 2000:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url); n += 1
        s, t, b = get(url)
        if s != 200:
            errors.append('crawl: %s gives %s' % (url, s)); continue
        if not t.startswith('text/html'):
            continue
        p = Refs(); p.feed(b.decode('utf-8', 'replace'))
        for ref in p.refs:
            u = urldefrag(urljoin(url, ref))[0]
            if urlsplit(u).netloc == urlsplit(base).netloc and u.startswith(base) and u not in seen:
                todo.append(u)
    print('crawled %d URLs under %s' % (n, base))
    if n < 250:
        errors.append('crawl of %s reached only %d URLs' % (base, n))

for e in errors[:40]:
    print('FAIL:', e)
sys.exit(1 if errors else 0)
EOF
rc=$?
# the expected 404s log "open() ... failed" / "is not found": show anything else
if [ "$rc" != 0 ] && [ -s "$TMP/error.log" ]; then
	echo "nginx error log:"; grep -Ev 'open\(\)|is not found' "$TMP/error.log" | head -10
fi
[ "$rc" = 0 ] && echo "nginx_serve: ok"
exit "$rc"
