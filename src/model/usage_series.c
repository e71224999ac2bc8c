/* usage_series.c — the usage series' points in 16 bits each (usage.h: the grid of a row, what
 * reads back, the idle threshold's side), and once complete in as few bits as each row's
 * distinct codes need (usage_series_pack). */
#include "model/usage.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CODE_NONE 0xFFFFu           /* no sample */
#define CODE_MAX 0xFFFEu
#define UNITS_MAX 2e9               /* base and step are int32: values are clamped to +-2e9 units */

/* value = (base + code * step) / unit; at: where the row's codes start in the field's array
 * (AT_OFFSET, in codes) and how they are stored (AT_KIND: KIND_RAW, one code a point, as every
 * row is while rows are put; after usage_series_pack, KIND_BITS0 + b: the row's distinct codes
 * first (a count, then the codes), then a point's index among them in 0, 1, 2, 4 or 8 bits;
 * KIND_SPAN: the row's lowest code and a width b (1-15), then per point its code less the
 * lowest in b bits, all ones for no sample: a row of many distinct codes close together, as
 * whole percents or a few decimals of utilization are) */
struct UsageSeriesGrid { int32_t base; uint32_t step; uint32_t at; };

#define AT_KIND_SHIFT 29
#define AT_OFFSET ((1u << AT_KIND_SHIFT) - 1)
enum { KIND_RAW = 0, KIND_BITS0 = 1 };      /* KIND_BITS0 + i: 0, 1, 2, 4, 8 bits (index_bits[i]) */
static const unsigned index_bits[] = { 0, 1, 2, 4, 8 };
#define INDEX_KINDS (sizeof index_bits / sizeof index_bits[0])
#define KIND_SPAN (KIND_BITS0 + INDEX_KINDS)   /* fits AT_KIND's three bits */

/* b bits at bit position at of a packed array (b <= 16: may straddle two words) */
static unsigned bits_get(const uint16_t *w, size_t at, unsigned b)
{
    size_t i = at / 16;
    unsigned sh = (unsigned)(at % 16);
    uint32_t v = w[i];
    if (sh + b > 16) v |= (uint32_t)w[i + 1] << 16;
    return (unsigned)(v >> sh) & ((1u << b) - 1);
}

static void bits_put(uint16_t *w, size_t at, unsigned b, unsigned v)
{
    size_t i = at / 16;
    unsigned sh = (unsigned)(at % 16);
    uint32_t x = (uint32_t)v << sh;
    w[i] = (uint16_t)(w[i] | (x & 0xFFFFu));
    if (sh + b > 16) w[i + 1] = (uint16_t)(w[i + 1] | (x >> 16));
}

static uint16_t *codes(const UsageData *d, UsageSeriesField f)
{
    return f == USAGE_SERIES_UTIL ? d->series_util : d->series_mem;
}

/* units per value: utilization in ten-thousandths of a percent, memory in MiB */
static double per_unit(UsageSeriesField f) { return f == USAGE_SERIES_UTIL ? 10000.0 : 1.0; }

static float decode(UsageSeriesField f, struct UsageSeriesGrid g, unsigned c)
{
    if (c == CODE_NONE) return NAN;
    return (float)(((double)g.base + (double)c * (double)g.step) / per_unit(f));
}

static double units(UsageSeriesField f, float v)
{
    double u = (double)v * per_unit(f);
    return u > UNITS_MAX ? UNITS_MAX : u < -UNITS_MAX ? -UNITS_MAX : u;
}

static unsigned encode(UsageSeriesField f, struct UsageSeriesGrid g, float v)
{
    double c = round((units(f, v) - (double)g.base) / (double)g.step);
    return c < 0 ? 0 : c > CODE_MAX ? CODE_MAX : (unsigned)c;
}

static bool exact(UsageSeriesField f, struct UsageSeriesGrid g, const float *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (isfinite(v[k]) && decode(f, g, encode(f, g, v[k])) != v[k]) return false;
    return true;
}

