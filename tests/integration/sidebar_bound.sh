#!/bin/sh
# sidebar_bound: no page's sidebar grows with site.yml (issue #8: "keep every
# page's size bounded"). A site.yml of 2,000 topics (some with 3 subtopics,
# one with 150) is built with pages.sidebar_topics at its default (100):
#  - every page's sidebar lists at most 100 entries per level of its branch,
#    plus the branch's own topic and a link to all of them;
#  - a page lists its own topic, marked current, however far down its level
#    it comes, and the children of that topic;
#  - a cut list ends with "All topics" or "All subtopics" (the topics
#    index, at the parent's entry), and those targets exist;
#  - a topic page's related topics are at most 100, the nearest in order;
#  - the site stays small (it was 510 MB, 2,000 links on each page);
#  - an incremental build after edits equals a clean one (SSG_CHECK_INPUTS);
#  - the home page lists 100 top-level topics and links to the topics index,
#    which lists every topic once, in tree order, 500 a page; a topic's
#    subtopics are cut the same way, and the links to all lead to entries;
#  - the quick reference has pages of at most 500 entries, each topic's box
#    once;
#  - the bundled portal's tree (under 100 topics) is listed whole.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-sidebar.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/site/content"
python3 - "$d/site" <<'EOF'
import os, sys
root = sys.argv[1]
T = 2000
with open(os.path.join(root, "site.yml"), "w") as f:
    f.write("title: Topics crowd\ntopics:\n")
    for i in range(T):
        f.write("  - id: t%d\n    title: Topic %d\n    match: { words: [w%d] }\n" % (i, i, i))
        if i % 100 == 0:
            f.write("    children:\n")
            for k in range(150 if i == 0 else 3):
                f.write("      - id: c%dx%d\n        title: Child %d.%d\n"
                        "        match: { words: [v%dx%d] }\n" % (i, k, i, k, i, k))
for n in range(300):
    with open(os.path.join(root, "content", "doc%d.md" % n), "w") as f:
        f.write("# Doc %d\n\n" % n)
        for j in range(20):
            t = (n * 20 + j) % T
            f.write("- [Paper w%d v0x%d](https://ex.org/%d/%d) - about w%d\n" % (t, j * 7 % 150, n, j, (t + 7) % T))
EOF
o="$d/out"
timeout 60 "$SSG" build -q -s "$d/site" -o "$o" 2>"$d/err" || { echo "the build failed"; cat "$d/err"; exit 1; }
size=$(du -sk "$o" | cut -f1)
[ "$size" -lt 120000 ] || { echo "the site is $size KB (bound: 120 MB)"; exit 1; }
python3 - "$o" <<'EOF' || exit 1
import os, re, sys
root, CAP = sys.argv[1], 100
item = re.compile(r'<li( class="(current|more)")?><a href="([^"]*)"[^>]*>([^<]*)</a>(\s*<ul>)?|</ul>')

def sidebar(html, path):
    a = html.find('<nav class="sidebar"')
    if a < 0:
        return None
    nav = html[a:html.index("</nav>", a)]
    # the tree as nested lists: (kind, href, title, children)
    stack, top = [], []
    cur = top
    for m in item.finditer(nav[nav.index('<ul class="nav-tree">') + 1:]):
        if m.group(0) == "</ul>":
            if not stack:
                break
            cur = stack.pop()
            continue
        node = (m.group(2) or "", m.group(3), m.group(4), [])
        cur.append(node)
        if m.group(5):
            stack.append(cur)
            cur = node[3]
    return top

