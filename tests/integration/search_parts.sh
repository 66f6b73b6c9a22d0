#!/bin/sh
# search_parts: the search index in parts (search/, src/search_shards.h),
# checked against search-index.json by an independent reading of the rules
# (src/words.h) in Python: the records parts hold the index's entries in
# order, SEARCH_PER a part; the words parts list every word of every entry
# (folded, cut, with the inner parts of words whose case changes), sorted,
# once, with exactly the entries that have it and where (the title's first
# word, another of its words, the extra text), each entry's kind and title
# length; search/index.js names each part's first word. On the portal and
# on a site of 700 documents with accents and mixed case, built at -j 1 and
# -j 2 (the same parts), and again after an edit (the same as a clean build).
set -u
: "${SSG:?set SSG to the ssg binary}"
d=$(mktemp -d "${TMPDIR:-/var/tmp}/ssg-search-parts.XXXXXX")
trap 'rm -rf "$d"' EXIT INT TERM

mkdir -p "$d/big/content"
python3 - "$d/big" <<'EOF2'
import os, sys
root = sys.argv[1]
open(os.path.join(root, "site.yml"), "w").write(
    "title: Parts\ntopics:\n  - id: gpu\n    title: GPU Kernels\n    match: { words: [kernel] }\n")
names = ["Café", "RÉSUMÉ", "Ørsted", "PyTorch", "CUDAGraphs", "FlashAttentionV2", "Straße",
         "cuBLAS", "Ωmega", "Йод", "東京", "naïve"]
for n in range(700):
    a, b = names[n % len(names)], names[(n * 7 + 3) % len(names)]
    with open(os.path.join(root, "content", "doc%03d.md" % n), "w") as f:
        f.write("---\ndescription: About %s and kernel %d\n---\n# %s notes %d\n\n" % (b, n % 13, a, n))
        for h in range(3):
            f.write("## %s part %d-%d\n\n" % (names[(n + h) % len(names)], h, n % 5))
            for j in range(2):
                f.write("- [%s kernel w%d](https://ex.org/%d/%d/%d) - a %s note, x%d\n"
                        % (b, (n + j) % 40, n % 50, h, j, a, n % 9))
            f.write("\n")
EOF2

"$SSG" build -q -j 1 -s "$d/big" -o "$d/big1" 2>/dev/null || { echo "the big build failed"; exit 1; }
"$SSG" build -q -j 2 -s "$d/big" -o "$d/big2" 2>/dev/null || { echo "the -j 2 build failed"; exit 1; }
diff -r "$d/big1/search" "$d/big2/search" >/dev/null || { echo "-j 1 and -j 2 made different parts"; exit 1; }
"$SSG" build -q -s . -o "$d/portal" 2>/dev/null || { echo "the portal's build failed"; exit 1; }