/* the grid of step units holding lo..hi (units), or false when it needs more codes; lo..hi
 * in the middle of its codes (any base on the step reads back the same values) */
static bool grid_for(double lo, double hi, uint32_t step, struct UsageSeriesGrid *g)
{
    double base = floor(lo / step) * step;
    if (ceil((hi - base) / step) > CODE_MAX) return false;
    double spare = floor((CODE_MAX - ceil((hi - base) / step)) / 2);
    if (base - spare * step >= -UNITS_MAX) base -= spare * step;
    g->base = (int32_t)base;
    g->step = step;
    return true;
}

static const uint32_t exact_steps[] = { 1, 10, 100, 1000, 10000 };

/* the coarsest grid of exact_steps on which every value of v is exact (every one reads back
 * the same; the coarsest spans the fewest codes, which a row packed as offsets from its lowest
 * code (KIND_SPAN) keeps in the fewest bits: whole percents in 7, where the finest exact grid,
 * ten-thousandths, spread them over 20 bits) */
static bool exact_grid(UsageSeriesField f, const float *v, size_t n, struct UsageSeriesGrid *g)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < n; k++)
        if (isfinite(v[k])) { lo = fmin(lo, units(f, v[k])); hi = fmax(hi, units(f, v[k])); }
    if (!(lo <= hi)) { *g = (struct UsageSeriesGrid){ 0, 1, 0 }; return true; }
    for (size_t t = sizeof exact_steps / sizeof exact_steps[0]; t-- > 0;)
        if (grid_for(lo, hi, exact_steps[t], g) && exact(f, *g, v, n)) return true;
    return false;
}


void usage_series_resize_fields(UsageData *d, unsigned fields, size_t rows)
{
    size_t n = d->series_points;
    if (!rows || !n) {
        free(d->series_util); free(d->series_mem); free(d->series_grid);
        d->series_util = d->series_mem = NULL;
        d->series_grid = NULL;
        return;
    }
    if (fields & 1u << USAGE_SERIES_UTIL)
        d->series_util = xrealloc(d->series_util, rows * n * sizeof *d->series_util);
    if (fields & 1u << USAGE_SERIES_MEM)
        d->series_mem = xrealloc(d->series_mem, rows * n * sizeof *d->series_mem);
    d->series_grid = xrealloc(d->series_grid, rows * 2 * sizeof *d->series_grid);
}

void usage_series_resize(UsageData *d, size_t rows)
{
    usage_series_resize_fields(d, 1u << USAGE_SERIES_UTIL | 1u << USAGE_SERIES_MEM, rows);
}

/* a row's grid and codes from n floats (NAN or infinite = no sample): the finest grid on which
 * every value is exact, else (unless exact_only: false) the finest that holds them */
static bool row_code(const UsageData *d, UsageSeriesField f, const float *v, bool exact_only,
                     struct UsageSeriesGrid *gp, uint16_t *r)
{
    size_t n = d->series_points;
    struct UsageSeriesGrid g = { 0, 1, 0 };
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < n; k++)
        if (isfinite(v[k])) { lo = fmin(lo, units(f, v[k])); hi = fmax(hi, units(f, v[k])); }
    if (lo <= hi) {
        bool found = exact_grid(f, v, n, &g);
        if (!found && exact_only) return false;
        /* the values a row read back as are on its grid (a base and codes in whole steps):
         * put again (a snapshot read back) they are exact on a step of about the same size,
         * so they read back the same */
        uint32_t fine = (uint32_t)fmax(1, ceil((hi - lo) / CODE_MAX));
        for (uint32_t step = fine > 1 ? fine - 1 : 1; step <= fine + 2 && !found; step++)
            found = grid_for(lo, hi, step, &g) && exact(f, g, v, n);
        for (uint32_t step = fine; !found; step++)
            found = grid_for(lo, hi, step, &g);
    }
    *gp = g;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(v[k])) { r[k] = CODE_NONE; continue; }
        unsigned c = encode(f, g, v[k]);
        if (f == USAGE_SERIES_UTIL) {
            /* on the threshold's other side: one step back to the float's (a step is twice
             * the rounding at most) */
            bool under = (double)v[k] < d->idle_threshold;
            if (((double)decode(f, g, c) < d->idle_threshold) != under) {
                if (under && c > 0) c--;
                else if (!under && c < CODE_MAX) c++;
            }
        }
        r[k] = (uint16_t)c;
    }
    return true;
}

