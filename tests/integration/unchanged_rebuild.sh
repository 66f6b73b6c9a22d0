#!/bin/sh
# Writes cost only what changed: an unchanged rebuild writes no file (every
# file keeps its inode and mtime); after an edit only the pages that changed
# are new files; a page that disappears is gone; a failed build changes nothing.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp -r content site.yml "$d/"
"$SSG" build -s "$d" -o "$d/out" -q 2>/dev/null
( cd "$d/out" && find . -type f -printf '%i %T@ %p\n' | sort -k3 ) > "$d/before"
"$SSG" build -s "$d" -o "$d/out" -q 2>/dev/null
( cd "$d/out" && find . -type f -printf '%i %T@ %p\n' | sort -k3 ) > "$d/after"
cmp -s "$d/before" "$d/after" || { echo "an unchanged rebuild rewrote files:"; diff "$d/before" "$d/after" | head; exit 1; }
# edit one document: its page changes, the stylesheet does not
printf '\n\nOne more paragraph.\n' >> "$d/content/cuda-pytorch-index.md"
"$SSG" build -s "$d" -o "$d/out" -q 2>/dev/null
( cd "$d/out" && find . -type f -printf '%i %T@ %p\n' | sort -k3 ) > "$d/edited"
page() { grep " \./$2\$" "$1" | cut -d' ' -f1; }
[ "$(page "$d/before" cuda-pytorch-index/index.html)" != "$(page "$d/edited" cuda-pytorch-index/index.html)" ] \
	|| { echo "the edited page was not rewritten"; exit 1; }
[ "$(page "$d/before" assets/style.css)" = "$(page "$d/edited" assets/style.css)" ] \
	|| { echo "an unchanged asset was rewritten"; exit 1; }
grep -q 'One more paragraph' "$d/out/cuda-pytorch-index/index.html"
# a link to a resource no document cites: the site's counts change, but no
# count is on every page, so most pages stay the files they were
before_link=$(find "$d/out" -type f -name '*.html' | wc -l)
printf '\n- [A resource nobody cites](https://example.com/nobody-cites-this) - new\n' >> "$d/content/external-references.md"
"$SSG" build -s "$d" -o "$d/out" -q 2>/dev/null
( cd "$d/out" && find . -type f -printf '%i %T@ %p\n' | sort -k3 ) > "$d/linked"
grep -q 'nobody-cites-this' "$d/out/external-references/index.html" || { echo "the new link is not on its page"; exit 1; }
rewritten=$(join -1 3 -2 3 "$d/edited" "$d/linked" | awk '$2 != $4 && $1 ~ /\.html$/' | wc -l)
[ "$rewritten" -gt 0 ] && [ "$rewritten" -lt $((before_link / 4)) ] \
	|| { echo "a new link rewrote $rewritten of $before_link pages"; exit 1; }
# remove a document: its page goes
rm "$d/content/cuda-pytorch-index.md"
"$SSG" build -s "$d" -o "$d/out" -q 2>/dev/null
[ ! -e "$d/out/cuda-pytorch-index/index.html" ] || { echo "a stale page survived"; exit 1; }
# a failed build leaves the site as it was
( cd "$d/out" && find . -type f -printf '%i %T@ %p\n' | sort -k3 ) > "$d/good"
printf 'title: [broken\n' > "$d/site.yml"
if "$SSG" build -s "$d" -o "$d/out" -q 2>/dev/null; then echo "a broken site.yml built"; exit 1; fi
( cd "$d/out" && find . -type f -printf '%i %T@ %p\n' | sort -k3 ) > "$d/still"
cmp -s "$d/good" "$d/still" || { echo "a failed build changed the output"; exit 1; }
echo "unchanged_rebuild: ok"