pages = checked = 0
for dirpath, _, files in os.walk(root):
    for f in files:
        if not f.endswith(".html"):
            continue
        path = os.path.join(dirpath, f)
        html = open(path, encoding="utf-8").read()
        tree = sidebar(html, path)
        if tree is None:
            continue
        pages += 1
        def walk(level, depth):
            plain = [n for n in level if n[0] != "more"]
            more = [n for n in level if n[0] == "more"]
            extra = sum(1 for n in plain[CAP:] if n[0] == "current" or n[3])
            if len(plain) > CAP + 1 or len(plain) - extra > CAP:
                sys.exit("%s: a sidebar level of %d topics" % (path, len(plain)))
            if len(more) > 1 or (more and level[-1][0] != "more"):
                sys.exit("%s: the link to all topics is not last, once" % path)
            if more:
                href = more[0][1].split("#")[0]
                base = root if href.startswith("/") else os.path.dirname(path)
                target = os.path.normpath(os.path.join(base, href.lstrip("/") or ".", "index.html"))
                if not os.path.exists(target):
                    sys.exit("%s: %s leads to no page" % (path, more[0][1]))
            for n in plain:
                walk(n[3], depth + 1)
        walk(tree, 0)
        m = re.search(r'<h2>Related topics</h2><ul>(.*?)</ul>', html)
        if m and len(re.findall(r"<li>", m.group(1))) > CAP + 1:
            sys.exit("%s: %d related topics" % (path, len(re.findall(r"<li>", m.group(1)))))
        checked += 1

def names(path):
    tree = sidebar(open(os.path.join(root, path), encoding="utf-8").read(), path)
    out = []
    def flat(level, depth):
        for n in level:
            out.append((depth, n[0], n[2]))
            flat(n[3], depth + 1)
    flat(tree, 0)
    return out

# a topic far down the top level: itself, current, with its children
s = names("topic/t1500/index.html")
if (0, "current", "Topic 1500") not in s or (1, "", "Child 1500.0") not in s:
    sys.exit("topic/t1500/: its sidebar lacks itself (current) or its children: %r" % s[95:])
if (0, "more", "All topics") != s[-1]:
    sys.exit("topic/t1500/: the sidebar does not end with All topics")
# a subtopic past the cut of its level: its parent expanded, itself current
s = names("topic/c0x120/index.html")
if (1, "current", "Child 0.120") not in s or (1, "more", "All subtopics") not in s:
    sys.exit("topic/c0x120/: its sidebar lacks itself or the link to all subtopics")
if sum(1 for x in s if x[0] == 1) != 102:
    sys.exit("topic/c0x120/: %d entries under Topic 0" % sum(1 for x in s if x[0] == 1))
# a page of no topic: the top level only
s = names("index.html")
if any(x[0] for x in s) or len(s) != 101:
    sys.exit("index.html: %d entries, some below the top level" % len(s))
# related topics: the nearest
h = open(os.path.join(root, "topic/t1500/index.html"), encoding="utf-8").read()
rel = re.findall(r">Topic (\d+)<", re.search(r'<h2>Related topics</h2><ul>(.*?)</ul>', h).group(1))
if len(rel) != 100 or int(rel[0]) > 1450 or int(rel[-1]) < 1549:
    sys.exit("topic/t1500/: related topics %s..%s (%d)" % (rel[0], rel[-1], len(rel)))
print("sidebar: %d pages checked" % checked)
EOF
# the list pages: the home page's topics, the topics index, a topic's
# subtopics and the quick reference, each bounded and each whole in all
python3 - "$o" <<'EOF' || exit 1
import os, re, sys
root, CAP, PER = sys.argv[1], 100, 500
def read(rel):
    return open(os.path.join(root, rel), encoding="utf-8").read()
def pages(first, fmt):
    out, k = [], 1
    while os.path.exists(os.path.join(root, first if k == 1 else fmt % k)):
        out.append(read(first if k == 1 else fmt % k))
        k += 1
    return out
def leads_to(page_rel, href):
    base, _, anchor = href.partition("#")
    target = os.path.normpath(os.path.join(root, os.path.dirname(page_rel), base, "index.html"))
    return os.path.exists(target) and ('id="%s"' % anchor in open(target).read() if anchor else True)
# the home page: the first 100 top-level topics, then a link to all (it
# listed 2,000 cards: 188 KB)
home = read("index.html")
sec = re.search(r'<section aria-labelledby="ssg-topics-h">(.*?)</section>', home, re.S).group(1)
cards = re.findall(r'<li class="card"><a href="[^"]*">Topic (\d+)</a>', sec)
if cards != [str(i) for i in range(CAP)]:
    sys.exit("index.html: topic cards %s..%s (%d)" % (cards[:1], cards[-1:], len(cards)))
if '<a href="./topics/">All 2207 topics</a>' not in sec:
    sys.exit("index.html: no link to all 2207 topics")
