#!/bin/sh
# index_anchors: a resource without a page of its own (cited by fewer
# documents than resource_pages.min_citations) is linked to as its entry on
# the A-Z index, resources/<letter>/#<slug>: every such link in the site must
# land on an element with that id. (The entries once lost their ids: the
# index set its id after the entry's empty one, and the first won.)
set -u
: "${SSG:?set SSG to the ssg binary}"
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-index-anchors.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
cp -r content site.yml "$d/"
sed -i 's/^resource_pages: .*/resource_pages: { min_citations: 2 }/' "$d/site.yml"
grep -q 'min_citations: 2' "$d/site.yml" || { echo "site.yml: no resource_pages line to change"; exit 1; }
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || { echo "the build failed"; exit 1; }
python3 - "$d/out" <<'EOF'
import os, re, sys
root = sys.argv[1]
ids, links = {}, []
for dirpath, _, files in os.walk(root):
    for f in files:
        if not f.endswith(".html"):
            continue
        path = os.path.join(dirpath, f)
        html = open(path, encoding="utf-8").read()
        ids[os.path.normpath(path)] = set(re.findall(r'\sid="([^"]+)"', html))
        for href in re.findall(r'href="([^"#:]*resources/[^"#]*)#([^"]+)"', html):
            links.append((path, href[0], href[1]))
checked = 0
for path, target, frag in links:
    page = os.path.normpath(os.path.join(os.path.dirname(path), target, "index.html"))
    if page not in ids:
        sys.exit(f"{path}: links to {target}#{frag}: no such page")
    if frag not in ids[page]:
        sys.exit(f"{path}: links to {target}#{frag}: the page has no element with that id")
    checked += 1
if checked == 0:
    sys.exit("no link to an entry of the A-Z index: nothing was checked")
print(f"index anchors: {checked} links to entries of the A-Z index land on their ids")
EOF
