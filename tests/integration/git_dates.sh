#!/bin/sh
# The documents' last-commit dates reach every page that shows them, however
# late git's log answers: a build makes every other page first and waits
# for the log only at a document's page, the sitemap and the feed. Here git
# is slowed by a wrapper (0.4 s before the real one runs), so those pages
# come while the log is still running; each document's page must show its
# own commit's date, the sitemap each <lastmod>, the feed each <updated>,
# and the site must be the one a single thread builds.
set -eu
command -v git >/dev/null 2>&1 || exit 77
real=$(command -v git)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/site/content" "$d/bin"
cat > "$d/site/site.yml" <<'EOF'
title: Dated
base_url: https://example.org/
EOF
git -C "$d/site" init -q
n=0
for day in 03 11 19 27; do
	n=$((n + 1))
	printf -- '---\ntitle: Doc %s\n---\n# Doc %s\n\n- [Paper %s](https://arxiv.org/abs/2401.0000%s) - on day %s\n' \
		"$n" "$n" "$n" "$n" "$day" > "$d/site/content/doc$n.md"
	git -C "$d/site" add -A
	GIT_AUTHOR_DATE="2025-03-${day}T12:00:00Z" GIT_COMMITTER_DATE="2025-03-${day}T12:00:00Z" \
		git -C "$d/site" -c user.name=t -c user.email=t@example.org commit -q -m "doc $n"
done
printf '#!/bin/sh\nsleep 0.4\nexec "%s" "$@"\n' "$real" > "$d/bin/git"
chmod +x "$d/bin/git"
check() {
	out=$1
	for k in 1 2 3 4; do
		day=$(echo 03 11 19 27 | cut -d' ' -f"$k")
		grep -q "datetime=\"2025-03-$day\"" "$out/doc$k/index.html" ||
			{ echo "doc$k's page does not show 2025-03-$day"; exit 1; }
		grep -q "<loc>https://example.org/doc$k/</loc><lastmod>2025-03-$day</lastmod>" \
			"$out/sitemap.xml" || { echo "the sitemap has no 2025-03-$day for doc$k"; exit 1; }
	done
	[ "$(grep -c '<updated>2025-03-' "$out/feed.xml")" -ge 4 ] ||
		{ echo "the feed's entries have no dates"; exit 1; }
}
PATH="$d/bin:$PATH" "$SSG" build -q --force -s "$d/site" -o "$d/out2" 2>/dev/null
check "$d/out2"
PATH="$d/bin:$PATH" "$SSG" build -q --force -j 1 -s "$d/site" -o "$d/out1" 2>/dev/null
check "$d/out1"
diff -r -q -x '.ssg-*' "$d/out1" "$d/out2" || { echo "two threads and one differ"; exit 1; }
echo "git_dates: ok"