check() {
	python3 - "$1" "$2" <<'EOF2'
import json, os, re, sys, unicodedata
root, min_parts = sys.argv[1], int(sys.argv[2])
MAX, RANGES = 48, [(0x00C0, 0x0250), (0x0370, 0x0500), (0x1E00, 0x1F00)]

def fold(c):
    if c < 0x80:
        return chr(c + 32) if 65 <= c <= 90 else chr(c)
    if 0x300 <= c <= 0x36F:
        return ""
    if any(a <= c < b for a, b in RANGES):
        f = "".join(x for x in unicodedata.normalize("NFD", chr(c).lower()) if not 0x300 <= ord(x) <= 0x36F)
        return f if len(f) == 1 else chr(c)
    return chr(c)

def sep(c):
    if c < 0x80:
        return not chr(c).isalnum()
    if c <= 0xBF:
        return c not in (0xAA, 0xB5, 0xBA)
    return c in (0xD7, 0xF7, 0xFEFF, 0xFFFD) or 0x2000 <= c <= 0x206F or 0x3000 <= c <= 0x303F

upper = lambda c: 65 <= c <= 90
lower = lambda c: 97 <= c <= 122

def words(text):
    """[(word, first, part)], length"""
    out, w, parts, full, prev, prev2 = [], b"", [], False, 0, 0
    first, chars, space = [True], 0, False
    def flush():
        nonlocal w, parts, full, prev, prev2
        if w:
            out.append((w.decode(), first[0], False))
            out.extend((w[p:].decode(), first[0], True) for p in parts)
            first[0] = False
        w, parts, full, prev, prev2 = b"", [], False, 0, 0
    for ch in text:
        c = ord(ch)
        s = sep(c)
        if s:
            flush()
            if c in (32, 9, 10, 0xA0):
                space = chars > 0
                continue
        f = fold(c)
        if not f:
            continue
        chars += 1 + space
        space = False
        if s:
            continue
        if w and len(parts) < 8 and not full:
            if lower(prev) and upper(c):
                parts.append(len(w))
            elif upper(prev) and upper(prev2) and lower(c) and len(w) > 1 and (not parts or parts[-1] < len(w) - 1):
                parts.append(len(w) - 1)
        e = f.encode()
        if full:
            continue
        if len(w) + len(e) > MAX:
            full = True
            continue
        w += e
        prev2, prev = prev, c
    flush()
    return out, chars

def script(path, name):
    t = open(path, encoding="utf-8").read()
    head = 'ssgSearchPart("%s",' % name
    assert t.startswith(head) and t.endswith(");\n"), path
    return json.loads(t[len(head):-3])

index = json.load(open(os.path.join(root, "search-index.json"), encoding="utf-8"))
meta = script(os.path.join(root, "search", "index.js"), "index")
assert meta["entries"] == len(index) and meta["max"] == MAX, (meta["entries"], len(index))
per = meta["per"]
records, k = [], 0
while os.path.exists(os.path.join(root, "search", "r%d.js" % k)):
    part = script(os.path.join(root, "search", "r%d.js" % k), "r%d" % k)
    assert 0 < len(part) <= per
    records += part
    k += 1
assert records == index, "the records parts are not the index"
assert k == (len(index) + per - 1) // per

# what each entry should be found by
want = {}
for i, (kind, title, url, extra) in enumerate(index):
    tw, length = words(title)
    ew, _ = words(extra)
    where = {}
    for w, first, part in tw:
        where[w] = max(where.get(w, 0), 2 if first and not part else 1)
    for w, _, _ in ew:
        where.setdefault(w, 0)
    flags_base = (min(length, 255) * 4 + "dstr".index(kind)) * 3
    for w, p in where.items():
        want.setdefault(w, []).append((i, flags_base + p))

got, firsts, k = {}, [], 0
while os.path.exists(os.path.join(root, "search", "w%d.js" % k)):
    flat = script(os.path.join(root, "search", "w%d.js" % k), "w%d" % k)
    assert len(flat) % 2 == 0 and flat
    firsts.append(flat[0])
    for j in range(0, len(flat), 2):
        w, p = flat[j], flat[j + 1]
        assert w not in got, "word twice: " + w
        ids, at = [], 0
        for m in range(0, len(p), 2):
            at += p[m]
            ids.append((at, p[m + 1]))
        got[w] = ids
    k += 1
assert firsts == meta["words"], "search/index.js does not name the parts' first words"
order = list(got)
assert order == sorted(order, key=lambda w: w.encode()), "words out of byte order"
assert len(firsts) >= min_parts, "%d words parts" % len(firsts)
missing = sorted(set(want) - set(got))[:5]
extra = sorted(set(got) - set(want))[:5]
assert not missing and not extra, "words missing %r, extra %r" % (missing, extra)
for w in want:
    if got[w] != want[w]:
        a, b = got[w], want[w]
        diff = next(x for x in zip(a, b) if x[0] != x[1]) if len(a) == len(b) else (len(a), len(b))
        raise AssertionError("postings of %r differ: %r" % (w, diff))
for w in ("cafe", "resume", "ørsted", "torch", "graphs", "attentionv2", "blas", "ωmega", "иод", "東京", "naive"):
    assert w in got or min_parts < 2, w
print("%s: %d entries, %d records parts, %d words parts, %d words" % (os.path.basename(root), len(index), len(records) and (len(index) + per - 1) // per, len(firsts), len(got)))
EOF2
}
check "$d/big1" 2 || exit 1
check "$d/portal" 1 || exit 1

# an edit (a heading and a link more, in the middle): the parts a kept
# build makes are the ones a clean build makes
printf '\n## Añadido CamelCaseWord\n\n- [New thing](https://ex.org/new) - fresh\n' >>"$d/big/content/doc350.md"
"$SSG" build -q -s "$d/big" -o "$d/big1" 2>/dev/null || { echo "the edit's build failed"; exit 1; }
"$SSG" build -q --force -s "$d/big" -o "$d/big3" 2>/dev/null || { echo "the clean build failed"; exit 1; }
diff -r "$d/big1/search" "$d/big3/search" >/dev/null || { echo "the edit's parts differ from a clean build's"; exit 1; }
grep -q '"camelcaseword"' "$d/big1/search/"w*.js || { echo "the edit's new word is not in the parts"; exit 1; }
check "$d/big1" 2 || exit 1
echo "ok"
