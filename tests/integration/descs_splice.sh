#!/bin/sh
# An edit of list entries' descriptions spliced into the pages that show
# them without a model (descs_splice.h): the document's page patched as
# prose is, and the resource's page changed where the old description lay,
# from the hint and the page's notes alone. After every edit the site equals
# a clean single-threaded build's. What the splice cannot tell (a
# description another entry of the resource gives too, two changes on one
# page, a template showing the descriptions otherwise than once each) goes
# to the model's path (build_descs.h), with the same result.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/content"
cat > "$d/site.yml" <<'EOF'
title: Splices
base_url: /
resource_pages: { min_citations: 1 }
EOF
a=$d/content/a.md
b=$d/content/b.md
cat > "$a" <<'EOF'
# A

- [Paper one](https://example.org/one) - a short note
- [Paper two](https://example.org/two) - two
EOF
cat > "$b" <<'EOF'
# B

- [Paper one](https://example.org/one) - the longest description of paper one, by far
- [Paper two](https://example.org/two) - the longest description of paper two
EOF
# a resource given more distinct descriptions than its page shows
i=0
while [ $i -lt 22 ]; do
	printf -- '# M%02d\n\n- [Many](https://example.org/many) - many, number %02d\n' $i $i >"$d/content/m$i.md"
	i=$((i + 1))
done
printf -- '- [Many](https://example.org/many) - the longest description of the one cited many times\n' >>"$b"
. "$(dirname "$0")/patch_helpers"
spliced() { # spliced PAGES RESOURCE_PAGES LABEL: a patch, that many spliced
	grep -q "^timings: patched in [0-9]* ms ($1 pages\{0,1\}, $2 of them" "$d/err" ||
		{ echo "$3: expected $1 page(s) patched, $2 spliced"; cat "$d/err"; exit 1; }
	same_as_clean "$3"
}
build
full "the first build"
cp "$a" "$d/a.first"

# one entry's description: its document's page and its resource's
sed -i 's/a short note$/a short note, spliced/' "$a"
build --timings; spliced 2 1 "an entry's description"
shows r/example-org-one/index.html "<li>a short note, spliced</li>"
# again on the same page: the notes and the hint say where it lies now
sed -i 's/a short note, spliced$/a note \& more, 2 < 3/' "$a"
build --timings; spliced 2 1 "the same entry again, with characters to escape"
shows r/example-org-one/index.html "<li>a note &amp; more, 2 &lt; 3</li>"
sed -i 's/ - two$/ - two, spliced too/' "$a"
build --timings; spliced 2 1 "another resource's entry"
# both at once, on two pages
sed -i 's/a note & more, 2 < 3$/short/; s/two, spliced too$/two again/' "$a"
build --timings; spliced 3 2 "two entries of two resources"

# beyond the descriptions the page shows (the first 20 distinct ones, in
# the documents' order: b, m0, m1, m10 to m19, m2, m20, m21, m3 to m6):
# only the document's page
sed -i 's/many, number 09$/many, number nine/' "$d/content/m9.md"
build --timings; spliced 1 0 "a description the resource's page does not show"
sed -i 's/many, number 03$/many, number three/' "$d/content/m3.md"
build --timings; spliced 2 1 "one of the descriptions the page shows"

# a description another entry of the resource gives too, before or after
# the edit: the model's patch
modelled() { # modelled LABEL: patched from the model, as a clean build
	same_as_clean "$1"
	grep -q "^timings: patched in [0-9]* ms ([0-9]* pages\{0,1\}, 0 of them" "$d/err" ||
		{ echo "$1: not the model's patch"; cat "$d/err"; exit 1; }
}
sed -i 's/many, number 05$/many, number 06/' "$d/content/m5.md"
build --timings; modelled "a description another entry gives too"
sed -i 's/many, number 06$/many, number 05/' "$d/content/m5.md"
build --timings; modelled "a description another entry gave too"
cat > "$a" <<'EOF'
# A

- [Paper one](https://example.org/one) - first
- [Paper one again](https://example.org/one) - second
EOF
build; same_as_clean "two entries of one resource rewritten"
sed -i 's/ - first$/ - first, changed/; s/ - second$/ - second, changed/' "$a"
build --timings; modelled "two changes on one page"
# the model's patch noted the page it made: the next edit is spliced there
sed -i 's/ - first, changed$/ - first, after the model/' "$a"
build --timings; spliced 2 1 "an edit after the model's patch"
sed -i 's/ - first, after the model$/ - first, changed/' "$a"
build --timings; spliced 2 1 "and back"

# a template that shows each description twice, or raw: not noted, or
# noted as written
mkdir -p "$d/templates"
cat > "$d/templates/resource.mustache" <<'EOF'
{{#resource}}<h1>{{title}}</h1><ul>{{#descriptions}}<li>{{.}} ({{.}})</li>{{/descriptions}}</ul>{{/resource}}
EOF
build; full "a template showing descriptions twice"
sed -i 's/ - first, changed$/ - first, twice/' "$a"
build --timings; modelled "descriptions shown twice"
cat > "$d/templates/resource.mustache" <<'EOF'
{{#resource}}<h1>{{title}}</h1><ul>{{#descriptions}}<li>{{{.}}}</li>{{/descriptions}}</ul>{{/resource}}
EOF
build; full "a template showing descriptions raw"
sed -i 's/ - first, twice$/ - first \& raw/' "$a"
build --timings; spliced 2 1 "a description the template shows raw"
shows r/example-org-one/index.html "<li>first & raw</li>"
rm -r "$d/templates"
build; full "the theme's template back"

# without the hint, or with the page replaced since it was noted: the model
sed -i 's/ - second, changed$/ - second, no hint/' "$a"
rm "$d/.out.ssg-room"
build --timings; modelled "no hint"
[ -s "$d/.out.ssg-room" ] || { echo "the model's patch did not save the hint again"; exit 1; }
p=$d/out/r/example-org-one/index.html
cp "$p" "$d/page" && rm "$p" && cp "$d/page" "$p"
sed -i 's/ - second, no hint$/ - second, page replaced/' "$a"
build --timings; modelled "a page replaced since it was noted"
sed -i 's/ - second, page replaced$/ - second, spliced again/' "$a"
build --timings; spliced 2 1 "an edit after the page was made again"

# a hint cut short, or one under another frame (another site's, another
# account's: the frame holds the account's secret): none
head -c 100 "$d/.out.ssg-room" >"$d/cut" && cat "$d/cut" >"$d/.out.ssg-room"
sed -i 's/ - second, spliced again$/ - second, hint cut short/' "$a"
build --timings; modelled "a hint cut short"
sed -i '1s/^ssg-room 3 ./ssg-room 3 g/' "$d/.out.ssg-room"
sed -i 's/ - second, hint cut short$/ - second, foreign hint/' "$a"
build --timings; modelled "a hint under another frame"
# the notes and the hint are changed in place, never through a symlink
echo "victim" >"$d/victim"
mv "$d/out/.ssg-items" "$d/items" && ln -s ../victim "$d/out/.ssg-items"
sed -i 's/ - second, foreign hint$/ - second, notes a symlink/' "$a"
build --timings; modelled "the notes a symlink"
[ "$(cat "$d/victim")" = victim ] || { echo "the notes were written through a symlink"; exit 1; }
rm "$d/out/.ssg-items" && mv "$d/items" "$d/out/.ssg-items"
build --force; full "built whole again"
mv "$d/.out.ssg-room" "$d/room" && ln -s victim "$d/.out.ssg-room"
sed -i 's/ - second, notes a symlink$/ - second, hint a symlink/' "$a"
build --timings; modelled "the hint a symlink"
[ "$(cat "$d/victim")" = victim ] || { echo "the hint was written through a symlink"; exit 1; }
[ -f "$d/.out.ssg-room" ] && [ ! -L "$d/.out.ssg-room" ] ||
	{ echo "the hint a symlink was not replaced"; exit 1; }
head -c 10 "$d/.out.ssg-room" | grep -q '^ssg-room 3' || { echo "the hint left unsaid"; exit 1; }

# back to the first version
cp "$d/a.first" "$a"
build; same_as_clean "a reverted document"
ls -a "$d" | grep -q 'state-' && { echo "a patch left a temporary file:"; ls -a "$d"; exit 1; }
echo "descs_splice: ok"
