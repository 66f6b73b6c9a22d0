#!/usr/bin/env bash
# bench.sh: ssg against Hugo (the anchor), the cmark-gfm parse floor and the
# file system's write floor, side by side in one sitting, with hyperfine.
# `make bench` runs it; figures go to BENCHMARKS.md by hand, with the machine
# they came from.
#
#   scripts/bench.sh [steps...]   steps: deps corpora clean rebuild edit serve
#                                 mixed memory check floor seeds writefloor
#                                 summary (default: all)
# Clean builds pass --force: nothing from an earlier build (the document
# cache, page digests, the fingerprint) is used. The document cache is still
# made: compared with the file in place, written only where it differs. The
# cold build (clean-cold-tmpfs-10000) removes .ssg-cache first, and so pays
# for writing all of it, as a first build or CI does.
# Environment: B (work dir, default /tmp/ssg-bench), SSG (binary, default ./ssg),
# GEN (corpus generator, default ../shared/bench/gen_corpus.py), CORPUS (an
# existing corpus folder with content/: used instead of generating),
# RUNS (hyperfine runs for N=10,000, default 5), KINDS (the edit step's
# kinds of edit, default "entry longest link prose").
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-/tmp/ssg-bench}
SSG=$(cd "$(dirname "${SSG:-$HERE/ssg}")" && pwd)/$(basename "${SSG:-$HERE/ssg}")
GEN=${GEN:-$HERE/../shared/bench/gen_corpus.py}
RUNS=${RUNS:-5}
T=/dev/shm/ssg-bench
R=$B/results
mkdir -p "$B" "$R" "$T"
ALLOW="allow = ['^dart-sass-embedded\$', '^go\$', '^npx\$', '^postcss\$', '^rst2html\$']"

hf() { local name=$1; shift; hyperfine --style basic --export-json "$R/$name.json" "$@" | tee "$R/$name.txt"; }

deps() {
	local need=""
	for p in hugo hyperfine cmark-gfm python3-docutils time; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
	done
	[ -z "$need" ] && return 0
	if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $need >/dev/null
	else echo "bench: run: sudo apt-get install$need" >&2; exit 1; fi
}

# A site.yml for the synthetic corpus: one topic per tag it uses, matched by
# the tag word, so every document's tags name real topics.
site_yml() {
	python3 - "$GEN" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("gen", sys.argv[1]); g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
print("title: Synthetic resource portal\nbase_url: https://example.org/\ntopics:")
for t in list(g.TOPICS) + list(g.CATEGORIES):
    print(f"  - {{id: {t}, title: \"{t.replace('-', ' ').title()}\", match: {{words: [\"{t.replace('-', ' ')}\"]}}}}")
EOF
}

corpora() {
	if [ -n "${CORPUS:-}" ]; then
		ln -sfn "$CORPUS" "$B/c10000"
		return
	fi
	[ -f "$GEN" ] || { echo "bench: no corpus generator at $GEN (set GEN or CORPUS)" >&2; exit 1; }
	for n in 1000 10000; do
		[ -f "$B/h$n/hugo.toml" ] || python3 "$GEN" --docs $n --out "$B/c$n" --hugo "$B/h$n"
		site_yml > "$B/c$n/site.yml"
	done
	[ -d "$B/m1000/content" ] || python3 "$GEN" --docs 1000 --out "$B/m1000" --format mixed
	site_yml > "$B/m1000/site.yml"
	local D=$B/hm1000   # the mixed corpus for Hugo: rst2html for the RST pages
	if [ ! -f "$D/hugo.toml" ]; then
		mkdir -p "$D"; cp -r "$B/h1000/layouts" "$B/m1000/content" "$D/"
		{ cat "$B/h1000/hugo.toml"; printf '[security.exec]\n  %s\n' "$ALLOW"; } > "$D/hugo.toml"
	fi
}

