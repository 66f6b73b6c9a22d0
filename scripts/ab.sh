#!/usr/bin/env bash
# ab.sh: what a change did, as two ssg binaries alternated run by run on the
# same workload, each on its own copy of the corpus (a binary's document
# cache and state files are its own: sharing them, each run would find the
# other's and rebuild). Prints each side's runs, their medians, and the
# median of the pair-by-pair ratios (new / old): a sitting's hour moves both
# sides alike, so the pairs tell the change from the hour.
#
#   scripts/ab.sh OLD NEW [workload] [pairs]
#     workload: clean (tmpfs, --force, output removed first; the default),
#               disk (the same with the corpus and output under $B), or
#               edit (tmpfs: a list entry edited, then built incrementally),
#               link (tmpfs: a link to a new resource added, then built),
#               prose (tmpfs: a paragraph appended after the first document's
#               list, then built: a page patched, build_patch.h),
#               portal (tmpfs: the bundled portal, forced, output removed
#               first, each side in a fresh clone of this repository, so
#               that git's log runs as in CI; times to the microsecond)
#     pairs:    default 10
# Environment: B (default /tmp/ssg-bench: `scripts/bench.sh corpora` makes
# $B/c10000 there), CORPUS (a corpus folder instead of $B/c10000),
# ONE_FOLDER=1 (clean and disk only: both sides build in one copy of the
# corpus; a forced build takes nothing from the other side's caches, and on
# tmpfs the copy a clean build works in can move it by 3-10 %: the
# thirtieth round in BENCHMARKS.md).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2; }
OLD=$(realpath "$1")
NEW=$(realpath "$2")
WORK=${3:-clean}
PAIRS=${4:-10}
B=${B:-/tmp/ssg-bench}
CORPUS=${CORPUS:-$B/c10000}
[ -d "$CORPUS/content" ] || { echo "ab: no corpus at $CORPUS (scripts/bench.sh corpora)" >&2; exit 1; }
case $WORK in
clean | edit | link | prose | portal) D=/dev/shm/ssg-ab ;;
disk) D=$B/ab ;;
*) echo "ab: unknown workload '$WORK'" >&2; exit 2 ;;
esac
rm -rf "$D"
mkdir -p "$D"
trap 'rm -rf "$D"' EXIT
one=
[ "${ONE_FOLDER:-}" = 1 ] && { [ "$WORK" = clean ] || [ "$WORK" = disk ]; } && one=1
folder() { [ -n "$one" ] && echo "$D/one" || echo "$D/$1"; }
for side in old new; do
	[ -d "$(folder $side)" ] && continue
	if [ "$WORK" = portal ]; then
		git clone -q --no-local "$(cd "$(dirname "$0")/.." && pwd)" "$(folder $side)"
		continue
	fi
	mkdir -p "$(folder $side)"
	cp -r "$CORPUS/content" "$CORPUS/site.yml" "$(folder $side)/"
done
bin() { [ "$1" = old ] && echo "$OLD" || echo "$NEW"; }

# One run of side $1: its wall time in ms on stdout (to the microsecond).
run() {
	local side=$1 s e src
	src=$(folder "$1")
	case $WORK in
	clean | disk | portal)
		rm -rf "$src/public" "$src"/public.staging-*
		s=$(date +%s%N)
		"$(bin "$side")" build -q --force -s "$src" >/dev/null 2>&1
		;;
	edit)
		# a line appended to the first document: it goes on its list's
		# last entry, as in bench.sh's entry edit
		local doc
		doc=$(find "$src/content" -name '*.md' | sort | sed -n 1p)
		echo "Edited at $(date +%s%N)." >>"$doc"
		s=$(date +%s%N)
		"$(bin "$side")" build -q -s "$src" >/dev/null 2>&1
		;;
	prose)
		# a paragraph after the list, as in bench.sh's prose edit
		local doc
		doc=$(find "$src/content" -name '*.md' | sort | sed -n 1p)
		printf '\n\nEdited at %s.\n' "$(date +%s%N)" >>"$doc"
		s=$(date +%s%N)
		"$(bin "$side")" build -q -s "$src" >/dev/null 2>&1
		;;
	link)
		# a new entry linking to a resource no document cites, as in
		# bench.sh's link edit
		local doc n
		doc=$(find "$src/content" -name '*.md' | sort | sed -n 1p)
		n=$(date +%s%N)
		printf -- "- [New resource %s](https://example.com/new/%s) - added\n" "$n" "$n" >>"$doc"
		s=$(date +%s%N)
		"$(bin "$side")" build -q -s "$src" >/dev/null 2>&1
		;;
	esac
	e=$(date +%s%N)
	printf '%d.%03d\n' $(((e - s) / 1000000)) $((((e - s) / 1000) % 1000))
}

# warm-up: each side's caches and site made (for edits, and the spare tree
# the build after a first one leaves: from then on each edit's build is like
# the next)
for side in old new; do
	run "$side" >/dev/null
	case $WORK in edit | link | prose) run "$side" >/dev/null && run "$side" >/dev/null ;; esac
done
for i in $(seq 1 "$PAIRS"); do
	# alternate which side goes first
	if [ $((i % 2)) = 1 ]; then first=old second=new; else first=new second=old; fi
	a=$(run $first)
	b=$(run $second)
	echo "$first $a $second $b"
done | python3 -c '
import statistics as st, sys
runs = {"old": [], "new": []}
for line in sys.stdin:
    f = line.split()
    runs[f[0]].append(float(f[1]))
    runs[f[2]].append(float(f[3]))
for k in ("old", "new"):
    print(f"{k}: {[round(t, 1) for t in runs[k]]} ms, median {st.median(runs[k]):.2f} ms")
ratios = sorted(n / o for o, n in zip(runs["old"], runs["new"]))
medians = st.median(runs["new"]) / st.median(runs["old"])
print(f"new/old: {medians:.3f} by medians, {st.median(ratios):.3f} pair by pair "
      f"({ratios[0]:.3f}-{ratios[-1]:.3f}, {len(ratios)} pairs)")
'
