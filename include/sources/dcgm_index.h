/* dcgm_index.h — an index of records by their identifying labels, for the usage sources'
 * accumulators (dcgm.c's series, prometheus_series.c's devices and (device, pod) pairs).
 *
 * The records are the key: the index holds only their positions (4 bytes a slot, at most half
 * full), and a lookup hashes the labels it is given and compares them with the records
 * (through the caller's match).  A map of composed key strings held two copies of some 100
 * bytes per series (issue 35: 70,000 series at 5,000 GPU nodes). */
#ifndef KGPU_DCGM_INDEX_H
#define KGPU_DCGM_INDEX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t *slot; size_t cap, n; } DcgmIndex;   /* zeroed = empty */

#define DCGM_HASH_INIT 14695981039346656037ULL
/* hash steps: a string (NULL as ""), an integer */
uint64_t dcgm_hash_str(uint64_t h, const char *s);
uint64_t dcgm_hash_int(uint64_t h, long v);

/* whether record idx has the labels ctx stands for */
typedef bool (*DcgmIndexMatch)(const void *ctx, size_t idx);
/* the hash of record idx (for growing the table) */
typedef uint64_t (*DcgmIndexHash)(const void *owner, size_t idx);

/* idx + 1 of the record with hash h that matches, 0 when none */
size_t dcgm_index_find(const DcgmIndex *x, uint64_t h, DcgmIndexMatch match, const void *ctx);
/* record idx (< 2^32 - 1) with hash h; rehash gives the others' hashes when the table grows */
void dcgm_index_add(DcgmIndex *x, uint64_t h, size_t idx, DcgmIndexHash rehash, const void *owner);
/* an empty index made at once with room for n records (no growing up to them) */
void dcgm_index_reserve(DcgmIndex *x, size_t n);
void dcgm_index_clear(DcgmIndex *x);
#endif
