#!/bin/sh
# Pages kept by their inputs (src/page_inputs.h), the records of
# resources.json and of the search index kept from the files in place and resources' names and classes kept from the
# last build (src/res_memo.h) are what a clean build makes. After each kind
# of edit: a plain incremental build that keeps some of each; the same edit
# under SSG_CHECK_INPUTS=1 (which makes every kept page's view, names and
# classes anyway and fails when one differs from what its inputs stand
# for), on a copy of the site; both the same output as a clean build.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp -r content site.yml "$d/"
# short pages: topics and the A-Z index of several pages each
printf '\npages: { per_page: 10 }\n' >> "$d/site.yml"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null
n=0
step() {
	n=$((n + 1))
	# the site and the caches before this edit, for the checked build (a
	# copy: its data files are not the very ones the last build left, so
	# their records are made again there; the plain build keeps them)
	rm -rf "$d/checked" "$d/cache-before" "$d/cache-after"
	cp -r "$d/out" "$d/checked"
	cp -r "$d/.ssg-cache" "$d/cache-before"
	# the plain build, in place: pages kept by their inputs
	"$SSG" build -s "$d" -o "$d/out" --timings 2>"$d/err" >/dev/null
	# the checked one and the clean one from the caches as they were; then
	# the caches as the plain build left them, for the next edit
	mv "$d/.ssg-cache" "$d/cache-after"
	mv "$d/cache-before" "$d/.ssg-cache"
	SSG_CHECK_INPUTS=1 "$SSG" build -q -s "$d" -o "$d/checked" 2>"$d/err2" ||
		{ echo "step $n ($1): the checked build failed:"; grep -v warning "$d/err2" | head; exit 1; }
	rm -rf "$d/clean"
	"$SSG" build -q --force -s "$d" -o "$d/clean" 2>/dev/null
	rm -rf "$d/.ssg-cache"
	mv "$d/cache-after" "$d/.ssg-cache"
	for built in checked out; do
		diff -r -q -x '.ssg-*' "$d/$built" "$d/clean" >"$d/diff" ||
			{ echo "step $n ($1): the $built incremental output is not the clean one:"; head "$d/diff"; exit 1; }
	done
	kept=$(sed -n 's/.*(\([0-9]*\) pages, [0-9]* resources.json records and .*/\1/p' "$d/err")
	records=$(sed -n 's/.* pages, \([0-9]*\) resources.json records and .*/\1/p' "$d/err")
	indexed=$(sed -n 's/.* resources.json records and \([0-9]*\) search index records kept.*/\1/p' "$d/err")
	classes=$(sed -n "s/.*model [0-9]* ms (\([0-9]*\) resources' names and classes kept,.*/\1/p" "$d/err")
	related=$(sed -n "s/.* names and classes kept, \([0-9]*\) documents' related documents kept).*/\1/p" "$d/err")
	[ "$2" = 0 ] || [ "${records:-0}" -gt 0 ] || { echo "step $n ($1): no record of resources.json kept"; exit 1; }
	[ "$2" = 0 ] || [ "${indexed:-0}" -gt 0 ] || { echo "step $n ($1): no record of the search index kept"; exit 1; }
	[ "$2" = 0 ] || [ "${classes:-0}" -gt 0 ] || { echo "step $n ($1): no resource's names and classes kept"; exit 1; }
	docs=$(sed -n 's/^built: \([0-9]*\) documents.*/\1/p' "$d/err")
	# the six phases, each timed apart: together no longer than the build
	python3 - "$d/err" <<'PY' || { echo "step $n ($1): the timings do not add up"; cat "$d/err" | grep -v warning; exit 1; }
import re, sys
text = open(sys.argv[1]).read()
total = int(re.search(r"^built: .* in (\d+) ms$", text, re.M).group(1))
line = re.search(r"^timings: .*$", text, re.M).group(0)
phases = [int(re.search(r"\b%s (\d+) ms" % p, line).group(1))
          for p in ("check", "read", "model", "prepare", "render", "write")]
# each printed rounded: half a millisecond each way
sys.exit(0 if sum(phases) <= total + 3 else 1)
PY
	[ "${3:-}" != all ] || [ "${related:-0}" = "$docs" ] ||
		{ echo "step $n ($1): $related of $docs documents' related documents kept, expected all"; exit 1; }
	[ "${3:-}" != some ] || { [ "${related:-0}" -gt 0 ] && [ "$related" -lt "$docs" ]; } ||
		{ echo "step $n ($1): $related of $docs documents' related documents kept, expected some"; exit 1; }
	[ "${kept:-0}" -ge "$2" ] || { echo "step $n ($1): $kept pages kept by their inputs, expected $2 or more"; exit 1; }
}
md=$d/content/external-references.md
# an entry's description
sed -i '0,/^- \[/s/^\(- \[.*\)$/\1 Edited./' "$md"
step "entry description" 200 all
# a new link to a resource no document cites
printf '\n- [A resource nobody cites](https://example.com/nobody-cites-this) - new\n' >> "$md"
# (it scores nothing in related documents: every document's are kept,
# though the resources' numbers moved)
step "new link" 120 all
# a resource under a letter the A-Z index had none of (every index page's
# letters change)
grep -q '/resources/k/' "$d/out/resources/index.html" && { echo "the portal has a K already: pick another letter"; exit 1; }
printf '\n- [Kappa notes on kernels](https://example.com/kappa-notes) - new\n' >> "$md"
step "a new letter in the A-Z index" 100
# a link to a resource another document cites (its badges' counts change)
printf '\n- [FlashAttention](https://arxiv.org/abs/2205.14135) - again\n' >> "$d/content/cuda-pytorch-index.md"
step "link to a cited resource" 250
# a link to a resource one other document cites: it relates the two now
# (their related documents are scored again, the others' kept)
printf '\n- [Parallel Computing](https://gfxcourses.stanford.edu/cs149/fall23) - cited twice now\n' >> "$md"
step "a resource cited by a second document" 150 some
# a link removed
sed -i '0,/^- \[/{/^- \[/d}' "$d/content/cuda-mode-resource-stream.md"
step "link removed" 180
# a heading renamed (sections named by citations, anchors of links)
sed -i '0,/^## /s/^## \(.*\)$/## \1 renamed/' "$md"
step "heading renamed" 200
# a heading's words changed, not its anchor (what other pages show of it)
sed -i 's/^## 2nd Contact$/## 2nd CONTACT/' "$d/content/cuda-mode-resource-stream.md"
grep -q '^## 2nd CONTACT$' "$d/content/cuda-mode-resource-stream.md"
step "heading's case changed" 200
# a document's title
sed -i '0,/^# /s/^# \(.*\)$/# \1, retitled/' "$d/content/cuda-pytorch-index.md"
step "title changed" 250
# lines inserted at the top: every citation's line moves
sed -i '1i\
\
' "$d/content/triton-gpu-references.rst"
step "lines moved" 250
# a document added, renamed, removed
sed 's/^# .*/# A copy/' "$d/content/cuda-pytorch-index.md" > "$d/content/a-copy.md"
step "document added" 200
mv "$d/content/a-copy.md" "$d/content/b-copy.md"
step "document renamed" 250
rm "$d/content/b-copy.md"
step "document removed" 200
# a document whose link to another one breaks, then works again
printf '\nSee [the index](cuda-pytorch-index.md#a-heading-to-come).\n' >> "$md"
step "link to a missing anchor" 200
printf '\n## A heading to come\n' >> "$d/content/cuda-pytorch-index.md"
step "anchor added" 250
# after_tampering NAME HOW: a new link, an incremental build, and its
# resources.json is a clean build's: no record taken from the tampered file
after_tampering() {
	printf '\n- [%s](https://example.com/%s-after-tampering) - new\n' "$1" "$1" >> "$md"
	"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null
	rm -rf "$d/clean"
	"$SSG" build -q --force -s "$d" -o "$d/clean" 2>/dev/null
	cmp -s "$d/out/resources.json" "$d/clean/resources.json" ||
		{ echo "records were taken from a resources.json $2"; exit 1; }
}
# resources.json changed in the site since (same size, new bytes): its
# records are not taken from it
sed -i 's/"kind":"\([a-z]\)/"kind":"Q/g' "$d/out/resources.json"
after_tampering one-more "changed since"
# the same in place (same file, same size) with its mtime set back: the
# build knows the file by its stat, and the ctime gives the change away
f="$d/out/resources.json"
touch -r "$f" "$d/when"
sed 's/"kind":"\([a-z]\)/"kind":"Q/g' "$f" > "$d/tampered"
dd if="$d/tampered" of="$f" conv=notrunc status=none
touch -r "$d/when" "$f"
after_tampering two-more "changed in place since"
echo "page_inputs: ok ($n edits)"
