#!/bin/sh
# Runs each cmocka test binary given; prints a closing "N passed, N failed" line.
pass=0; fail=0
for t in "$@"; do
	if "$t"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAILED: $t"; fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" = 0 ]
