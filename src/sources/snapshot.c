/* snapshot.c — read a cluster dump (a JSON List, plain or gzip-compressed) into the model,
 * one item at a time, streaming.
 *
 * A dump of a large cluster is tens of megabytes compressed and several times that as text,
 * so it is neither mapped nor read whole: zlib's gzread gives the text (a plain file passes
 * through unchanged) into a window that holds only the value being read.  A small scanner
 * walks the top-level object: it finds where each value starts and ends (strings, escapes and
 * bracket nesting checked, nothing allocated); each element of "items" is parsed on its own
 * (jsonscan.h, in place), ingested and forgotten.  The other top-level members ("kind",
 * "metadata", ...) are small and kept; unknown ones are skipped.
 *
 * Accepted: {"kind": "List" | "<Kind>List", "items": [...]} (items of a "<Kind>List" may omit
 * their kind, as the API serves them), or one object of a kind the model knows.  Items of the
 * kinds kubectl-gpu itself writes (apiVersion kubectl-gpu/v1: the usage stored with metrics,
 * snapshot_usage.c) go to c->stored_usage.  A snapshot written before the reduced format
 * (kubectl-gpu annotations but no format version) still loads, with a note on stderr.
 */
#include "sources/loader.h"
#include "sources/jsonscan.h"
#include "sources/snapshot_format.h"
#include "util/error.h"
#include "model/labels.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

enum { SCAN_MAX_DEPTH = 512 };
#define READ_CHUNK ((size_t)256 << 10)
#define MAX_VALUE ((size_t)512 << 20)        /* one item or top-level member */
#define MAX_KEPT_MEMBER ((size_t)16 << 20)   /* top-level members other than items */
#define NO_KEEP SIZE_MAX

/* the text window: buf[0..len) holds the file's bytes from offset base on; bytes before keep
 * (or before pos when nothing is kept) may be dropped when more is read */
typedef struct {
    gzFile gz;
    char *buf;
    size_t len, cap, pos, keep;
    uint64_t base;
    bool eof;
    const char *why;             /* what went wrong, for the error */
    char zmsg[160];              /* zlib's reason when the compressed data is bad */
} In;

static bool more(In *in)
{
    if (in->eof) return false;
    size_t drop = in->keep == NO_KEEP ? in->pos : in->keep;
    if (drop) {
        memmove(in->buf, in->buf + drop, in->len - drop);
        in->len -= drop;
        in->pos -= drop;
        if (in->keep != NO_KEEP) in->keep -= drop;
        in->base += drop;
    }
    if (in->len > MAX_VALUE) {
        in->why = "a value larger than 512 MiB";
        in->eof = true;
        return false;
    }
    if (in->cap - in->len < READ_CHUNK) {
        in->cap = in->len + 2 * READ_CHUNK;
        in->buf = xrealloc(in->buf, in->cap + 1);
    }
    int n = gzread(in->gz, in->buf + in->len, (unsigned)READ_CHUNK);
    int zerr = 0;
    const char *zm = gzerror(in->gz, &zerr);
    if (n < 0 || (zerr != Z_OK && zerr != Z_BUF_ERROR)) {
        snprintf(in->zmsg, sizeof in->zmsg, "%s", zm && *zm ? zm : "read error");
        in->eof = true;
        return false;
    }
    if (n == 0) {
        /* Z_BUF_ERROR at the end: the compressed stream stopped before its end */
        if (zerr == Z_BUF_ERROR) snprintf(in->zmsg, sizeof in->zmsg, "%s", zm && *zm ? zm : "truncated");
        in->eof = true;
        return false;
    }
    in->len += (size_t)n;
    return true;
}

static inline int peek(In *in)
{
    if (in->pos == in->len && !more(in)) return -1;
    return (unsigned char)in->buf[in->pos];
}

static void scan_ws(In *in)
{
    for (int ch; (ch = peek(in)) == ' ' || ch == '\n' || ch == '\r' || ch == '\t';) in->pos++;
}

