#!/bin/sh
# hostile_test: ssg builds content written by an attacker and survives it.
# The committed cases are the small sites tests/hostile/<case>/ (scripts and
# handlers, javascript:/vbscript:/data: URLs in every link syntax of both
# formats and in front matter and site.yml, entity and case tricks, RST raw
# and include, path traversal in slugs and documents:); the big or odd inputs
# are generated here, never committed: symlinks out of content/ and in loops,
# templates and theme files linked out of the site, content/ and static/
# themselves linked out of it,
# a 100 MB file, binary data named .md, a million-line document, a 10 MB
# line, 100,000-level nesting in both formats, a 100,000-column table,
# crowds of equal headings, colliding slugs and documents asking for one slug.
# For every case:
#  - ssg exits 0 or 1 (never a crash, a sanitizer report or a timeout);
#  - each hostile file gets a diagnostic `content/<file>:<line>:<col>:
#    <severity>: ...` (the grep names what it must say);
#  - the output carries no script, handler or unsafe URL that came from the
#    content (tests/hostile/check_output.py);
#  - nothing is written outside the output folder, ssg's own cache folder
#    <site>/.ssg-cache, the previous site kept beside the output
#    (.public.ssg-spare) and the hint of descriptions beside it
#    (.public.ssg-room, build_descs.h) (the sandbox holding the site is
#    listed before and after; absolute slugs' targets are checked), and a
#    .ssg-cache that is a symlink to elsewhere is neither written nor read,
#    nor a hint that is a symlink written through;
#  - time and peak memory stay bounded (timeout, /usr/bin/time -f %M).
# Run by tests/run_integration.sh with $SSG set; exit 0 = pass, 77 = skip.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v python3 >/dev/null 2>&1 || { echo "python3 missing"; exit 77; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing (apt-get install time)"; exit 77; }
ROOT=$(pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# build CASE MAX_KB MAX_S: build $TMP/box/CASE (a site) into its public/.
build() {
	site="$TMP/box/$1"
	(cd "$TMP/box" && find . \( -path '*/public' -o -path '*/.ssg-cache' -o -name '.public.ssg-spare' -o -name '.public.ssg-room' \) -prune -o -print | LC_ALL=C sort) >"$TMP/before"
	(cd "$site" && /usr/bin/time -o "$TMP/time" -f '%M %e' timeout "$3" "$SSG" build -j 2 \
		>"$TMP/out" 2>&1)
	rc=$?
	(cd "$TMP/box" && find . \( -path '*/public' -o -path '*/.ssg-cache' -o -name '.public.ssg-spare' -o -name '.public.ssg-room' \) -prune -o -print | LC_ALL=C sort) >"$TMP/after"
	kb=$(tail -n 1 "$TMP/time" | cut -d' ' -f1)
	secs=$(tail -n 1 "$TMP/time" | cut -d' ' -f2)
	echo "$1: exit $rc, ${kb} KB, ${secs} s"
	case "$rc" in
	0 | 1) ;;
	124) fail "$1: timed out after $3 s" ;;
	*) fail "$1: exit status $rc"; tail -n 20 "$TMP/out" ;;
	esac
	grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$TMP/out" &&
		fail "$1: sanitizer report" && grep -A5 'runtime error\|Sanitizer' "$TMP/out" | head -20
	[ "${kb:-0}" -le "$2" ] 2>/dev/null || fail "$1: peak memory ${kb} KB > $2 KB"
	diff "$TMP/before" "$TMP/after" >"$TMP/diff" ||
		{ fail "$1: files changed outside public/"; head -20 "$TMP/diff"; }
	for bad in /tmp/ssg-hostile-abs /tmp/ssg-hostile-deep /tmp/x "$TMP/x" "$TMP/y" \
		"$TMP/z" "$TMP/box/x" "$TMP/box/y" "$TMP/box/z"; do
		[ -e "$bad" ] && fail "$1: wrote $bad"
	done
	if [ -d "$site/public" ]; then
		python3 "$ROOT/tests/hostile/check_output.py" "$site/public" >"$TMP/check" ||
			{ fail "$1: unsafe output"; head -20 "$TMP/check"; }
	fi
}

