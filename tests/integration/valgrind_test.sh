#!/bin/sh
# valgrind_test: memcheck finds no error and no leak in a few unit test
# programs (the parsers and the hardening regressions) and in a full build of
# the portal. The unit tests are linked here, into a temporary folder, from
# tests/unit/*.c and the library beside $SSG (build/libssg.a, which `make ssg`
# keeps current), in a prose edit patched into its page, and in `ssg check`. Every run is `valgrind --leak-check=full --error-exitcode=1`
# with the build single-threaded (-j 1: the same code, and a faster run under
# valgrind's one-thread-at-a-time scheduler) and then with -j 2.
# Run by tests/run_integration.sh with $SSG set; exit 0 = pass, 77 = skip.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing (apt-get install valgrind)"; exit 77; }
ROOT=$(pwd)
LIB="$ROOT/build/libssg.a"
[ -f "$LIB" ] || { echo "no $LIB: run make ssg"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=1"
CC=${CC:-cc}
LIBS="-lcmark-gfm-extensions -lcmark-gfm -lyaml -lmicrohttpd -lcurl -lpthread -lcmocka"

# every unit test binary (the slow and threaded regression tests skip), as
# many under valgrind at once as there are processors (valgrind runs a
# program's threads one at a time)
: >"$TMP/linked"
for t in $(ls tests/unit/test_*.c | sed 's|tests/unit/test_||; s|\.c$||'); do
	src="tests/unit/test_$t.c"
	[ -f "$src" ] || continue
	if ! $CC -std=c11 -D_GNU_SOURCE -O1 -g -Isrc -Ibuild -Itests/unit -o "$TMP/test_$t" "$src" \
		"$LIB" $LIBS 2>"$TMP/cc.log"; then
		fail "test_$t does not link"
		head -5 "$TMP/cc.log"
		continue
	fi
	echo "$t" >>"$TMP/linked"
done
export VG TMP
start=$(date +%s)
xargs -P "$(nproc)" -I{} sh -c 'REGRESS_QUICK=1 $VG "$TMP/test_{}" >"$TMP/out_{}" 2>&1; echo $? >"$TMP/rc_{}"' <"$TMP/linked"
while read -r t; do
	[ "$(cat "$TMP/rc_$t" 2>/dev/null)" = 0 ] ||
		{ fail "test_$t under valgrind"; grep -v '^\[' "$TMP/out_$t" | head -30; }
done <"$TMP/linked"
echo "unit tests under valgrind: $(( $(date +%s) - start )) s"

for j in 1 2; do
	start=$(date +%s)
	$VG "$SSG" build -q -j "$j" -s "$ROOT" -o "$TMP/public" >"$TMP/out" 2>&1 ||
		{ fail "ssg build -j $j of the portal under valgrind"; grep '==' "$TMP/out" | head -30; }
	echo "portal build -j $j: $(( $(date +%s) - start )) s"
done
[ -f "$TMP/public/index.html" ] || fail "the portal was not built"

# a prose edit patched into its page (build_patch.c), and the build after it
mkdir -p "$TMP/site"
cp -r "$ROOT/content" "$ROOT/site.yml" "$TMP/site/"
"$SSG" build -q -s "$TMP/site" -o "$TMP/site/out" 2>/dev/null
printf '\n\nA paragraph more.\n' >> "$TMP/site/content/cuda-pytorch-index.md"
$VG "$SSG" build -s "$TMP/site" -o "$TMP/site/out" >"$TMP/out" 2>&1 ||
	{ fail "a patched build under valgrind"; grep '==' "$TMP/out" | head -30; }
grep -q 'patched in place' "$TMP/out" || { fail "the edit was not patched in place"; tail -3 "$TMP/out"; }
$VG "$SSG" build -s "$TMP/site" -o "$TMP/site/out" >"$TMP/out" 2>&1 ||
	{ fail "the build after a patch under valgrind"; grep '==' "$TMP/out" | head -30; }

# ssg check of the portal: from the document cache the builds above left,
# then with none (every document parsed, each tree freed once read)
$VG "$SSG" check -s "$TMP/site" >"$TMP/out" 2>&1 ||
	{ fail "ssg check (from the cache) under valgrind"; grep '==' "$TMP/out" | head -30; }
rm -rf "$TMP/site/.ssg-cache"
$VG "$SSG" check -s "$TMP/site" >"$TMP/out" 2>&1 ||
	{ fail "ssg check (no cache) under valgrind"; grep '==' "$TMP/out" | head -30; }
grep -q '^checked 5 documents, ' "$TMP/out" || { fail "ssg check: no summary"; tail -3 "$TMP/out"; }

echo "valgrind: $fails failure(s)"
[ "$fails" = 0 ]