/* at '"': moves past the closing quote */
static int scan_string(In *in)
{
    in->pos++;
    for (;;) {
        if (in->pos == in->len && !more(in)) break;
        /* past the plain bytes of what is read in at once */
        in->pos = (size_t)(jsonscan_string_stop(in->buf + in->pos, in->buf + in->len, true) - in->buf);
        if (in->pos == in->len) continue;
        unsigned char ch = (unsigned char)in->buf[in->pos];
        if (ch == '"') { in->pos++; return 0; }
        if (ch < 0x20) { in->why = "control character in a string"; return -1; }
        in->pos++;
        if (ch == '\\') {
            if (peek(in) < 0) break;
            in->pos++;
        }
    }
    if (!in->why) in->why = "unterminated string (truncated file?)";
    return -1;
}

static bool literal_char(int ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || ch == '-' || ch == '+' || ch == '.' || ch == 'E';
}

/* any JSON value: moves past it.  Nesting is tracked on a small stack so that a mismatched
 * bracket is caught without recursion. */
static int scan_value(In *in)
{
    char stack[SCAN_MAX_DEPTH];
    int depth = 0;
    scan_ws(in);
    do {
        int ch = peek(in);
        if (ch < 0) { if (!in->why) in->why = "unexpected end of file (truncated?)"; return -1; }
        if (ch == '"') {
            if (scan_string(in)) return -1;
        } else if (ch == '{' || ch == '[') {
            if (depth >= SCAN_MAX_DEPTH) { in->why = "nested too deeply"; return -1; }
            stack[depth++] = ch == '{' ? '}' : ']';
            in->pos++;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0 || stack[depth - 1] != ch) { in->why = "mismatched bracket"; return -1; }
            depth--;
            in->pos++;
        } else if (ch == ',' || ch == ':') {
            if (depth == 0) { in->why = "unexpected punctuation"; return -1; }
            in->pos++;
        } else if (literal_char(ch) && ch != '+' && ch != '.' && ch != 'E') {
            while (literal_char(peek(in))) in->pos++;
        } else {
            in->why = "unexpected character";
            return -1;
        }
        scan_ws(in);
    } while (depth > 0);
    return 0;
}

/* ---- filters that mirror the live lists ---- */

typedef struct {
    Cluster *c;
    const LoadRequest *rq;
    const char *path;
    LabelSelector sel;
    bool has_sel;
    size_t skipped;
    char first_skip[2700];
    ObjKind list_kind;
    int list_kind_state;         /* 0 unknown yet, 1 a "<Kind>List", 2 a List whose items need kinds */
    cJSON **pending; size_t *pending_idx; size_t npending, cappending;   /* items without kind */
    bool own_items;              /* an item of kubectl-gpu's own kinds was read */
} ReadCtx;

static bool wanted(ReadCtx *rc, ObjKind kind)
{
    const LoadRequest *rq = rc->rq;
    switch (kind) {
    case OBJ_NODE: return rq->nodes;
    case OBJ_POD: return rq->pods;
    case OBJ_EVENT: return rq->events || rq->quota_events;
    case OBJ_RESOURCEQUOTA: return rq->quotas;
    case OBJ_DAEMONSET: return rq->daemonsets;
    case OBJ_CLUSTERPOLICY: return rq->clusterpolicy;
    case OBJ_SERVICE: return rq->services;
    case OBJ_CONFIGMAP: return rq->configmaps;
    case OBJ_PRIORITYCLASS: case OBJ_KUEUE_PRIORITYCLASS:
        return rq->priority_classes && (kind == OBJ_PRIORITYCLASS || loader_wants_queues(rq));
    case OBJ_RESOURCESLICE: case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: case OBJ_DEVICECLASS:
        return loader_wants_dra(rq);
    default: return obj_kind_is_queue(kind) && loader_wants_queues(rq);
    }
}