# expect CASE PATTERN: a diagnostic line of the last build matches the
# extended regular expression ^PATTERN (which should name file:line:col).
expect() {
	grep -Eq "^$2" "$TMP/out" || { fail "$1: no diagnostic matching '$2'"; grep -v "^content/inline.rst" "$TMP/out" | head -n 8; }
}

# Every diagnostic has the one shape path:line:col: severity: message.
shapes() {
	grep -v '^built: \|^build failed: \|^  \|^$' "$TMP/out" |
		grep -Ev '^[^:]+:[0-9]+:[0-9]+: (note|warning|error): ' >"$TMP/odd"
	[ -s "$TMP/odd" ] && { fail "$1: diagnostics not in path:line:col: severity: form"; head -5 "$TMP/odd"; }
	return 0
}

mkdir -p "$TMP/box"
D='[0-9]+:[0-9]+'
C='[0-9]+'

# ---- the committed cases ------------------------------------------------------
for dir in "$ROOT"/tests/hostile/*/; do
	name=$(basename "$dir")
	cp -R "$dir" "$TMP/box/$name"
	rm -rf "$TMP/box/$name/public"
done

build md-links 300000 30
shapes md-links
expect md-links "content/links.md:5:$C: warning: raw HTML <script> dropped"
expect md-links "content/links.md:12:$C: warning: raw HTML <div>: dropped attribute\(s\) onclick"
expect md-links "content/links.md:22:$C: warning: unsafe link target \"javascript:"
expect md-links "content/links.md:29:$C: warning: unsafe link target \"vbscript:"
expect md-links "content/links.md:29:$C: warning: unsafe link target \"data:"
expect md-links "content/links.md:36:$C: warning: unsafe link target \"javascript:"
expect md-links "content/links.md:39:$C: warning: unsafe image target \"javascript:"
expect md-links "content/links.md:44:$C: warning: raw HTML <a>: unsafe URL in href dropped"
grep -q 'alert' "$TMP/box/md-links/public/links/index.html" || fail "md-links: the text was lost"

build rst-links 300000 30
shapes rst-links
for l in 5 9 15 20 23 32 34; do
	expect rst-links "content/links.rst:$l:$C: warning: unsafe link target"
done
expect rst-links "content/links.rst:23:$C: warning: unsafe image target \"javascript:"
expect rst-links "content/links.rst:29:$C: warning: unsafe image target \"vbscript:"
expect rst-links "content/links.rst:34:$C: warning: unsafe image target \"javascript:"
expect rst-links "content/links.rst:41:$C: warning: \"raw\" directive disabled"
expect rst-links "content/links.rst:51:$C: warning: \"include\" directive disabled"
grep -q 'root:x:0' "$TMP/box/rst-links/public/links/index.html" && fail "rst-links: /etc/passwd included"

build front-matter 300000 30
shapes front-matter
expect front-matter "content/page.md:7:$C: warning: raw HTML <script> dropped"
expect front-matter "content/page.md:$D: warning: slug .* is not a plain URL slug"
expect front-matter "content/url.md:$D: warning: slug \"javascript:alert\(1\)\" is not a plain URL slug"

build traversal 300000 30
shapes traversal
for f in a b c d; do
	expect traversal "content/$f.md:$D: warning: slug .* is not a plain URL slug"
done
# e.md's slug comes from site.yml's documents: the warning names that line
expect traversal "site.yml:$D: warning: slug \"../../../z\" is not a plain URL slug"

expect traversal "site.yml:$D: warning: documents: names ../outside.md"
[ -z "$(find "$TMP/box/traversal/public" -name '*..*')" ] || fail "traversal: '..' in an output name"

build site-yml-urls 300000 30
shapes site-yml-urls
expect site-yml-urls "site.yml:2:$C: error: 'base_url' must be"
expect site-yml-urls "site.yml:3:$C: error: 'repo' must be"
expect site-yml-urls "site.yml:5:$C: error: 'aliases value' must be"
[ -d "$TMP/box/site-yml-urls/public" ] && fail "site-yml-urls: built despite the errors"

# ---- symlinks out of content/ and in loops --------------------------------------
S="$TMP/box/symlinks"
mkdir -p "$S/content/sub" "$TMP/box/outside"
printf '# Secret\n\nTOP-SECRET-OUTSIDE\n' >"$TMP/box/outside/secret.md"
printf '# Home\n\nText.\n' >"$S/content/index.md"
ln -s "$TMP/box/outside/secret.md" "$S/content/secret.md"
ln -s ../../outside "$S/content/outdir"
ln -s /etc/passwd "$S/content/passwd.md"
ln -s /etc "$S/content/etc"
ln -s .. "$S/content/sub/up"
ln -s . "$S/content/sub/self"
ln -s ../sub "$S/content/sub/again"
ln -s nowhere "$S/content/dangling.md"
ln -s "$S/content/index.md" "$S/content/inside.md"
build symlinks 300000 30
shapes symlinks
for l in secret.md outdir passwd.md etc; do
	grep -Eq "^(content/)?$l:$D: warning: symlink points outside content/" "$TMP/out" ||
		fail "symlinks: no warning for $l"
done
grep -Eq "^(content/)?sub/(up|self|again):$D: warning: symlink" "$TMP/out" ||
	fail "symlinks: no warning for the loops"
grep -rq 'TOP-SECRET-OUTSIDE\|root:x:0' "$S/public" && fail "symlinks: a file outside content/ was published"

# ---- templates and theme files as symlinks out of the site -----------------------
# a page template, a partial and a theme asset that resolve to files outside
# the site (the way a pull request would publish a key or the CI's
# environment), and a theme named to climb out of themes/: each is refused
# with a warning, the default theme's file is used, nothing leaks
T="$TMP/box/theme-links"
mkdir -p "$T/content" "$T/templates" "$T/themes/default/static" "$T/themes/default/templates"
printf '# Home\n\nText.\n' >"$T/content/index.md"
ln -s "$TMP/box/outside/secret.md" "$T/templates/doc.mustache"
ln -s /etc/passwd "$T/themes/default/templates/navitem.mustache"
ln -s "$TMP/box/outside/secret.md" "$T/themes/default/static/style.css"
build theme-links 300000 30
shapes theme-links
for f in templates/doc.mustache themes/default/templates/navitem.mustache themes/default/static/style.css; do
	grep -Eq "^$f:$D: warning: resolves outside the site" "$TMP/out" ||
		fail "theme-links: no warning for $f"
done
grep -rq 'TOP-SECRET-OUTSIDE\|root:x:0' "$T/public" && fail "theme-links: a file outside the site was published"
grep -q 'Text\.' "$T/public/index/index.html" 2>/dev/null || fail "theme-links: the page was not built from the default theme"
printf 'title: Climb\ntheme: ../../outside\n' >"$T/site.yml"
mkdir -p "$TMP/box/outside/templates" && cp "$TMP/box/outside/secret.md" "$TMP/box/outside/templates/base.mustache"
build theme-links 300000 30
grep -rq 'TOP-SECRET-OUTSIDE' "$T/public" && fail "theme-links: a theme outside the site was used"

# ---- the site's folders as symlinks out of it -------------------------------------
# content/ itself linked to a folder elsewhere (keys, say): refused with an
# error, nothing published; static/ so linked: not copied, with a warning
F="$TMP/box/folder-links"
mkdir -p "$F" "$TMP/box/outside/keys"
echo "TOP-SECRET-OUTSIDE" >"$TMP/box/outside/keys/id_rsa"
printf '# Keys\n\nTOP-SECRET-OUTSIDE\n' >"$TMP/box/outside/keys/notes.md"
ln -s "$TMP/box/outside/keys" "$F/content"
build folder-links 300000 30
expect folder-links "content:$D: error: resolves outside the site's repository"
[ -d "$F/public" ] && grep -rq 'TOP-SECRET-OUTSIDE' "$F/public" && fail "folder-links: content/ outside the site was published"
rm "$F/content" && mkdir -p "$F/content" && printf '# Home\n\nText.\n' >"$F/content/index.md"
ln -s "$TMP/box/outside/keys" "$F/static"
build folder-links 300000 30
shapes folder-links
expect folder-links "static:$D: warning: resolves outside the site's repository"
grep -rq 'TOP-SECRET-OUTSIDE' "$F/public" && fail "folder-links: static/ outside the site was published"
# site.yml so linked: refused, nothing built from it
rm "$F/static"
printf 'title: TOP-SECRET-OUTSIDE\n' >"$TMP/box/outside/keys/site.yml"
ln -s "$TMP/box/outside/keys/site.yml" "$F/site.yml"
build folder-links 300000 30
expect folder-links "site.yml:$D: error: resolves outside the site's repository"
grep -rq 'TOP-SECRET-OUTSIDE' "$F/public" && fail "folder-links: a site.yml outside the site was used"
rm "$F/site.yml"
# within one repository a site may link its content from elsewhere in it
M="$TMP/box/mono"
mkdir -p "$M/.git" "$M/docs" "$M/site"
printf '# Shared\n\nShared text.\n' >"$M/docs/shared.md"
ln -s ../docs "$M/site/content"
build mono/site 300000 30
grep -rq 'Shared text' "$M/site/public" || fail "mono: content/ linked within the repository was not built"

# ---- ssg's cache folder as a symlink to elsewhere ------------------------------------
V="$TMP/box/cache-link"
mkdir -p "$V/content" "$TMP/box/victim"
printf '# Home\n\nText with [a link](https://example.org/a).\n' >"$V/content/index.md"
ln -s ../victim "$V/.ssg-cache"
build cache-link 300000 30
shapes cache-link
build cache-link 300000 30
[ -z "$(ls -A "$TMP/box/victim")" ] || fail "cache-link: wrote through a symlinked .ssg-cache: $(ls "$TMP/box/victim")"
grep -q 'Text with' "$V/public/index/index.html" 2>/dev/null || grep -rq 'Text with' "$V/public" ||
	fail "cache-link: the site was not built"

# ---- the spare tree beside public/ as a symlink to elsewhere --------------------------
W="$TMP/box/spare-link"
mkdir -p "$W/content" "$TMP/box/victim2"
printf '# Home\n\nFirst.\n' >"$W/content/index.md"
ln -s ../victim2 "$W/.public.ssg-spare"
build spare-link 300000 30
printf '# Home\n\nSecond.\n' >"$W/content/index.md"
build spare-link 300000 30
printf '# Home\n\nThird.\n' >"$W/content/index.md"
build spare-link 300000 30
shapes spare-link
[ -z "$(ls -A "$TMP/box/victim2")" ] || fail "spare-link: wrote through a symlinked spare: $(ls "$TMP/box/victim2")"
grep -rq 'Third' "$W/public" || fail "spare-link: the last build is not in place"

# ---- the hint beside public/ as a symlink to a file elsewhere --------------------------
R="$TMP/box/room-link"
mkdir -p "$R/content"
printf 'kept\n' >"$TMP/box/victim3"
printf '# Home\n\n- [A](https://example.org/a) - first\n' >"$R/content/index.md"
ln -s ../victim3 "$R/.public.ssg-room"
build room-link 300000 30
printf '# Home\n\n- [A](https://example.org/a) - second\n' >"$R/content/index.md"
build room-link 300000 30
shapes room-link
[ "$(cat "$TMP/box/victim3")" = kept ] || fail "room-link: wrote through a symlinked hint"
[ -f "$R/.public.ssg-room" ] && [ ! -L "$R/.public.ssg-room" ] ||
	fail "room-link: the hint is not a file of its own"

# ---- a 100 MB file ----------------------------------------------------------------
mkdir -p "$TMP/box/huge/content"
printf '# Small\n' >"$TMP/box/huge/content/small.md"
python3 -c "
import sys
line = b'A line of a very large document, repeated until it weighs 100 MB.\n'
with open(sys.argv[1], 'wb') as f:
    for _ in range(100 * 1024 * 1024 // len(line)):
        f.write(line)" "$TMP/box/huge/content/huge.md"
build huge 300000 30
shapes huge
expect huge "content/huge.md:$D: error: file is larger than limits.max_file_size"
rm -f "$TMP/box/huge/content/huge.md"

# ---- binary data named .md ---------------------------------------------------------
mkdir -p "$TMP/box/binary/content"
head -c 200000 /dev/urandom >"$TMP/box/binary/content/random.md"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' >"$TMP/box/binary/content/image.md"
printf 'text\0with a NUL\n' >"$TMP/box/binary/content/nul.rst"
printf '# Fine\n' >"$TMP/box/binary/content/fine.md"
build binary 300000 30
shapes binary
for f in random.md image.md nul.rst; do
	expect binary "content/$f:$D: error: file looks binary"
done

# ---- a million lines, a 10 MB line, 100,000-level nesting ----------------------------
B="$TMP/box/big/content"
mkdir -p "$B"
python3 - "$B" <<'EOF'
import sys, os
d = sys.argv[1]
with open(os.path.join(d, "million.md"), "w") as f:
    f.write("# A million lines\n\n")
    for i in range(1000000):
        f.write("%d\n" % i if i % 1000 else "\n## Part %d\n\n" % i)
with open(os.path.join(d, "longline.md"), "w") as f:
    f.write("word " * 1900000 + "\n")
with open(os.path.join(d, "quotes.md"), "w") as f:
    f.write(">" * 100000 + " deep\n")
with open(os.path.join(d, "lists.md"), "w") as f:
    f.write("- " * 100000 + "deep\n")
with open(os.path.join(d, "brackets.md"), "w") as f:
    f.write("[" * 100000 + "x" + "](" * 50000 + "\n\n" + "*_" * 100000 + "\n\n" + "<a>" * 30000 + "\n")
with open(os.path.join(d, "wide.md"), "w") as f:
    for mark in "a-x":
        f.write("|" + (mark + "|") * 100000 + "\n")
with open(os.path.join(d, "lists.rst"), "w") as f:
    f.write("- " * 100000 + "deep\n")
with open(os.path.join(d, "quotes.rst"), "w") as f:
    f.write("".join(" " * i + "q%d\n\n" % i for i in range(0, 3000)))
with open(os.path.join(d, "sections.rst"), "w") as f:
    marks = "=-~^\"'`#*+<>_:.,;!?$%&"
    f.write("".join("T%d\n%s\n\n" % (i, marks[i % len(marks)] * 6) for i in range(20000)))
with open(os.path.join(d, "inline.rst"), "w") as f:
    f.write("`" * 100000 + "\n\n" + "*" * 100000 + "\n\n" + "|x| " * 50000 + "\n\n" + "[#]_ " * 20000 + "\n")
EOF
build big 1500000 40
shapes big
expect big "content/quotes.md:1:$C: warning: lists and quotes nest deeper than 64 levels"
expect big "content/lists.md:1:$C: warning: lists and quotes nest deeper than 64 levels"
expect big "content/lists.rst:1:$C: warning: Nesting deeper than 64 levels"
expect big "content/wide.md:1:$C: warning: more than [0-9]+ table cells in a row"
expect big "content/quotes.rst:$D: warning: Nesting deeper than 64 levels"
for f in million longline quotes lists brackets wide; do
	[ -f "$TMP/box/big/public/$f/index.html" ] || fail "big: $f.md was not built"
done
grep -q "999999" "$TMP/box/big/public/million/index.html" || fail "big: the last line is missing"

# ---- crowds: names that all want the same place -------------------------------
# Ids and slugs made unique by a number used to try every number below the
# one they got (3,000 equal headings took 16 s, 20,000 links cut to one slug
# 47 s), a link's #anchor was looked for among all its document's anchors,
# and the quick-reference page went through every citation of a document for
# each of its "Quick reference" sections. 20,000 equal headings in each
# format and 20,000 links to them, 20,000 links whose slugs collide, 3,000
# documents asking for one slug, 20,000 "Quick reference" sections, one
# resource spelled 120,000 ways (each spelling was compared with all the ones
# before it, in the build and in its url-variant rule), 8,000 nested entries
# under one long bold lead and an item of 16,000 words whose links alternate
# with its nested entries' (each citation read, and kept, the whole shared
# text: 300 KB made 3.3 GB of pages), reStructuredText tables of 30,000 rows
# and of 20,000 columns and 30,000 symbol footnotes (whose labels grew with
# their number), a 40 KB title, heading and id over 2,000 citations, a 40 KB
# reference target and title named 2,000 times, a host of 300,000 "www.",
# 80,000 "<?" and 40,000 "<![CDATA[" left open and a 40 KB substitution
# used 4,000 times must build in linear time and output: a few seconds,
# where the quadratic ones took minutes or failed.
K="$TMP/box/crowds/content"
mkdir -p "$K/pages"
python3 - "$K" <<'EOF'
import sys, os
d = sys.argv[1]
with open(os.path.join(d, "headings.md"), "w") as f:
    f.write("# Crowd\n\n" + "## Notes\n\ntext\n\n" * 20000)
    f.write("".join("[to %d](#notes-%d) " % (i, i) for i in range(1, 20000)) + "\n")
with open(os.path.join(d, "quick.md"), "w") as f:
    short = lambda r: "".join("## Quick reference %d\n\n- [q%d](https://q.example/%d)\n\n" % (i, i, i) for i in r)
    f.write("# Quick\n\n" + short(range(450)) + "## Quick reference, long\n\n" +
            "".join("- [l%d](https://ql.example/%d)\n" % (i, i) for i in range(1200)) + "\n" +
            short(range(450, 20000)))
with open(os.path.join(d, "headings.rst"), "w") as f:
    f.write("Crowd\n=====\n\n" + "".join("Notes\n-----\n\ntext %d\n\n" % i for i in range(20000)))
with open(os.path.join(d, "links.md"), "w") as f:
    f.write("# Links\n\n")
    for i in range(20000):
        f.write("- [Item %d](https://example.com/a-very-long-common-prefix-for-every-link-in-this-list/and-on/%d)\n" % (i, i))
with open(os.path.join(d, "lead.md"), "w") as f:
    f.write("# Lead\n\n- **Lead** " + " ".join("w%d" % i for i in range(8000)) + "\n" +
            "".join("  - Paper: <https://l%d.example/>\n" % i for i in range(8000)))
with open(os.path.join(d, "item.md"), "w") as f:
    f.write("# Item\n\n- " + " ".join("w%d" % i for i in range(16000)) + "\n\n" +
            "".join("  [x](https://a%d.example/) t\n\n  - [y](https://b%d.example/) u\n\n" % (i, i) for i in range(16000)))
with open(os.path.join(d, "tables.rst"), "w") as f:
    f.write("Tables\n======\n\n")
    f.write("+" + "---+" * 20000 + "\n|" + " x |" * 20000 + "\n+" + "---+" * 20000 + "\n\n")
    f.write("=====  =====\nA      B\n=====  =====\n" + "".join("%-7d*%d*\n" % (i, i) for i in range(30000)) + "=====  =====\n\n")
    f.write(".. list-table::\n\n" + "".join("   * - a%d *x*\n     - b%d\n" % (i, i) for i in range(10000)) + "\n")
    f.write(" ".join("[*]_" for i in range(30000)) + "\n\n" + "".join(".. [*] n%d\n" % i for i in range(30000)))
L = "t" + "x" * 40000
with open(os.path.join(d, "long.md"), "w") as f:
    f.write("---\ntitle: " + L + "\n---\n# " + L + "\n\n## " + L + "\n\n" +
            "".join("- [r%d](https://long%d.example/) d\n" % (i, i) for i in range(2000)) +
            "".join("- [u][u] and [v][v]\n" for i in range(2000)) +
            "\n[u]: https://u.example/" + L + "\n[v]: https://v.example/ \"" + L + "\"\n\n" +
            "<http://" + "www." * 300000 + "w.example/>\n\na " + "<?" * 80000 + "\n\na " +
            "<![CDATA[" * 40000 + "\n")
with open(os.path.join(d, "subst.rst"), "w") as f:
    f.write("Subst\n=====\n\n" + "x |s| y\n\n" * 4000 + ".. |s| replace:: " + L + "\n")
with open(os.path.join(d, "spellings.md"), "w") as f:
    f.write("# Spellings\n\n" + "".join("- [s](https://s.example/page?utm_source=%d)\n" % i for i in range(120000)))
for i in range(3000):
    with open(os.path.join(d, "pages", "p%d.md" % i), "w") as f:
        f.write("---\nslug: crowd\n---\n# Page %d\n" % i)
EOF
build crowds 1500000 20
shapes crowds
P="$TMP/box/crowds/public"
for page in headings headings-doc; do
	grep -q 'id="notes-19999"' "$P/$page/index.html" || fail "crowds: $page/'s last heading id is not notes-19999"
done
grep -q '"slug":"example-com-a-very-long-common-prefix-for-every-link-in-this-list-and-on-20000"' \
	"$P/resources.json" || fail "crowds: the last colliding resource's slug is not numbered 20000"
[ -f "$P/crowd-doc-2999/index.html" ] || fail "crowds: the last document asking for slug crowd is not at crowd-doc-2999/"
grep -q 'broken-anchor\|has no heading or target' "$TMP/out" && fail "crowds: a link to an existing #notes-N reported broken"
# the quick reference shows the documents' sections up to 500 entries in
# all (450 sections of one, then the first 50 entries of a long one, with a
# link to its other 1,150) and counts the 19,550 it leaves to their pages:
# one page, however many sections there are
Q="$P/quick-reference/index.html"
[ -e "$P/quick-reference/2" ] && fail "crowds: the quick reference has a second page"
[ "$(grep -c '<li class="resource"' "$Q")" -eq 500 ] || fail "crowds: the quick reference does not hold 500 entries"
grep -q 'https://q.example/449"' "$Q" || fail "crowds: the quick reference lacks the 450th section's link"
grep -q 'https://q.example/450"' "$Q" && fail "crowds: the quick reference shows a section past its 500 entries"
[ "$(grep -c 'https://ql.example/' "$Q")" -eq 50 ] && grep -q '>1150 more in the document</a>' "$Q" ||
	fail "crowds: the long section is not cut at the page's room with a link to its other 1,150 entries"
grep -q '19550 more sections, each on its document' "$Q" || fail "crowds: the sections left are not counted"
[ "$(du -sk "$P" | cut -f1)" -lt 400000 ] || fail "crowds: the site is larger than 400 MB"
for cell in '<td>29999</td>' '<td>b9999</td>' 'footnote-sym-30000'; do
	grep -q "$cell" "$P/tables/index.html" || fail "crowds: tables/ lacks $cell"
done
# a front-matter list of 2,000 aliases of a 40 KB anchor: an error, the
# list cut at 1 MB (it was copied whole, and each unknown topic named)
mkdir -p "$TMP/box/alias/content"
python3 -c "
L = 't' + 'x' * 40000
open('$TMP/box/alias/content/alias.md', 'w').write('---\nx: &a ' + L + '\ntopics: [' + ', '.join(['*a'] * 2000) + ']\n---\n# Alias\n')
"
build alias 300000 20
grep -q "content/alias.md:[0-9]*:[0-9]*: error: 'topics' holds more than 1048576 bytes" "$TMP/out" ||
	fail "alias: a front-matter list of aliases past the bound is not reported"
[ "$(wc -c <"$TMP/out")" -lt 3000000 ] || fail "alias: more than 3 MB of diagnostics"
# check's rules too (its url-variant rule counted spellings the same way)
(cd "$TMP/box/crowds" && timeout 20 "$SSG" check >"$TMP/check" 2>&1)
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "crowds: ssg check exit status $rc (124: timed out)"
[ "$(grep -c 'spellings.md:.*utm_source=.* is a variant of the resource' "$TMP/check")" = 119999 ] ||
	fail "crowds: check does not report every other spelling of the resource as a variant"

# documents in folders named like the site's own (content/topic/cuda.md,
# content/documents.md and documents/2.md): each keeps a page of its own
# (their pages were replaced by topic cuda's and the document list's)
mkdir -p "$TMP/box/folders/content/topic" "$TMP/box/folders/content/documents"
printf 'topics:\n  - id: cuda\n    title: CUDA topic\n    match: { words: [cuda] }\n' >"$TMP/box/folders/site.yml"
printf '# Doc in topic\n\n- [cuda guide](https://cuda.example/) - cuda\n' >"$TMP/box/folders/content/topic/cuda.md"
printf '# Doc named documents\n' >"$TMP/box/folders/content/documents.md"
printf '# Doc two in documents\n' >"$TMP/box/folders/content/documents/2.md"
build folders 100000 10
P="$TMP/box/folders/public"
for page in "topic/cuda:CUDA topic" "topic-doc/cuda:Doc in topic" "documents:All documents" \
	"documents-doc:Doc named documents" "documents-doc/2:Doc two in documents"; do
	grep -q "<title>${page#*:} · " "$P/${page%%:*}/index.html" 2>/dev/null ||
		fail "folders: ${page%%:*}/ is not the page of ${page#*:}"
done

# files of content/ that are not documents: HTML, script, style and SVG are
# not published (a pull request's content/x.html was served as a page of the
# site, scripts and all), and none replaces a file the build makes
# (content/assets/site.js replaced the site's script, content/index.html the
# home page, content/resources.json the data file); a picture is published
A="$TMP/box/active"
mkdir -p "$A/content/assets" "$A/content/topics"
printf '# A document\n' >"$A/content/doc.md"
for f in index.html topics/index.html evil.svg page.htm style.css; do
	printf '<script>alert(1)</script>\n' >"$A/content/$f"
done
printf 'alert(1)\n' >"$A/content/assets/site.js"
printf '{}\n' >"$A/content/resources.json"
printf 'PNG\n' >"$A/content/assets/pic.png"
build active 100000 10
shapes active
P="$A/public"
for f in index.html topics/index.html evil.svg page.htm style.css assets/site.js; do
	grep -q "^content/$f:0:0: warning: HTML, script, style or SVG under content/ is not published" "$TMP/out" ||
		fail "active: content/$f is not reported as not published"
done
grep -q '^content/resources.json:0:0: warning: not published: the site makes resources.json itself' "$TMP/out" ||
	fail "active: content/resources.json replacing the data file is not reported"
grep -rq 'alert(1)' "$P" && fail "active: a script from content/ was published"
[ ! -e "$P/evil.svg" ] && [ ! -e "$P/page.htm" ] && [ ! -e "$P/style.css" ] || fail "active: an active file was copied"
grep -q '"resources":' "$P/resources.json" || fail "active: resources.json is not the site's"
[ "$(cat "$P/assets/pic.png")" = PNG ] || fail "active: a picture of content/ is not published"
(cd "$A" && "$SSG" check >"$TMP/check" 2>&1)
grep -q '^content/evil.svg:.*warning: HTML, script' "$TMP/check" || fail "active: ssg check does not report content/evil.svg"

# a resource spelled 3,000 ways by three documents: its page lists 500
# spellings and counts the rest (120,000 spellings made a page of 7.4 MB);
# resources.json keeps them all
S="$TMP/box/spelled"
mkdir -p "$S/content"
for n in 0 1 2; do
	python3 -c "import sys; n = int(sys.argv[1]); print('# Spelled %d\n' % n); print(''.join('- [s](https://s.example/page?utm_source=%d)\n' % (n * 1000 + i) for i in range(1000)))" "$n" >"$S/content/s$n.md"
done
build spelled 200000 20
R="$S/public/r/s-example-page/index.html"
[ "$(grep -o '<li><code>https://s.example/page?utm_source=' "$R" | wc -l)" -eq 500 ] ||
	fail "spelled: the resource page does not list 500 spellings"
grep -q 'And 2500 more spellings' "$R" || fail "spelled: the resource page does not count the other 2,500 spellings"
[ "$(grep -o 'utm_source=[0-9]*' "$S/public/resources.json" | sort -u | wc -l)" -eq 3000 ] ||
	fail "spelled: resources.json does not keep all 3,000 spellings"

echo "hostile: $fails failure(s)"
[ "$fails" = 0 ]
