#!/bin/sh
# cache_key: the caches a build keeps in the site's folder (.ssg-cache) are
# keyed with a secret of the account's (local_key.h), so that a cache that
# came with the site is not trusted. A document's rendered body is swapped
# for a script inside documents.bin: the same account's next build takes it
# (the test can see a cache being used), another account's build, on a copy
# of the site as a clone with a committed cache would be, does not; nor
# does it trust an output folder (public/ and its state) that came with it.
# Run by tests/run_integration.sh with $SSG set; exit 0 = pass.
set -u
: "${SSG:?set SSG to the ssg binary}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# build_as ACCOUNT SITE: build SITE into SITE/public as ACCOUNT (its cache
# folder under $T), or with no key at all when ACCOUNT is "-"
build_as() {
	if [ "$1" = - ]; then
		env -u HOME -u XDG_CACHE_HOME "$SSG" build -q -s "$T/$2" -o "$T/$2/public"
	else
		XDG_CACHE_HOME="$T/$1" "$SSG" build -q -s "$T/$2" -o "$T/$2/public"
	fi || fail "$2's build as $1"
}
page() { cat "$T/$1/public/a/index.html"; }
mkdir -p "$T/site/content"
printf 'title: Keyed\n' > "$T/site/site.yml"
printf '# A\n\nMARKER-TEXT-12345678\n\n- [One](https://example.com/one) - a link\n' \
	> "$T/site/content/a.md"
printf '# B\n\n- [Two](https://example.com/two) - another\n' > "$T/site/content/b.md"
build_as alice site
[ -f "$T/alice/ssg/key" ] || fail "no key kept"
[ "$(stat -c %a "$T/alice/ssg/key")" = 600 ] || fail "the key is readable by others"
grep -q "MARKER-TEXT-12345678" "$T/site/.ssg-cache/documents.bin" || fail "no body in the cache"
python3 - "$T/site/.ssg-cache/documents.bin" <<'PY'
import sys
p = sys.argv[1]
b = open(p, 'rb').read()
open(p, 'wb').write(b.replace(b'MARKER-TEXT-12345678', b'<script>alert(1)</s>'))
PY
cp -r "$T/site" "$T/clone"
rm -rf "$T/clone/public"
# the same account, b.md now citing a.md's link too: a.md's page is made
# again (its badge counts two documents), its body from the (tampered) cache
printf -- '- [One again](https://example.com/one) - more\n' >> "$T/site/content/b.md"
build_as alice site
page site | grep -q '<script>alert(1)</s>' ||
	fail "the same account's cache was not used (the test sees nothing)"
# another account, on the clone: the cache does not count
build_as bob clone
page clone | grep -q 'alert(1)' && fail "a cache that came with the site was used"
page clone | grep -q 'MARKER-TEXT-12345678' || fail "the page lacks its text"
# and no key at all (no HOME, no XDG_CACHE_HOME): caches are made, never used
printf -- '- [One more](https://example.com/one) - more\n' >> "$T/clone/content/b.md"
build_as - clone
page clone | grep -q 'MARKER-TEXT-12345678' || fail "keyless build lost the text"
# the output folder's state is keyed the same way: a site whose public/
# came with it (an edited page and the state that says it is up to date) is
# built again by another account, its page made anew
rm -rf "$T/site2" && cp -r "$T/clone" "$T/site2"
build_as bob site2
cp -r "$T/site2" "$T/clone2"
sed -i 's|</main>|<script>alert(2)</script></main>|' "$T/clone2/public/a/index.html"
build_as bob clone2
page clone2 | grep -q 'alert(2)' ||
	fail "the same account's up-to-date site was built again (the test sees nothing)"
build_as carol clone2
page clone2 | grep -q 'alert(2)' && fail "an output folder that came with the site was trusted"
page clone2 | grep -q 'MARKER-TEXT-12345678' || fail "the page lacks its text"
echo "cache_key: ok"
