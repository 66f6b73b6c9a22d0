#!/bin/sh
# folder_hints: the output folder and r/ (a page folder per resource) carry
# the "top of unrelated hierarchies" flag (chattr +T), which has ext4 spread
# their page folders over its block groups (see output.c), after a clean
# build and after an incremental one that reuses the spare tree; a site
# without resource pages gets no r/. A clean build there makes its page
# folders in passing folders and moves them in (spread.h), and so does the
# build after it, which links the unchanged files into a new tree: none is
# left either time, and the site is the one a build makes where folders take
# no flag (/dev/shm, when there is one). The flag checks are skipped (77) where the folder's
# file system has no such flag (tmpfs, overlayfs, ...).
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v lsattr >/dev/null 2>&1 && command -v chattr >/dev/null 2>&1 ||
	{ echo "no lsattr/chattr (e2fsprogs)"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-hints.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/bare/content"
printf '# Bare\n\nNo links here.\n' > "$d/bare/content/bare.md"
printf 'title: Bare\n' > "$d/bare/site.yml"
"$SSG" build -q -s "$d/bare" -o "$d/bare/out" 2>/dev/null || { echo "the bare site did not build"; exit 1; }
[ ! -e "$d/bare/out/r" ] || { echo "a site without resource pages has an r/ folder"; exit 1; }
mkdir "$d/probe"
chattr +T "$d/probe" 2>/dev/null && lsattr -d "$d/probe" 2>/dev/null | cut -d' ' -f1 | grep -q T ||
	{ echo "the file system under $d has no T flag"; exit 77; }
cp -r content site.yml "$d/"
has_t() { lsattr -d "$1" 2>/dev/null | cut -d' ' -f1 | grep -q T; }
check() {
	for f in "$d/out" "$d/out/r"; do
		has_t "$f" || { echo "after $1: no T flag on $f"; lsattr -d "$f"; exit 1; }
	done
	# page folders themselves are not marked: their files stay together
	if has_t "$d/out/cuda-basics"; then echo "after $1: a page folder is marked"; exit 1; fi
}
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || { echo "build failed"; exit 1; }
check "a clean build"
# no passing folder left, and the site a plain build makes
same_as_plain() {
	leftover=$(find "$d/out" -name '.ssg-spread-*' | head -3)
	[ -z "$leftover" ] || { echo "after $1: passing folders left in the site: $leftover"; exit 1; }
	shm=$(mktemp -d /dev/shm/ssg-hints.XXXXXX 2>/dev/null) || return 0
	"$SSG" build -q -s "$d" -o "$shm/out" 2>/dev/null || { rm -rf "$shm"; echo "build into $shm failed"; exit 1; }
	diff -r -x '.ssg-*' "$d/out" "$shm/out" >/dev/null ||
		{ diff -r -q -x '.ssg-*' "$d/out" "$shm/out" | head -5; rm -rf "$shm"; echo "after $1: the site differs from a plain build"; exit 1; }
	rm -rf "$shm"
}
same_as_plain "a clean build"
printf '\n\nOne more paragraph, [with a link](https://example.org/hint-1).\n' >> "$d/content/cuda-pytorch-index.md"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || { echo "build failed"; exit 1; }
[ -d "$d/.out.ssg-spare" ] || { echo "no spare tree after the second build"; exit 1; }
same_as_plain "the build after a clean one (unchanged files linked)"
printf '\n\nAnd [another](https://example.org/hint-2).\n' >> "$d/content/cuda-pytorch-index.md"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || { echo "build failed"; exit 1; }
check "an incremental build on the spare"
echo "folder_hints: ok"
