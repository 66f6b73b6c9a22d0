#!/bin/sh
# pager_window: a list's pager names the first page, the last, and two
# either side of the current one, with one gap ("…") for each run of pages
# it skips (a gap of a single page is that page); prev and next lead to the
# neighbours; every page it names exists. So a pager stays a few entries
# however many pages a topic or the document list has (it named them all).
# A topic of 40 pages (400 resources, pages.per_page 10) and a document
# list of 14 pages are checked page by page.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-pager.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/site/content"
python3 - "$d/site" <<'EOF'
import os, sys
root = sys.argv[1]
open(os.path.join(root, "site.yml"), "w").write(
    "title: Pages\npages: { per_page: 10 }\n"
    "topics:\n  - id: many\n    title: Many\n    match: { words: [many] }\n")
for n in range(134):
    with open(os.path.join(root, "content", "doc%03d.md" % n), "w") as f:
        f.write("# Doc %d\n\n" % n)
        for j in range(3):
            k = n * 3 + j
            if k < 400:
                f.write("- [Many %d](https://many.example/%d) - many things\n" % (k, k))
EOF
"$SSG" build -q -s "$d/site" -o "$d/out" 2>"$d/err" || { echo "the build failed"; cat "$d/err"; exit 1; }
python3 - "$d/out" <<'EOF'
import os, re, sys
root = sys.argv[1]

def expect(page, last):
    lo, hi = max(1, page - 2), min(last, page + 2)
    if lo == 3: lo = 2
    if hi + 2 == last: hi = last - 1
    out, k = [], 1
    while k <= last:
        if k in (1, last) or lo <= k <= hi:
            out.append(str(k)); k += 1
        else:
            out.append("…"); k = lo if k < lo else last
    return out

def check(base, last):
    for page in range(1, last + 1):
        rel = base if page == 1 else "%s%d/" % (base, page)
        path = os.path.join(root, rel, "index.html")
        html = open(path, encoding="utf-8").read()
        m = re.search(r'<ol class="pages">(.*?)</ol>', html)
        if not m:
            sys.exit("%s: no pager" % rel)
        got = []
        for li in re.findall(r"<li>(.*?)</li>", m.group(1)):
            if 'class="gap"' in li:
                got.append("…")
                continue
            n = re.search(r">(\d+)<", li).group(1)
            got.append(n)
            href = re.search(r'href="([^"]+)"', li)
            if href:
                target = os.path.normpath(os.path.join(os.path.dirname(path), href.group(1), "index.html"))
                if not os.path.exists(target):
                    sys.exit("%s: page %s leads to no page" % (rel, n))
            elif 'aria-current="page"' not in li or int(n) != page:
                sys.exit("%s: %s is neither a link nor this page" % (rel, n))
        if got != expect(page, last):
            sys.exit("%s: the pager names %s, not %s" % (rel, got, expect(page, last)))
        for word, want in (("prev", page - 1), ("next", page + 1)):
            h = re.search(r'class="%s" rel="%s" href="([^"]+)"' % (word, word), html)
            if (h is not None) != (1 <= want <= last):
                sys.exit("%s: %s link wrong" % (rel, word))
    print("%s: %d pages, each pager as expected" % (base, last))

pages = [int(x) for x in os.listdir(os.path.join(root, "topic/many")) if x.isdigit()]
if max(pages) != 40:
    sys.exit("topic/many/ has %d pages, not 40" % max(pages))
check("topic/many/", 40)
docs = [int(x) for x in os.listdir(os.path.join(root, "documents")) if x.isdigit()]
check("documents/", max(docs))
if max(docs) < 8:
    sys.exit("the document list has %d pages: too few to skip any" % max(docs))
EOF
