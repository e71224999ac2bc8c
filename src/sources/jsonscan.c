/* jsonscan.c — in-place JSON parsing into arena-allocated cJSON nodes, and list pages walked
 * item by item (see jsonscan.h; the streaming splitter is json_split.c).
 *
 * The grammar follows cJSON 1.7's parser step by step (parse_value, parse_string with its
 * two passes, utf16_literal_to_utf8, parse_number, parse_array, parse_object), so that the
 * same texts are accepted and rejected; what differs is where the bytes go: a string is
 * unescaped where it lies (the unescaped form is never longer) and terminated by a NUL
 * written over its closing quote or inside it, and nodes come from a bump allocator.
 */
#include "sources/jsonscan.h"
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "util/util.h"
#include "jsonscan_int.h"

#define CHUNK_SIZE ((size_t)256 << 10)
#define ARENA_KEEP ((size_t)4 << 20)       /* memory kept across resets */

/* ---------------------------------------------------------------------------------- arena */

typedef struct Chunk {
    struct Chunk *next;
    size_t cap, used;
    max_align_t data[];
} Chunk;

struct JsonArena {
    Chunk *head, *cur;
    size_t total;                          /* bytes of chunks held */
};

JsonArena *json_arena_new(void)
{
    return xcalloc(1, sizeof(JsonArena));
}

void json_arena_free(JsonArena *a)
{
    if (!a) return;
    for (Chunk *c = a->head, *n; c; c = n) { n = c->next; free(c); }
    free(a);
}

void json_arena_reset(JsonArena *a)
{
    if (a->total > ARENA_KEEP) {
        /* one huge item made the arena grow: give the memory back */
        for (Chunk *c = a->head, *n; c; c = n) { n = c->next; free(c); }
        a->head = a->cur = NULL;
        a->total = 0;
        return;
    }
    for (Chunk *c = a->head; c && c->used; c = c->next) c->used = 0;
    a->cur = a->head;
}

static void *arena_alloc_slow(JsonArena *a, size_t n)
{
    /* a later chunk (kept from before a reset) may have room */
    while (a->cur && a->cur->next) {
        a->cur = a->cur->next;
        if (a->cur->cap - a->cur->used >= n) {
            void *p = (char *)a->cur->data + a->cur->used;
            a->cur->used += n;
            return p;
        }
    }
    size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;
    Chunk *c = xmalloc(sizeof *c + cap);
    c->next = NULL;
    c->cap = cap;
    c->used = n;
    if (a->cur) a->cur->next = c;
    else a->head = c;
    a->cur = c;
    a->total += cap;
    return c->data;
}

static inline cJSON *new_node(JsonArena *a)
{
    size_t n = sizeof(cJSON);
    n = (n + 15) & ~(size_t)15;
    Chunk *c = a->cur;
    void *p;
    if (c && c->cap - c->used >= n) {
        p = (char *)c->data + c->used;
        c->used += n;
    } else {
        p = arena_alloc_slow(a, n);
    }
    memset(p, 0, sizeof(cJSON));
    return p;
}

/* ---------------------------------------------------------------------------------- parser */

typedef struct {
    char *p, *end;
    JsonArena *a;
    int depth;
} P;

/* a compiled skip list: members of the item to drop, or whose members to drop */
typedef struct {
    char key[64];
    size_t keylen;
    bool whole;                 /* drop the member */
    const char *sub[16];        /* else: drop these members of it */
    size_t sublen[16];
    const char *keep[16];       /* ... or, where set, keep that member with only the members
                                   listed here ("m1,m2", keeplen bytes) */
    size_t keeplen[16];
    uint64_t keepmask[16];      /* len_bits of each keep list's names */
    uint64_t submask;           /* len_bits of sub's names */
    size_t nsub;
} SkipRule;

/* the names a rule looks for are matched by length first, then bytes: most keys of an item
 * differ in length from every rule's, and no strcmp is called for them.  A mask of the names'
 * lengths (bit len % 64) answers that for all of them in one test (the per-name loop was a
 * twentieth of the scan on a pod list) */
