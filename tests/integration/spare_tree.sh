#!/bin/sh
# The site a build replaces is kept beside the output (.<name>.ssg-spare) and
# brought up to date as the next build's staging folder. Through a run of
# edits (text, new and removed documents, renamed slugs, static files, a file
# replaced by a folder and back) each incremental build must equal a clean
# single-threaded build, and bringing the spare up to date must never touch
# the site in place: after each build, the new spare (the site that was in
# place) holds exactly the files and bytes it held while it was live, also
# when its folders come from the listing kept of it (tree_list.h). A file
# of the spare no site shares is written over where it lies; one with
# another link never is.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp -r content site.yml "$d/"
mkdir -p "$d/static"
spare="$d/.out.ssg-spare"
# (the spare also holds the note the build left in it for the next: .ssg-note)
snapshot() { ( cd "$1" && find . -type f ! -name '.ssg-build' ! -name '.ssg-pages' ! -name '.ssg-docs' ! -name '.ssg-json' ! -name '.ssg-items' ! -name '.ssg-note' -print0 |
	LC_ALL=C sort -z | xargs -0 md5sum ) > "$2"; }
step=0
checked=0
build_and_check() {
	step=$((step + 1))
	ino=
	[ -d "$d/out" ] && snapshot "$d/out" "$d/live-before" && ino=$(stat -c %i "$d/out")
	"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null || { echo "step $step ($1): build failed"; exit 1; }
	rm -rf "$d/clean"
	"$SSG" build -q --force -j 1 -s "$d" -o "$d/clean" 2>/dev/null
	diff -r -x '.ssg-*' "$d/clean" "$d/out" > "$d/diff" ||
		{ echo "step $step ($1): the incremental build differs from a clean one"; head -20 "$d/diff"; exit 1; }
	# when a new site was swapped in, the one that was in place is the spare
	if [ -f "$d/live-before" ] && [ "$(stat -c %i "$d/out")" != "$ino" ]; then
		checked=$((checked + 1))
		snapshot "$spare" "$d/spare-after"
		cmp -s "$d/live-before" "$d/spare-after" ||
			{ echo "step $step ($1): the site that was in place changed while the next was built"; diff "$d/live-before" "$d/spare-after" | head; exit 1; }
	fi
	rm -f "$d/live-before"
}

