/* test_cite_key: a citation's key changes with what resources are made of
 * (each of its fields, its section's level, id and text, and any enclosing
 * section's) and with nothing else of its document (another section, another
 * citation, a section after it). */
#include "testutil.h"

#include "cite_key.h"
#include "xalloc.h"

/* A document of three sections (intro > setup, then notes) and a citation
 * in each of setup and notes. */
static void sample(struct doc *d)
{
	memset(d, 0, sizeof *d);
	d->nheadings = 3;
	d->headings = xcalloc(3, sizeof *d->headings);
	d->headings[0] = (struct heading){xstrdup("Intro"), xstrdup("intro"), 2, 1, -1, NULL};
	d->headings[1] = (struct heading){xstrdup("Setup"), xstrdup("setup"), 3, 5, 0, NULL};
	d->headings[2] = (struct heading){xstrdup("Notes"), xstrdup("notes"), 2, 9, -1, NULL};
	d->ncites = 2;
	d->cites = xcalloc(2, sizeof *d->cites);
	for (int i = 0; i < 2; i++)
		d->cites[i] = (struct citation){.url = xstrdup("https://a.org/x?utm=1"),
						.canonical = xstrdup("https://a.org/x"),
						.text = xstrdup("X"), .title = xstrdup("The X"),
						.desc = xstrdup("a description"), .line = 6 + 4 * i,
						.col = 3, .heading = 1 + i, .listing = true,
						.entry = 1 + i};
}

static void release(struct doc *d)
{
	for (size_t i = 0; i < d->nheadings; i++) {
		free(d->headings[i].text);
		free(d->headings[i].id);
	}
	free(d->headings);
	for (size_t i = 0; i < d->ncites; i++) {
		struct citation *c = &d->cites[i];
		free(c->url);
		free(c->canonical);
		free(c->text);
		free(c->title);
		free(c->desc);
	}
	free(d->cites);
}

static bool same(const unsigned long long a[2], const unsigned long long b[2])
{
	return a[0] == b[0] && a[1] == b[1];
}

/* The first citation's key after edit(d). */
static void key_after(void (*edit)(struct doc *), unsigned long long out[2])
{
	struct doc d;
	sample(&d);
	if (edit)
		edit(&d);
	cite_keys(&d);
	out[0] = d.cites[0].key[0];
	out[1] = d.cites[0].key[1];
	release(&d);
}

static void swap_str(char **p, const char *s)
{
	free(*p);
	*p = s ? xstrdup(s) : NULL;
}

static void url(struct doc *d) { swap_str(&d->cites[0].url, "https://a.org/x?utm=2"); }
static void canonical(struct doc *d) { swap_str(&d->cites[0].canonical, "https://a.org/y"); }
static void text(struct doc *d) { swap_str(&d->cites[0].text, "X!"); }
static void title(struct doc *d) { swap_str(&d->cites[0].title, "The Y"); }
static void desc(struct doc *d) { swap_str(&d->cites[0].desc, NULL); }
static void line(struct doc *d) { d->cites[0].line++; }
static void col(struct doc *d) { d->cites[0].col++; }
static void bare(struct doc *d) { d->cites[0].bare = true; }
static void section(struct doc *d) { d->cites[0].heading = 0; }
static void section_text(struct doc *d) { swap_str(&d->headings[1].text, "Set-up"); }
static void section_id(struct doc *d) { swap_str(&d->headings[1].id, "set-up"); }
static void section_level(struct doc *d) { d->headings[1].level = 4; }
static void parent_text(struct doc *d) { swap_str(&d->headings[0].text, "Introduction"); }
/* not the first citation's */
static void other_section(struct doc *d) { swap_str(&d->headings[2].text, "More notes"); }
static void other_cite(struct doc *d) { swap_str(&d->cites[1].desc, "another one"); }

static void test_what_moves_a_key(void **state)
{
	(void)state;
	unsigned long long base[2], again[2], k[2];
	key_after(NULL, base);
	key_after(NULL, again);
	assert_true(same(base, again));
	void (*moves[])(struct doc *) = {url,  canonical, text, title, desc, line,
					  col,  bare,    section,      section_text, section_id,
					  section_level, parent_text};
	for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
		key_after(moves[i], k);
		assert_false(same(base, k));
	}
	void (*keeps[])(struct doc *) = {other_section, other_cite};
	for (size_t i = 0; i < sizeof keeps / sizeof *keeps; i++) {
		key_after(keeps[i], k);
		assert_true(same(base, k));
	}
	/* the two citations (other sections, lines, entries): other keys */
	struct doc d;
	sample(&d);
	cite_keys(&d);
	assert_false(same(d.cites[0].key, d.cites[1].key));
	release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_moves_a_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