typedef struct {
    const char *const *keys;
    const size_t *lens;
    const char *const *keep;    /* per key: NULL drops it, else the members it keeps ("m1,m2") */
    const size_t *keeplen;
    const uint64_t *keepmask;   /* per key: len_bits of its keep list */
    size_t n;
    uint64_t lenmask;           /* len_bits of keys */
    const char *only;           /* else, when set: the object keeps only these ("m1,m2") */
    size_t onlylen;
    uint64_t onlymask;          /* len_bits of only's names */
} SubKeys;

static inline uint64_t len_bit(size_t len) { return (uint64_t)1 << (len & 63); }

/* the next name of a list "m1,m2" (from *list up to end): its start and length in *name and
 * *n, *list moved past it and its comma; false when the list is done */
static inline bool next_name(const char **list, const char *end, const char **name, size_t *n)
{
    if (*list >= end) return false;
    const char *comma = memchr(*list, ',', (size_t)(end - *list));
    *name = *list;
    *n = comma ? (size_t)(comma - *list) : (size_t)(end - *list);
    *list = comma ? comma + 1 : end;
    return true;
}

/* the len_bit of each name of list ("m1,m2", len bytes), or'ed */
static uint64_t list_len_bits(const char *list, size_t len)
{
    uint64_t m = 0;
    const char *name, *end = list + len;
    size_t n;
    while (next_name(&list, end, &name, &n)) m |= len_bit(n);
    return m;
}

/* key (klen bytes) is one of the names of list ("m1,m2", len bytes) */
static bool listed_in(const char *list, size_t len, const char *key, size_t klen)
{
    const char *name, *end = list + len;
    size_t n;
    while (next_name(&list, end, &name, &n))
        if (n == klen && memcmp(name, key, klen) == 0) return true;
    return false;
}

static inline void skip_ws(P *s)
{
    while (s->p < s->end && (unsigned char)*s->p <= 32) s->p++;
}

static unsigned parse_hex4(const unsigned char *in)
{
    unsigned h = 0;
    for (int i = 0; i < 4; i++) {
        if (in[i] >= '0' && in[i] <= '9') h += (unsigned)in[i] - '0';
        else if (in[i] >= 'A' && in[i] <= 'F') h += 10u + in[i] - 'A';
        else if (in[i] >= 'a' && in[i] <= 'f') h += 10u + in[i] - 'a';
        else return 0;                      /* as cJSON: an invalid digit reads as U+0000 */
        if (i < 3) h <<= 4;
    }
    return h;
}

/* cJSON's utf16_literal_to_utf8: 6 or 12 input bytes consumed, 0 on error */
static int utf16_to_utf8(const unsigned char *in, const unsigned char *in_end, unsigned char **out)
{
    unsigned long cp;
    int seq;
    if (in_end - in < 6) return 0;
    unsigned first = parse_hex4(in + 2);
    if (first >= 0xDC00 && first <= 0xDFFF) return 0;
    if (first >= 0xD800 && first <= 0xDBFF) {
        const unsigned char *second = in + 6;
        if (in_end - second < 6) return 0;
        if (second[0] != '\\' || second[1] != 'u') return 0;
        unsigned sc = parse_hex4(second + 2);
        if (sc < 0xDC00 || sc > 0xDFFF) return 0;
        cp = 0x10000 + (((first & 0x3FF) << 10) | (sc & 0x3FF));
        seq = 12;
    } else {
        cp = first;
        seq = 6;
    }
    int len;
    unsigned char mark = 0;
    if (cp < 0x80) len = 1;
    else if (cp < 0x800) { len = 2; mark = 0xC0; }
    else if (cp < 0x10000) { len = 3; mark = 0xE0; }
    else if (cp <= 0x10FFFF) { len = 4; mark = 0xF0; }
    else return 0;
    for (int i = len - 1; i > 0; i--) {
        (*out)[i] = (unsigned char)((cp | 0x80) & 0xBF);
        cp >>= 6;
    }
    (*out)[0] = len > 1 ? (unsigned char)((cp | mark) & 0xFF) : (unsigned char)(cp & 0x7F);
    *out += len;
    return seq;
}

