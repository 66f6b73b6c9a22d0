#!/bin/sh
# search_memo: the search index's words kept between builds a slice at a
# time (src/words_memo.h). On a site of 800 documents and 9,600 resources
# (a dozen slices): a clean build keeps none and leaves one file a slice;
# after an edit (a section and a link more, in the middle) all but the
# slices around it are kept, the files of the slices gone are removed, and
# the parts equal a clean build's; the kept slices are what the build uses
# (a changed posting in them shows in the parts), SSG_CHECK_INPUTS tells
# them from the words gathered again, and damaged files are gathered again.
set -u
: "${SSG:?set SSG to the ssg binary}"
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-search-memo.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
site=$d/site
words=$site/.ssg-cache/words

mkdir -p "$site/content"
python3 - "$site" <<'EOF'
import os, sys
root = sys.argv[1]
open(os.path.join(root, "site.yml"), "w").write("title: Memo\n")
for n in range(800):
    with open(os.path.join(root, "content", "doc%03d.md" % n), "w") as f:
        f.write("# Notes on kernels %d\n\n" % n)
        for h in range(2):
            f.write("## Part %d of %d\n\n" % (h, n))
            for j in range(6):
                f.write("- [Paper %d-%d-%d on tiling](https://ex.org/%d/%d/%d) - about fusion %d\n"
                        % (n, h, j, n, h, j, j))
            f.write("\n")
EOF

# "kept total" from a build's timings
slices() {
	sed -n 's/.* \([0-9][0-9]*\) of \([0-9][0-9]*\) slices of its words kept.*/\1 \2/p' "$1"
}
build() { # build [env...]: into $d/out, the timings in $d/t
	env "$@" "$SSG" build -q --timings -s "$site" -o "$d/out" 2>"$d/t"
}
clean_parts() { # a clean build's search parts in $d/clean
	rm -rf "$d/clean"
	"$SSG" build -q --force -s "$site" -o "$d/clean" 2>/dev/null || { echo "a clean build failed"; exit 1; }
}
nfiles() { ls "$words" | wc -l | tr -d ' '; }
edit() { # a section and a link more in document $1
	printf '\n## Added %s\n\n- [Fresh %s](https://ex.org/fresh/%s) - new\n' "$1" "$1" "$1" \
		>>"$site/content/doc$1.md"
}

build || { echo "the first build failed"; cat "$d/t"; exit 1; }
set -- $(slices "$d/t")
[ "$#" = 2 ] || { echo "no slices in the timings:"; cat "$d/t"; exit 1; }
[ "$1" = 0 ] && [ "$2" -ge 8 ] || { echo "first build: $1 of $2 slices kept (want 0 of 8 or more)"; exit 1; }
[ "$(nfiles)" = "$2" ] || { echo "$(nfiles) files for $2 slices"; exit 1; }
ls "$words" | grep -qvE '^[0-9a-f]{32}\.bin$' && { echo "a file not named by its key:"; ls "$words"; exit 1; }

edit 400
build || { echo "the edit's build failed"; exit 1; }
set -- $(slices "$d/t")
[ "$1" -ge $(($2 - 3)) ] || { echo "after an edit only $1 of $2 slices kept"; exit 1; }
[ "$(nfiles)" = "$2" ] || { echo "after an edit $(nfiles) files for $2 slices: old ones stay"; exit 1; }
clean_parts
diff -r "$d/out/search" "$d/clean/search" >/dev/null || { echo "the edit's parts differ from a clean build's"; exit 1; }
grep -q '"added"' "$d/out/search/"w*.js || { echo "the edit's new word is not in the parts"; exit 1; }

# every kept slice's first posting one place further down its title: the
# build takes them as they are (kept on the account's secret: no other
# file can have their names)
python3 - "$words" <<'EOF'
import os, struct, sys
for name in os.listdir(sys.argv[1]):
    path = os.path.join(sys.argv[1], name)
    b = bytearray(open(path, "rb").read())
    n, = struct.unpack_from("<I", b, 32)
    at = 40 + n + 1 + (8 - (n + 1) % 8) % 8
    p, = struct.unpack_from("<Q", b, at)
    where = (p & 0xfff) % 3
    struct.pack_into("<Q", b, at, p + 1 if where < 2 else p - 1)
    open(path, "wb").write(bytes(b))
EOF
edit 100
build SSG_CHECK_INPUTS=1 && { echo "SSG_CHECK_INPUTS took changed slices"; exit 1; }
grep -q "internal error: [0-9]* slices of the search index's words kept" "$d/t" ||
	{ echo "no internal error for the changed slices:"; cat "$d/t"; exit 1; }
build || { echo "the build over changed slices failed"; exit 1; }
clean_parts
diff -r "$d/out/search" "$d/clean/search" >/dev/null && { echo "the kept slices were not used"; exit 1; }
# (the clean build wrote them again as they should be)
edit 101
build || exit 1
clean_parts
diff -r "$d/out/search" "$d/clean/search" >/dev/null || { echo "parts differ after the slices were mended"; exit 1; }

# damaged files: cut short, and one emptied; they are gathered again
for f in "$words"/*.bin; do head -c 100 "$f" >"$f.x" && mv "$f.x" "$f"; done
: >"$(ls "$words"/*.bin | head -n 1)"
edit 700
build || { echo "the build over damaged slices failed"; exit 1; }
set -- $(slices "$d/t")
[ "$1" = 0 ] || { echo "$1 damaged slices kept"; exit 1; }
clean_parts
diff -r "$d/out/search" "$d/clean/search" >/dev/null || { echo "parts differ after damaged slices"; exit 1; }
echo "ok: $2 slices"
