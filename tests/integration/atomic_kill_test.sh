#!/bin/sh
# atomic_kill_test: a build killed with SIGKILL at any moment leaves public/
# either the previous site or the new one, whole. A 2000-document site
# (/work/shared/bench/gen_corpus.py, or a small generator here when that is
# missing) is built in two versions, v1 and v2, whose outputs differ; the
# manifest of each (every file's path and MD5) is saved. Then, several times,
# the content is switched to the other version, `ssg build` is started and
# killed with SIGKILL after a random delay within the build's duration, and
# public/ must match one of the two saved manifests exactly (no file missing,
# extra, or half written). Leftover staging folders are reported. The build
# state (.ssg-build, .ssg-pages, .ssg-docs, .ssg-json, .ssg-items) is not part of the site: it is absent while a site is
# swapped in, and a kill there only costs the next build its shortcut.
# Run by tests/run_integration.sh with $SSG set; exit 0 = pass, 77 = skip.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
command -v md5sum >/dev/null 2>&1 || { echo "md5sum missing"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
KILLS=${KILLS:-6}
SITE="$TMP/site"
GEN=/work/shared/bench/gen_corpus.py

if [ -f "$GEN" ]; then
	python3 "$GEN" --docs 2000 --out "$SITE" >/dev/null || { echo "gen_corpus failed"; exit 1; }
else
	mkdir -p "$SITE/content"
	python3 - "$SITE/content" <<'EOF'
import sys, os
for i in range(2000):
    with open(os.path.join(sys.argv[1], "doc%04d.md" % i), "w") as f:
        f.write("# Document %d\n\n" % i)
        for k in range(20):
            f.write("- [Resource %d](https://example.org/r/%d) - about %d\n" % (k, (i * 7 + k) % 3000, k))
EOF
fi

# The two versions: v2 edits a few documents and adds one.
mkdir -p "$TMP/v1" "$TMP/v2"
for f in $(cd "$SITE/content" && ls | head -n 5); do
	cp "$SITE/content/$f" "$TMP/v1/$f"
	{ cat "$SITE/content/$f"; printf '\n\nEdited for version two: [new](https://example.org/v2/%s).\n' "$f"; } >"$TMP/v2/$f"
done
printf '# Added in v2\n\n- [Only in v2](https://example.org/only-v2)\n' >"$TMP/v2/zz-added.md"

use() { # v1|v2
	cp "$TMP/$1"/*.md "$SITE/content/"
	[ "$1" = v1 ] && rm -f "$SITE/content/zz-added.md"
	return 0
}

manifest() {
	(cd "$SITE/public" 2>/dev/null && find . -type f ! -name .ssg-build ! -name .ssg-pages ! -name .ssg-docs ! -name .ssg-json ! -name .ssg-items -print0 | LC_ALL=C sort -z | xargs -0 md5sum) |
		md5sum | cut -d' ' -f1
}

now_ms() { date +%s%3N; }

use v2
(cd "$SITE" && "$SSG" build -q >/dev/null 2>&1) || { echo "build of v2 failed"; exit 1; }
M2=$(manifest)
use v1
t0=$(now_ms)
(cd "$SITE" && "$SSG" build -q >/dev/null 2>&1) || { echo "build of v1 failed"; exit 1; }
t1=$(now_ms)
M1=$(manifest)
[ "$M1" != "$M2" ] || { echo "FAIL: v1 and v2 build to the same site"; exit 1; }
dur=$((t1 - t0))
echo "a full build takes ${dur} ms; killing $KILLS builds"

cur=v1
i=0
while [ "$i" -lt "$KILLS" ]; do
	i=$((i + 1))
	if [ "$cur" = v1 ]; then cur=v2; else cur=v1; fi
	use "$cur"
	# a delay anywhere in the build, early kills included
	delay=$(python3 -c "import random; print('%.3f' % (random.uniform(0.02, 1.1) * $dur / 1000))")
	(cd "$SITE" && exec "$SSG" build -q >/dev/null 2>&1) &
	pid=$!
	sleep "$delay"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	m=$(manifest)
	if [ "$m" = "$M1" ]; then state=v1; elif [ "$m" = "$M2" ]; then state=v2; else state=broken; fi
	echo "kill $i after ${delay} s building $cur: public/ is $state"
	[ "$state" = broken ] && fail "kill $i: public/ is neither the old nor the new site"
done

# A clean build after all that gives the current version exactly.
(cd "$SITE" && "$SSG" build -q >/dev/null 2>&1) || fail "build after the kills failed"
want=$M1
[ "$cur" = v2 ] && want=$M2
[ "$(manifest)" = "$want" ] || fail "the build after the kills is not the $cur site"
left=$(find "$SITE" -maxdepth 1 -name 'public.*' | wc -l)
[ "$left" = 0 ] || fail "$left staging folder(s) of killed builds left after the next build"

echo "atomic_kill: $fails failure(s)"
[ "$fails" = 0 ]
