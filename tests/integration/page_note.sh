#!/bin/sh
# page_note: a build leaves in the spare a note of each page's file as it
# left it in the site (device, inode, size: .ssg-note, never in a site), so
# that the next build keeps a page the spare still holds as that very inode
# without stat'ing the site in place. Checked here: the note is there and
# used (a kept page costs no fstatat, under strace); whatever became of the
# site in place (a page replaced by other bytes, a page removed, one removed
# from the spare too) and whatever the note holds (garbage, cut short), each
# build equals a clean one. Skipped (77) without strace.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v strace >/dev/null 2>&1 || { echo "no strace"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-page-note.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
cp -r content site.yml "$d/"
doc="$d/content/cuda-basics.rst"
spare="$d/.out.ssg-spare"
n=0
# edit: a link to a new resource, so that the model changes and every other
# page is kept by its inputs
edit() { n=$((n + 1)); printf '\n\nSee `note %s <https://example.org/note/%s>`_.\n' $n $n >> "$doc"; }
same_as_clean() {
	rm -rf "$d/clean"
	"$SSG" build -q --force -j 1 -s "$d" -o "$d/clean" 2>/dev/null
	diff -r -x '.ssg-*' "$d/clean" "$d/out" > "$d/diff" ||
		{ echo "$1: the site differs from a clean build"; head -20 "$d/diff"; exit 1; }
	[ ! -e "$d/out/.ssg-note" ] || { echo "$1: the note is in the site"; exit 1; }
}
build() { "$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || { echo "$1: the build failed"; exit 1; }; }
# pages stat'ed in the site in place by a build: fstatat calls naming an index.html
stats_of_pages() {
	strace -f -qq -e trace=newfstatat -o "$d/trace" "$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null ||
		{ echo "$1: the build failed"; exit 1; }
	grep -c 'index\.html"' "$d/trace"
}
build "first build"
edit; build "second build"
edit; build "third build"
[ -s "$spare/.ssg-note" ] || { echo "no note in the spare after three builds"; exit 1; }
same_as_clean "third build"
pages=$(find "$d/out" -name index.html | wc -l)

# the note in use: the kept pages are the spare's, not stat'ed in the site
edit; stats=$(stats_of_pages "with the note")
same_as_clean "with the note"
[ "$stats" -lt $((pages / 4)) ] ||
	{ echo "with the note, $stats of $pages pages were stat'ed in the site in place"; exit 1; }
# without it (removed from the spare), each kept page is stat'ed there
rm -f "$spare/.ssg-note"
edit; stats=$(stats_of_pages "without the note")
same_as_clean "without the note"
[ "$stats" -ge $((pages / 2)) ] ||
	{ echo "without the note, only $stats of $pages pages were stat'ed: is the note still read?"; exit 1; }

# the site in place tampered with: a page replaced by other bytes (another
# inode), one removed, one removed from the spare as well
edit; build "before tampering"
edit; build "before tampering, again"
set -- $(cd "$d/out/r" && ls | sed -n '3p;5p;7p')
{ cat "$d/out/r/$1/index.html"; echo tampered; } > "$d/t" && mv "$d/t" "$d/out/r/$1/index.html"
rm "$d/out/r/$2/index.html"
rm "$d/out/r/$3/index.html" "$spare/r/$3/index.html"
edit; build "after tampering"
same_as_clean "after tampering"

# a note that is garbage, or cut short, is not used
edit; build "before a bad note"
head -c 100 /dev/urandom > "$spare/.ssg-note"
edit; build "with a garbage note"
same_as_clean "with a garbage note"
edit; build "before a short note"
head -c 60 "$spare/.ssg-note" > "$d/t" && mv "$d/t" "$spare/.ssg-note"
edit; build "with a short note"
same_as_clean "with a short note"
# a note that is a symlink is neither read nor followed
edit; build "before a symlinked note"
echo precious > "$d/precious"
rm -f "$spare/.ssg-note" && ln -s "$d/precious" "$spare/.ssg-note"
edit; build "with a symlinked note"
same_as_clean "with a symlinked note"
[ "$(cat "$d/precious")" = precious ] || { echo "the build wrote through a symlinked note"; exit 1; }
echo "page_note: ok ($pages pages; $n edits)"
