#!/bin/sh
# hugepages: a build of a big site (200 entries or more in content/)
# re-executes itself once with malloc on huge pages
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, see src/hugepages.h), and makes the
# same site as without; a small site, SSG_HUGEPAGES=0, or a GLIBC_TUNABLES
# that already sets hugetlb run as they are, and so does an incremental
# build (the last build's state in the output folder, not --force) unless
# SSG_HUGEPAGES=1. Skipped (77) without strace.
set -u
: "${SSG:?set SSG to the ssg binary}"
command -v strace >/dev/null 2>&1 || { echo "no strace"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-hugepages.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/big/content" "$d/small/content"
printf 'title: Big\n' > "$d/big/site.yml"
printf 'title: Small\n' > "$d/small/site.yml"
i=0
while [ $i -lt 210 ]; do
	printf '# Document %s\n\n- [Shared](https://example.org/shared) - cited by all\n- [Own %s](https://example.org/own/%s) - its own\n' \
		$i $i $i > "$d/big/content/doc-$i.md"
	i=$((i+1))
done
cp "$d/big/content/doc-1.md" "$d/small/content/"
# reexecs DIR OUT [ENV...]: how many times ssg executed itself anew (the
# first execve, strace's own, has no hugetlb); FORCE= builds incrementally
FORCE=--force
reexecs() {
	dir=$1 out=$2; shift 2
	env "$@" strace -f -qq -v -s 200 -e trace=execve -o "$d/trace" \
		"$SSG" build -q $FORCE -s "$dir" -o "$out" 2>/dev/null ||
		{ echo "the build of $dir failed ($*)"; exit 1; }
	grep -F "[\"$SSG\", \"build\"" "$d/trace" |
		grep -c 'GLIBC_TUNABLES=[^"]*glibc.malloc.hugetlb=1'
}
n=$(reexecs "$d/big" "$d/out-big")
[ "$n" = 1 ] || { echo "big site: $n re-executions with huge pages, not 1"; cat "$d/trace"; exit 1; }
n=$(reexecs "$d/big" "$d/out-plain" SSG_HUGEPAGES=0)
[ "$n" = 0 ] || { echo "SSG_HUGEPAGES=0: $n re-executions"; exit 1; }
n=$(reexecs "$d/big" "$d/out-user" GLIBC_TUNABLES=glibc.malloc.hugetlb=0)
[ "$n" = 0 ] || { echo "the user's own hugetlb setting: $n re-executions"; exit 1; }
n=$(reexecs "$d/small" "$d/out-small")
[ "$n" = 0 ] || { echo "small site: $n re-executions"; exit 1; }
# an incremental build: small pages, unless asked for
FORCE=
echo "- [Edited](https://example.org/edited) - an entry more" >> "$d/big/content/doc-3.md"
n=$(reexecs "$d/big" "$d/out-plain")
[ "$n" = 0 ] || { echo "incremental build: $n re-executions with huge pages, not 0"; exit 1; }
grep -q 'example.org/edited' "$d/out-plain/doc-3/index.html" || { echo "the edit is not in its page"; exit 1; }
echo "- [Again](https://example.org/again) - one more" >> "$d/big/content/doc-3.md"
n=$(reexecs "$d/big" "$d/out-plain" SSG_HUGEPAGES=1)
[ "$n" = 1 ] || { echo "SSG_HUGEPAGES=1, incremental: $n re-executions, not 1"; exit 1; }
# the same site as a forced build of the same content
FORCE=--force
n=$(reexecs "$d/big" "$d/out-big")
# (the build's own state aside: it tells how the site was made)
X="-x .ssg-build -x .ssg-pages -x .ssg-docs -x .ssg-json -x .ssg-items"
diff -r $X "$d/out-big" "$d/out-plain" >/dev/null ||
	{ echo "the site built with huge pages differs"; diff -r $X "$d/out-big" "$d/out-plain" | head; exit 1; }
[ -s "$d/out-big/doc-209/index.html" ] || { echo "no page for the last document"; exit 1; }
echo "hugepages: ok"
