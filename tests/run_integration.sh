#!/bin/sh
# Runs every tests/integration/*.sh (and *.py) with SSG set to the binary under
# test and prints a closing "N passed, N failed" line. A script passes when it
# exits 0; exit 77 means skipped (a tool it needs is missing).
SSG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export SSG
cd "$(dirname "$0")/.." || exit 1
pass=0; fail=0; skip=0
for t in tests/integration/*.sh tests/integration/*.py; do
	[ -e "$t" ] || continue
	case "$t" in *.py) run="python3 $t" ;; *) run="sh $t" ;; esac
	out=$(mktemp)
	start=$(date +%s)
	if $run >"$out" 2>&1; then
		pass=$((pass+1)); echo "PASS $t ($(( $(date +%s) - start )) s)"
	else
		rc=$?
		if [ "$rc" = 77 ]; then skip=$((skip+1)); echo "SKIP $t"; else
			fail=$((fail+1)); echo "FAIL $t (exit $rc)"; sed 's/^/    /' "$out" | tail -40; fi
	fi
	rm -f "$out"
done
echo "integration: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