clean() {  # clean builds, the output folder removed before each run
	for n in 1000 10000; do
		local runs=$([ $n = 1000 ] && echo 10 || echo "$RUNS")
		hf clean-tmpfs-$n --warmup 1 --runs "$runs" --prepare "rm -rf $T/o $T/o.staging-*" \
			-n "ssg $n tmpfs" "$SSG build -q --force -s $B/c$n -o $T/o" \
			-n "hugo $n tmpfs" "hugo --quiet --source $B/h$n --destination $T/o"
		hf clean-disk-$n --warmup 1 --runs "$runs" --prepare "rm -rf $B/o $B/o.staging-*" \
			-n "ssg $n disk" "$SSG build -q --force -s $B/c$n -o $B/o" \
			-n "hugo $n disk" "hugo --quiet --source $B/h$n --destination $B/o"
	done
	# cold: no .ssg-cache either (a first build, a fresh clone in CI)
	hf clean-cold-tmpfs-10000 --warmup 1 --runs "$RUNS" \
		--prepare "rm -rf $T/o $T/o.staging-* $B/c10000/.ssg-cache" \
		-n "ssg 10000 tmpfs cold" "$SSG build -q --force -s $B/c10000 -o $T/o" \
		--prepare "rm -rf $T/o" \
		-n "hugo 10000 tmpfs" "hugo --quiet --source $B/h10000 --destination $T/o"
	rm -rf "$T/o" "$B/o"
}

edit() {  # one document edited, then built: ssg's incremental build, Hugo's build
	# Four kinds of edit, each run made on the document as it first was, so
	# that every run makes the same edit: a line appended to the last entry
	# of the document's list (it goes on that entry's description, which
	# shows on the document's page and its resource's: build_descs.h); a
	# longer one, which makes that description its resource's (the longest
	# its entries give: every page showing the resource changes, a whole
	# incremental build); a new entry linking to a resource no document
	# cites (the most common contribution: a new resource, in Unsorted,
	# changes the site's counts); and a paragraph of prose appended after
	# the list (patched into the document's page: build_patch.h). Each with
	# its output on tmpfs and on disk (the longer line on tmpfs only); the
	# entry and link edits also on tmpfs "paused", each run three seconds
	# after its edit, as a contributor's build comes: by then a virtual
	# machine that hands freed memory back to its host (free page reporting)
	# has done so, and a build's memory is fresh to the host too
	# (src/hugepages.h).
	local doc=00000-megatron-references.md
	cp "$B/c10000/content/$doc" "$B/edit-c.md"
	cp "$B/h10000/content/$doc" "$B/edit-h.md"
	for kind in ${KINDS:-entry longest link prose}; do
		local line='echo "Edited at $(date +%s%N)."'
		[ $kind = longest ] && line='echo "Edited at $(date +%s%N), a description longer than any other this resource is given, which makes it the description every page showing the resource shows."'
		[ $kind = prose ] && line='printf "\n\nEdited at %s.\n" "$(date +%s%N)"'
		[ $kind = link ] && line='N=$(date +%s%N); printf -- "- [New resource %s](https://example.com/new/%s) - added\n" $N $N'
		for where in tmpfs disk paused; do
			[ $where = paused ] && [ $kind = prose ] && continue
			[ $where != tmpfs ] && [ $kind = longest ] && continue
			local o=$B/oe pause=
			[ $where = disk ] || o=$T/oe
			[ $where = paused ] && pause='; sleep 3'
			rm -rf "$o" "$o-h"
			cp "$B/edit-c.md" "$B/c10000/content/$doc"
			cp "$B/edit-h.md" "$B/h10000/content/$doc"
			"$SSG" build -q -s "$B/c10000" -o "$o" 2>/dev/null
			hugo --quiet --source "$B/h10000" --destination "$o-h"
			local name=edit-$where-10000
			[ $kind = entry ] || name=edit-$kind-$where-10000
			hf $name --warmup 1 --runs "$RUNS" \
				--prepare "cp $B/edit-c.md $B/c10000/content/$doc; $line >> $B/c10000/content/$doc$pause" \
				-n "ssg 10000 one $kind edit $where" "$SSG build -q -s $B/c10000 -o $o" \
				--prepare "cp $B/edit-h.md $B/h10000/content/$doc; $line >> $B/h10000/content/$doc$pause" \
				-n "hugo 10000 one $kind edit $where" "hugo --quiet --source $B/h10000 --destination $o-h"
			rm -rf "$o" "$o-h" "$(dirname "$o")/.oe.ssg-spare"
		done
	done
	cp "$B/edit-c.md" "$B/c10000/content/$doc"
	cp "$B/edit-h.md" "$B/h10000/content/$doc"
}

serve() {  # the entry and link edits under ssg serve, from the save to the reload event
	# (the first: a preview's, build_patch.h) and to the site built whole
	local doc=00000-megatron-references.md
	for kind in entry link; do
		python3 "$HERE/scripts/serve_latency.py" --serve "$SSG" "$B/c10000" "$doc" "$RUNS" \
			$kind "$R/serve-$kind-10000.json"
	done
}