/* s->p at '"': the string, unescaped in place and NUL-terminated, its length in *len (when
 * not NULL); NULL on error */
/* the first '"' or '\\' at or after q (with ctl also a control byte, below 0x20), or end.
 * The strings of a pod are most of its bytes, and this loop a byte at a time was a fifth of
 * `status`'s CPU: eight bytes a step with bit tricks on a 64-bit word (any machine), sixteen
 * with SSE2 (every x86-64).  Both are kept callable (jsonscan_string_stop*) so a test holds
 * each to the byte loop. */
static inline bool stops_at(char c, bool ctl)
{
    return c == '"' || c == '\\' || (ctl && (unsigned char)c < 0x20);
}

static inline char *stop_bytes(char *q, const char *end, bool ctl)
{
    while (q < end && !stops_at(*q, ctl)) q++;
    return q;
}

static inline char *stop_word(char *q, const char *end, bool ctl)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    while (end - q >= 8) {
        uint64_t w, a, b;
        memcpy(&w, q, 8);
        a = w ^ (ones * '"');
        b = w ^ (ones * '\\');
        /* a byte of a (b) is zero where w has '"' ('\\'); x - ones borrows into the high bit
         * of a zero byte (and of a byte below 0x20 for w - 0x20 x ones) */
        uint64_t hit = ((a - ones) & ~a) | ((b - ones) & ~b) | (ctl ? (w - ones * 0x20) & ~w : 0);
        if (hit & highs) break;                         /* one of the 8: the byte loop finds it */
        q += 8;
    }
    return stop_bytes(q, end, ctl);
}

#ifdef __SSE2__
static inline char *stop_sse2(char *q, const char *end, bool ctl)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), below = _mm_set1_epi8(0x1f);
    const __m128i zero = _mm_setzero_si128();
    while (end - q >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash));
        if (ctl) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_subs_epu8(v, below), zero));   /* v <= 0x1f */
        int m = _mm_movemask_epi8(hit);
        if (m) return q + __builtin_ctz((unsigned)m);
        q += 16;
    }
    return stop_bytes(q, end, ctl);
}
#define string_stop stop_sse2
#else
#define string_stop stop_word
#endif

char *jsonscan_string_stop_word(char *q, const char *end, bool ctl) { return stop_word(q, end, ctl); }
char *jsonscan_string_stop(char *q, const char *end, bool ctl) { return string_stop(q, end, ctl); }

/* a string with an escape (start: its first byte): unescaped in place */
__attribute__((noinline)) static char *parse_string_escaped(P *s, char *start, size_t *len)
{
    /* cJSON's first pass: the closing quote, escapes skipped */
    char *e = start;
    while (e < s->end && *e != '"') {
        if (*e == '\\') {
            if (e + 1 >= s->end) return NULL;
            e++;
        }
        e++;
    }
    if (e >= s->end || *e != '"') return NULL;
    /* second pass: unescape in place */
    const unsigned char *in = (const unsigned char *)start, *in_end = (const unsigned char *)e;
    unsigned char *out = (unsigned char *)start;
    while (in < in_end) {
        if (*in != '\\') { *out++ = *in++; continue; }
        int seq = 2;
        switch (in[1]) {
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case '"': case '\\': case '/': *out++ = in[1]; break;
        case 'u':
            seq = utf16_to_utf8(in, in_end, &out);
            if (!seq) return NULL;
            break;
        default:
            return NULL;
        }
        in += seq;
    }
    *out = '\0';
    s->p = e + 1;
    if (len) *len = (size_t)((char *)out - start);
    return start;
}