static const char *str_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool passes_filters(ReadCtx *rc, ObjKind kind, const cJSON *item)
{
    const char *ns = str_at(item, "metadata", "namespace");
    if (rc->rq->pod_namespace && (kind == OBJ_POD || kind == OBJ_EVENT || kind == OBJ_RESOURCEQUOTA) &&
        !str_eq(ns, rc->rq->pod_namespace))
        return false;
    if (kind == OBJ_POD) {
        const char *phase = str_at(item, "status", "phase");
        if (str_eq(phase, "Succeeded") || str_eq(phase, "Failed")) return false;
    }
    if (kind == OBJ_EVENT) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(item, "reason");
        if (!cJSON_IsString(r) || (strcmp(r->valuestring, "FailedScheduling") != 0 &&
                                   strcmp(r->valuestring, "FailedCreate") != 0))
            return false;
    }
    if (kind == OBJ_NODE && rc->has_sel) {
        KVList labels = KVLIST_INIT;
        kv_from_json(&labels, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(item, "metadata"), "labels"));
        bool ok = label_selector_matches(&rc->sel, &labels);
        kv_clear(&labels);
        if (!ok) return false;
    }
    return true;
}

static void ingest_kind(ReadCtx *rc, ObjKind kind, const cJSON *item, size_t idx)
{
    if (!wanted(rc, kind) || !passes_filters(rc, kind, item)) return;
    Error e = { 0 };
    if (cluster_ingest(rc->c, kind, item, &e) != 0) {
        if (!rc->skipped)
            snprintf(rc->first_skip, sizeof rc->first_skip, "items[%zu] (%s): %s", idx, obj_kind_name(kind), e.msg);
        rc->skipped++;
    }
}

static int ingest_item(ReadCtx *rc, const cJSON *item, size_t idx, Error *err)
{
    ObjKind kind;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(item, "kind");
    if (cJSON_IsString(k)) {
        if (str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "apiVersion")), SNAPSHOT_API_VERSION)) {
            rc->own_items = true;
            snapshot_usage_ingest(rc->c, item);
            return 0;
        }
        if (!obj_kind_from_api(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "apiVersion")),
                               k->valuestring, &kind))
            return 0;                                                /* a kind we don't use */
    } else if (rc->list_kind_state == 1) {
        kind = rc->list_kind;
    } else if (rc->list_kind_state == 0) {
        /* the List's kind comes after its items: wait for it */
        if (rc->npending == rc->cappending) {
            rc->cappending = rc->cappending ? rc->cappending * 2 : 16;
            rc->pending = xrealloc(rc->pending, rc->cappending * sizeof *rc->pending);
            rc->pending_idx = xrealloc(rc->pending_idx, rc->cappending * sizeof *rc->pending_idx);
        }
        rc->pending[rc->npending] = cJSON_Duplicate(item, 1);
        rc->pending_idx[rc->npending++] = idx;
        return 0;
    } else {
        error_set(err, "snapshot %s: items[%zu] has no kind", rc->path, idx);
        return -1;
    }
    ingest_kind(rc, kind, item, idx);
    return 0;
}

/* the List's kind, once known: "<Kind>List" names the kind of items without one */
static void set_list_kind(ReadCtx *rc, const char *kind)
{
    if (rc->list_kind_state || !kind || !str_ends_with(kind, "List")) return;
    rc->list_kind_state = 2;
    if (strcmp(kind, "List") != 0) {
        char *ik = xstrndup(kind, strlen(kind) - 4);        /* "NodeList" -> "Node" */
        if (obj_kind_from_name(ik, &rc->list_kind)) rc->list_kind_state = 1;
        free(ik);
    }
}

static void read_annotations(Cluster *c, const cJSON *meta, bool *have_time, const char **version,
                             const char **format)
{
    const cJSON *ann = cJSON_GetObjectItemCaseSensitive(meta, "annotations");
    const char *t = str_at(meta, "annotations", SNAPSHOT_ANN_TIME);
    int64_t when;
    if (t && util_time_parse_rfc3339(t, &when)) { c->now = when; *have_time = true; }
    const cJSON *v;
    if ((v = cJSON_GetObjectItemCaseSensitive(ann, SNAPSHOT_ANN_CONTEXT)) && cJSON_IsString(v)) {
        free(c->context); c->context = xstrdup(v->valuestring);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(ann, SNAPSHOT_ANN_SERVER)) && cJSON_IsString(v)) {
        free(c->server); c->server = xstrdup(v->valuestring);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(ann, SNAPSHOT_ANN_CP_CHECKED)) && cJSON_IsString(v))
        c->clusterpolicy_checked = strcmp(v->valuestring, "true") == 0;
    if ((v = cJSON_GetObjectItemCaseSensitive(ann, SNAPSHOT_ANN_WARNINGS)) && cJSON_IsString(v)) {
        char *copy = xstrdup(v->valuestring);
        for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            if (*line) cluster_warn(c, "%s (when the snapshot was taken)", line);
        free(copy);
    }
    *version = str_at(meta, "annotations", SNAPSHOT_ANN_VERSION);
    *format = str_at(meta, "annotations", SNAPSHOT_ANN_FORMAT);
}

