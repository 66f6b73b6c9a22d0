#!/bin/sh
# A build whose inputs are those of the site in place stops at once (the
# fingerprint in <output>/.ssg-build): it writes nothing and repeats the
# last build's warnings. Every input counts: a document, site.yml, a template,
# a static file, the options; a date-only touch does not. A page whose view
# is unchanged is kept (.ssg-pages), not rendered again. After each edit the
# incremental build's output equals a clean single-threaded build's.
set -eu
SSG_THEME=${SSG_THEME:-themes/default}
grep -q '</body>' "$SSG_THEME/templates/base.mustache" || { echo "no </body> in the theme's base template"; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp -r content site.yml "$d/"
listing() { ( cd "$d/out" && find . -printf '%i %T@ %p\n' | sort -k3 ); }
build() { "$SSG" build -s "$d" -o "$d/out" "$@"; }
same_as_clean() {
	rm -rf "$d/clean"
	"$SSG" build -s "$d" -o "$d/clean" -j 1 -q --force 2>/dev/null
	diff -r -x .ssg-build -x .ssg-pages -x .ssg-docs -x .ssg-json -x .ssg-items "$d/clean" "$d/out" >/dev/null ||
		{ echo "after $1 the output differs from a clean build:"; diff -r -x .ssg-build -x .ssg-pages -x .ssg-docs -x .ssg-json -x .ssg-items "$d/clean" "$d/out" | head; exit 1; }
}
expect() { # expect up|built LABEL: the last build's summary line says so
	case "$1" in
	up) grep -q '^up to date: ' "$d/err" || { echo "$2: rebuilt, expected up to date"; cat "$d/err"; exit 1; } ;;
	built) grep -q '^built: ' "$d/err" || { echo "$2: up to date, expected a build"; cat "$d/err"; exit 1; } ;;
	esac
}

build 2>"$d/err1"
listing > "$d/before"
build 2>"$d/err"
expect up "a second build"
listing > "$d/after"
cmp -s "$d/before" "$d/after" || { echo "an up-to-date build touched the output:"; diff "$d/before" "$d/after" | head; exit 1; }
# the same warnings, in the same order
grep -v '^built: ' "$d/err1" > "$d/w1"
grep -v '^up to date: ' "$d/err" > "$d/w2"
[ -s "$d/w1" ] || { echo "the portal was expected to have warnings"; exit 1; }
cmp -s "$d/w1" "$d/w2" || { echo "an up-to-date build reported other warnings:"; diff "$d/w1" "$d/w2"; exit 1; }

# another ssg binary is another input: its build ID, one byte changed
if command -v objcopy >/dev/null 2>&1 &&
	objcopy -O binary --only-section=.note.gnu.build-id "$SSG" "$d/note" 2>/dev/null && [ -s "$d/note" ]; then
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-1] ^= 0xFF; open(sys.argv[1], "wb").write(b)' "$d/note"
	objcopy --update-section .note.gnu.build-id="$d/note" "$SSG" "$d/ssg2"
	"$d/ssg2" build -s "$d" -o "$d/out" 2>"$d/err"; expect built "another binary"
	"$d/ssg2" build -s "$d" -o "$d/out" 2>"$d/err"; expect up "the other binary again"
	build 2>"$d/err"; expect built "back to the first binary"
else
	echo "up_to_date: no objcopy or no build ID: the binary case is skipped"
fi

# a new mtime with the same bytes is no change
touch "$d/content/cuda-basics.rst" "$d/site.yml"
build 2>"$d/err"; expect up "a touch"

# an edit in place that keeps the size and the mtime is still seen, even
# where the last build knew the file by its stat (.ssg-cache/files.bin): it
# trusts a stat only a second after the file last changed
sleep 1.1
build 2>"$d/err"; expect up "a second later"
f=$d/content/triton-gpu-references.rst
m=$(stat -c %y "$f")
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); i = b.index(b"Triton"); b[i + 3] = ord("x"); open(p, "r+b").write(b)' "$f"
touch -d "$m" "$f"
build 2>"$d/err"; expect built "an edit that keeps the size and the mtime"
grep -q Trixon "$d/out/triton-gpu-references/index.html" || { echo "the same-size edit is not in the page"; exit 1; }
same_as_clean "a same-size edit"

