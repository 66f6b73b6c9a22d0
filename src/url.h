/* url: URL canonicalisation (the key on which resources merge), the scheme
 * safety check used by every renderer, host/path accessors and the glob
 * patterns of taxonomy rules. Level 3, but pure string code: it includes only
 * util headers (buf, xalloc). Thread-safe: no state outside the arguments.
 * Every returned string is a new heap string the caller frees. */
#ifndef SSG_URL_H
#define SSG_URL_H
#include <stdbool.h>

/* Canonical form of an absolute http(s) URL; NULL for anything else (another
 * scheme, a relative reference, no host, a host with characters a host cannot
 * hold, a port that is not a number up to 65535).
 *
 * The spelling:  https://HOST[:PORT][/PATH][?QUERY]
 * - Surrounding whitespace and C0 controls are trimmed; tab, CR and LF inside
 *   are removed (as browsers do).
 * - The scheme is always "https" (http and https spell the same resource).
 * - Userinfo ("user:pw@") is dropped: it never names a different resource,
 *   and credentials must not reach the output.
 * - HOST is lower-cased (ASCII), loses a trailing dot and a leading "www."
 *   ("m." too for youtube.com). IPv6 literals stay bracketed: "[::1]".
 * - The port is dropped when it is the default of the URL's own scheme (80 for
 *   http, 443 for https), otherwise written in decimal without leading zeros.
 * - PATH and QUERY: percent-escapes of unreserved characters are decoded
 *   (%41 -> A, %7E -> ~), all others get upper-case hex (%2f -> %2F); a '%'
 *   not followed by two hex digits becomes %25; bytes that may not appear in
 *   a URL (space, controls, "<>\^`{|}, non-ASCII) are percent-encoded. So a
 *   canonical URL is printable ASCII.
 * - "." and ".." segments are resolved (never above the root); empty segments
 *   ("a//b") are kept; trailing slashes are removed, so the root path "/" is
 *   written as nothing: "https://example.org". "index.html" is KEPT: a
 *   directory and its index page may be different pages on some servers.
 * - The fragment is dropped; so is an empty query ("?"). Query parameters keep
 *   their order (it can be meaningful); empty ones ("&&") go, and so do
 *   tracking parameters: utm_* (any case), fbclid, gclid, dclid, gclsrc,
 *   msclkid, yclid, mc_cid, mc_eid, _hsenc, _hsmi, mkt_tok, igshid, ref_src,
 *   ref_url, and on YouTube si and feature.
 * - youtu.be/ID and youtube.com/embed/ID become youtube.com/watch?v=ID (other
 *   parameters follow v).
 * - arxiv.org/pdf/ID, /pdf/ID.pdf, /pdf/IDvN(.pdf), /abs/IDvN become
 *   arxiv.org/abs/ID (old-style IDs such as hep-th/9901001 too).
 * Examples: "http://www.GitHub.com:80/openai/triton/" ->
 * "https://github.com/openai/triton"; "https://arxiv.org/pdf/2205.14135v2.pdf"
 * -> "https://arxiv.org/abs/2205.14135"; "HTTPS://Example.org/?#top" ->
 * "https://example.org". Aliases for moved resources are not applied here
 * (taxonomy does that, on canonical URLs). */
char *url_canonical(const char *url);
/* The same, always the long way (url_canonical takes a quicker one with a
 * URL that is canonical as written): for the tests, which compare the two. */
char *url_canonical_general(const char *url);

/* Is url safe to emit as a link or image target? True for http, https,
 * mailto and ftp URLs and for relative references (including "", "#x", "?q",
 * "//host/x"); false for javascript:, vbscript:, data:, file: and every other
 * scheme. Checked the way a browser would read it, and then some: HTML
 * character references are decoded once (&#x09; &#106; &colon; &Tab;
 * &NewLine;), percent-escapes are decoded in the scheme part (conservative:
 * browsers do not; so "%3A" ends a scheme too and "Talk%3AX" counts as the
 * unknown scheme "talk"), ASCII whitespace and control characters anywhere in
 * the scheme are ignored, and case is ignored. So "jav&#x09;ascript:",
 * "JaVaScRiPt:", " javascript:", "java\tscript:" and "%6Aavascript:" are all
 * unsafe. NULL is unsafe. */
bool url_is_safe(const char *url);

/* True when url (after trimming whitespace) is http:// or https:// with a
 * valid host: exactly when url_canonical() is not NULL. */
bool url_is_absolute_http(const char *url);

/* Host of an absolute URL (any scheme followed by "//"), lower-cased, without
 * "www.", trailing dot, userinfo and port; IPv6 literals keep their brackets.
 * NULL when there is no host. */
char *url_host(const char *url);

/* The path of an absolute URL as written ("/a/b"), without query and
 * fragment; "/" when the URL has an empty path. NULL when url is not an
 * absolute URL with a host. */
char *url_path(const char *url);

/* Glob match for taxonomy rules. `pattern` is host[/path] where '*' matches
 * any run of characters, '/' included. Examples (written with {*} for the
 * star, which cannot appear after a slash in a C comment):
 * "github.com/Dao-AILab/{*}", "{*}.readthedocs.io", "arxiv.org/abs/{*}".
 * It is matched against host + path of the URL (query and fragment ignored;
 * the host as url_host() gives it, so a non-canonical URL works too). The host
 * part is case-insensitive, the path part is not. A pattern names a subtree:
 * it matches when it matches the whole host+path or a prefix of it that ends
 * before a '/' ("github.com/NVIDIA" matches github.com/NVIDIA/cutlass but not
 * github.com/NVIDIA-AI; "{*}.readthedocs.io" matches
 * black.readthedocs.io/en/stable). A scheme or a leading "www." in the
 * pattern is ignored. False when either is NULL or the URL has no host. */
bool url_match_pattern(const char *canonical_url, const char *pattern);
/* The same in two steps, for matching many URLs against many patterns: the
 * key (host+path) of a URL, once per URL (NULL when it has no host); the
 * compiled pattern, once per pattern; then the match. */
char *url_match_key(const char *url);
char *url_pattern_compile(const char *pattern);
bool url_match_key_pattern(const char *key, const char *compiled);

#endif