# the topics index: every topic once, in tree order, 500 a page
want = []
for i in range(2000):
    want.append("t%d" % i)
    if i % 100 == 0:
        want += ["c%dx%d" % (i, k) for k in range(150 if i == 0 else 3)]
got = []
idx = pages("topics/index.html", "topics/%d/index.html")
for n, h in enumerate(idx):
    ids = re.findall(r'<li class="card" id="ssg-topic-([^"]+)">', h)
    if len(ids) > PER:
        sys.exit("topics/ page %d: %d entries" % (n + 1, len(ids)))
    got += ids
if [g for g in got if g != "unsorted"] != want or len(idx) != 5:
    sys.exit("topics/: %d entries on %d pages, not the tree's %d in order" % (len(got), len(idx), len(want)))
if '<span class="trail">Topic 0 › </span><a href="../topic/c0x149/">' not in idx[0]:
    sys.exit("topics/: a subtopic's entry does not name its parent")
# a topic of 150 subtopics lists 100, then a link to all of them in the index
t0 = read("topic/t0/index.html")
subs = re.search(r'<section class="subtopics".*?</section>', t0, re.S).group(0)
kids = re.findall(r'>Child 0\.(\d+)</a>', subs)
more = re.findall(r'<li class="more"><a href="([^"]*)">All 150 subtopics</a>', subs)
if kids != [str(k) for k in range(CAP)] or len(more) != 1 or not leads_to("topic/t0/", more[0]):
    sys.exit("topic/t0/: subtopics %d, link to all %r" % (len(kids), more))
# the sidebar's links to all lead to an entry of the index
for rel in ("topic/c0x120/index.html", "topic/t1500/index.html"):
    for href in re.findall(r'<li class="more"><a href="([^"]*)"', read(rel)):
        if not leads_to(rel, href):
            sys.exit("%s: %s leads to no entry" % (rel, href))
# the quick reference: pages of at most 500 entries, every topic's box once
# (one page of 3.1 MB before)
qr = pages("quick-reference/index.html", "quick-reference/%d/index.html")
boxes = []
for n, h in enumerate(qr):
    entries = h.count('<li class="resource"')
    if entries > PER or len(h) > 400000:
        sys.exit("quick-reference/ page %d: %d entries, %d bytes" % (n + 1, entries, len(h)))
    boxes += re.findall(r'<h2><a href="[^"]*topic/([^/"]+)/">', h)
    if len(qr) > 1 and '<nav class="pager"' not in h:
        sys.exit("quick-reference/ page %d: no pager" % (n + 1))
counted = [i for i in got if i != "unsorted"]
if len(set(boxes)) != len(boxes) or len(boxes) < 2000 or any(b not in counted for b in boxes):
    sys.exit("quick-reference/: %d topic boxes, not each topic once" % len(boxes))
print("lists: %d topics index pages, %d quick-reference pages" % (len(idx), len(qr)))
EOF
# incremental: a document's topic moved, a new resource in Unsorted
sed -i 's/about w/about w1999 w/' "$d/site/content/doc5.md"
echo '- [New](https://new.example/x) - unsorted' >>"$d/site/content/doc7.md"
SSG_CHECK_INPUTS=1 "$SSG" build -q -s "$d/site" -o "$o" 2>"$d/err" || { echo "the incremental build failed"; cat "$d/err"; exit 1; }
"$SSG" build -q --force -j 1 -s "$d/site" -o "$d/clean" 2>/dev/null || { echo "the clean build failed"; exit 1; }
diff -r -q -x '.ssg-*' "$o" "$d/clean" || { echo "incremental and clean builds differ"; exit 1; }
# the portal: its whole tree on every page, no link to all topics
"$SSG" build -q -o "$d/portal" 2>/dev/null || { echo "the portal's build failed"; exit 1; }
if grep -rlq 'class="more"' "$d/portal"; then echo "the portal's sidebar is cut"; exit 1; fi
n=$(grep -c '^  id: \|^  - id: \|^      - id: ' site.yml)
got=$(sed -n '/<nav class="sidebar"/,/<\/nav>/p' "$d/portal/index.html" | grep -c '<li')
[ "$got" -ge "$n" ] || { echo "the portal's sidebar lists $got topics of $n"; exit 1; }
echo "sidebar_bound: ok"
