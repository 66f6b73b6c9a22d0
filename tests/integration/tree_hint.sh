#!/bin/sh
# tree_hint: the spare's folders unchanged since the last listing of that tree
# (.<name>.ssg-trees beside the output) are taken from the listing, not read
# again (tree_list.h). Seen from outside: once every tree has been listed with
# its folders older than the clock's doubt (two seconds), an edit's build reads
# only a few folders with getdents64 and looks at the rest with one statx
# each. The listing is keyed with the account's secret (another account reads
# every folder again), and a damaged file is not used; each build still
# equals a clean one. The spare's damage with the listing in use is in
# spare_tree.sh. Run by tests/run_integration.sh with $SSG set.
set -eu
: "${SSG:?set SSG to the ssg binary}"
command -v strace >/dev/null || { echo "tree_hint: no strace"; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cp -r content site.yml "$d/"
export XDG_CACHE_HOME="$d/alice"
n=0
edit() {
	n=$((n + 1))
	printf -- '- [Hint test %s](https://example.org/hint-%s) - one more\n' "$n" "$n" \
		>> "$d/content/cuda-pytorch-index.md"
}
build() { "$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || fail "build $n failed"; }
# getdents64 and statx calls of one build
traced() {
	strace -f -qq -e trace=getdents64,statx -o "$d/trace" "$SSG" build -q "$@" -s "$d" -o "$d/out" \
		2>/dev/null || fail "traced build failed"
	reads=$(grep -c 'getdents64(' "$d/trace" || true)
	looks=$(grep -c 'statx(' "$d/trace" || true)
}
same_as_clean() {
	rm -rf "$d/clean"
	"$SSG" build -q --force -j 1 -s "$d" -o "$d/clean" 2>/dev/null
	diff -r -x '.ssg-*' "$d/clean" "$d/out" > "$d/diff" ||
		{ head -20 "$d/diff"; fail "$1: the build differs from a clean one"; }
}

build
edit && build
edit && build
folders=$(find "$d/out" -mindepth 1 -type d | wc -l)
[ "$folders" -gt 200 ] || fail "only $folders folders: the test sees nothing"
# two builds more with folders older than two seconds: each tree's listing
# is kept with its folders trusted
sleep 3
edit && build
edit && build
[ -f "$d/.out.ssg-trees" ] || fail "no listing kept beside the output"
edit && traced
same_as_clean "with the listing"
[ "$reads" -lt $((folders / 4)) ] ||
	fail "$reads getdents64 calls for $folders folders: the listing was not used"
[ "$looks" -ge $((folders / 2)) ] || fail "only $looks statx calls for $folders folders"
echo "with the listing: $reads getdents64, $looks statx ($folders folders)"

# a damaged file is not used: every folder read again
printf 'damage' | dd of="$d/.out.ssg-trees" bs=1 seek=200 conv=notrunc 2>/dev/null
printf 'damage' | dd of="$d/.out.ssg-trees" bs=1 seek=$(( $(stat -c %s "$d/.out.ssg-trees") - 300 )) \
	conv=notrunc 2>/dev/null
edit && traced
same_as_clean "with a damaged listing"
[ "$reads" -ge "$folders" ] || fail "a damaged listing was used ($reads getdents64)"

# another account does not take this one's listings
sleep 3
edit && build
edit && build
export XDG_CACHE_HOME="$d/bob"
edit && traced
same_as_clean "as another account"
[ "$reads" -ge "$folders" ] || fail "another account's listing was used ($reads getdents64)"

# a forced build of an unchanged site counts the files of the site in place
# (kept as it is when they are the new site's) with that tree's listing too;
# a stray file in an old folder of it is still found, and the site replaced
export XDG_CACHE_HOME="$d/alice"
edit && build
sleep 3
"$SSG" build -q --force -s "$d" -o "$d/out" 2>/dev/null || fail "forced build failed"
traced --force
[ "$reads" -lt $((folders / 4)) ] ||
	fail "a forced unchanged build: $reads getdents64 calls for $folders folders"
echo "forced, unchanged: $reads getdents64, $looks statx"
old=$(stat -c %i "$d/out/index.html")
traced --force
[ "$(stat -c %i "$d/out/index.html")" = "$old" ] || fail "an unchanged site was replaced"
: > "$d/out/assets/stray.html"
traced --force
[ ! -e "$d/out/assets/stray.html" ] || fail "a stray file in the site in place was kept"
same_as_clean "after a stray file"
echo "tree_hint: ok"
