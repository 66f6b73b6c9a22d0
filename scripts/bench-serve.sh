#!/bin/sh
# bench-serve: measures `ssg serve` for BENCHMARKS.md ("## ssg serve"):
#   1. wrk against the server, DURATION seconds at CONNS connections, on the
#      home page (HTML, reload script injected) and on a CSS asset (sendfile);
#   2. the time from a file save to the reload event on the SSE channel,
#      median of EDITS edits, on the bundled content (a copy of this
#      repository's site) and on the 10,000-document generated corpus.
# Usage: sh scripts/bench-serve.sh [small] [big]      (default: both)
# Environment: SSG (./ssg), B (work dir, /tmp/bench), SERVE_TMP (TMPDIR given
# to serve, i.e. where its private build goes; /dev/shm), DURATION (30),
# CONNS (64), WRK_THREADS (2), EDITS (20), WRK_BIG (1: wrk on the big site too),
# EDIT (entry: each save appends a line right after the file's last line,
# which goes on its last list entry, a change the model sees; prose: a
# paragraph of its own, which the build patches into the document's page;
# link: a new entry; see scripts/serve_latency.py).
# Needs wrk (Debian package wrk) and python3. Nothing in the repository is
# modified: the small site is copied and the edited corpus file is restored.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
SSG=${SSG:-$REPO/ssg}
B=${B:-/tmp/bench}
if [ -e "$B" ] && [ ! -d "$B" ]; then
	echo "bench-serve: $B is not a folder; using $B-data" >&2
	B=$B-data
fi
SERVE_TMP=${SERVE_TMP:-/dev/shm}
DURATION=${DURATION:-30}
CONNS=${CONNS:-64}
WRK_THREADS=${WRK_THREADS:-2}
EDITS=${EDITS:-20}
WRK_BIG=${WRK_BIG:-1}
EDIT=${EDIT:-entry}
STEPS=${*:-small big}

command -v wrk >/dev/null || { echo "bench-serve: wrk is missing (apt-get install wrk)" >&2; exit 1; }
[ -x "$SSG" ] || { echo "bench-serve: no ssg binary at $SSG (make ssg)" >&2; exit 1; }
mkdir -p "$B"
LOG=$B/serve-results.txt
echo "# ssg serve bench $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)," \
	"ssg $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?'), SERVE_TMP=$SERVE_TMP" | tee -a "$LOG"

# The SSE client: waits for the reload event after each save.
LAT=$REPO/scripts/serve_latency.py

SERVE_PID=
stop_serve() {
	if [ -n "$SERVE_PID" ]; then
		kill -TERM "$SERVE_PID" 2>/dev/null || true
		wait "$SERVE_PID" 2>/dev/null || true
		SERVE_PID=
	fi
}
trap stop_serve EXIT INT TERM

# start_serve DIR: starts serve on a free port and sets PORT (waits for the build).
start_serve() {
	out=$B/serve-stdout.txt
	: >"$out"
	TMPDIR=$SERVE_TMP "$SSG" serve -q -s "$1" --port 0 >"$out" 2>"$B/serve-stderr.txt" &
	SERVE_PID=$!
	t=0
	until grep -q "Serving at" "$out"; do
		sleep 0.2
		t=$((t + 1))
		kill -0 "$SERVE_PID" 2>/dev/null || { cat "$B/serve-stderr.txt" >&2; exit 1; }
		[ "$t" -lt 3000 ] || { echo "bench-serve: serve did not start" >&2; exit 1; }
	done
	PORT=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$out")
	echo "  first build: $(($t / 5)) s or less"
}

# bench_wrk LABEL URL
bench_wrk() {
	r=$(wrk -t"$WRK_THREADS" -c"$CONNS" -d"${DURATION}s" "$2")
	rps=$(echo "$r" | sed -n 's/^Requests\/sec: *//p')
	lat=$(echo "$r" | awk '/^    Latency/ {print $2 " avg, " $4 " max"}')
	sock=$(echo "$r" | sed -n 's/^ *Socket errors: *//p')
	non2xx=$(echo "$r" | sed -n 's/^ *Non-2xx or 3xx responses: *//p')
	echo "  wrk $1 (${DURATION} s, $CONNS connections, $WRK_THREADS threads): $rps requests/s," \
		"latency $lat, socket errors: ${sock:-none}, non-2xx/3xx: ${non2xx:-0}" | tee -a "$LOG"
}

for step in $STEPS; do
	case $step in
	small)
		site=$B/serve-small
		rm -rf "$site"
		mkdir -p "$site"
		for p in site.yml content templates themes static; do
			[ -e "$REPO/$p" ] && cp -r "$REPO/$p" "$site/"
		done
		echo "small: bundled content ($(ls "$site/content" | wc -l) documents)" | tee -a "$LOG"
		start_serve "$site"
		bench_wrk "home page /" "http://127.0.0.1:$PORT/"
		bench_wrk "asset /assets/style.css" "http://127.0.0.1:$PORT/assets/style.css"
		doc=$(ls "$site/content" | grep '\.md$' | head -1)
		python3 "$LAT" --port "$PORT" "$site/content/$doc" "$EDITS" "$EDIT" | sed 's/^/  /' | tee -a "$LOG"
		stop_serve
		;;
	big)
		corpus=$B/c10000
		[ -d "$corpus/content" ] ||
			python3 /work/shared/bench/gen_corpus.py --docs 10000 --out "$corpus"
		echo "big: generated corpus, 10,000 documents ($corpus)" | tee -a "$LOG"
		start_serve "$corpus"
		[ "$WRK_BIG" = 1 ] && bench_wrk "home page /" "http://127.0.0.1:$PORT/"
		python3 "$LAT" --port "$PORT" "$corpus/content/05000-$(ls "$corpus/content" | sed -n 's/^05000-//p' | head -1)" "$EDITS" "$EDIT" |
			sed 's/^/  /' | tee -a "$LOG"
		stop_serve
		;;
	*) echo "bench-serve: unknown step $step" >&2; exit 2 ;;
	esac
done
