#!/bin/sh
# Resource pages show the last known link health that `ssg check --links`
# left in .ssg-cache/links.tsv, and nothing when there is no cache.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/content" "$d/.ssg-cache"
printf 'resource_pages: {min_citations: 1}\n' > "$d/site.yml"
printf -- '- [A](https://a.example.org/x)\n- [B](https://b.example.org/)\n' > "$d/content/a.md"
"$SSG" build -s "$d" -q
! grep -q 'link-status' "$d/public/r/a-example-org-x/index.html"
printf 'https://a.example.org/x\t404\t-\t2026-11-01\t1763700000\tbroken\t-\n' > "$d/.ssg-cache/links.tsv"
"$SSG" build -s "$d" -q
grep -q 'class="link-status link-broken">broken since 2026-11-01 (HTTP 404)<' "$d/public/r/a-example-org-x/index.html"
! grep -q 'link-status' "$d/public/r/b-example-org/index.html"
# a cache that is a symlink (to a file elsewhere, whose lines could be
# shown) is not read: the page shows no status
mv "$d/.ssg-cache/links.tsv" "$d/elsewhere.tsv"
ln -s "$d/elsewhere.tsv" "$d/.ssg-cache/links.tsv"
"$SSG" build -s "$d" -q --force
! grep -q 'link-status' "$d/public/r/a-example-org-x/index.html" ||
	{ echo "a symlinked link cache was read"; exit 1; }
echo "link_status: ok"
