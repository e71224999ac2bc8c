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
 * never in JSON - is walked byte by byte, so both walks end at the same byte on any text.
 *
 * Where the processor has AVX2 (with popcnt and pclmul, which every AVX2 processor has; asked
 * at run time, the build stays x86-64 baseline) the same block is two 32-byte loads instead of
 * four 16-byte ones, the prefix XOR one carry-less multiply and the bit counts one instruction
 * each: the skip was an eighth of `status`'s instructions, a third of it the popcounts' and
 * prefix XOR's arithmetic. */
#include "sources/jsonscan.h"
#include "util/util.h"
#include <stdbool.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#define SKIP_AVX2 1
#include <immintrin.h>
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

/* The escaped bytes of a block (bit i: byte i), taking every backslash of bs as inside a string
 * (the caller checks); *esc_out: the block's last byte escapes the next block's first */
static inline uint64_t block_escaped(const SkipState *st, uint64_t bs, bool *esc_out)
{
    uint64_t escaped = st->esc ? 1 : 0, b = bs & ~escaped;
    *esc_out = false;
    while (b) {
        int i = __builtin_ctzll(b);
        if (i == 63) { *esc_out = true; break; }
        escaped |= (uint64_t)1 << (i + 1);
        b &= ~((uint64_t)3 << i);                      /* the backslash and the byte it escapes */
    }
    return escaped;
}

/* The block's walk once the bytes inside strings are known (inside; from block_escaped's
 * answer, by each walk's own prefix XOR): the byte past the closing bracket, or NULL (go on).
 * Inlined into each walk; hw: count bits with the builtin (one instruction in the AVX2 walk,
 * whose target has popcnt; a library call where the baseline has none, hence the SWAR count). */
static inline __attribute__((always_inline)) const char *
block_brackets(const char *q, SkipState *st, uint64_t bs, uint64_t inside, bool esc_out, uint64_t open,
               uint64_t close, bool hw)
{
    if (bs & ~inside) return skip_bytes(q, 64, st);     /* a backslash outside a string */
    st->in_str = inside >> 63;
    st->esc = esc_out;
    open &= ~inside;
    close &= ~inside;
    int closes = hw ? __builtin_popcountll(close) : util_popcount64(close);
    if (closes < st->depth) {                          /* the depth cannot reach 0 here */
        st->depth += (hw ? __builtin_popcountll(open) : util_popcount64(open)) - closes;
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
    bool esc_out;
    uint64_t inside = prefix_xor(quote & ~block_escaped(st, bs, &esc_out)) ^ (st->in_str ? ~(uint64_t)0 : 0);
    return block_brackets(q, st, bs, inside, esc_out, open, close, false);
}
#endif

#ifdef SKIP_AVX2
#define AVX2_TARGET __attribute__((target("avx2,popcnt,pclmul")))

/* the parity of the set bits at or below each position: x times all ones, carry-less */
AVX2_TARGET static inline uint64_t prefix_xor_clmul(uint64_t x)
{
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8((char)0xFF), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

AVX2_TARGET static const char *skip_block_avx2(const char *q, SkipState *st)
{
    const __m256i vq = _mm256_set1_epi8('"'), vb = _mm256_set1_epi8('\\'), v20 = _mm256_set1_epi8(0x20);
    const __m256i vo = _mm256_set1_epi8('{'), vc = _mm256_set1_epi8('}');
    uint64_t quote = 0, bs = 0, open = 0, close = 0;
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(q + 32 * k));
        __m256i f = _mm256_or_si256(v, v20);           /* '[' -> '{', ']' -> '}', nothing else onto them */
        quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, vq)) << (32 * k);
        bs |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, vb)) << (32 * k);
        open |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, vo)) << (32 * k);
        close |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, vc)) << (32 * k);
    }
    bool esc_out;
    uint64_t inside = prefix_xor_clmul(quote & ~block_escaped(st, bs, &esc_out)) ^ (st->in_str ? ~(uint64_t)0 : 0);
    return block_brackets(q, st, bs, inside, esc_out, open, close, true);
}

AVX2_TARGET static const char *skip_avx2(const char *q, const char *end, SkipState *st)
{
    for (; end - q >= 64; q += 64) {
        const char *r = skip_block_avx2(q, st);
        if (r) return r;
    }
    return skip_bytes(q, (size_t)(end - q), st);
}
#endif

bool jsonscan_skip_walk_available(JsonSkipWalk walk)
{
#ifdef SKIP_AVX2
    __builtin_cpu_init();         /* (libgcc's own runs as a constructor too: maybe after ours) */
#endif
    switch (walk) {
    case JSONSKIP_BYTES: return true;
#ifdef __SSE2__
    case JSONSKIP_SSE2: return true;
#endif
#ifdef SKIP_AVX2
    case JSONSKIP_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("pclmul");
#endif
    default: return false;
    }
}

/* walk: one this processor has */
static const char *skip_with(const char *q, const char *end, JsonSkipWalk walk)
{
    SkipState st = { 0, false, false };
#ifdef SKIP_AVX2
    if (walk == JSONSKIP_AVX2) return skip_avx2(q, end, &st);
#endif
#ifdef __SSE2__
    if (walk == JSONSKIP_SSE2) {
        for (; end - q >= 64; q += 64) {
            const char *r = skip_block(q, &st);
            if (r) return r;
        }
    }
#endif
    return skip_bytes(q, (size_t)(end - q), &st);
}

const char *jsonscan_skip_container_walk(const char *q, const char *end, JsonSkipWalk walk)
{
    return skip_with(q, end, jsonscan_skip_walk_available(walk) ? walk : JSONSKIP_BYTES);
}

/* the best walk of this processor, asked once (before main: no thread asks at the same time) */
static JsonSkipWalk best_walk = JSONSKIP_BYTES;

__attribute__((constructor)) static void choose_walk(void)
{
    best_walk = jsonscan_skip_walk_available(JSONSKIP_AVX2) ? JSONSKIP_AVX2
              : jsonscan_skip_walk_available(JSONSKIP_SSE2) ? JSONSKIP_SSE2 : JSONSKIP_BYTES;
}

const char *jsonscan_skip_container(const char *q, const char *end)
{
    return skip_with(q, end, best_walk);
}

const char *jsonscan_skip_container_bytes(const char *q, const char *end)
{
    return skip_with(q, end, JSONSKIP_BYTES);
}
