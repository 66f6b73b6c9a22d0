/* utf8: text hygiene for every input file. Validation, decoding, a binary-data
 * sniffer, and utf8_clean(), which turns raw bytes into valid UTF-8 text
 * (BOM, line endings, invalid bytes, mojibake). Level 0; calls buf, diag,
 * xalloc. Thread-safe: no state outside the arguments. */
#ifndef SSG_UTF8_H
#define SSG_UTF8_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diags;

/* Clean raw file bytes into valid UTF-8 text. Returns a new NUL-terminated heap
 * string (the caller frees it) and stores its length in *out_len (may be NULL).
 * Never fails; `in` may be NULL when n is 0.
 *
 * - A leading BOM (EF BB BF) is dropped.
 * - CRLF and a lone CR become LF (a CR ends a line for line numbering too).
 * - NUL, the other C0 control characters but TAB, DEL, and ill-formed UTF-8
 *   (stray continuation bytes, truncated
 *   sequences, overlong forms, surrogates U+D800..DFFF, values above U+10FFFF)
 *   become U+FFFD: one U+FFFD per maximal ill-formed subpart, as Unicode
 *   recommends. One warning per affected line, code "invalid-utf8":
 *   `path:line:col: warning: invalid UTF-8 ...`, where col is the 1-based byte
 *   column in the input line of the first bad byte (the BOM does not count).
 * - Mojibake, UTF-8 that was decoded as Windows-1252 and re-encoded ("ðŸš€"
 *   for 🚀, "â€™" for ’, "Ã©" for é), is repaired. One warning per affected
 *   line, code "mojibake", quoting the first repair of the line:
 *   `path:line:col: warning: repaired mis-encoded text (mojibake) "ðŸš€" -> "🚀"`.
 *
 * The repair is conservative. A candidate is a maximal run of non-ASCII
 * characters that all have a Windows-1252 byte (the five undefined bytes
 * 0x81 0x8D 0x8F 0x90 0x9D count as U+0081 etc.), beginning with a UTF-8 lead
 * byte (Â..ô); its bytes must form valid UTF-8 as a whole. The run is then
 * repaired only when, in addition, every decoded character is plausible text
 * (no C1 controls, private use or noncharacters; 2-byte results from leads
 * other than Â/Ã must be Latin Extended-A, combining marks, Greek, Cyrillic,
 * Hebrew or Arabic letters; 4-byte results must come from ð) and one of:
 * it contains a sequence led by Â, Ã, â, ï or ð (the common cases: Latin-1,
 * punctuation, BOM, emoji); it holds two or more sequences; or it is one
 * 2-byte sequence touching an ASCII letter ("zaÅ‚" for "zał"). Real text such
 * as "café", "naïve", "Ångström", "Straße”", "CAFÉ’s", "10 Å²", "×", "–"
 * stays untouched. `path` may be NULL (""), `d` may be NULL (no warnings). */
char *utf8_clean(const char *in, size_t n, size_t *out_len, const char *path, struct diags *d);

/* True when s[0..n) is well-formed UTF-8 (NUL bytes allowed). */
bool utf8_valid(const char *s, size_t n);

/* Heuristic: looks like binary data. True when the first 8 KB hold a NUL byte,
 * or when more than 30% of their bytes are ill-formed UTF-8 or C0 control
 * characters other than tab, LF, VT, FF, CR and ESC. */
bool utf8_looks_binary(const char *s, size_t n);

/* Decode one character at s[0..n). Returns its length (1..4) and stores the
 * code point in *cp; for ill-formed input returns the negated length of the
 * maximal ill-formed subpart (-1..-3) and stores U+FFFD. n must be > 0. */
int utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Encode cp (<= U+10FFFF, not a surrogate; else U+FFFD) into out[4]; returns
 * the length. */
int utf8_encode(uint32_t cp, char out[4]);

/* s (a heap string) cut to at most max bytes (max >= 8) when longer: at
 * the last space of its second half, else between UTF-8 characters, then
 * ending in "…". In place; returns s. */
char *utf8_bound(char *s, size_t max);

#endif