/* The string at s->p (its length in *len when len is set), NUL-terminated in place; NULL when
 * malformed.  Inlined where keys and values are read, with the escapes' walk out of line:
 * its registers' saving and restoring, on each of a pod list's ten million strings, were a
 * seventh of the string's reading. */
static inline char *parse_string_n(P *s, size_t *len)
{
    if (s->p >= s->end || *s->p != '"') return NULL;
    char *start = s->p + 1, *q = string_stop(start, s->end, false);
    if (q < s->end && *q == '"') {
        /* no escape: the common case */
        *q = '\0';
        s->p = q + 1;
        if (len) *len = (size_t)(q - start);
        return start;
    }
    return parse_string_escaped(s, start, len);
}

static char *parse_string(P *s) { return parse_string_n(s, NULL); }

static bool number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

static bool parse_number(P *s, cJSON *item)
{
    const char *p = s->p, *end = s->end;
    double d;
    size_t used;
    /* fast path: -?[0-9]{1,15} not followed by another number character (exact in a double,
     * so strtod would give the same value) */
    const char *q = p;
    bool neg = false;
    if (q < end && *q == '-') { neg = true; q++; }
    const char *digits = q;
    int64_t v = 0;
    while (q < end && *q >= '0' && *q <= '9' && q - digits < 16) { v = v * 10 + (*q - '0'); q++; }
    if (q > digits && q - digits <= 15 && (q >= end || !number_char(*q))) {
        d = neg ? (v ? -(double)v : -0.0) : (double)v;
        used = (size_t)(q - p);
    } else {
        /* every number character, however many (as cJSON copies them), for strtod */
        size_t run = 0;
        while (p + run < end && number_char(p[run])) run++;
        char small[64], *buf = run < sizeof small ? small : xmalloc(run + 1);
        memcpy(buf, p, run);
        buf[run] = '\0';
        char *after;
        d = strtod(buf, &after);
        used = (size_t)(after - buf);
        if (buf != small) free(buf);
        if (used == 0) return false;
    }
    item->valuedouble = d;
    if (d >= INT_MAX) item->valueint = INT_MAX;
    else if (d <= (double)INT_MIN) item->valueint = INT_MIN;
    else item->valueint = (int)d;
    item->type = cJSON_Number;
    s->p += used;
    return true;
}

/* passes over one value without building it (brackets matched, strings respected) */
static bool skip_value(P *s)
{
    char *p = s->p, *end = s->end;
    if (p >= end) return false;
    if (*p == '{' || *p == '[') {
        const char *r = jsonscan_skip_container(p, end);   /* jsonscan_skip.c */
        if (!r) return false;
        s->p = (char *)r;
        return true;
    }
    if (*p == '"') {
        p++;
        for (;;) {                          /* to the closing quote, past each escape */
            p = string_stop(p, end, false);
            if (p >= end) return false;
            if (*p == '"') { s->p = p + 1; return true; }
            if (end - p < 2) return false;
            p += 2;
        }
    }
    while (p < end && (unsigned char)*p > 32 && *p != ',' && *p != '}' && *p != ']') p++;
    if (p == s->p) return false;
    s->p = p;
    return true;
}

static bool parse_value(P *s, cJSON *item);
static bool parse_object_rules(P *s, cJSON *item, const SkipRule *rules, size_t nrules, const SubKeys *subkeys);

/* an array; with each, its objects keep only the members each names (SubKeys.only) */
static bool parse_array_each(P *s, cJSON *item, const SubKeys *each)
{
    if (s->depth >= NESTING_LIMIT) return false;
    s->depth++;
    s->p++;                                  /* '[' */
    skip_ws(s);
    cJSON *head = NULL, *cur = NULL;
    if (s->p < s->end && *s->p == ']') goto success;
    if (s->p >= s->end) return false;
    for (;;) {
        cJSON *n = new_node(s->a);
        if (!head) head = n;
        else { cur->next = n; n->prev = cur; }
        cur = n;
        skip_ws(s);
        if (each && s->p < s->end && *s->p == '{') {
            if (!parse_object_rules(s, n, NULL, 0, each)) return false;
        } else if (!parse_value(s, n)) {
            return false;
        }
        skip_ws(s);
        if (s->p < s->end && *s->p == ',') { s->p++; continue; }
        break;
    }
    if (s->p >= s->end || *s->p != ']') return false;
success:
    s->depth--;
    if (head) head->prev = cur;
    item->type = cJSON_Array;
    item->child = head;
    s->p++;
    return true;
}

