/* digest: a streaming 128-bit hash over 8-byte words, for telling inputs and
 * pages apart between builds (not cryptographic). Header-only. Level 0. */
#ifndef SSG_DIGEST_H
#define SSG_DIGEST_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
		uint64_t w = 0;
		memcpy(&w, p, n);
		digest_word(s, w ^ 0x8000000000000000ULL);
	}
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

#endif
