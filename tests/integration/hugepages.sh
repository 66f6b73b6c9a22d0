#!/bin/sh
# hugepages: a build of a big site (200 entries or more in content/)
# re-executes itself once with malloc on huge pages
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, see src/hugepages.h), and makes the
# same site as without; a small site, SSG_HUGEPAGES=0, or a GLIBC_TUNABLES
# that already sets hugetlb run as they are. Skipped (77) without strace.
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
# first execve, strace's own, has no hugetlb)
reexecs() {
	dir=$1 out=$2; shift 2
	env "$@" strace -f -qq -v -s 200 -e trace=execve -o "$d/trace" \
		"$SSG" build -q --force -s "$dir" -o "$out" 2>/dev/null ||
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
diff -r "$d/out-big" "$d/out-plain" >/dev/null ||
	{ echo "the site built with huge pages differs"; diff -r "$d/out-big" "$d/out-plain" | head; exit 1; }
[ -s "$d/out-big/doc-209/index.html" ] || { echo "no page for the last document"; exit 1; }
echo "hugepages: ok"
