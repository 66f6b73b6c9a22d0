/* clock: milliseconds on the monotonic clock, for phases' timings.
 * Header-only. Level 0. */
#ifndef SSG_CLOCK_H
#define SSG_CLOCK_H
#include <time.h>

static inline double clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

#endif