# a document edit
printf '\n\nOne more paragraph.\n' >> "$d/content/cuda-pytorch-index.md"
build 2>"$d/err"; expect built "a document edit"
grep -q 'One more paragraph' "$d/out/cuda-pytorch-index/index.html"
same_as_clean "a document edit"
# pages whose view did not change were kept, not rendered again
listing > "$d/edited"
inode() { grep " \./$2\$" "$1" | cut -d' ' -f1; }
[ "$(inode "$d/before" cuda-basics/index.html)" = "$(inode "$d/edited" cuda-basics/index.html)" ] ||
	{ echo "the page of an unedited document was rewritten"; exit 1; }
[ "$(inode "$d/before" cuda-pytorch-index/index.html)" != "$(inode "$d/edited" cuda-pytorch-index/index.html)" ] ||
	{ echo "the edited document's page was kept"; exit 1; }
grep -q ' cuda-basics/index.html$' "$d/out/.ssg-pages" || { echo "no page digests"; exit 1; }
# an edit that adds a resource changes every page's counts
printf '\n\nAnd [a new link](https://example.org/new-resource).\n' >> "$d/content/cuda-pytorch-index.md"
build 2>"$d/err"; expect built "a new link"
same_as_clean "a new link"
build 2>"$d/err"; expect up "the build after an edit"

# site.yml
sed 's/^title: .*/title: Renamed portal/' "$d/site.yml" > "$d/site.yml.new" && mv "$d/site.yml.new" "$d/site.yml"
build 2>"$d/err"; expect built "a site.yml edit"
grep -q 'Renamed portal' "$d/out/index.html"
same_as_clean "a site.yml edit"

# a template override
mkdir -p "$d/templates"
printf '<!doctype html><title>{{page.title}}</title><p>custom 404</p>\n' > "$d/templates/404.mustache"
build 2>"$d/err"; expect built "a new template"
grep -q 'custom 404' "$d/out/404.html"
same_as_clean "a new template"

# a layout template every page uses: every page is rendered again
cp "$SSG_THEME/templates/base.mustache" "$d/templates/base.mustache"
sed -i 's|</body>|<!-- layout override --></body>|' "$d/templates/base.mustache"
build 2>"$d/err"; expect built "a layout override"
grep -q 'layout override' "$d/out/cuda-basics/index.html" || { echo "a kept page missed the new layout"; exit 1; }
same_as_clean "a layout override"

# a static file
mkdir -p "$d/static"
echo 'hello' > "$d/static/hello.txt"
build 2>"$d/err"; expect built "a new static file"
grep -q hello "$d/out/hello.txt"
echo 'hello again' > "$d/static/hello.txt"
build 2>"$d/err"; expect built "an edited static file"
grep -q 'hello again' "$d/out/hello.txt"

# options that change the output; --force
build --base-url https://other.example/ 2>"$d/err"; expect built "a new --base-url"
grep -q 'https://other.example/' "$d/out/sitemap.xml"
build --base-url https://other.example/ 2>"$d/err"; expect up "the same --base-url"
build --base-url https://other.example/ --force 2>"$d/err"; expect built "--force"
# a forced build fingerprints its documents from their reading, not by a
# pass of its own: each is read once, and the fingerprint is a plain build's
build --base-url https://other.example/ 2>"$d/err"; expect up "a plain build after --force"
if strace -f -o /dev/null true 2>/dev/null; then
	strace -f -e trace=openat -o "$d/trace" "$SSG" build -s "$d" -o "$d/out" -q --force \
		--base-url https://other.example/ 2>/dev/null
	n=$(grep -c '/content/cuda-basics.rst"' "$d/trace")
	[ "$n" = 1 ] || { echo "a forced build opened a document $n times"; exit 1; }
	build --base-url https://other.example/ 2>"$d/err"; expect up "after a forced build, traced"
else
	echo "up_to_date: no strace: the count of reads is skipped"
fi

# a failed build keeps the site and its state: the next good build is up to date
build --base-url https://other.example/ -q 2>/dev/null
cp "$d/site.yml" "$d/site.yml.good"
printf 'title: [broken\n' > "$d/site.yml"
if build -q 2>/dev/null; then echo "a broken site.yml built"; exit 1; fi
mv "$d/site.yml.good" "$d/site.yml"
build --base-url https://other.example/ 2>"$d/err"; expect up "the build after a failed one"

# a hand-edited state file is not trusted
sed -i 's/^fingerprint .*/fingerprint 00000000000000000000000000000000/' "$d/out/.ssg-build"
build --base-url https://other.example/ 2>"$d/err"; expect built "a stale state"
head -c 20 "$d/out/.ssg-build" > "$d/cut" && mv "$d/cut" "$d/out/.ssg-build"
build --base-url https://other.example/ 2>"$d/err"; expect built "a cut state"
echo "up_to_date: ok"