rebuild() {  # nothing changed: ssg's fingerprint matches, Hugo renders it all again
	"$SSG" build -q -s "$B/c10000" -o "$B/ou" 2>/dev/null
	hugo --quiet --source "$B/h10000" --destination "$B/ohu"
	hf rebuild-disk-10000 --warmup 1 --runs "$RUNS" \
		-n "ssg 10000 unchanged rebuild" "$SSG build -q -s $B/c10000 -o $B/ou" \
		-n "hugo 10000 rebuild" "hugo --quiet --source $B/h10000 --destination $B/ohu"
	rm -rf "$B/ou" "$B/ohu"
}

mixed() {  # 30% reStructuredText: ssg's own reader, Hugo runs rst2html per page
	hf mixed-1000 --warmup 1 --runs 5 --prepare "rm -rf $T/o" \
		-n "ssg mixed 1000" "$SSG build -q --force -s $B/m1000 -o $T/o" \
		-n "hugo mixed 1000" "hugo --quiet --source $B/hm1000 --destination $T/o"
	rm -rf "$T/o"
}

memory() {  # peak memory, output files, folders and bytes at N=10,000
	: > "$R/memory.txt"
	for tool in ssg hugo; do
		rm -rf "$T/o"
		if [ $tool = ssg ]; then cmd="$SSG build -q --force -s $B/c10000 -o $T/o"
		else cmd="hugo --quiet --source $B/h10000 --destination $T/o"; fi
		/usr/bin/time -f "%M" -o "$R/rss-$tool" $cmd 2>/dev/null
		echo "$tool peak_rss_kib=$(cat "$R/rss-$tool") files=$(find "$T/o" -type f | wc -l)" \
			"bytes=$(find "$T/o" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}')" \
			"html=$(find "$T/o" -name '*.html' | wc -l)" "folders=$(find "$T/o" -mindepth 1 -type d | wc -l)" |
			tee -a "$R/memory.txt"
	done
	rm -rf "$T/o"
}

check() {  # ssg check at N=10,000: in a fresh clone (every document parsed),
	# then after a build (the document cache it left is read, never written);
	# peak memory of each beside
	local D=$T/ck
	rm -rf "$D" "$T/cko"
	mkdir -p "$D"
	cp -r "$B/c10000/content" "$B/c10000/site.yml" "$D/"
	hf check-10000 --warmup 1 --runs "$RUNS" \
		--prepare "rm -rf $D/.ssg-cache" -n "ssg check 10000 fresh clone" "$SSG check -s $D" \
		--prepare "$SSG build -q -s $D -o $T/cko" -n "ssg check 10000 after a build" \
		"$SSG check -s $D"
	: > "$R/check-memory.txt"
	for when in fresh built; do
		[ $when = fresh ] && rm -rf "$D/.ssg-cache"
		[ $when = built ] && "$SSG" build -q -s "$D" -o "$T/cko"
		/usr/bin/time -f "%M" -o "$R/rss-check" "$SSG" check -s "$D" >/dev/null 2>&1
		echo "ssg check $when peak_rss_kib=$(cat "$R/rss-check")" | tee -a "$R/check-memory.txt"
	done
	rm -rf "$D" "$T/cko"
}

