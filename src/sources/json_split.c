/* json_split.c — JsonSplit: a JSON document fed in pieces as it arrives, the elements of one
 * array in it handed out one by one as each completes, the rest kept (see jsonscan.h).  A
 * byte scanner finds where the elements begin and end; each element is parsed by jsonscan.c.
 */
#include "sources/jsonscan.h"
#include "jsonscan_int.h"
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

#define SPLIT_MAX_DEPTH NESTING_LIMIT
#define SPLIT_KEY 64

enum { TO_REST, TO_ELEM };

struct JsonSplit {
    const char *path[4];
    size_t npath;
    struct { const char *key[2]; size_t nkeys; char val[SPLIT_KEY]; bool seen, captured; } watch[8];
    size_t nwatch;
    JsonSplitReadyFn ready;
    JsonSplitElemFn elem;
    void *ctx;
    JsonArena *arena;
    Strbuf rest, cur;
    char head[256];
    size_t headlen;
    /* the scanner */
    int depth;                      /* open containers */
    unsigned char objbits[SPLIT_MAX_DEPTH / 8 + 2];   /* container at depth d is an object */
    bool want_key;                  /* innermost object: the next string is a key */
    bool after_colon;               /* the next token is a member's value */
    bool in_str, esc, str_key, str_capture;
    char sbuf[SPLIT_KEY];
    size_t slen;
    bool slong;
    bool used[4];                   /* path[i] already met (only the first member counts) */
    int chain;                      /* objects on the path now open (root = 1 when an object) */
    bool pending_match;             /* the key just read continues the path */
    int pending_watch;              /* ... or is watched (index), -1 */
    bool root_seen, done;
    /* the array */
    int arr_depth;                  /* depth of the array's contents, 0 = not open */
    int mode;                       /* 0 undecided, 1 hand out, 2 keep */
    int arr_state;                  /* 0 after '[', 1 in element, 2 after element, 3 after ',' */
    int elem_depth;                 /* element is a container: depth to come back to; 0 scalar */
    bool elem_string;               /* element is a string */
    int dest;
    bool stopped, bad;
    size_t handed;
};

/* the first quote or backslash in p[0..n), or n: eight bytes at a time (a byte b is zero in
 * x ^ b's broadcast exactly where x has b; (v - 0x01..) & ~v & 0x80.. is non-zero iff v has a
 * zero byte), then byte by byte from the word that has one */
static size_t run_to_quote(const char *p, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    size_t j = 0;
    while (j + 8 <= n) {
        uint64_t w, q, b;
        memcpy(&w, p + j, 8);
        q = w ^ (ones * '"');
        b = w ^ (ones * '\\');
        if (((q - ones) & ~q & highs) | ((b - ones) & ~b & highs)) break;
        j += 8;
    }
    while (j < n && p[j] != '"' && p[j] != '\\') j++;
    return j;
}

static bool is_obj(const JsonSplit *s, int d) { return (s->objbits[d / 8] >> (d % 8)) & 1; }
static void set_obj(JsonSplit *s, int d, bool v)
{
    if (v) s->objbits[d / 8] |= (unsigned char)(1u << (d % 8));
    else s->objbits[d / 8] &= (unsigned char)~(1u << (d % 8));
}

JsonSplit *json_split_new(const char *const *path, const char *const *watch, JsonSplitReadyFn ready,
                          JsonSplitElemFn elem, void *ctx)
{
    JsonSplit *s = xcalloc(1, sizeof *s);
    for (size_t i = 0; path && path[i] && i < 3; i++) s->path[s->npath++] = path[i];
    for (size_t i = 0; watch && watch[i] && s->nwatch < 8; i++) {
        const char *w = watch[i], *dot = strchr(w, '.');
        if (dot && (s->npath == 0 || strncmp(w, s->path[0], (size_t)(dot - w)) != 0 ||
                    strlen(s->path[0]) != (size_t)(dot - w)))
            continue;                    /* only "key" or "<path[0]>.key" */
        s->watch[s->nwatch].key[0] = dot ? dot + 1 : w;
        s->watch[s->nwatch].nkeys = dot ? 2 : 1;
        s->nwatch++;
    }
    s->ready = ready;
    s->elem = elem;
    s->ctx = ctx;
    s->arena = json_arena_new();
    s->pending_watch = -1;
    return s;
}

void json_split_free(JsonSplit *s)
{
    if (!s) return;
    strbuf_clear(&s->rest);
    strbuf_clear(&s->cur);
    json_arena_free(s->arena);
    free(s);
}

