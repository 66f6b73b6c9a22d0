#!/bin/sh
# check_test: `ssg check` against the golden corpus tests/check/<case>/ (one
# small site per problem, expected.txt = the exact findings of
# `ssg check --format text` run inside the site), the github / json / --strict
# outputs, `ssg new` scaffolding (its site passes `ssg check --strict` and
# builds; nothing is ever overwritten), and the manual (every command and
# option of `ssg help` appears in man/ssg.1). Run by tests/run_integration.sh
# with $SSG set; exit 0 = pass. POSIX sh.
set -u
: "${SSG:?set SSG to the ssg binary}"
ROOT=$(pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# ---- the golden corpus -------------------------------------------------------
ncases=0
for dir in "$ROOT"/tests/check/*/; do
	dir=${dir%/}
	name=${dir##*/}
	[ -d "$dir/site" ] || continue
	ncases=$((ncases + 1))
	(cd "$dir/site" && "$SSG" check --format text >"$TMP/out" 2>"$TMP/err")
	rc=$?
	if ! diff -u "$dir/expected.txt" "$TMP/out" >"$TMP/diff"; then
		fail "$name: findings differ from expected.txt"
		sed 's/^/    /' "$TMP/diff"
	fi
	want=0
	grep -q ': error: ' "$dir/expected.txt" && want=1
	[ "$rc" = "$want" ] || fail "$name: exit status $rc, expected $want"
	grep -q '^checked [0-9]* documents\{0,1\}, ' "$TMP/err" ||
		fail "$name: no summary line on stderr"
done
[ "$ncases" -ge 18 ] || fail "only $ncases cases in tests/check"

# ---- the same cases checked from a build's document cache ----------------------
# check reads what the last build left (the documents' records, with what the
# rules need of their trees) and writes nothing: the findings are the same,
# and a site checked before any build is left without a cache or an output.
for dir in "$ROOT"/tests/check/*/; do
	dir=${dir%/}
	name=${dir##*/}
	[ -d "$dir/site" ] || continue
	copy="$TMP/cached-$name"
	cp -R "$dir/site" "$copy"
	(cd "$copy" && "$SSG" check --format text >/dev/null 2>&1)
	[ -e "$copy/.ssg-cache" ] || [ -e "$copy/public" ] &&
		fail "$name: check wrote into the site: $(ls -A "$copy")"
	(cd "$copy" && "$SSG" build -q >/dev/null 2>&1)
	[ -f "$copy/.ssg-cache/documents.bin" ] || continue # a site that does not build
	ls -l --time-style=full-iso "$copy/.ssg-cache" >"$TMP/cache.before"
	(cd "$copy" && "$SSG" check --format text >"$TMP/out" 2>/dev/null)
	if ! diff -u "$dir/expected.txt" "$TMP/out" >"$TMP/diff"; then
		fail "$name: findings from the cache differ from expected.txt"
		sed 's/^/    /' "$TMP/diff"
	fi
	ls -l --time-style=full-iso "$copy/.ssg-cache" >"$TMP/cache.after"
	cmp -s "$TMP/cache.before" "$TMP/cache.after" || fail "$name: check changed .ssg-cache"
	ncached=$((ncached + 1))
done
[ "${ncached:-0}" -ge 12 ] || fail "only ${ncached:-0} cases checked from a cache"

# ---- no git: no rule of check looks at a last-updated date -------------------
# (a git that notes each run stands first in PATH; a build runs it, check not)
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\necho "$@" >>"%s/git-ran"\nexit 1\n' "$TMP" >"$TMP/fakebin/git"
chmod +x "$TMP/fakebin/git"
mkdir -p "$TMP/gitsite/.git"
cp -R "$ROOT/tests/check/clean/site/." "$TMP/gitsite/"
(cd "$TMP/gitsite" && PATH="$TMP/fakebin:$PATH" "$SSG" check >/dev/null 2>&1)
[ -e "$TMP/git-ran" ] && fail "check ran git: $(cat "$TMP/git-ran")"
(cd "$TMP/gitsite" && PATH="$TMP/fakebin:$PATH" "$SSG" build -q >/dev/null 2>&1)
[ -e "$TMP/git-ran" ] || fail "the control failed: a build ran no git either"

