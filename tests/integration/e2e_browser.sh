#!/bin/sh
# e2e_browser: the default theme tested in a real browser. Installs the npm
# packages of tests/e2e (playwright-core, axe-core; npm ci from the lock file)
# into tests/e2e/node_modules, builds the portal at the root, under /portal/,
# the tests/e2e/fixture site under /fixture/ and a site of 270 topics (more
# than the sidebar lists whole) under /crowd/, and runs tests/e2e/e2e.mjs,
# which drives Debian's /usr/bin/chromium headless and writes screenshots into
# tests/e2e/out/; then tests/e2e/serve_live.mjs, ssg serve's live reload in
# the same browser. Run by tests/run_integration.sh with $SSG set; exit 0 =
# pass, 77 = skip when chromium, node or npm is missing.
set -u
: "${SSG:?set SSG to the ssg binary}"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || { echo "chromium missing"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "node missing"; exit 77; }
command -v npm >/dev/null 2>&1 || { echo "npm missing"; exit 77; }
ROOT=$(pwd)
E2E=$ROOT/tests/e2e
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# npm packages, once (again when the lock file changes)
if [ ! -f "$E2E/node_modules/.ssg-installed" ] ||
	[ "$E2E/package-lock.json" -nt "$E2E/node_modules/.ssg-installed" ]; then
	(cd "$E2E" && { npm ci --no-audit --no-fund --loglevel=error ||
		npm install --no-audit --no-fund --loglevel=error; }) >"$TMP/npm.log" 2>&1 ||
		{ echo "FAIL: npm install in tests/e2e"; tail -20 "$TMP/npm.log"; exit 1; }
	touch "$E2E/node_modules/.ssg-installed"
fi

# a site of more topics than the sidebar lists whole (pages.sidebar_topics):
# 150 topics, the first with 120 subtopics; one document of accented words
mkdir -p "$TMP/topics/content"
python3 - "$TMP/topics" <<'EOF'
import os, sys
root = sys.argv[1]
with open(os.path.join(root, "site.yml"), "w") as f:
    f.write("title: Topics\ntopics:\n")
    for i in range(150):
        f.write("  - id: t%d\n    title: Topic %d\n    match: { words: [w%d] }\n" % (i, i, i))
        if i == 0:
            f.write("    children:\n" + "".join(
                "      - { id: c%d, title: Child %d, match: { words: [v%d] } }\n" % (k, k, k)
                for k in range(120)))
# accents and mixed case, for the search
with open(os.path.join(root, "content", "accents.md"), "w") as f:
    f.write("# Café Résumé\n\n- [ThunderKittens Ørsted](https://ex.org/tk) - w1 note\n")
for n in range(30):
    with open(os.path.join(root, "content", "doc%d.md" % n), "w") as f:
        f.write("# Doc %d\n\n" % n + "".join(
            "- [Paper w%d v%d](https://ex.org/%d/%d) - notes\n" % ((n * 5 + j) % 150, (n * 5 + j) % 120, n, j)
            for j in range(5)))
EOF

WWW=$TMP/www
"$SSG" build -q -s "$ROOT" -o "$WWW" >"$TMP/build.log" 2>&1 &&
	"$SSG" build -q -s "$ROOT" -o "$WWW/portal" --base-url /portal/ >>"$TMP/build.log" 2>&1 &&
	"$SSG" build -q -s "$E2E/fixture" -o "$WWW/fixture" --base-url /fixture/ >>"$TMP/build.log" 2>&1 &&
	"$SSG" build -q -s "$TMP/topics" -o "$WWW/crowd" --base-url /crowd/ >>"$TMP/build.log" 2>&1 ||
	{ echo "FAIL: ssg build"; cat "$TMP/build.log"; exit 1; }

CHROMIUM=$CHROMIUM timeout 300 node "$E2E/e2e.mjs" "$WWW" || exit 1

# ssg serve's live reload, in the same browser, on a copy of the portal
mkdir "$TMP/live" && cp -r "$ROOT/content" "$ROOT/site.yml" "$TMP/live/" &&
	(SSG=$(cd "$(dirname "$SSG")" && pwd)/$(basename "$SSG") && cd "$E2E" &&
		CHROMIUM=$CHROMIUM TMPDIR=$TMP timeout 120 node serve_live.mjs "$SSG" "$TMP/live")