void usage_series_put_row(UsageData *d, UsageSeriesField f, size_t row, const float *v)
{
    size_t n = d->series_points;
    struct UsageSeriesGrid g;
    row_code(d, f, v, false, &g, codes(d, f) + row * n);
    g.at = (uint32_t)(row * n);
    d->series_grid[2 * row + f] = g;
}

/* point k's code of a row stored as g says */
static unsigned code_at(const uint16_t *all, struct UsageSeriesGrid g, size_t k)
{
    const uint16_t *r = all + (g.at & AT_OFFSET);
    unsigned kind = g.at >> AT_KIND_SHIFT;
    if (kind == KIND_RAW) return r[k];
    if (kind == KIND_SPAN) {
        unsigned b = r[1], o = bits_get(r + 2, k * b, b);
        return o == (1u << b) - 1 ? CODE_NONE : r[0] + o;
    }
    unsigned bits = index_bits[kind - KIND_BITS0];
    size_t at = k * bits;
    unsigned i = bits ? (r[1 + r[0] + at / 16] >> (at % 16)) & ((1u << bits) - 1) : 0;
    return r[1 + i];
}

float usage_series_get(const UsageData *d, UsageSeriesField f, size_t row, size_t k)
{
    struct UsageSeriesGrid g = d->series_grid[2 * row + f];
    return decode(f, g, code_at(codes(d, f), g, k));
}

/* n codes packed into out (room for n; out may be raw itself): the words they take and how
 * (*kindp) */
static size_t pack_codes(const uint16_t *raw, size_t n, uint16_t *out, unsigned *kindp)
{
    uint16_t pal[256], copy[USAGE_SERIES_MAX];
    uint8_t idx[USAGE_SERIES_MAX];
    memcpy(copy, raw, n * sizeof *raw);
    size_t np = 0;
    for (size_t k = 0; k < n && np <= 256; k++) {
        size_t i = 0;
        while (i < np && pal[i] != copy[k]) i++;
        if (i == np) {
            if (np == 256) { np++; break; }           /* more than 8 bits of index */
            pal[np++] = copy[k];
        }
        idx[k] = (uint8_t)i;
    }
    size_t best = n;
    unsigned kind = KIND_RAW;
    for (size_t t = 0; np <= 256 && t < INDEX_KINDS; t++) {
        if (np > (size_t)1 << index_bits[t]) continue;
        size_t size = 1 + np + (n * index_bits[t] + 15) / 16;
        if (size < best) { best = size; kind = KIND_BITS0 + (unsigned)t; }
        break;                                          /* the fewest bits is the smallest */
    }
    /* the codes as offsets from the lowest, in as many bits as the highest needs below all
     * ones (no sample) */
    unsigned lo = CODE_NONE, hi = 0, span_bits = 1;
    for (size_t k = 0; k < n; k++) {
        if (copy[k] == CODE_NONE) continue;
        if (copy[k] < lo) lo = copy[k];
        if (copy[k] > hi) hi = copy[k];
    }
    if (lo != CODE_NONE) {
        while (span_bits < 16 && (1u << span_bits) - 1 <= hi - lo) span_bits++;
        size_t size = 2 + (n * span_bits + 15) / 16;
        if (span_bits < 16 && size < best) { best = size; kind = KIND_SPAN; }
    }
    if (kind == KIND_RAW) memcpy(out, copy, n * sizeof *copy);
    else if (kind == KIND_SPAN) {
        out[0] = (uint16_t)lo;
        out[1] = (uint16_t)span_bits;
        uint16_t *w = out + 2;
        memset(w, 0, (n * span_bits + 15) / 16 * sizeof *w);
        for (size_t k = 0; k < n; k++)
            bits_put(w, k * span_bits, span_bits, copy[k] == CODE_NONE ? (1u << span_bits) - 1 : copy[k] - lo);
    } else {
        unsigned bits = index_bits[kind - KIND_BITS0];
        out[0] = (uint16_t)np;
        memcpy(out + 1, pal, np * sizeof *pal);
        uint16_t *w = out + 1 + np;
        memset(w, 0, (n * bits + 15) / 16 * sizeof *w);
        for (size_t k = 0; bits && k < n; k++) {
            size_t at = k * bits;
            w[at / 16] = (uint16_t)(w[at / 16] | (unsigned)idx[k] << (at % 16));
        }
    }
    *kindp = kind;
    return best;
}