/* an object; with rules, the members they name are skipped (and sub-rules applied); with
 * subkeys, those it names are skipped or kept (SubKeys) */
static bool parse_object_rules(P *s, cJSON *item, const SkipRule *rules, size_t nrules,
                               const SubKeys *subkeys)
{
    if (s->depth >= NESTING_LIMIT) return false;
    s->depth++;
    if (s->p >= s->end || *s->p != '{') return false;
    s->p++;
    skip_ws(s);
    cJSON *head = NULL, *cur = NULL;
    if (s->p < s->end && *s->p == '}') goto success;
    if (s->p >= s->end) return false;
    for (;;) {
        skip_ws(s);
        size_t klen = 0;
        char *key = parse_string_n(s, &klen);
        if (!key) return false;
        skip_ws(s);
        if (s->p >= s->end || *s->p != ':') return false;
        s->p++;
        skip_ws(s);
        const SkipRule *rule = NULL;
        bool drop = false;
        const char *keep = NULL;
        size_t keeplen = 0;
        uint64_t keepmask = 0, bit = len_bit(klen);
        for (size_t i = 0; i < nrules; i++)
            if (rules[i].keylen == klen && memcmp(rules[i].key, key, klen) == 0) { rule = &rules[i]; break; }
        if (subkeys && subkeys->only)
            drop = !(subkeys->onlymask & bit) || !listed_in(subkeys->only, subkeys->onlylen, key, klen);
        if (!rule && subkeys && (subkeys->lenmask & bit))
            for (size_t i = 0; i < subkeys->n && !drop && !keep; i++)
                if (subkeys->lens[i] == klen && memcmp(subkeys->keys[i], key, klen) == 0) {
                    keep = subkeys->keep[i];
                    keeplen = subkeys->keeplen[i];
                    keepmask = subkeys->keepmask[i];
                    drop = !keep;
                }
        if (drop || (rule && rule->whole)) {
            if (!skip_value(s)) return false;
        } else {
            cJSON *n = new_node(s->a);
            if (keep && s->p < s->end && (*s->p == '{' || *s->p == '[')) {
                SubKeys ks = { NULL, NULL, NULL, NULL, NULL, 0, 0, keep, keeplen, keepmask };
                if (*s->p == '{' ? !parse_object_rules(s, n, NULL, 0, &ks) : !parse_array_each(s, n, &ks)) return false;
            } else if (rule && s->p < s->end && *s->p == '{') {
                SubKeys sk = { rule->sub, rule->sublen, rule->keep, rule->keeplen, rule->keepmask, rule->nsub,
                               rule->submask, NULL, 0, 0 };
                if (!parse_object_rules(s, n, NULL, 0, &sk)) return false;
            } else if (!parse_value(s, n)) {
                return false;
            }
            n->string = key;
            if (!head) head = n;
            else { cur->next = n; n->prev = cur; }
            cur = n;
        }
        skip_ws(s);
        if (s->p < s->end && *s->p == ',') { s->p++; continue; }
        break;
    }
    if (s->p >= s->end || *s->p != '}') return false;
success:
    s->depth--;
    if (head) head->prev = cur;
    item->type = cJSON_Object;
    item->child = head;
    s->p++;
    return true;
}

