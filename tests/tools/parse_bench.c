/* parse_bench: the per-byte parse time of ssg's two readers, for BENCHMARKS.md.
 * Usage: parse_bench md|rst FILE [ROUNDS]  -> prints bytes, seconds, ns/byte
 * (best of ROUNDS parses of the whole file, tree freed each time). */
#include "ast.h"
#include "buf.h"
#include "diag.h"
#include "md.h"
#include "rst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	struct buf text = BUF_INIT;
	if (buf_read_file(&text, argv[2]))
		return 1;
	int rounds = argc > 3 ? atoi(argv[3]) : 5;
	bool rst = !strcmp(argv[1], "rst");
	double best = 1e9;
	for (int i = 0; i < rounds; i++) {
		struct diags d = DIAGS_INIT;
		struct rst_options o = {.max_depth = 64};
		double t0 = now();
		cmark_node *doc = rst ? rst_parse(buf_cstr(&text), text.n, argv[2], &o, &d)
				      : md_parse(buf_cstr(&text), text.n, argv[2], false, &d);
		double t = now() - t0;
		cmark_node_free(doc);
		diags_free(&d);
		if (t < best)
			best = t;
	}
	printf("%s %zu bytes %.3f s %.1f ns/byte\n", argv[1], text.n, best, best * 1e9 / (double)text.n);
	buf_free(&text);
	return 0;
}