const char *json_split_watched(const JsonSplit *s, size_t i)
{
    return i < s->nwatch && s->watch[i].captured ? s->watch[i].val : NULL;
}
bool json_split_bad(const JsonSplit *s) { return s->bad; }
size_t json_split_handed(const JsonSplit *s) { return s->handed; }
const char *json_split_head(const JsonSplit *s, size_t *len) { *len = s->headlen; return s->head; }

char *json_split_rest(JsonSplit *s, size_t *len)
{
    *len = s->rest.len;
    if (!s->rest.buf) strbuf_adds(&s->rest, "");
    return s->rest.buf;
}

/* an element is complete in s->cur: parse it where the document would have it, hand it out */
static void split_element(JsonSplit *s)
{
    if (s->cur.len) {
        json_arena_reset(s->arena);
        const cJSON *n = jsonscan_parse_at(s->cur.buf, s->cur.len, s->arena, s->arr_depth);
        if (!n) {                            /* e.g. "12abc": not one value */
            s->bad = true;
        } else if (!s->stopped) {
            s->handed++;
            if (s->elem && s->elem(s->ctx, n)) s->stopped = true;
        }
        json_arena_reset(s->arena);
    }
    strbuf_reset(&s->cur);
}

/* a string token ended (s->sbuf holds up to SPLIT_KEY-1 raw bytes of it) */
static void split_string_end(JsonSplit *s)
{
    if (s->str_key) {
        s->want_key = false;
        s->pending_match = false;
        s->pending_watch = -1;
        if (s->slong) return;
        int d = s->depth;
        if (s->chain >= 1 && d == s->chain && (size_t)(d - 1) < s->npath && !s->used[d - 1] &&
            strcmp(s->sbuf, s->path[d - 1]) == 0) {
            s->used[d - 1] = true;
            s->pending_match = true;
        }
        for (size_t i = 0; i < s->nwatch; i++) {
            if (s->watch[i].seen || (int)s->watch[i].nkeys != d || strcmp(s->sbuf, s->watch[i].key[0]) != 0) continue;
            if (d == 2 && s->chain < 2) continue;      /* inside the first path[0] object only */
            if (d == 1 && s->chain < 1) continue;
            s->watch[i].seen = true;
            s->pending_watch = (int)i;
            break;
        }
        return;
    }
    if (s->str_capture) {
        int w = s->pending_watch;
        if (w >= 0 && !s->slong) {
            memcpy(s->watch[w].val, s->sbuf, s->slen + 1);
            s->watch[w].captured = true;
        }
    }
}