build_and_check "first build"
build_and_check "nothing changed"
printf '\n\nA new paragraph.\n' >> "$d/content/cuda-basics.rst"
build_and_check "a prose edit (patched in place: no swap)"
printf '\n\nA new paragraph citing `a page <https://example.org/spare-text>`_.\n' >> "$d/content/cuda-basics.rst"
build_and_check "a text edit with a link"
[ -d "$spare" ] || { echo "no spare tree after four builds"; exit 1; }
printf '# A new document\n\nSee [a paper](https://arxiv.org/abs/2205.14135).\n' > "$d/content/new-doc.md"
build_and_check "a new document"
printf -- '---\nslug: renamed-doc\n---\n# A new document\n\nRenamed.\n' > "$d/content/new-doc.md"
build_and_check "a new slug"
rm "$d/content/new-doc.md"
build_and_check "a removed document"
echo one > "$d/static/x"
build_and_check "a static file"
rm "$d/static/x"; mkdir -p "$d/static/x"; echo two > "$d/static/x/y.txt"
build_and_check "a file replaced by a folder"
rm -r "$d/static/x"; echo three > "$d/static/x"
build_and_check "a folder replaced by a file"
sed -i 's/^title: .*/title: Spare test/' "$d/site.yml"
build_and_check "a site.yml edit"
build_and_check "nothing changed again"
# a link removed: its resource page, two folders down (r/<slug>/), goes too
sed -i '/spare-text/d' "$d/content/cuda-basics.rst"
build_and_check "a link removed"
build_and_check "the same, once more (the spare had the page)"
# the listing of each tree kept beside the output (.out.ssg-trees) gives the
# folders unchanged since, once they are two seconds old: both trees are
# listed so, and the damage below is found in a spare whose other folders
# come from that listing
sleep 3
printf '\n\nA `listed <https://example.org/listed-one>`_ link.\n' >> "$d/content/cuda-basics.rst"
build_and_check "a link added, the folders old enough to be taken from the listing"
printf '\n\nA `listed <https://example.org/listed-two>`_ link.\n' >> "$d/content/cuda-basics.rst"
build_and_check "another"
[ -f "$d/.out.ssg-trees" ] || { echo "no listing kept beside the output"; exit 1; }
# a damaged spare (a file replaced in it, one removed, strays and symlinks
# added) is repaired
printf '\n\nOne more `link <https://example.org/one-more>`_.\n' >> "$d/content/cuda-basics.rst"
f=$(cd "$spare" && find . -name index.html | head -1)
{ cat "$spare/$f"; echo tampered; } > "$d/tampered" && mv "$d/tampered" "$spare/$f" # its own inode
rm -f "$spare/assets/style.css"
echo stray > "$spare/stray.html"
mkdir -p "$spare/r/stray/deep" && echo stray > "$spare/r/stray/deep/index.html"
echo stray > "$spare/r/stray.html"
# symlinks (a repository can commit them, spare and all): one where a folder
# of pages stands, one where a page stands, one where nothing is wanted; the
# build must neither write nor remove anything where they point
mkdir -p "$d/outside/cuda" "$d/outside/deep"
echo precious > "$d/outside/cuda/index.html"
echo precious > "$d/outside/deep/index.html"
echo precious > "$d/outside/page.html"
( cd "$d/outside" && find . -type f | LC_ALL=C sort | xargs md5sum ) > "$d/outside-before"
rm -rf "$spare/topic" && ln -s "$d/outside" "$spare/topic"
p=$(cd "$spare" && find . -path ./topic -prune -o -name index.html -print | sed -n 3p)
rm -f "$spare/$p" && ln -s "$d/outside/page.html" "$spare/$p"
ln -s "$d/outside" "$spare/r/outside-link"
rm -f "$d/live-before"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null
( cd "$d/outside" && find . -type f | LC_ALL=C sort | xargs md5sum ) > "$d/outside-after"
cmp -s "$d/outside-before" "$d/outside-after" ||
	{ echo "a symlink in the spare had the build write outside the output"; diff "$d/outside-before" "$d/outside-after" | head; exit 1; }
rm -rf "$d/clean"
"$SSG" build -q --force -j 1 -s "$d" -o "$d/clean" 2>/dev/null
diff -r -x '.ssg-*' "$d/clean" "$d/out" > "$d/diff" ||
	{ echo "a damaged spare leaked into the site"; head "$d/diff"; exit 1; }
[ -z "$(find "$d/out" -type l)" ] || { echo "a symlink of the spare is in the site"; exit 1; }
# a file of the spare that no site shares is written over where it lies
# (its inode taken again, not freed and made anew); one that has another
# link is never written into
printf '\n\nAnd `another <https://example.org/another>`_.\n' >> "$d/content/cuda-basics.rst"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null
was=$(stat -c %i "$spare/resources.json")
[ "$(stat -c %h "$spare/resources.json")" = 1 ] || { echo "the spare's resources.json is shared"; exit 1; }
printf '\n\nAnd `one more <https://example.org/one-more-again>`_.\n' >> "$d/content/cuda-basics.rst"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null
[ "$(stat -c %i "$d/out/resources.json")" = "$was" ] ||
	{ echo "resources.json was not written over where it lay in the spare"; exit 1; }
echo precious > "$d/outside/linked.json"
rm -f "$spare/resources.json" && ln "$d/outside/linked.json" "$spare/resources.json"
printf '\n\nAnd `a third <https://example.org/third>`_.\n' >> "$d/content/cuda-basics.rst"
"$SSG" build -q -s "$d" -o "$d/out" 2>/dev/null
[ "$(cat "$d/outside/linked.json")" = precious ] ||
	{ echo "a file with another link, in the spare, was written over"; exit 1; }
rm -rf "$d/clean"
"$SSG" build -q --force -j 1 -s "$d" -o "$d/clean" 2>/dev/null
diff -r -x '.ssg-*' "$d/clean" "$d/out" > "$d/diff" ||
	{ echo "a file written over in the spare differs from a clean build"; head "$d/diff"; exit 1; }
[ "$checked" -ge 6 ] || { echo "only $checked swaps were checked"; exit 1; }
echo "spare_tree: ok ($step steps, $checked swaps checked)"
