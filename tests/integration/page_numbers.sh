#!/bin/sh
# page_numbers: every list of numbered pages (a topic, the topics index, the
# quick reference) says on each page which page it is, "page K of N", with K
# the page's own number. The topics index and the quick reference once set
# their number under "page", the key every page's own fields have: it was
# lost, and their pages read "Page  of 2".
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-page-numbers.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/site/content"
python3 - "$d/site" <<'EOF'
import os, sys
root = sys.argv[1]
# 30 topics (3 pages of 10 on the topics index), each with a resource cited
# twice (a box of its own in the quick reference: 3 pages of 10 entries)
words = ["w%02d" % i for i in range(30)]
topics = "".join("  - id: %s\n    title: Topic %s\n    match: { words: [%s] }\n" % (w, w, w)
                 for w in words)
open(os.path.join(root, "site.yml"), "w").write(
    "title: Numbers\npages: { per_page: 10 }\ntopics:\n" + topics)
for n in range(2):
    with open(os.path.join(root, "content", "doc%d.md" % n), "w") as f:
        f.write("# Doc %d\n\n" % n)
        for i, w in enumerate(words):
            for j in range(11):  # 11 a topic: its own page has 2 pages
                f.write("- [%s %d](https://%s.example/%d) - about %s\n" % (w, j, w, j, w))
EOF
"$SSG" build -q -s "$d/site" -o "$d/out" 2>"$d/err" || { echo "the build failed"; cat "$d/err"; exit 1; }
python3 - "$d/out" <<'EOF'
import os, re, sys
root = sys.argv[1]

def check(base, least):
    last, page = None, 1
    while True:
        rel = base if page == 1 else "%s%d/" % (base, page)
        path = os.path.join(root, rel, "index.html")
        if not os.path.exists(path):
            break
        html = open(path, encoding="utf-8").read()
        m = re.search(r"[Pp]age (\S*) of (\d+)</p>", html)
        if not m:
            sys.exit("%s: no \"page K of N\" line" % rel)
        if m.group(1) != str(page):
            sys.exit("%s: says page \"%s\", is page %d" % (rel, m.group(1), page))
        last = int(m.group(2))
        page += 1
    if page - 1 < least:
        sys.exit("%s: %d pages, wanted at least %d" % (base, page - 1, least))
    if last != page - 1:
        sys.exit("%s: says %s pages, has %d" % (base, last, page - 1))

check("topics/", 3)
check("quick-reference/", 2)
check("topic/w00/", 2)
EOF
