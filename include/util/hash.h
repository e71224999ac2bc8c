/* hash.h — the 64-bit hash of the string pool's and strmap's tables: eight bytes a step, the
 * last 0-7 in one zero-padded word, then a final mix so that the low bits the tables use
 * depend on every byte.  The pieces are here for a caller that hashes while it reads its bytes
 * for something else (strpool.c plain_hash): made of them, it gives hash_bytes' value. */
#ifndef KGPU_UTIL_HASH_H
#define KGPU_UTIL_HASH_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t hash_start(size_t len) { return 0x9e3779b97f4a7c15ULL ^ len; }
static inline uint64_t hash_word(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}
static inline uint64_t hash_finish(uint64_t h, const unsigned char *tail, size_t len)
{
    uint64_t w = 0;
    memcpy(&w, tail, len);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 32);
}
static inline uint64_t hash_bytes(const void *data, size_t len)
{
    const unsigned char *s = data;
    uint64_t h = hash_start(len), w;
    for (; len >= 8; s += 8, len -= 8) {
        memcpy(&w, s, 8);
        h = hash_word(h, w);
    }
    return hash_finish(h, s, len);
}
#endif