# ---- -s DIR: paths open from the current folder -----------------------------
cd "$ROOT" || exit 1
"$SSG" check -s tests/check/url-variant/site >"$TMP/out" 2>/dev/null
grep -q '^tests/check/url-variant/site/content/c.md:3:3: warning: ' "$TMP/out" ||
	fail "-s DIR: paths are not prefixed with DIR: $(cat "$TMP/out")"

# ---- --format github -----------------------------------------------------------
cd "$ROOT/tests/check/url-variant/site" || exit 1
"$SSG" check --format github >"$TMP/out" 2>/dev/null
rc=$?
[ "$rc" = 0 ] || fail "github: exit $rc on warnings only"
grep -q '^::warning file=content/c.md,line=3,col=3,title=ssg (url-variant)::http%3A' "$TMP/out" &&
	fail "github: the message must not escape ':'"
grep -q '^::warning file=content/c.md,line=3,col=3,title=ssg (url-variant)::http://www.github.com/example/tool/ is a variant of the resource https://github.com/example/tool' "$TMP/out" ||
	fail "github: unexpected annotation: $(cat "$TMP/out")"
cd "$ROOT/tests/check/yaml-unknown-key/site" || exit 1
"$SSG" check --format github >"$TMP/out" 2>/dev/null
rc=$?
[ "$rc" = 1 ] || fail "github: exit $rc on errors"
grep -q '^::error file=site.yml,line=6,col=1,title=ssg::unknown key' "$TMP/out" ||
	fail "github: unexpected error annotation: $(cat "$TMP/out")"
cd "$ROOT/tests/check/raw-html/site" || exit 1
"$SSG" check --format github >"$TMP/out" 2>/dev/null
grep -q '^::warning file=content/a.md,line=3,title=ssg (raw-html)::raw HTML <script>' "$TMP/out" ||
	fail "github: a finding without a column must leave col out: $(cat "$TMP/out")"

# ---- --format json ---------------------------------------------------------------
cd "$ROOT/tests/check/empty-title/site" || exit 1
"$SSG" check --format json >"$TMP/out" 2>/dev/null
n=$(wc -l <"$TMP/out")
want=$(wc -l <"$ROOT/tests/check/empty-title/expected.txt")
[ "$n" = "$want" ] || fail "json: $n lines for $want findings"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$TMP/out" "$ROOT/tests/check/empty-title/expected.txt" <<'EOF' || fail "json: objects do not match the text findings"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
text = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
assert len(objs) == len(text), (len(objs), len(text))
for o, t in zip(objs, text):
    assert set(o) == {"file", "line", "col", "severity", "code", "message"}, o
    loc = o["file"] + (":%d" % o["line"] if o["line"] else "") + (":%d" % o["col"] if o["line"] and o["col"] else "")
    want = "%s: %s: %s" % (loc, o["severity"], o["message"]) + (" [%s]" % o["code"] if o["code"] else "")
    assert want == t, (want, t)
print("json ok")
EOF
fi
grep -q '"file":"content/b.md","line":3,"col":3,"severity":"warning","code":"empty-title","message":"link to https://example.org/b has no text"' "$TMP/out" ||
	fail "json: unexpected object: $(cat "$TMP/out")"

# ---- --strict ----------------------------------------------------------------------
cd "$ROOT/tests/check/mojibake/site" || exit 1
"$SSG" check >/dev/null 2>&1 || fail "mojibake: warnings alone must exit 0"
"$SSG" check --strict >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] || fail "--strict: exit $rc on a warning"
grep -q '^content/a.md:3:42: error: repaired mis-encoded text' "$TMP/out" ||
	fail "--strict: the warning is not reported as an error: $(cat "$TMP/out")"
grep -q ': 1 error, 0 warnings, 0 notes$' "$TMP/err" ||
	fail "--strict: summary does not count it as an error: $(cat "$TMP/err")"
cd "$ROOT/tests/check/clean/site" || exit 1
"$SSG" check --strict >"$TMP/out" 2>"$TMP/err" || fail "clean: --strict fails"
[ -s "$TMP/out" ] && fail "clean: findings printed"
grep -q '^checked 1 document, 1 resource, 1 topic: 0 errors, 0 warnings, 0 notes$' "$TMP/err" ||
	fail "clean: summary: $(cat "$TMP/err")"