/* the elements of "items", one at a time (in->pos is just past '['); 1 = a syntax error
 * (in->why) */
static int read_items(In *in, ReadCtx *rc, JsonArena *arena, Error *err)
{
    scan_ws(in);
    size_t idx = 0;
    for (;;) {
        int ch = peek(in);
        if (ch == ']') { in->pos++; return 0; }
        if (ch < 0) { if (!in->why) in->why = "unexpected end of file (truncated?)"; return 1; }
        if (idx > 0) {
            if (ch != ',') { in->why = "expected ',' between items"; return 1; }
            in->pos++;
            scan_ws(in);
        }
        in->keep = in->pos;
        if (scan_value(in)) return 1;
        size_t b = in->keep;
        in->keep = NO_KEEP;
        const cJSON *item = jsonscan_parse_inplace(in->buf + b, in->pos - b, arena);
        if (!cJSON_IsObject(item)) {
            error_set(err, "snapshot %s: items[%zu] is not a JSON object", rc->path, idx);
            return -1;
        }
        int r = ingest_item(rc, item, idx, err);
        json_arena_reset(arena);
        if (r) return -1;
        /* what the parse unescaped in place is never scanned again: pos is past it */
        scan_ws(in);
        idx++;
    }
}

/* the top-level object; returns 0, -1 with err set, or fills in->why for a syntax error */
static int read_top(In *in, ReadCtx *rc, cJSON *top, JsonArena *arena, bool *items_seen, Error *err)
{
    scan_ws(in);
    if (peek(in) != '{') {
        if (in->zmsg[0]) return 1;
        error_set(err, "snapshot %s: not a Kubernetes List (the file is not a JSON object)", rc->path);
        return -1;
    }
    in->pos++;
    scan_ws(in);
    bool first = true;
    for (;;) {
        int ch = peek(in);
        if (ch < 0) { if (!in->why) in->why = "unexpected end of file (truncated?)"; return 1; }
        if (ch == '}') break;
        if (!first) {
            if (ch != ',') { in->why = "expected ',' between keys"; return 1; }
            in->pos++;
            scan_ws(in);
        }
        first = false;
        if (peek(in) != '"') { in->why = in->why ? in->why : "expected a key"; return 1; }
        in->keep = in->pos;
        if (scan_string(in)) return 1;
        char *key = xstrndup(in->buf + in->keep + 1, in->pos - in->keep - 2);
        in->keep = NO_KEEP;
        scan_ws(in);
        if (peek(in) != ':') { free(key); in->why = in->why ? in->why : "expected ':' after a key"; return 1; }
        in->pos++;
        scan_ws(in);
        if (strcmp(key, "items") == 0 && !*items_seen) {
            *items_seen = true;
            free(key);
            int ch2 = peek(in);
            if (ch2 == '[') {
                in->pos++;
                int r = read_items(in, rc, arena, err);
                if (r) return r;
                cJSON_AddItemToObject(top, "items", cJSON_CreateArray());
            } else {
                in->keep = in->pos;
                if (scan_value(in)) return 1;
                bool is_null = in->pos - in->keep >= 4 && memcmp(in->buf + in->keep, "null", 4) == 0;
                in->keep = NO_KEEP;
                if (!is_null) {
                    error_set(err, "snapshot %s: \"items\" is not a list", rc->path);
                    return -1;
                }
                cJSON_AddItemToObject(top, "items", cJSON_CreateNull());
            }
        } else {
            in->keep = in->pos;
            if (scan_value(in)) { free(key); return 1; }
            size_t b = in->keep, n = in->pos - b;
            in->keep = NO_KEEP;
            if (n <= MAX_KEPT_MEMBER && !cJSON_GetObjectItemCaseSensitive(top, key)) {
                cJSON *v = cJSON_ParseWithLength(in->buf + b, n);
                if (v) {
                    if (strcmp(key, "kind") == 0 && cJSON_IsString(v)) set_list_kind(rc, v->valuestring);
                    cJSON_AddItemToObject(top, key, v);
                }
            }
            free(key);
        }
        scan_ws(in);
    }
    in->pos++;
    scan_ws(in);
    if (peek(in) >= 0) { in->why = "data after the end of the List"; return 1; }
    if (in->zmsg[0]) return 1;
    return 0;
}

