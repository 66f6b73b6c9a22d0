/* sanitize: the raw-HTML allowlist. Turns the raw HTML that Markdown authors
 * write for GitHub into HTML that is safe to publish, and holds the one URL
 * scheme check every link and image target goes through. Level 2; pure (bytes
 * in, bytes and diagnostics out); calls only buf and diag. Thread-safe: no
 * state outside the call.
 *
 * Policy (decided here, in GitHub's spirit):
 * - Elements kept: a abbr b bdi bdo blockquote br caption cite code dd del
 *   details dfn div dl dt em figcaption figure h1-h6 hr i img ins kbd li mark
 *   ol p picture pre q rp rt ruby s samp small source span strike strong sub
 *   summary sup table tbody td tfoot th thead time tr tt u ul var wbr.
 * - Attributes kept on every kept element: id, title, lang, dir, align,
 *   aria-label, aria-hidden; per element: a href name; img src alt width
 *   height; source srcset media type width height; td/th colspan rowspan
 *   valign width (th also scope); ol start type reversed; ul type; li value;
 *   details open; blockquote/q cite; del/ins cite datetime; time datetime;
 *   table width border; tr valign. Everything else is dropped: every on*
 *   handler, style, class (GitHub drops it too), target, srcset outside
 *   <source>, data-*. `id` and `name` are kept verbatim (no "user-content-"
 *   prefix) so that same-page links written for them keep working on a static
 *   site without JavaScript; themes should therefore prefix their own ids
 *   ("ssg-…"). No rel is added to links: target is never kept, so there is no
 *   opener to guard, and raw links render like Markdown links.
 * - URL attributes (href, src, cite, each srcset candidate) are decoded
 *   (character references, including the ones written without ';') and
 *   checked with sanitize_url_ok; a refused URL drops the attribute.
 * - Elements dropped with their content (up to the matching end tag, or the
 *   end of the fragment): script style iframe object noscript template title
 *   textarea xmp noembed noframes plaintext svg math. Elements whose tag alone
 *   is dropped (content kept): embed form input button select option optgroup
 *   meta link base frame frameset applet audio video track canvas html head
 *   body param dialog marquee label fieldset legend datalist output keygen
 *   menu image isindex area map col colgroup center font big blink nav
 *   section article aside header footer main address hgroup portal slot.
 * - Any other tag (unknown or malformed names such as "<T>", "<my-widget>",
 *   "<scr<script>"), "<!DOCTYPE>", "<?pi?>", "<![CDATA[", and a tag left
 *   unterminated at the end of the fragment (that tag and everything after it)
 *   become escaped text: visible, never markup.
 * - Comments are dropped silently. End tags of dropped elements are dropped
 *   silently (their start tag already warned).
 *
 * Output is well-formed for what it emits: lower-case tag and attribute
 * names, values in double quotes and re-escaped, void elements written
 * "<br />" like cmark-gfm does, '<' '>' and stray '&' in text escaped,
 * NUL bytes replaced by U+FFFD. Character references in text are kept when
 * well-formed ("&name;" with an ASCII name, or a numeric reference to a valid
 * code point; a missing ';' after a numeric one is added); otherwise the '&'
 * is escaped. An unknown but well-formed "&name;" is kept: a browser shows it
 * literally, exactly as if it had been escaped. Tags are not balanced (an
 * inline fragment is a single tag): the caller renders the document.
 *
 * Diagnostics: one warning per dropped element, per tag that lost attributes
 * (naming up to four of them) and per refused URL, with code "raw-html", the
 * given path, and line = `line` plus the newlines before the tag in the
 * fragment; col is 0 (the fragment's own column is not known here). */
#ifndef SSG_SANITIZE_H
#define SSG_SANITIZE_H
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "diag.h"

/* Sanitise one fragment of raw HTML as cmark-gfm hands it over and append the
 * result to out: an HTML block (its whole text) or one inline HTML node
 * (usually a single tag such as "<a href=\"x\">", "</a>", "<br/>", or a
 * comment). `in` need not be NUL-terminated and may contain NUL bytes.
 *
 * Inline context: cmark-gfm hands inline HTML over tag by tag, so the text
 * between "<script>" and "</script>" inside a paragraph arrives as separate
 * text nodes, which the renderer escapes anyway; here only the tags are seen
 * and dropped. In an HTML block the whole block is one fragment, so the
 * content of script, style, iframe... is dropped too.
 *
 * path may be NULL (""), d may be NULL (no diagnostics). Never fails, never
 * aborts except on out of memory; time is linear in n. */
void sanitize_html(const char *in, size_t n, struct buf *out, const char *path, int line,
		   struct diags *d);

/* The scheme check used for URL attributes, exposed for Markdown link and
 * image targets (pass them as cmark-gfm gives them: entities already
 * decoded). True for http:, https:, mailto: (any case), and for relative
 * references and #fragments. Leading and trailing spaces and control
 * characters are ignored as browsers do; any control character left inside
 * (tab, newline, NUL... which browsers silently delete, as in
 * "jav\tascript:") refuses the URL, and so does a relative reference whose
 * first segment holds a ':' (not a valid relative reference: "`javascript:x",
 * "java script:x"). javascript:, vbscript:, data:, file: and every other
 * scheme are refused. */
bool sanitize_url_ok(const char *url, size_t n);

#endif