void json_split_feed(JsonSplit *s, const char *data, size_t len)
{
    if (s->headlen < sizeof s->head - 1) {
        size_t k = sizeof s->head - 1 - s->headlen < len ? sizeof s->head - 1 - s->headlen : len;
        memcpy(s->head + s->headlen, data, k);
        s->headlen += k;
        s->head[s->headlen] = '\0';
    }
    size_t seg = 0;                 /* start of the bytes not yet copied to their destination */
#define FLUSH(i) do { if ((i) > seg) strbuf_add(s->dest == TO_ELEM ? &s->cur : &s->rest, data + seg, (i) - seg); seg = (i); } while (0)
    for (size_t i = 0; i < len; i++) {
        if (s->done) break;
        char ch = data[i];
        if (s->in_str) {
            if (!s->esc) {
                /* most of an answer's bytes are inside strings: run to the next quote or
                 * escape in a local loop, recording the run when the string is a key or a
                 * watched value (as the byte-by-byte path below would) */
                size_t j = i + run_to_quote(data + i, len - i);
                if (j > i && (s->str_key || s->str_capture)) {
                    size_t n = j - i, room = SPLIT_KEY - 1 - s->slen;
                    if (n > room) { n = room; s->slong = true; }
                    memcpy(s->sbuf + s->slen, data + i, n);
                    s->slen += n;
                }
                if (j == len) break;
                i = j;
                ch = data[i];
            }
            if (s->esc) s->esc = false;
            else if (ch == '\\') s->esc = true;
            else if (ch == '"') {
                s->in_str = false;
                s->sbuf[s->slen] = '\0';
                split_string_end(s);
                if (s->dest == TO_ELEM && s->elem_string) {
                    FLUSH(i + 1);
                    split_element(s);
                    s->dest = TO_REST;
                    s->arr_state = 2;
                }
                continue;
            }
            if (s->str_key || s->str_capture) {
                if (s->slen < SPLIT_KEY - 1) s->sbuf[s->slen++] = ch;
                else s->slong = true;
            }
            continue;
        }
        if ((unsigned char)ch <= 32) {
            if (s->dest == TO_ELEM && !s->elem_depth && !s->elem_string && s->depth == s->arr_depth) {
                FLUSH(i);                 /* a scalar element ends */
                split_element(s);
                s->dest = TO_REST;
                s->arr_state = 2;
                seg = i + 1;              /* separators are not kept */
            } else if (s->mode == 1 && s->depth == s->arr_depth && s->dest == TO_REST) {
                FLUSH(i);
                seg = i + 1;
            }
            continue;
        }
        /* a scalar element ends at its separator */
        if (s->dest == TO_ELEM && !s->elem_depth && !s->elem_string && s->depth == s->arr_depth &&
            (ch == ',' || ch == ']')) {
            FLUSH(i);
            split_element(s);
            s->dest = TO_REST;
            s->arr_state = 2;
        }
        /* the handed-out array's own level: separators and element starts */
        if (s->mode == 1 && s->depth == s->arr_depth && s->dest == TO_REST) {
            if (ch == ']') {
                if (s->arr_state == 3) s->bad = true;     /* [a,] */
                FLUSH(i);                                  /* the ']' goes to the rest */
                s->mode = 2;                               /* the array is over */
                s->arr_depth = -1;
            } else if (ch == ',') {
                if (s->arr_state != 2) s->bad = true;
                s->arr_state = 3;
                FLUSH(i);
                seg = i + 1;
                continue;
            } else {
                if (s->arr_state == 2) s->bad = true;      /* [a b] */
                FLUSH(i);
                s->dest = TO_ELEM;
                s->arr_state = 1;
                s->elem_depth = (ch == '{' || ch == '[') ? s->depth + 1 : 0;
                s->elem_string = ch == '"';
            }
        }
        bool value_start = s->after_colon;
        s->after_colon = false;
        int d = s->depth;
        bool match = value_start && s->pending_match;
        int watch = value_start ? s->pending_watch : -1;
        if (value_start) { s->pending_match = false; s->pending_watch = -1; }
        switch (ch) {
        case '"': {
            s->in_str = true;
            s->esc = false;
            s->slen = 0;
            s->slong = false;
            s->str_key = d >= 1 && is_obj(s, d) && s->want_key;
            s->str_capture = !s->str_key && watch >= 0;
            if (s->str_capture) s->pending_watch = watch;
            if (!s->root_seen) { s->root_seen = true; }
            break;
        }
        case '{': case '[':
            if (d >= SPLIT_MAX_DEPTH) { s->bad = true; s->done = true; break; }
            s->depth = d + 1;
            set_obj(s, d + 1, ch == '{');
            s->want_key = ch == '{';
            if (d == 0 && !s->root_seen) {
                s->root_seen = true;
                if (ch == '{') s->chain = 1;
            } else if (match && ch == '{' && (size_t)s->chain < s->npath && d == s->chain) {
                s->chain = d + 1;
            } else if (match && ch == '[' && (size_t)s->chain == s->npath && d == s->chain && s->mode == 0) {
                s->arr_depth = d + 1;
                s->arr_state = 0;
                s->mode = s->ready && s->ready(s->ctx, s) ? 1 : 2;
                if (s->mode == 1) { FLUSH(i + 1); }
            }
            break;
        case '}': case ']':
            if (d == 0) { s->done = true; break; }
            if (s->chain == d && d > 1) s->chain = d - 1;
            else if (s->chain == 1 && d == 1) s->chain = 0;
            s->depth = d - 1;
            s->want_key = false;
            if (s->dest == TO_ELEM && s->elem_depth && s->depth + 1 == s->elem_depth) {
                FLUSH(i + 1);
                split_element(s);
                s->dest = TO_REST;
                s->arr_state = 2;
            }
            if (s->depth == 0) s->done = true;
            break;
        case ':':
            if (d >= 1 && is_obj(s, d)) s->after_colon = true;
            s->pending_match = match || s->pending_match;
            break;
        case ',':
            if (d >= 1 && is_obj(s, d)) s->want_key = true;
            break;
        default:
            if (d == 0) s->root_seen = true;
            break;
        }
    }
    FLUSH(len);
#undef FLUSH
    if (s->done && seg < len) strbuf_add(&s->rest, data + seg, len - seg);
}
