#!/bin/sh
# An edit of documents' prose is patched into their pages (build_patch.h):
# the summary says so, and after every edit the site equals a clean
# single-threaded build's. Edits the model sees (a citation's entry, a
# heading, a new file) and --force build in full; a page whose record is
# damaged is not spliced but made whole from the model (build_descs.h).
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp -r content site.yml "$d/"
md=$d/content/cuda-pytorch-index.md
rst=$d/content/cuda-basics.rst
. "$(dirname "$0")/patch_helpers"

build
cp "$md" "$d/first.md"
printf '\n\nOne more paragraph, with *emphasis*.\n' >> "$md"
build; patched 1 "a new paragraph"
grep -q 'One more paragraph, with <em>emphasis</em>' "$d/out/cuda-pytorch-index/index.html"
# the warnings are those of the last build, in order
grep -v '^built: ' "$d/err" > "$d/w"
[ -s "$d/w" ] || { echo "the portal was expected to have warnings"; exit 1; }
printf '\n\nAnd a second one.\n' >> "$md"
build; patched 1 "a second edit of the same document"
build; grep -q '^up to date: ' "$d/err" || { echo "the build after a patch was not up to date"; cat "$d/err"; exit 1; }
grep -v '^up to date: ' "$d/err" | cmp -s - "$d/w" || { echo "a patched build lost its warnings"; exit 1; }

# reStructuredText, and two documents at once
printf '\n\nA closing paragraph in reStructuredText.\n' >> "$rst"
printf '\n\nAnd a third one.\n' >> "$md"
build; patched 2 "two documents edited"
grep -q 'A closing paragraph in reStructuredText' "$d/out/cuda-basics/index.html"

# back to the first version, and a whole build that sees the page as it
# first was: the patched page's digest was forgotten, so it is rendered again
cp "$d/first.md" "$md"
mkdir -p "$d/content/files" && echo 'x' > "$d/content/files/new.txt"
build; full "a reverted document and a new static file"

# an edit the model sees: a citation's entry goes on in the next line
printf -- '- [An entry](https://example.org/entry) - its description\n' >> "$md"
build; full "a new citation"
printf 'that goes on here.\n' >> "$md"
build; full "a longer entry"
# a heading
printf '\n## A new section\n\nText.\n' >> "$md"
build; full "a new heading"

# a document whose page the last whole build kept (by its inputs, not
# rendered): its body is where the kept page has it, so its prose is patched
printf '\n\nA paragraph of prose in the RST document.\n' >> "$rst"
build; patched 1 "prose in a page kept by the last build"

# a record that does not match its page: refused, built in full
printf '\n\nProse again.\n' >> "$md"
build; patched 1 "prose again"
sed -i 's/^\([0-9a-f]*\) [0-9]* \([0-9]*\) cuda-pytorch-index.md/\1 7 \2 cuda-pytorch-index.md/' "$d/out/.ssg-docs"
printf '\n\nProse once more.\n' >> "$md"
build; patched 1 "a damaged record (the page made whole)"
# records that are garbage, or point past the page's end: refused too
printf '\n\nProse, and again.\n' >> "$md"
build; patched 1 "prose, and again"
printf 'zz not a record\n%032d 99999999999999 5 cuda-pytorch-index.md\tcuda-pytorch-index/index.html\n' 0 >> "$d/out/.ssg-docs"
printf '\n\nProse after garbage.\n' >> "$md"
build; full "records past the page's end"
printf '\n\nAnd once more.\n' >> "$md"
build --force; full "--force"

# a page folder of the output replaced by a symlink (a repository that
# tracks its output can be given one): the patch does not write through it,
# and the whole build that follows puts a real folder back
printf '\n\nProse before a symlink.\n' >> "$md"
build; patched 1 "prose before a symlink"
mkdir -p "$d/outside"
cp "$d/out/cuda-pytorch-index/index.html" "$d/outside/index.html"
cp "$d/outside/index.html" "$d/outside-before"
rm -rf "$d/out/cuda-pytorch-index" && ln -s "$d/outside" "$d/out/cuda-pytorch-index"
printf '\n\nProse through a symlink.\n' >> "$md"
build; full "a page folder replaced by a symlink"
cmp -s "$d/outside/index.html" "$d/outside-before" || { echo "a patch wrote through a symlink in the output"; exit 1; }
[ ! -L "$d/out/cuda-pytorch-index" ] || { echo "the symlink is still in the site"; exit 1; }

# nothing is left beside the output
ls -a "$d" | grep -q 'state-' && { echo "a patch left a temporary file:"; ls -a "$d"; exit 1; }
echo "patch_edit: ok"
