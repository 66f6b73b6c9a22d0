#!/bin/sh
# output_valid: the built portal is valid and fully linked, for a root deploy
# and for a sub-path deploy (--base-url https://example.org/portal/):
#  - every generated page passes Debian's `tidy` with no errors (and no
#    duplicate ids, which would break #anchors);
#  - every internal link, asset and #anchor in the output resolves (a, link,
#    script, img, source), and so does every URL of search-index.json;
#  - nothing is loaded from outside the site (scripts, styles, icons, fonts);
#  - sitemap.xml and feed.xml are well-formed, robots.txt names the sitemap,
#    and canonical / OpenGraph / 404 links carry the base URL.
# Run by tests/run_integration.sh with $SSG set; exit 0 = pass, 77 = skip.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v tidy >/dev/null 2>&1 || { echo "tidy missing"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
ROOT=$(pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0

build() { # out-dir [base-url]
	if [ $# -gt 1 ]; then
		"$SSG" build -q -s "$ROOT" -o "$1" --base-url "$2" >"$TMP/build.log" 2>&1
	else
		"$SSG" build -q -s "$ROOT" -o "$1" >"$TMP/build.log" 2>&1
	fi || { echo "FAIL: ssg build $*"; cat "$TMP/build.log"; exit 1; }
}

tidy_all() { # out-dir
	n=0
	for f in $(find "$1" -name '*.html' | LC_ALL=C sort); do
		n=$((n + 1))
		tidy -q -e -utf8 "$f" >"$TMP/tidy.out" 2>&1
		rc=$?
		if [ "$rc" -ge 2 ] || grep -q 'already defined' "$TMP/tidy.out"; then
			echo "FAIL: tidy: ${f#"$1"/}"
			grep -E 'Error|already defined' "$TMP/tidy.out" | head -5
			fails=$((fails + 1))
		fi
	done
	echo "tidy: $n pages checked in ${1##*/}"
	[ "$n" -gt 10 ] || { echo "FAIL: too few pages ($n)"; fails=$((fails + 1)); }
}

check_links() { # out-dir base-url
	python3 - "$1" "$2" <<'EOF' || fails=$((fails + 1))
import json, os, re, sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import urlsplit, unquote

out, base = sys.argv[1], sys.argv[2]
bparts = urlsplit(base)
base_path = bparts.path if bparts.path.endswith('/') else bparts.path + '/'
errors = []

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.refs, self.meta, self.canonical = set(), [], {}, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ('id',):
            if a.get(k): self.ids.add(a[k])
        if tag == 'a' and a.get('name'): self.ids.add(a['name'])
        for k in ('href', 'src'):
            if a.get(k) is not None and tag in ('a', 'link', 'script', 'img', 'source', 'iframe', 'area'):
                self.refs.append((tag, k, a[k], a.get('rel', '')))
        if tag == 'meta' and a.get('property'): self.meta[a['property']] = a.get('content', '')
        if tag == 'link' and a.get('rel') == 'canonical': self.canonical = a.get('href')

pages = {}
for d, _, files in os.walk(out):
    for f in files:
        if f.endswith('.html'):
            full = os.path.join(d, f)
            p = Page()
            p.feed(open(full, encoding='utf-8').read())
            pages[os.path.relpath(full, out)] = p

def target_file(path):
    """A URL path relative to the output root -> the file that serves it."""
    rel = unquote(path).lstrip('/')
    full = os.path.normpath(os.path.join(out, rel))
    if not (full + '/').startswith(os.path.normpath(out) + '/'):
        return None
    if os.path.isdir(full):
        full = os.path.join(full, 'index.html')
    return full if os.path.isfile(full) else None

def resolve(page, url):
    """(file relative to out, fragment) for an internal URL, or None when external."""
    u = urlsplit(url)
    if u.scheme in ('mailto', 'tel', 'data', 'javascript'):
        return None
    if u.scheme or u.netloc:
        if u.netloc != bparts.netloc or not (u.path + '/').startswith(base_path):
            return None  # another site
        path = u.path[len(base_path):]
    elif url.startswith('/'):
        if not (u.path + '/').startswith(base_path):
            return ('', 'outside base path ' + base_path)
        path = u.path[len(base_path):]
    elif u.path == '':
        return (page, u.fragment)
    else:
        path = os.path.normpath(os.path.join(os.path.dirname(page), u.path))
        if u.path.endswith('/'): path += '/'
        if path.startswith('..'):
            return ('', 'escapes the site')
    f = target_file(path)
    if f is None:
        return ('', 'no file for ' + path)
    return (os.path.relpath(f, out), u.fragment)

def check(page, url, what):
    r = resolve(page, url)
    if r is None:
        return
    f, frag = r
    if f == '':
        errors.append('%s: %s %s: %s' % (page, what, url, frag)); return
    if frag and f.endswith('.html'):
        if f not in pages:
            errors.append('%s: %s %s: not a page' % (page, what, url))
        elif unquote(frag) not in pages[f].ids:
            errors.append('%s: %s %s: no #%s in %s' % (page, what, url, frag, f))

nrefs = 0
for page, p in sorted(pages.items()):
    for tag, attr, url, rel in p.refs:
        nrefs += 1
        if url.strip() in ('', '#'):
            errors.append('%s: empty link on <%s>' % (page, tag)); continue
        # nothing the page loads may come from elsewhere
        loads = tag in ('script', 'img', 'source', 'iframe') or (tag == 'link' and rel not in ('canonical', 'alternate'))
        if loads and resolve(page, url) is None:
            errors.append('%s: loads an outside resource: <%s %s=%s>' % (page, tag, attr, url))
        check(page, url, '<%s %s>' % (tag, attr))

# the search index: every entry must open the exact page and section
index = json.load(open(os.path.join(out, 'search-index.json'), encoding='utf-8'))
kinds = {}
for e in index:
    if not (isinstance(e, list) and len(e) == 4 and e[0] in 'dstr'):
        errors.append('search-index.json: bad entry %r' % (e,)); continue
    kinds[e[0]] = kinds.get(e[0], 0) + 1
    check('index.html', e[2], 'search entry')
for k in 'dstr':
    if not kinds.get(k):
        errors.append('search-index.json: no entry of kind %s' % k)

# styles: no remote fonts, imports or images
for d, _, files in os.walk(out):
    for f in files:
        if f.endswith('.css'):
            css = open(os.path.join(d, f), encoding='utf-8').read()
            if re.search(r'@import|url\(\s*["\']?(https?:)?//', css):
                errors.append('%s: loads something from outside' % f)

# machine-readable files
for f in ('sitemap.xml', 'feed.xml'):
    try:
        ET.parse(os.path.join(out, f))
    except Exception as ex:
        errors.append('%s: not well-formed: %s' % (f, ex))
absolute = bool(bparts.scheme)
if absolute:
    sm = ET.parse(os.path.join(out, 'sitemap.xml')).getroot()
    locs = [l.text for l in sm.iter('{http://www.sitemaps.org/schemas/sitemap/0.9}loc')]
    if not locs or any(not l.startswith(base) for l in locs):
        errors.append('sitemap.xml: every <loc> must start with ' + base)
    for l in locs:
        if target_file(l[len(base):]) is None:
            errors.append('sitemap.xml: %s has no page' % l)
    robots = open(os.path.join(out, 'robots.txt')).read()
    if 'Sitemap: %ssitemap.xml' % base not in robots:
        errors.append('robots.txt: no Sitemap line for ' + base)
    feed = ET.parse(os.path.join(out, 'feed.xml')).getroot()
    A = '{http://www.w3.org/2005/Atom}'
    entries = feed.findall(A + 'entry')
    if not entries or feed.find(A + 'author') is None:
        errors.append('feed.xml: needs entries and an author')
    for en in entries:
        href = en.find(A + 'link').get('href')
        if not href.startswith(base) or target_file(href[len(base):]) is None:
            errors.append('feed.xml: entry link %s' % href)
    for page, p in pages.items():
        if page == '404.html':
            continue
        want = base + (os.path.dirname(page) + '/' if os.path.dirname(page) else '')
        if p.canonical != want or p.meta.get('og:url') != want:
            errors.append('%s: canonical/og:url %s, want %s' % (page, p.canonical, want))
        for m in ('og:title', 'og:type', 'og:description', 'og:site_name'):
            if not p.meta.get(m):
                errors.append('%s: no %s' % (page, m))
p404 = pages.get('404.html')
if not p404:
    errors.append('no 404.html')
else:
    for tag, attr, url, rel in p404.refs:
        if not (url.startswith(base) or url.startswith(base_path) or url.startswith('#') or urlsplit(url).scheme):
            errors.append('404.html: %s is relative (%s): it must work at any depth' % (url, tag))

for e in errors[:60]:
    print('FAIL:', e)
print('links: %d pages, %d references, %d search entries checked in %s; %d problems'
      % (len(pages), nrefs, len(index), os.path.basename(out), len(errors)))
sys.exit(1 if errors else 0)
EOF
}

build "$TMP/root"
tidy_all "$TMP/root"
check_links "$TMP/root" "/"

build "$TMP/portal" "https://example.org/portal/"
tidy_all "$TMP/portal"
check_links "$TMP/portal" "https://example.org/portal/"

# the two builds differ only where the base URL shows
if ! grep -q 'href="https://example.org/portal/feed.xml"' "$TMP/portal/feed.xml" 2>/dev/null &&
	! grep -q 'https://example.org/portal/feed.xml' "$TMP/portal/feed.xml"; then
	echo "FAIL: feed.xml has no self link under the base URL"
	fails=$((fails + 1))
fi

if [ "$fails" -gt 0 ]; then
	echo "output_valid: $fails failure(s)"
	exit 1
fi
echo "output_valid: ok"
