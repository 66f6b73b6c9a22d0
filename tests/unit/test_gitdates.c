/* test_gitdates: parsing `git log --name-only` output, real runs of git over
 * throw-away repositories with fixed commit dates, and the dates kept between
 * builds (.ssg-cache/gitdates). */
#include "testutil.h"
#include "doc.h"
#include "gitdates.h"
#include "buf.h"

#include <unistd.h>

static void test_parse_newest_wins(void **state)
{
	(void)state;
	const char *log = "\x01" "2024-05-02\n\nb.md\nsub/c.rst\n"
			  "\x01" "2023-01-15\n\na.md\nb.md\n"
			  "\x01" "2022-12-31\n\nsub/c.rst\n";
	struct gitdates g = {0};
	gitdates_parse(&g, log, strlen(log));
	assert_int_equal(g.n, 3);
	assert_string_equal(gitdates_get(&g, "a.md"), "2023-01-15");
	assert_string_equal(gitdates_get(&g, "b.md"), "2024-05-02");
	assert_string_equal(gitdates_get(&g, "sub/c.rst"), "2024-05-02");
	assert_null(gitdates_get(&g, "missing.md"));
	assert_null(gitdates_get(&g, NULL));
	gitdates_free(&g);
	assert_int_equal(g.n, 0);
}

static void test_parse_garbage(void **state)
{
	(void)state;
	/* names before any commit line, bad dates, quoted names, CRLF, no final newline */
	const char *log = "orphan.md\n\x01not-a-date\nlost.md\n\x01" "2020-02-29\r\n"
			  "\"q\\tuoted.md\"\nok.md\r\n\x01" "2019-01-01\nlast.md";
	struct gitdates g = {0};
	gitdates_parse(&g, log, strlen(log));
	assert_null(gitdates_get(&g, "orphan.md"));
	assert_null(gitdates_get(&g, "lost.md"));
	assert_string_equal(gitdates_get(&g, "ok.md"), "2020-02-29");
	assert_string_equal(gitdates_get(&g, "last.md"), "2019-01-01");
	assert_int_equal(g.n, 2);
	/* parsing again replaces, and an empty text gives nothing */
	gitdates_parse(&g, "", 0);
	assert_int_equal(g.n, 0);
	assert_null(gitdates_get(&g, "ok.md"));
	gitdates_free(&g);
}

static int sh(const char *cmd)
{
	int rc = system(cmd);
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

static void test_real_git(void **state)
{
	(void)state;
	if (sh("git --version >/dev/null 2>&1") != 0)
		skip();
	char dir[] = "/tmp/ssg-gitdates-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[2048];
	/* the site sits in a sub-folder of the repository: names must still be
	 * relative to its content/ */
	snprintf(cmd, sizeof cmd,
		 "cd %s && git init -q . && mkdir -p site/content/sub site/other && "
		 "export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e && "
		 "echo a > site/content/a.md && echo c > site/content/sub/c.md && echo o > site/other/o.md && "
		 "git add -A && GIT_AUTHOR_DATE='2021-03-04T10:00:00Z' GIT_COMMITTER_DATE='2021-03-04T10:00:00Z' "
		 "git -c commit.gpgsign=false commit -q -m one && "
		 "echo a2 >> site/content/a.md && git add -A && "
		 "GIT_AUTHOR_DATE='2022-06-07T10:00:00Z' GIT_COMMITTER_DATE='2022-06-07T10:00:00Z' "
		 "git -c commit.gpgsign=false commit -q -m two && "
		 "echo new > site/content/uncommitted.md",
		 dir);
	assert_int_equal(sh(cmd), 0);
	char site[600];
	snprintf(site, sizeof site, "%s/site", dir);
	struct gitdates g = {0};
	assert_int_equal(gitdates_load(&g, site), 0);
	assert_string_equal(gitdates_get(&g, "a.md"), "2022-06-07");
	assert_string_equal(gitdates_get(&g, "sub/c.md"), "2021-03-04");
	assert_null(gitdates_get(&g, "uncommitted.md"));
	assert_null(gitdates_get(&g, "o.md"));
	assert_null(gitdates_get(&g, "../other/o.md"));
	gitdates_free(&g);

	/* fill: front matter wins, uncommitted files get nothing */
	struct doc docs[3];
	memset(docs, 0, sizeof docs);
	docs[0].relpath = "a.md";
	docs[1].relpath = "sub/c.md";
	docs[1].meta.updated = strdup("1999-09-09");
	docs[2].relpath = "uncommitted.md";
	gitdates_fill(site, docs, 3);
	assert_string_equal(docs[0].meta.updated, "2022-06-07");
	assert_string_equal(docs[1].meta.updated, "1999-09-09");
	assert_null(docs[2].meta.updated);
	free(docs[0].meta.updated);
	free(docs[1].meta.updated);

	/* not a checkout: -1 and nothing */
	char plain[] = "/tmp/ssg-gitdates-plain-XXXXXX";
	assert_non_null(mkdtemp(plain));
	snprintf(cmd, sizeof cmd, "mkdir -p %s/content && echo x > %s/content/x.md", plain, plain);
	assert_int_equal(sh(cmd), 0);
	assert_int_equal(gitdates_load(&g, plain), -1);
	assert_int_equal(g.n, 0);
	/* no content/ at all */
	assert_int_equal(gitdates_load(&g, "/nonexistent-ssg-dir"), -1);
	snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, plain);
	assert_int_equal(sh(cmd), 0);
}

