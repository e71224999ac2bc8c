/* libFuzzer target: the YAML writer (src/render/yaml.c through yaml_render, the one writer
 * every -o yaml and every manifest goes through), round trip: a cJSON value built from the
 * input is written as YAML, read back with libyaml (util/yaml_load.c, every scalar a string)
 * and compared with what was written.  The input is a JSON document when it parses as one,
 * else its bytes are one string value ({"s": BYTES}: any bytes, newlines, quotes, control
 * characters, invalid UTF-8).  Invariants: writing never fails; the text parses; objects keep
 * their keys in order, arrays their length; a string reads back as itself (invalid UTF-8
 * sequences as U+FFFD, as the writer documents), a number as the writer's text of it (whole
 * below 1e15, else 6 significant digits), true/false as those words, null as null. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include "fuzz_util.h"
#include "render/render.h"
#include "util/util.h"
#include "util/yaml_load.h"
#include <cjson/cJSON.h>

static char *fixed_utf8(const char *s)
{
    size_t len = strlen(s), o = 0;
    char *out = malloc(len * 3 + 1);
    if (!out) abort();
    for (size_t i = 0; i < len;) {
        size_t m = str_utf8_len((const unsigned char *)s + i);
        if (m) { memcpy(out + o, s + i, m); o += m; i += m; }
        else { memcpy(out + o, "\xef\xbf\xbd", 3); o += 3; i++; }
    }
    out[o] = '\0';
    return out;
}

static const char *written;      /* the YAML text, for the message of a failure */

static void same_string(const char *want_raw, const char *got)
{
    char *want = fixed_utf8(want_raw);
    if (strcmp(want, got) != 0) {
        fprintf(stderr, "FUZZ: wrote [%s], read back [%s]\n--- the YAML:\n%s\n---\n", want, got, written);
        abort();
    }
    free(want);
}

static void same(const cJSON *w, const cJSON *g)
{
    if (cJSON_IsNull(w) && !g) return;        /* a document that is only null: "empty" */
    FUZZ_ASSERT(g != NULL);
    if (cJSON_IsObject(w)) {
        FUZZ_ASSERT(cJSON_IsObject(g));
        const cJSON *gc = g->child;
        for (const cJSON *wc = w->child; wc; wc = wc->next, gc = gc->next) {
            FUZZ_ASSERT(gc != NULL && gc->string != NULL);
            same_string(wc->string ? wc->string : "", gc->string);
            same(wc, gc);
        }
        FUZZ_ASSERT(gc == NULL);
    } else if (cJSON_IsArray(w)) {
        FUZZ_ASSERT(cJSON_IsArray(g));
        const cJSON *gc = g->child;
        for (const cJSON *wc = w->child; wc; wc = wc->next, gc = gc->next) {
            FUZZ_ASSERT(gc != NULL);
            same(wc, gc);
        }
        FUZZ_ASSERT(gc == NULL);
    } else if (cJSON_IsString(w)) {
        FUZZ_ASSERT(cJSON_IsString(g));
        same_string(w->valuestring, g->valuestring);
    } else if (cJSON_IsNumber(w)) {
        char buf[64];
        double d = w->valuedouble;
        if (d == floor(d) && fabs(d) < 1e15) snprintf(buf, sizeof buf, "%.0f", d);
        else snprintf(buf, sizeof buf, "%.6g", d);
        FUZZ_ASSERT(cJSON_IsString(g));
        same_string(buf, g->valuestring);
    } else if (cJSON_IsBool(w)) {
        FUZZ_ASSERT(cJSON_IsString(g));
        same_string(cJSON_IsTrue(w) ? "true" : "false", g->valuestring);
    } else {
        FUZZ_ASSERT(cJSON_IsNull(g));
    }
}

/* nodes and depth: yaml_load refuses over 200,000 nodes or depth 64 (its documented bounds);
 * *dup: an object with a key twice (JSON text may have it, YAML may not: not a round trip) */
static void measure(const cJSON *n, int depth, long *nodes, int *maxdepth, bool *dup)
{
    (*nodes)++;
    if (depth > *maxdepth) *maxdepth = depth;
    long k = 0;
    for (const cJSON *c = n->child; c; c = c->next, k++) {
        if (cJSON_IsObject(n)) {
            if (k > 2000) { *dup = true; return; }      /* not checked: left out */
            for (const cJSON *d = n->child; d != c; d = d->next)
                if (strcmp(d->string ? d->string : "", c->string ? c->string : "") == 0) *dup = true;
        }
        measure(c, depth + 1, nodes, maxdepth, dup);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 18)) return 0;
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    if (!doc) {
        char *s = fuzz_cstr(data, size);
        doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "s", s);
        free(s);
    }
    long nodes = 0;
    int depth = 0;
    bool dup = false;
    measure(doc, 0, &nodes, &depth, &dup);
    if (nodes > 100000 || depth > 60 || dup) { cJSON_Delete(doc); return 0; }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    int rc = yaml_render(f, doc, false);
    fclose(f);
    FUZZ_ASSERT(rc == 0);
    written = text;
    cJSON *back = NULL;
    char *msg = NULL;
    if (yaml_load_json_strings(text, len, &back, &msg) != 0) {
        fprintf(stderr, "FUZZ: the YAML written does not parse: %s\n---\n%s\n---\n", msg ? msg : "?", text);
        abort();
    }
    same(doc, back);
    cJSON_Delete(back);
    cJSON_Delete(doc);
    free(text);
    return 0;
}
