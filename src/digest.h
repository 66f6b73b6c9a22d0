/* digest: a streaming 128-bit hash over 8-byte words, for telling inputs and
 * pages apart between builds (not cryptographic). Header-only. Level 0. */
#ifndef SSG_DIGEST_H
#define SSG_DIGEST_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Changes whenever the function does: digests kept on disk without the
 * binary's fingerprint (the stat cache) name it. */
#define DIGEST_VERSION "2"

struct digest {
	uint64_t a, b, n;
};

static inline uint64_t digest_rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline void digest_start(struct digest *s)
{
	s->a = 0x243F6A8885A308D3ULL;
	s->b = 0x13198A2E03707344ULL;
	s->n = 0;
}

static inline void digest_word(struct digest *s, uint64_t w)
{
	s->a = digest_rotl((s->a ^ w) * 0x9E3779B97F4A7C15ULL, 31);
	s->b = digest_rotl((s->b + w) * 0xC2B2AE3D27D4EB4FULL, 27) ^ s->a;
}

/* Feed n bytes. Streaming callers pass multiples of 8 until the last call;
 * others may call it for each field (each call ends its own partial word). */
static inline void digest_feed(struct digest *s, const void *data, size_t n)
{
	const unsigned char *p = data;
	s->n += n;
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		digest_word(s, w);
	}
	if (n) {
		/* the 1 to 7 bytes left, in fixed-size loads (a memcpy of a
		 * variable length is a call, for every short string): two
		 * overlapping 4-byte halves, or the first, middle and last byte;
		 * with n counted in, each tail gives its own word */
		uint64_t w;
		if (n >= 4) {
			uint32_t lo, hi;
			memcpy(&lo, p, 4);
			memcpy(&hi, p + n - 4, 4);
			w = (uint64_t)lo | (uint64_t)hi << 32;
		} else
			w = (uint64_t)p[0] << 16 | (uint64_t)p[n >> 1] << 8 | p[n - 1];
		digest_word(s, w ^ ((uint64_t)n << 56) ^ 0x8000000000000000ULL);
	}
}

/* The word that stands for no value (a NULL string, no section). */
#define DIGEST_NONE 0xFFFFFFFFFFFFFFFFULL

/* A string with its length first, or DIGEST_NONE for none: no two records of
 * fields fed one after another feed the same words. */
static inline void digest_str(struct digest *s, const char *str)
{
	if (!str) {
		digest_word(s, DIGEST_NONE);
		return;
	}
	size_t n = strlen(str);
	digest_word(s, n);
	digest_feed(s, str, n);
}

static inline uint64_t digest_avalanche(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xFF51AFD7ED558CCDULL;
	x ^= x >> 33;
	x *= 0xC4CEB9FE1A85EC53ULL;
	return x ^ (x >> 33);
}

static inline void digest_end(struct digest *s, unsigned long long out[2])
{
	digest_word(s, s->n);
	out[0] = digest_avalanche(s->a ^ digest_rotl(s->b, 17));
	out[1] = digest_avalanche(s->b + s->a * 3);
}

/* The digest of n bytes at p, in one go. */
static inline void digest_bytes(const void *p, size_t n, unsigned long long out[2])
{
	struct digest d;
	digest_start(&d);
	digest_feed(&d, p, n);
	digest_end(&d, out);
}

/* Order of two digests (for sorted tables of them): <0, 0, >0. */
static inline int digest_cmp(const unsigned long long a[2], const unsigned long long b[2])
{
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

#endif