/* gitdates_head reads HEAD's commit from .git as `git rev-parse HEAD` gives
 * it: a loose branch, packed refs, a worktree, a detached HEAD; nothing when
 * there is no repository. */
static void expect_head(const char *site, const char *gitdir_of)
{
	char cmd[1024], want[128] = "";
	snprintf(cmd, sizeof cmd, "git -C %s rev-parse HEAD > %s/.want", gitdir_of, gitdir_of);
	assert_int_equal(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s/.want", gitdir_of);
	FILE *f = fopen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(want, sizeof want, f));
	fclose(f);
	unlink(cmd);
	struct buf b = BUF_INIT;
	gitdates_head(site, &b);
	assert_string_equal(buf_cstr(&b), want);
	buf_free(&b);
}

static void test_head(void **state)
{
	(void)state;
	if (sh("git --version >/dev/null 2>&1") != 0)
		skip();
	char dir[] = "/tmp/ssg-gitHEAD-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[2048], site[600], wt[600];
	snprintf(cmd, sizeof cmd,
		 "cd %s && git init -q repo && cd repo && mkdir -p site/content && "
		 "export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e && "
		 "echo a > site/content/a.md && git add -A && git -c commit.gpgsign=false commit -q -m one && "
		 "echo b >> site/content/a.md && git -c commit.gpgsign=false commit -qam two",
		 dir);
	assert_int_equal(sh(cmd), 0);
	snprintf(site, sizeof site, "%s/repo/site", dir);
	expect_head(site, site); /* a loose ref */
	snprintf(cmd, sizeof cmd, "git -C %s pack-refs --all", site);
	assert_int_equal(sh(cmd), 0);
	expect_head(site, site); /* packed */
	snprintf(wt, sizeof wt, "%s/wt", dir);
	snprintf(cmd, sizeof cmd, "git -C %s worktree add -q -b side %s HEAD~1 2>/dev/null", site, wt);
	assert_int_equal(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s/site", wt);
	expect_head(cmd, wt); /* a worktree: its own HEAD */
	snprintf(cmd, sizeof cmd, "git -C %s checkout -q --detach HEAD~1", site);
	assert_int_equal(sh(cmd), 0);
	expect_head(site, site); /* detached */
	/* no repository around: nothing */
	char plain[] = "/tmp/ssg-gitHEAD-plain-XXXXXX";
	assert_non_null(mkdtemp(plain));
	snprintf(cmd, sizeof cmd, "mkdir -p %s/content", plain);
	assert_int_equal(sh(cmd), 0);
	struct buf b = BUF_INIT;
	gitdates_head(plain, &b);
	assert_int_equal(b.n, 0);
	buf_free(&b);
	snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, plain);
	assert_int_equal(sh(cmd), 0);
}