static bool parse_value(P *s, cJSON *item)
{
    char *p = s->p;
    size_t left = (size_t)(s->end - p);
    if (left == 0) return false;
    switch (*p) {
    case '"': {
        char *v = parse_string(s);
        if (!v) return false;
        item->type = cJSON_String;
        item->valuestring = v;
        return true;
    }
    case '{':
        return parse_object_rules(s, item, NULL, 0, NULL);
    case '[':
        return parse_array_each(s, item, NULL);
    case 'n':
        if (left >= 4 && memcmp(p, "null", 4) == 0) { item->type = cJSON_NULL; s->p += 4; return true; }
        return false;
    case 'f':
        if (left >= 5 && memcmp(p, "false", 5) == 0) { item->type = cJSON_False; s->p += 5; return true; }
        return false;
    case 't':
        if (left >= 4 && memcmp(p, "true", 4) == 0) { item->type = cJSON_True; item->valueint = 1; s->p += 4; return true; }
        return false;
    default:
        if (*p == '-' || (*p >= '0' && *p <= '9')) return parse_number(s, item);
        return false;
    }
}

static void start(P *s, char *buf, size_t len, JsonArena *a)
{
    s->p = buf;
    s->end = buf + len;
    s->a = a;
    s->depth = 0;
    if (len > 4 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) s->p += 3;   /* cJSON skips a BOM */
    skip_ws(s);
}

const cJSON *jsonscan_parse_at(char *buf, size_t len, JsonArena *a, int depth)
{
    P p = { buf, buf + len, a, depth };
    cJSON *n = new_node(a);
    bool ok = parse_value(&p, n);
    if (ok) skip_ws(&p);
    return ok && p.p == p.end ? n : NULL;
}

const cJSON *jsonscan_parse_inplace(char *buf, size_t len, JsonArena *a)
{
    if (!buf || !len) return NULL;
    P s;
    start(&s, buf, len, a);
    cJSON *root = new_node(a);
    return parse_value(&s, root) ? root : NULL;
}

/* ---------------------------------------------------------------------------------- lists */

/* "key" and "key.sub" paths into rules; at most 8 keys of 63 bytes and 16 subkeys each */
static size_t compile_skip(JsonSkip skip, SkipRule *rules, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; skip && skip[i]; i++) {
        const char *k = skip[i], *dot = strchr(k, '.');
        size_t len = dot ? (size_t)(dot - k) : strlen(k);
        if (len >= sizeof rules[0].key) continue;
        SkipRule *r = NULL;
        for (size_t j = 0; j < n; j++)
            if (strlen(rules[j].key) == len && strncmp(rules[j].key, k, len) == 0) r = &rules[j];
        if (!r) {
            if (n == max) continue;
            r = &rules[n++];
            memset(r, 0, sizeof *r);
            memcpy(r->key, k, len);
            r->keylen = len;
        }
        if (!dot) r->whole = true;
        else if (r->nsub < sizeof r->sub / sizeof *r->sub) {
            const char *colon = strchr(dot + 1, ':');      /* "key.sub:m1,m2": keep those */
            r->sublen[r->nsub] = colon ? (size_t)(colon - dot - 1) : strlen(dot + 1);
            r->keep[r->nsub] = colon ? colon + 1 : NULL;
            r->keeplen[r->nsub] = colon ? strlen(colon + 1) : 0;
            r->keepmask[r->nsub] = colon ? list_len_bits(colon + 1, r->keeplen[r->nsub]) : 0;
            r->submask |= len_bit(r->sublen[r->nsub]);
            r->sub[r->nsub++] = dot + 1;
        }
    }
    return n;
}

void json_list_info_clear(JsonListInfo *info)
{
    free(info->kind);
    free(info->cont);
    free(info->rv);
    info->kind = info->cont = info->rv = NULL;
}