floor() {  # cmark-gfm alone over the same Markdown bodies, one process
	local all=$B/all10000.md
	awk 'FNR==1 {fm=0} FNR==1 && /^---$/ {fm=1; next} fm && /^---$/ {fm=0; next} !fm' \
		"$B"/c10000/content/*.md > "$all"
	hf floor-10000 --warmup 1 --runs "$RUNS" --prepare "rm -rf $T/o" \
		-n "cmark-gfm floor" "cmark-gfm --extension table --extension autolink $all > /dev/null" \
		-n "ssg 10000 tmpfs" "$SSG build -q --force -s $B/c10000 -o $T/o"
	rm -rf "$T/o"
}

seeds() {  # the bundled five-document portal: clean, then unchanged
	hf seeds --warmup 3 --runs 30 -N --prepare "rm -rf $T/p" -n "ssg portal" \
		"$SSG build -q --force -s $HERE -o $T/p"
	hf seeds-unchanged --warmup 3 --runs 30 -N -n "ssg portal unchanged" \
		"$SSG build -q -s $HERE -o $T/p"
	# into an empty output folder, not forced: the caches of .ssg-cache are
	# used (the documents, git's log under the commit checked out)
	hf seeds-kept --warmup 3 --runs 30 -N --prepare "rm -rf $T/p" \
		-n "ssg portal (output removed)" "$SSG build -q -s $HERE -o $T/p"
	# the same from a fresh clone of the last commit: git's log then reads
	# a pack, as in a maintainer's clone or CI, where a working copy that
	# has made its commits one by one holds thousands of loose objects
	if git -C "$HERE" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$B/portal-clone"
		git clone -q --no-local "$HERE" "$B/portal-clone"
		hf seeds-clone --warmup 3 --runs 30 -N --prepare "rm -rf $T/p" \
			-n "ssg portal (fresh clone)" "$SSG build -q --force -s $B/portal-clone -o $T/p"
		hf seeds-clone-kept --warmup 3 --runs 30 -N --prepare "rm -rf $T/p" \
			-n "ssg portal (clone, output removed)" "$SSG build -q -s $B/portal-clone -o $T/p"
		# what the full build cannot do without: git's log as gitdates.c
		# runs it (its CPU time is spent beside the build's on the same
		# cores), and a process of ssg that does nothing
		# (two steps: the summary reads a step of two as a ratio)
		hf seeds-git --warmup 3 --runs 30 -N -n "git log of the portal's content" \
			"git -C $B/portal-clone/content -c core.quotepath=off -c log.showSignature=false --no-pager log --relative --no-color --format=%x01%cs --name-only -- ."
		hf seeds-process --warmup 3 --runs 30 -N -n "ssg --version" "$SSG --version"
		rm -rf "$B/portal-clone"
	fi
	rm -rf "$T/p"
}

# What the file system alone needs to create the site ssg built (write_floor:
# its folders and files from memory, on as many threads as ssg uses), on
# tmpfs: the floor of the output as the cmark-gfm run is the floor of the
# input. The portal's, to set beside its full build; the 10,000 documents'.
writefloor() {
	make -s -C "$HERE" tools
	local wf=$HERE/build/tools/write_floor j
	j=$(nproc)
	rm -rf "$T/p" "$T/wf"
	"$SSG" build -q --force -s "$HERE" -o "$T/p" 2>/dev/null
	"$wf" "$T/p" "$T/wf" 30 "$j" "$R/write-floor-portal.json" "write floor portal tmpfs" |
		tee "$R/write-floor-portal.txt"
	rm -rf "$T/p" "$T/wf" "$T/o"
	"$SSG" build -q --force -s "$B/c10000" -o "$T/o" 2>/dev/null
	"$wf" "$T/o" "$T/wf" "$RUNS" "$j" "$R/write-floor-10000.json" "write floor 10000 tmpfs" |
		tee "$R/write-floor-10000.txt"
	rm -rf "$T/o" "$T/wf"
}

summary() {
	python3 - "$R" <<'EOF'
import glob, json, os, sys
R = sys.argv[1]
print(f"{'command':34} {'median s':>9} {'min':>8} {'max':>8} {'user':>7} {'sys':>7} runs")
for f in sorted(glob.glob(os.path.join(R, "*.json"))):
    rs = json.load(open(f))["results"]
    for r in rs:
        print(f"{r['command'][:34]:34} {r['median']:9.3f} {r['min']:8.3f} {r['max']:8.3f} "
              f"{r['user']:7.2f} {r['system']:7.2f} {len(r['times'])}")
    if len(rs) == 2:
        a, b = rs
        print(f"  -> {b['command']} / {a['command']}: {b['median'] / a['median']:.2f}x")
EOF
	[ -f "$R/memory.txt" ] && cat "$R/memory.txt"
	[ -f "$R/check-memory.txt" ] && cat "$R/check-memory.txt"
	{ date -u; uname -srm; nproc; uptime; hugo version; hyperfine --version; "$SSG" --version; } \
		> "$R/env.txt" 2>&1 || true
}

steps=${*:-deps corpora clean rebuild edit serve mixed memory check floor seeds writefloor summary}
for s in $steps; do
	case $s in
	deps | corpora | clean | rebuild | edit | serve | mixed | memory | check | floor | seeds | writefloor | summary) $s ;;
	*) echo "bench: unknown step: $s" >&2; exit 2 ;;
	esac
done