/* In the file the dates are kept in, every date becomes 1999-01-01: a load
 * that gives it back took the file, not git. */
static void tamper(const char *site)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "sed -i 's/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/1999-01-01/' "
		 "%s/.ssg-cache/gitdates", site);
	assert_int_equal(sh(cmd), 0);
}

static const char *kept_date(const char *site, const char *env, bool reuse)
{
	static char out[16];
	struct gitdates g = {0};
	assert_int_equal(gitdates_load_kept(&g, site, env, reuse), 0);
	const char *d = gitdates_get(&g, "a.md");
	snprintf(out, sizeof out, "%s", d ? d : "none");
	gitdates_free(&g);
	return out;
}

/* The dates are kept under the caches' env and the commit checked out: taken
 * while both stay; git runs again for another commit, another env, a shallow
 * boundary, or when reuse is false (--force). */
static void test_kept(void **state)
{
	(void)state;
	if (sh("git --version >/dev/null 2>&1") != 0)
		skip();
	char dir[] = "/tmp/ssg-gitkept-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char cmd[2048], site[600];
	const char *commit = "export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t "
			     "GIT_COMMITTER_EMAIL=t@e GIT_AUTHOR_DATE='%s' GIT_COMMITTER_DATE='%s' && "
			     "git -C %s add -A && git -C %s -c commit.gpgsign=false commit -q -m c";
	snprintf(site, sizeof site, "%s/site", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s/content && git init -q %s && echo a > %s/content/a.md",
		 site, site, site);
	assert_int_equal(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, commit, "2021-03-04T10:00:00Z", "2021-03-04T10:00:00Z", site, site);
	assert_int_equal(sh(cmd), 0);
	const char *env = "0123456789abcdef0123456789abcdef", *other = "fedcba9876543210fedcba9876543210";

	assert_string_equal(kept_date(site, env, true), "2021-03-04");
	snprintf(cmd, sizeof cmd, "test -f %s/.ssg-cache/gitdates", site);
	assert_int_equal(sh(cmd), 0);
	tamper(site);
	assert_string_equal(kept_date(site, env, true), "1999-01-01"); /* kept: git did not run */
	/* an uncommitted edit: the same commit, the same dates */
	snprintf(cmd, sizeof cmd, "echo more >> %s/content/a.md", site);
	assert_int_equal(sh(cmd), 0);
	assert_string_equal(kept_date(site, env, true), "1999-01-01");
	/* --force: git runs, and what it said is kept */
	assert_string_equal(kept_date(site, env, false), "2021-03-04");
	tamper(site);
	/* another env (another account, or a cache that came with the site) */
	assert_string_equal(kept_date(site, other, true), "2021-03-04");
	tamper(site);
	/* a new commit */
	snprintf(cmd, sizeof cmd, commit, "2022-06-07T10:00:00Z", "2022-06-07T10:00:00Z", site, site);
	assert_int_equal(sh(cmd), 0);
	assert_string_equal(kept_date(site, other, true), "2022-06-07");
	/* a shallow boundary (deepened, the same commit has more history) */
	tamper(site);
	snprintf(cmd, sizeof cmd, "git -C %s rev-parse HEAD > %s/.git/shallow", site, site);
	assert_int_equal(sh(cmd), 0);
	assert_string_equal(kept_date(site, other, true), "2022-06-07");
	/* not a checkout: nothing, and nothing kept */
	snprintf(cmd, sizeof cmd, "rm -rf %s/.git %s/.ssg-cache", site, site);
	assert_int_equal(sh(cmd), 0);
	struct gitdates g = {0};
	assert_int_equal(gitdates_load_kept(&g, site, env, true), -1);
	assert_int_equal(g.n, 0);
	snprintf(cmd, sizeof cmd, "test -e %s/.ssg-cache/gitdates", site);
	assert_int_not_equal(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(sh(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_newest_wins),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_real_git),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