int jsonscan_list_walk(char *buf, size_t len, JsonArena *a, JsonSkip skip, JsonItemFn fn,
                   JsonMetaFn meta, void *ctx, JsonListInfo *info)
{
    memset(info, 0, sizeof *info);
    info->bad_item = -1;
    SkipRule rules[8];
    size_t nrules = compile_skip(skip, rules, 8);
    json_arena_reset(a);
    bool meta_called = false, seen_items = false, seen_kind = false, seen_meta = false, stop = false;
    int ret = 0;
    P s;
    if (!buf || !len) { info->syntax_error = true; return 0; }
    start(&s, buf, len, a);
    if (s.p >= s.end || *s.p != '{') {
        /* not an object: a syntax error or another type, the same message either way */
        info->syntax_error = true;
        return 0;
    }
    s.depth = 1;
    s.p++;
    skip_ws(&s);
    if (s.p < s.end && *s.p == '}') goto done;
    if (s.p >= s.end) goto bad;
    for (;;) {
        skip_ws(&s);
        char *key = parse_string(&s);
        if (!key) goto bad;
        skip_ws(&s);
        if (s.p >= s.end || *s.p != ':') goto bad;
        s.p++;
        skip_ws(&s);
        if (!seen_items && strcmp(key, "items") == 0) {
            seen_items = info->has_items = true;
            if (s.p < s.end && *s.p == '[') {
                /* the items, one at a time */
                if (s.depth >= NESTING_LIMIT) goto bad;
                s.depth++;
                s.p++;
                skip_ws(&s);
                if (s.p < s.end && *s.p == ']') {
                    s.p++;
                    s.depth--;
                } else {
                    if (s.p >= s.end) goto bad;
                    long idx = 0;
                    for (;; idx++) {
                        skip_ws(&s);
                        json_arena_reset(a);
                        cJSON *it = new_node(a);
                        bool ok;
                        if (!stop && s.p < s.end && *s.p == '{')
                            ok = parse_object_rules(&s, it, rules, nrules, NULL);
                        else
                            ok = parse_value(&s, it);
                        if (!ok) goto bad;
                        if (!stop) {
                            if (it->type != cJSON_Object) {
                                info->bad_item = idx;
                                stop = true;
                            } else if (fn) {
                                info->items++;
                                int r = fn(ctx, it);
                                if (r) { ret = r; json_arena_reset(a); goto out; }
                            }
                        }
                        skip_ws(&s);
                        if (s.p < s.end && *s.p == ',') { s.p++; continue; }
                        break;
                    }
                    if (s.p >= s.end || *s.p != ']') goto bad;
                    s.p++;
                    s.depth--;
                }
            } else {
                cJSON *v = new_node(a);
                if (!parse_value(&s, v)) goto bad;
                if (v->type == cJSON_NULL) info->items_null = true;
                else { info->items_not_array = true; stop = true; }
            }
        } else {
            json_arena_reset(a);
            cJSON *v = new_node(a);
            if (!parse_value(&s, v)) goto bad;
            if (!seen_kind && strcmp(key, "kind") == 0) {
                seen_kind = true;
                if (v->type == cJSON_String) info->kind = xstrdup(v->valuestring);
            } else if (!seen_meta && strcmp(key, "metadata") == 0) {
                seen_meta = true;
                if (v->type == cJSON_Object) {
                    const cJSON *c = v->child;
                    while (c && c->string && strcmp(c->string, "continue") != 0) c = c->next;
                    if (c && c->string && c->type == cJSON_String && c->valuestring && *c->valuestring)
                        info->cont = xstrdup(c->valuestring);
                    for (c = v->child; c && c->string && strcmp(c->string, "resourceVersion") != 0; c = c->next) { }
                    if (c && c->string && c->type == cJSON_String && c->valuestring && *c->valuestring)
                        info->rv = xstrdup(c->valuestring);
                }
                if (meta && !stop) meta(ctx, info->cont);
                meta_called = true;
            }
        }
        json_arena_reset(a);
        skip_ws(&s);
        if (s.p < s.end && *s.p == ',') { s.p++; continue; }
        break;
    }
    if (s.p >= s.end || *s.p != '}') goto bad;
done:
    if (meta && !meta_called && !stop) meta(ctx, NULL);
out:
    json_arena_reset(a);
    return ret;
bad:
    info->syntax_error = true;
    json_arena_reset(a);
    return 0;
}