/* rows [0, rows) of one field packed front to back in place (a row's packed form is never
 * longer than its raw one, so it is written at or before the raw row it is read from); the
 * array is then cut to its size */
static void pack_field(UsageData *d, UsageSeriesField f, size_t rows)
{
    uint16_t *a = codes(d, f);
    size_t o = 0;
    for (size_t row = 0; row < rows; row++) {
        struct UsageSeriesGrid *g = &d->series_grid[2 * row + f];
        unsigned kind;
        size_t size = pack_codes(a + (g->at & AT_OFFSET), d->series_points, a + o, &kind);
        g->at = (uint32_t)o | (uint32_t)kind << AT_KIND_SHIFT;
        o += size;
    }
    uint16_t *cut = realloc(a, (o ? o : 1) * sizeof *a);
    if (cut) a = cut;                                   /* else the larger block holds them */
    if (f == USAGE_SERIES_UTIL) d->series_util = a;
    else d->series_mem = a;
}

/* a field is packed when one of its rows is not where and as it was put */
static bool field_packed(const UsageData *d, UsageSeriesField f, size_t rows)
{
    for (size_t row = 0; row < rows; row++) {
        uint32_t at = d->series_grid[2 * row + f].at;
        if ((at >> AT_KIND_SHIFT) != KIND_RAW || (at & AT_OFFSET) != row * d->series_points) return true;
    }
    return false;
}

void usage_series_append_reserve(UsageData *d, UsageSeriesAppend *st, UsageSeriesField f, size_t words)
{
    if (words <= st->cap[f]) return;
    uint16_t *a = xrealloc(codes(d, f), words * sizeof *a);
    if (f == USAGE_SERIES_UTIL) d->series_util = a;
    else d->series_mem = a;
    st->cap[f] = words;
}

bool usage_series_append(UsageData *d, UsageSeriesAppend *st, UsageSeriesField f, size_t row,
                         const float *v, bool exact_only)
{
    size_t n = d->series_points;
    uint16_t raw[USAGE_SERIES_MAX], packed[USAGE_SERIES_MAX];
    struct UsageSeriesGrid g;
    if (!n || n > USAGE_SERIES_MAX || !row_code(d, f, v, exact_only, &g, raw)) return false;
    unsigned kind;
    size_t size = pack_codes(raw, n, packed, &kind);
    if (st->used[f] + size > st->cap[f])
        /* by a quarter; by a sixteenth past a reserve (usage_series_append_reserve: about
         * what is needed, the slack of a quarter was 1.5 MB at 51,424 devices) */
        usage_series_append_reserve(d, st, f, st->cap[f] + (st->reserved ? st->cap[f] / 16 : st->cap[f] / 4) + 1024);
    memcpy(codes(d, f) + st->used[f], packed, size * sizeof *packed);
    g.at = (uint32_t)st->used[f] | (uint32_t)kind << AT_KIND_SHIFT;
    d->series_grid[2 * row + f] = g;
    st->used[f] += size;
    return true;
}

/* codes a row takes as g says */
static size_t row_codes(const uint16_t *all, struct UsageSeriesGrid g, size_t n)
{
    unsigned kind = g.at >> AT_KIND_SHIFT;
    if (kind == KIND_RAW) return n;
    if (kind == KIND_SPAN) return 2 + (n * all[(g.at & AT_OFFSET) + 1] + 15) / 16;
    return 1 + all[g.at & AT_OFFSET] + (n * index_bits[kind - KIND_BITS0] + 15) / 16;
}

