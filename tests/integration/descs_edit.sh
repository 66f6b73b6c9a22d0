#!/bin/sh
# An edit of list entries' descriptions is patched into the pages that show
# them once the model is built (build_descs.h): the document's page and the
# pages of the resources whose entries changed, as long as no resource's
# description (the longest its entries give, the first of equals; or
# site.yml's) changes with them. After every edit the site equals a clean
# single-threaded build's; an edit that changes a resource's description,
# an entry's title or its link's text is built in full.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/content"
cat > "$d/site.yml" <<'EOF'
title: Descriptions
base_url: /
resource_pages: { min_citations: 1 }
topics:
  - id: papers
    title: Papers
    match: { words: [paper] }
EOF
a=$d/content/a.md
b=$d/content/b.md
c=$d/content/c.md
cat > "$a" <<'EOF'
# A

Some prose about papers.

- [Paper one](https://example.org/one) - a short note
- [Paper two](https://example.org/two) - two
EOF
cat > "$b" <<'EOF'
# B

- [Paper one](https://example.org/one) - the longest description of paper one, by far
EOF
cat > "$c" <<'EOF'
# C

- [Paper one](https://example.org/one) - another
EOF
. "$(dirname "$0")/patch_helpers"

build
full "the first build"
cp "$a" "$d/a.first"

# a description shorter than the resource's: its document's page and the
# resource's page (which lists the descriptions its entries give)
sed -i 's/a short note$/a short note, edited/' "$a"
build; patched 2 "an entry's description edited"
shows a/index.html "a short note, edited"
shows r/example-org-one/index.html "a short note, edited"
build; grep -q '^up to date: ' "$d/err" || { echo "the build after a patch was not up to date"; cat "$d/err"; exit 1; }

# with prose beside it, and in two documents at once
sed -i 's/a short note, edited$/a short note, edited again/' "$a"
printf '\nMore prose.\n' >> "$a"
sed -i 's/ - another$/ - another one/' "$c"
build; patched 3 "two documents' descriptions and prose"
shows c/index.html "another one"

# as long as the longest, after it: the first of equals stays the resource's
sed -i 's/ - another one$/ - the longest description of paper one, by far/' "$c"
build; patched 2 "a description as long as the resource's, after it"
# as long as it, before it: it becomes the resource's description
sed -i 's/a short note, edited again$/an equally long description of paper one, ok/' "$a"
build; full "a description as long as the resource's, before it"
shows r/example-org-one/index.html "an equally long description of paper one, ok"
# the resource's own description shortened: the next of the longest takes
# its place
sed -i 's/an equally long description of paper one, ok$/short again/' "$a"
build; full "the resource's description shortened"
# the only entry of a resource: its description is the resource's
sed -i 's/ - two$/ - two, longer/' "$a"
build; full "a resource's only description"

# a description that site.yml gives: the entries' do not change it
cat >> "$d/site.yml" <<'EOF'
overrides:
  https://example.org/two: { description: "The second paper, as site.yml says" }
EOF
build; full "site.yml changed"
sed -i 's/ - two, longer$/ - two, and longer still/' "$a"
build; patched 2 "a description under site.yml's"
shows r/example-org-two/index.html "two, and longer still"
shows r/example-org-two/index.html "The second paper, as site.yml says"

# what the model sees otherwise: an entry's title, its link's text
sed -i 's/\[Paper one\](https:\/\/example.org\/one) - the longest/[Paper one, retitled](https:\/\/example.org\/one) - the longest/' "$b"
build; full "an entry's title"

# back to the first version: the pages patched since are made again
cp "$d/a.first" "$a"
build; same_as_clean "a reverted document"
build --force; full "--force"

# the hint a whole build leaves beside the output foresees the patch: no
# output is begun beside the model (the spare is not taken: its note stays
# the very file it was); without the hint it is, and given back after
[ -s "$d/.out.ssg-room" ] || { echo "no hint beside the output"; exit 1; }
spare_note() { stat -c '%i %y' "$d/.out.ssg-spare/.ssg-note" 2>/dev/null || echo none; }
before=$(spare_note)
[ "$before" != none ] || { echo "no spare with a note to watch"; exit 1; }
sed -i 's/ - the longest description of paper one, by far$/ - foreseen/' "$c"
build; patched 2 "a description the hint foresees"
[ "$(spare_note)" = "$before" ] || { echo "a foreseen patch took the spare"; exit 1; }
rm "$d/.out.ssg-room"
sed -i 's/ - foreseen$/ - not foreseen/' "$c"
build; patched 2 "a description without the hint"
[ "$(spare_note)" != "$before" ] || { echo "the spare was not taken without the hint"; exit 1; }
[ "$(spare_note)" != none ] || { echo "the spare lost its note"; exit 1; }

# nothing is left beside the output
ls -a "$d" | grep -q 'state-' && { echo "a patch left a temporary file:"; ls -a "$d"; exit 1; }
echo "descs_edit: ok"
