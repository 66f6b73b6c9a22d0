#!/bin/sh
# list_items: a list page rendered again takes the entries that are as they
# were from the page in place (page_items.h: .ssg-items notes where each
# lies). Checked here: after an edit of one entry's description, entries are
# taken (the build's --timings count them), and the site equals a clean
# build; SSG_CHECK_INPUTS=1 renders each taken entry too and fails the build
# on a difference; a list page replaced by other bytes in the site in place
# lends none, and a damaged .ssg-items is ignored: each build still equals a
# clean one. The quick reference's pages take their entries the same way.
set -u
: "${SSG:?set SSG to the ssg binary}"
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-list-items.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
cp -r content site.yml "$d/"
doc="$d/content/cuda-mode-resource-stream.md"
n=0
# edit: one entry's description grows (the resource's, the longest), so the
# list pages that show it are rendered again
edit() {
	n=$((n + 1))
	sed -i "s|^\(- \[CUDA Toolkit Documentation \](https://docs.nvidia.com/cuda/)\).*|\1 - edited $n|" "$doc"
	grep -q "edited $n" "$doc" || { echo "the edit did not apply"; exit 1; }
}
same_as_clean() {
	rm -rf "$d/clean"
	"$SSG" build -q --force -j 1 -s "$d" -o "$d/clean" 2>/dev/null
	diff -r -x '.ssg-*' "$d/clean" "$d/out" > "$d/diff" ||
		{ echo "$1: the site differs from a clean build"; head -20 "$d/diff"; exit 1; }
}
# a build; prints how many list entries it took from the pages in place
taken() {
	"$SSG" build -q --timings -s "$d" -o "$d/out" 2> "$d/err" ||
		{ echo "$1: the build failed"; cat "$d/err"; exit 1; }
	sed -n 's/.*, \([0-9]*\) list entries taken.*/\1/p' "$d/err"
}
taken "first build" >/dev/null
edit; taken "second build" >/dev/null
[ -s "$d/out/.ssg-items" ] || { echo "no .ssg-items after two builds"; exit 1; }
edit; got=$(taken "with the entries noted")
same_as_clean "with the entries noted"
[ "${got:-0}" -gt 0 ] || { echo "no list entry was taken from the pages in place"; exit 1; }

# checking: every taken entry is rendered as well, and must be the same
edit
SSG_CHECK_INPUTS=1 "$SSG" build -q -s "$d" -o "$d/out" 2> "$d/err" ||
	{ echo "SSG_CHECK_INPUTS=1: the build failed"; cat "$d/err"; exit 1; }
same_as_clean "checking"

# the topic pages in place replaced by other bytes (other inodes): none lends
# its entries, and each comes back as built
edit; taken "before tampering" >/dev/null
find "$d/out/topic" -name index.html | while read -r f; do
	sed 's|<li class="resource"|<li class="resource tampered"|' "$f" > "$d/t" && mv "$d/t" "$f"
done
edit; got=$(taken "after tampering")
[ "${got:-0}" = 0 ] || { echo "after tampering, $got entries were taken from replaced pages"; exit 1; }
same_as_clean "after tampering"

# a damaged .ssg-items: ignored
edit; taken "before damage" >/dev/null
for cut in 10 100 1000; do
	head -c "$cut" "$d/out/.ssg-items" > "$d/t" && mv "$d/t" "$d/out/.ssg-items"
	edit; taken "with .ssg-items cut at $cut bytes" >/dev/null
	same_as_clean "with .ssg-items cut at $cut bytes"
done
printf 'garbage' > "$d/out/.ssg-items"
edit; taken "with a garbage .ssg-items" >/dev/null
same_as_clean "with a garbage .ssg-items"
# the quick reference: a page of it rendered again after an edit of an
# entry it shows takes its other entries from the page in place (the topic
# pages copied to new files first, so that they lend none)
qdoc="$d/content/triton-gpu-references.rst"
qedit() {
	n=$((n + 1))
	sed -i "s|^\(\* \`CUDA C Best Practices Guide <https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/>\`_ - Optimization techniques\).*|\1, edited $n|" "$qdoc"
	grep -q "techniques, edited $n" "$qdoc" || { echo "the quick-reference edit did not apply"; exit 1; }
}
qedit; taken "before the quick reference" >/dev/null
find "$d/out/topic" -name index.html | while read -r f; do cp "$f" "$d/t" && mv "$d/t" "$f"; done
qedit; got=$(taken "the quick reference")
grep -q "techniques, edited $n" "$d/out/quick-reference/index.html" ||
	{ echo "the quick reference does not show the edited entry"; exit 1; }
[ "${got:-0}" -gt 0 ] || { echo "the quick reference took no entry from the page in place"; exit 1; }
same_as_clean "the quick reference"
qedit
SSG_CHECK_INPUTS=1 "$SSG" build -q -s "$d" -o "$d/out" 2> "$d/err" ||
	{ echo "SSG_CHECK_INPUTS=1, the quick reference: the build failed"; cat "$d/err"; exit 1; }
same_as_clean "the quick reference, checking"
echo "list items: entries taken from the pages in place; the site equals a clean build"
