#!/bin/sh
# write_floor (tests/tools/write_floor.c), the benchmark's floor of writing
# the output: the tree it makes is the built site's, byte for byte, its JSON
# (in hyperfine's form, for bench.sh's summary) has one time per run with the
# median between the least and the most, and bad arguments are refused.
# Run by tests/run_integration.sh with $SSG set.
set -eu
: "${SSG:?set SSG to the ssg binary}"
make -s tools >/dev/null
wf=build/tools/write_floor
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
"$SSG" build -q -s . -o "$d/site" 2>/dev/null || fail "build"
"$wf" "$d/site" "$d/copy" 3 2 "$d/floor.json" "floor test" > "$d/out" || fail "write_floor failed"
diff -r "$d/site" "$d/copy" > /dev/null || fail "the copy differs from the site"
grep -q '^floor test: [0-9]* folders, [0-9]* files, [0-9]* bytes, 2 threads: median ' "$d/out" ||
	fail "unexpected report: $(cat "$d/out")"
python3 - "$d/floor.json" <<'PY' || fail "bad JSON"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["command"] == "floor test", r
assert len(r["times"]) == 3, r
assert 0 < r["min"] <= r["median"] <= r["max"], r
assert sorted(r["times"])[0] == r["min"] and sorted(r["times"])[-1] == r["max"], r
PY
# a second run replaces the copy it left (a stale file goes with it)
echo stale > "$d/copy/stale.txt"
"$wf" "$d/site" "$d/copy" 1 1 "$d/floor.json" "again" > /dev/null || fail "second run"
[ ! -e "$d/copy/stale.txt" ] || fail "the old copy was not removed"
diff -r "$d/site" "$d/copy" > /dev/null || fail "the second copy differs"
set +e
"$wf" "$d/site" "$d/copy" 0 2 "$d/floor.json" x > /dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "zero runs: exit $rc, not 2"
"$wf" "$d/site" > /dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "missing arguments: exit $rc, not 2"
"$wf" "$d/nowhere" "$d/copy2" 1 1 "$d/floor.json" x > /dev/null 2>&1; rc=$?
[ "$rc" = 1 ] || fail "a missing source: exit $rc, not 1"
echo "write_floor: ok"
