/* jsonscan_skip.c — a JSON container passed over by bracket matching (jsonscan.h
 * jsonscan_skip_container), for the scanner's skipped members.
 *
 * The members a command never reads (managed fields, container statuses, volumes: most of a
 * pod's bytes) are passed over by bracket matching, strings respected.  Byte by byte that was
 * a sixth of `status`; here 64 bytes are a step.  Per block: bit masks of the quotes, the
 * backslashes and the opening and closing brackets; the characters a backslash escapes (a walk
 * over the backslashes, a few a block); the bytes inside strings as the running parity of the
 * unescaped quotes (a prefix XOR); then the brackets outside strings are counted, and walked one
 * by one only in the block where the depth can reach 0.  Outside strings a backslash is an
 * ordinary byte (the byte walk's rule, skip_bytes): a block where one lies outside a string -
 * never in JSON - is walked byte by byte, so both walks end at the same byte on any text. */
#include "sources/jsonscan.h"
#include "util/util.h"
#include <stdbool.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct {
    int depth;
    bool in_str, esc;           /* inside a string; its next byte is escaped */
} SkipState;

/* bytes [q, q + n) one at a time: the byte past the bracket that closes the container, or NULL */
static const char *skip_bytes(const char *q, size_t n, SkipState *st)
{
    for (size_t i = 0; i < n; i++) {
        char c = q[i];
        if (st->in_str) {
            if (st->esc) st->esc = false;
            else if (c == '\\') st->esc = true;
            else if (c == '"') st->in_str = false;
        } else if (c == '"') {
            st->in_str = true;
        } else if (c == '{' || c == '[') {
            st->depth++;
        } else if ((c == '}' || c == ']') && --st->depth == 0) {
            return q + i + 1;
        }
    }
    return NULL;
}

#ifdef __SSE2__
/* bit i of x ^ bit i-1 of the result: the parity of the set bits at or below each position */
static inline uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1; x ^= x << 2; x ^= x << 4;
    x ^= x << 8; x ^= x << 16; x ^= x << 32;
    return x;
}

/* one 64-byte block of the container walk; the byte past the closing bracket, or NULL (go on) */
static const char *skip_block(const char *q, SkipState *st)
{
    const __m128i vq = _mm_set1_epi8('"'), vb = _mm_set1_epi8('\\'), v20 = _mm_set1_epi8(0x20);
    const __m128i vo = _mm_set1_epi8('{'), vc = _mm_set1_epi8('}');
    uint64_t quote = 0, bs = 0, open = 0, close = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(q + 16 * k));
        __m128i f = _mm_or_si128(v, v20);              /* '[' -> '{', ']' -> '}', nothing else onto them */
        quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vq)) << (16 * k);
        bs |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vb)) << (16 * k);
        open |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, vo)) << (16 * k);
        close |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(f, vc)) << (16 * k);
    }
    /* the escaped bytes, taking every backslash as inside a string (checked below) */
    uint64_t escaped = st->esc ? 1 : 0, b = bs & ~escaped;
    bool esc_out = false;
    while (b) {
        int i = __builtin_ctzll(b);
        if (i == 63) { esc_out = true; break; }
        escaped |= (uint64_t)1 << (i + 1);
        b &= ~((uint64_t)3 << i);                      /* the backslash and the byte it escapes */
    }
    uint64_t inside = prefix_xor(quote & ~escaped) ^ (st->in_str ? ~(uint64_t)0 : 0);
    if (bs & ~inside) return skip_bytes(q, 64, st);     /* a backslash outside a string */
    st->in_str = inside >> 63;
    st->esc = esc_out;
    open &= ~inside;
    close &= ~inside;
    int closes = util_popcount64(close);
    if (closes < st->depth) {                          /* the depth cannot reach 0 here */
        st->depth += util_popcount64(open) - closes;
        return NULL;
    }
    int depth = st->depth;
    for (uint64_t all = open | close; all; all &= all - 1) {
        depth += (open & all & -all) ? 1 : -1;         /* (no branch: opens and closes alternate) */
        if (depth == 0) return q + __builtin_ctzll(all) + 1;
    }
    st->depth = depth;
    return NULL;
}
#endif

/* 64 bytes a step while they last, then the byte walk */
const char *jsonscan_skip_container(const char *q, const char *end)
{
    SkipState st = { 0, false, false };
#ifdef __SSE2__
    for (; end - q >= 64; q += 64) {
        const char *r = skip_block(q, &st);
        if (r) return r;
    }
#endif
    return skip_bytes(q, (size_t)(end - q), &st);
}

const char *jsonscan_skip_container_bytes(const char *q, const char *end)
{
    SkipState st = { 0, false, false };
    return skip_bytes(q, (size_t)(end - q), &st);
}