int snapshot_read(Cluster *c, const char *path, const LoadRequest *rq, Error *err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) { error_set(err, "snapshot %s: %s", path, strerror(errno)); return -1; }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error_set(err, "snapshot %s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        error_set(err, "snapshot %s: the file is empty, not a Kubernetes List", path);
        close(fd);
        return -1;
    }
    In in = { .keep = NO_KEEP };
    in.gz = gzdopen(fd, "rb");
    if (!in.gz) { error_set(err, "snapshot %s: %s", path, strerror(errno)); close(fd); return -1; }
    gzbuffer(in.gz, 128 << 10);

    ReadCtx rc = { .c = c, .rq = rq, .path = path };
    int ret = -1;
    cJSON *top = cJSON_CreateObject();
    JsonArena *arena = json_arena_new();
    if (rq->node_selector && *rq->node_selector) {
        Error se = { 0 };
        if (label_selector_parse(&rc.sel, rq->node_selector, &se)) {
            error_set(err, "invalid node selector \"%s\" (-l): %s", rq->node_selector, se.msg);
            goto out;
        }
        rc.has_sel = true;
    }

    bool items_seen = false;
    int r = read_top(&in, &rc, top, arena, &items_seen, err);
    if (r < 0) goto out;
    if (r > 0) {
        if (in.zmsg[0])
            error_set(err, "snapshot %s: the compressed data is damaged or cut short (%s)", path, in.zmsg);
        else
            error_set(err, "snapshot %s: invalid JSON at byte %llu: %s", path,
                      (unsigned long long)(in.base + in.pos), in.why ? in.why : "syntax error");
        goto out;
    }

    const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(top, "kind"));
    ObjKind single;
    if (kind && !str_ends_with(kind, "List") && obj_kind_from_name(kind, &single)) {
        /* one object, e.g. `kubectl get node x -o json` */
        ingest_kind(&rc, single, top, 0);
    } else if (!kind || !str_ends_with(kind, "List")) {
        error_set(err, "snapshot %s: not a Kubernetes List (kind %s)", path, kind ? kind : "missing");
        goto out;
    } else {
        set_list_kind(&rc, kind);
        for (size_t i = 0; i < rc.npending; i++) {
            if (rc.list_kind_state != 1) {
                error_set(err, "snapshot %s: items[%zu] has no kind", path, rc.pending_idx[i]);
                goto out;
            }
            ingest_kind(&rc, rc.list_kind, rc.pending[i], rc.pending_idx[i]);
        }
    }
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(top, "metadata");
    bool have_time = false;
    const char *version = NULL, *format = NULL;
    if (cJSON_IsObject(meta)) read_annotations(c, meta, &have_time, &version, &format);
    if (!have_time) c->now = (int64_t)st.st_mtime;
    if (version && !format && !rc.own_items)
        fprintf(stderr, "note: %s was written by kubectl-gpu %s in the older snapshot format (whole objects, "
                "no usage); it is read as before — take a new one with `kubectl gpu snapshot -o FILE.json.gz` "
                "to keep metrics and a smaller file\n", path, version);
    if (rc.skipped)
        cluster_warn(c, "%zu object(s) in the snapshot could not be read and were skipped (first: %s)",
                     rc.skipped, rc.first_skip);
    free(c->source);
    c->source = xasprintf("snapshot %s", path);
    ret = 0;
out:
    for (size_t i = 0; i < rc.npending; i++) cJSON_Delete(rc.pending[i]);
    free(rc.pending);
    free(rc.pending_idx);
    cJSON_Delete(top);
    json_arena_free(arena);
    if (rc.has_sel) label_selector_clear(&rc.sel);
    gzclose(in.gz);
    free(in.buf);
    return ret;
}