# ---- usage errors --------------------------------------------------------------------
"$SSG" check --format xml >/dev/null 2>&1
[ $? = 2 ] || fail "--format xml must be a usage error (2)"
"$SSG" check extra >/dev/null 2>&1
[ $? = 2 ] || fail "an extra argument must be a usage error (2)"
"$SSG" new thing x >/dev/null 2>&1
[ $? = 2 ] || fail "ssg new thing must be a usage error (2)"

# ---- ssg new -----------------------------------------------------------------------------
cd "$TMP" || exit 1
"$SSG" new site portal >"$TMP/new.out" 2>&1 || fail "new site: $(cat "$TMP/new.out")"
for f in site.yml README.md .gitignore content/welcome.md; do
	[ -s "portal/$f" ] || fail "new site: no $f"
done
(cd portal && "$SSG" check --strict >"$TMP/out" 2>"$TMP/err") ||
	fail "new site does not pass check --strict: $(cat "$TMP/out" "$TMP/err")"
[ -s "$TMP/out" ] && fail "new site: findings: $(cat "$TMP/out")"
grep -q '^checked 1 document, [1-9][0-9]* resources, [1-9][0-9]* topics: 0 errors' "$TMP/err" ||
	fail "new site: summary: $(cat "$TMP/err")"
"$SSG" build -s portal -q >"$TMP/out" 2>&1 || fail "new site does not build: $(cat "$TMP/out")"
[ -s portal/public/index.html ] || fail "new site: no public/index.html"
ls portal/public/topic/*/index.html >/dev/null 2>&1 || fail "new site: no topic pages"
# never overwrite
echo "mine" >portal/README.md
"$SSG" new site portal >"$TMP/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "new site over an existing one: exit $rc, expected 1"
[ "$(cat portal/README.md)" = mine ] || fail "new site overwrote README.md"
grep -q 'README.md: error: exists already' "$TMP/out" || fail "new site: no report of the existing file"
# a document
SOURCE_DATE_EPOCH=86400 "$SSG" new doc portal/content/gpu-memory >"$TMP/out" 2>&1 ||
	fail "new doc: $(cat "$TMP/out")"
[ -f portal/content/gpu-memory.md ] || fail "new doc: .md not added"
head -1 portal/content/gpu-memory.md | grep -qx -- '---' || fail "new doc: no front matter"
grep -qx 'title: "Gpu memory"' portal/content/gpu-memory.md || fail "new doc: title"
grep -qx 'date: 1970-01-02' portal/content/gpu-memory.md || fail "new doc: date"
"$SSG" new doc portal/content/notes.rst >/dev/null 2>&1 || fail "new doc .rst"
grep -qx '=====' portal/content/notes.rst || fail "new doc .rst: no title underline"
(cd portal && "$SSG" check >"$TMP/out" 2>&1) || fail "new docs make check fail: $(cat "$TMP/out")"
grep -q ': error: ' "$TMP/out" && fail "new docs: errors: $(cat "$TMP/out")"
cp portal/content/notes.rst "$TMP/notes.before"
"$SSG" new doc portal/content/notes.rst >/dev/null 2>&1 && fail "new doc over an existing file succeeded"
cmp -s portal/content/notes.rst "$TMP/notes.before" || fail "new doc overwrote a file"

# ---- the manual covers every command and option of `ssg help` -------------------------
cd "$ROOT" || exit 1
man=man/ssg.1
if [ ! -f "$man" ]; then
	fail "no $man"
else
	cmds=$("$SSG" help | sed -n '/^Commands:/,/^$/p' | awk 'NF && $1 != "Commands:" {print $1}')
	[ -n "$cmds" ] || fail "ssg help lists no commands"
	for c in $cmds; do
		grep -q "^\.Ss $c\$" "$man" || fail "$man: no section for command '$c'"
		for o in $("$SSG" help "$c" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
			grep -q -- "Fl ${o#-}\( \|\$\)" "$man" ||
				fail "$man: option $o of '$c' is not documented"
		done
	done
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -Tlint -Wwarning "$man" >"$TMP/lint" 2>&1 || {
			fail "mandoc -Tlint:"
			sed 's/^/    /' "$TMP/lint"
		}
	fi
fi

if [ "$fails" -ne 0 ]; then
	echo "check_test: $fails failure(s)"
	exit 1
fi
echo "check_test: $ncases golden cases and the format, strict, new and manual checks passed"
exit 0