size_t usage_series_field_codes(const UsageData *d, UsageSeriesField f)
{
    size_t total = 0;
    if (!d->series_util || !d->series_mem || !d->series_grid || !d->series_points) return 0;
    for (size_t row = 0; row < d->nseries; row++)
        total += row_codes(codes(d, f), d->series_grid[2 * row + f], d->series_points);
    return total;
}

size_t usage_series_codes(const UsageData *d)
{
    return usage_series_field_codes(d, USAGE_SERIES_UTIL) + usage_series_field_codes(d, USAGE_SERIES_MEM);
}

void usage_series_pack(UsageData *d)
{
    size_t n = d->series_points;
    if (!d->series_util || !d->series_mem || !d->series_grid || !n || n > USAGE_SERIES_MAX ||
        !d->nseries || d->nseries * n > AT_OFFSET)
        return;
    for (int f = 0; f < 2; f++)                         /* a field packed already stays */
        if (!field_packed(d, (UsageSeriesField)f, d->nseries)) pack_field(d, (UsageSeriesField)f, d->nseries);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

void usage_series_append_done(UsageData *d, UsageSeriesAppend *st, size_t rows)
{
    size_t n = d->series_points;
    for (int fi = 0; fi < 2; fi++) {
        UsageSeriesField f = (UsageSeriesField)fi;
        uint16_t *a = codes(d, f);
        if (!a) continue;
        size_t total = 0;
        for (size_t row = 0; row < rows; row++) total += row_codes(a, d->series_grid[2 * row + f], n);
        if (total < st->used[f] && rows) {
            /* rows put again (a device's second series) left their first words behind: the
             * rows moved down in place, in the order they lie (each to at most where it is),
             * not copied into a second array (a field's rows twice, at the re-fetch's peak) */
            uint64_t *order = xmalloc(rows * sizeof *order);
            for (size_t row = 0; row < rows; row++)
                order[row] = (uint64_t)(d->series_grid[2 * row + f].at & AT_OFFSET) << 32 | row;
            qsort(order, rows, sizeof *order, cmp_u64);
            size_t o = 0;
            for (size_t i = 0; i < rows; i++) {
                struct UsageSeriesGrid *g = &d->series_grid[2 * (size_t)(uint32_t)order[i] + f];
                size_t size = row_codes(a, *g, n);
                memmove(a + o, a + (g->at & AT_OFFSET), size * sizeof *a);
                g->at = (uint32_t)o | (g->at & ~AT_OFFSET);
                o += size;
            }
            free(order);
        }
        uint16_t *cut = realloc(a, (total ? total : 1) * sizeof *a);
        if (cut) a = cut;
        if (f == USAGE_SERIES_UTIL) d->series_util = a;
        else d->series_mem = a;
        st->used[f] = st->cap[f] = total;
    }
}

/* the row of a device's series, or -1 */
static long series_row(const UsageData *d, const GpuUsage *u)
{
    if (!d || !u || !d->series_util || !d->series_mem || !d->series_grid || u->series <= 0 ||
        (size_t)u->series > d->nseries || !d->series_points)
        return -1;
    return (long)u->series - 1;
}

static bool read_row(const UsageData *d, const GpuUsage *u, UsageSeriesField f, float *out)
{
    long row = series_row(d, u);
    if (row < 0) return false;
    for (size_t k = 0; k < d->series_points; k++) out[k] = usage_series_get(d, f, (size_t)row, k);
    return true;
}

bool usage_util_series(const UsageData *d, const GpuUsage *u, float *out)
{
    return read_row(d, u, USAGE_SERIES_UTIL, out);
}

bool usage_mem_series(const UsageData *d, const GpuUsage *u, float *out)
{
    return read_row(d, u, USAGE_SERIES_MEM, out);
}
