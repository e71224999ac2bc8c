/* snapshot.c — read a cluster dump (a JSON List) into the model, one item at a time.
 *
 * A dump of a large cluster is hundreds of megabytes, so it is not parsed whole.  The file is
 * mapped and a small scanner walks the top-level object: it finds where each value starts
 * and ends (strings, escapes and bracket nesting checked, nothing allocated), so "kind" and
 * "metadata" can be read wherever they stand, and each element of "items" is handed to cJSON
 * on its own, ingested, and freed.  Unknown top-level keys ("kubectlGpuMetrics", written by
 * the metrics side) are skipped.
 *
 * Accepted: {"kind": "List" | "<Kind>List", "items": [...]} (items of a "<Kind>List" may omit
 * their kind, as the API serves them), or one object of a kind the model knows.
 */
#include "sources/loader.h"
#include "util/error.h"
#include "model/labels.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SCAN_MAX_DEPTH = 512 };

typedef struct {
    const char *p, *start, *end;
    const char *why;             /* what went wrong, for the error */
} Scan;

static void scan_ws(Scan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t')) s->p++;
}

/* at '"': moves past the closing quote */
static int scan_string(Scan *s)
{
    s->p++;
    while (s->p < s->end) {
        unsigned char ch = (unsigned char)*s->p;
        if (ch == '"') { s->p++; return 0; }
        if (ch < 0x20) { s->why = "control character in a string"; return -1; }
        if (ch == '\\') {
            if (s->p + 1 >= s->end) break;
            s->p += 2;
            continue;
        }
        s->p++;
    }
    s->why = "unterminated string (truncated file?)";
    return -1;
}

/* any JSON value: moves past it.  Nesting is tracked on a small stack so that a mismatched
 * bracket is caught without recursion. */
static int scan_value(Scan *s)
{
    char stack[SCAN_MAX_DEPTH];
    int depth = 0;
    scan_ws(s);
    do {
        if (s->p >= s->end) { s->why = "unexpected end of file (truncated?)"; return -1; }
        char ch = *s->p;
        if (ch == '"') {
            if (scan_string(s)) return -1;
        } else if (ch == '{' || ch == '[') {
            if (depth >= SCAN_MAX_DEPTH) { s->why = "nested too deeply"; return -1; }
            stack[depth++] = ch == '{' ? '}' : ']';
            s->p++;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0 || stack[depth - 1] != ch) { s->why = "mismatched bracket"; return -1; }
            depth--;
            s->p++;
        } else if (ch == ',' || ch == ':') {
            if (depth == 0) { s->why = "unexpected punctuation"; return -1; }
            s->p++;
        } else if ((ch >= '0' && ch <= '9') || ch == '-' || ch == 't' || ch == 'f' || ch == 'n') {
            const char *b = s->p;
            while (s->p < s->end && ((*s->p >= '0' && *s->p <= '9') || (*s->p >= 'a' && *s->p <= 'z') ||
                                     *s->p == '-' || *s->p == '+' || *s->p == '.' || *s->p == 'E'))
                s->p++;
            if (s->p == b) { s->why = "invalid literal"; return -1; }
        } else {
            s->why = "unexpected character";
            return -1;
        }
        scan_ws(s);
    } while (depth > 0);
    return 0;
}

typedef struct { const char *b, *e; } Span;

static cJSON *parse_span(Span sp)
{
    return sp.b ? cJSON_ParseWithLength(sp.b, (size_t)(sp.e - sp.b)) : NULL;
}

/* ---- filters that mirror the live lists ---- */

typedef struct {
    Cluster *c;
    const LoadRequest *rq;
    LabelSelector sel;
    bool has_sel;
    size_t skipped;
    char first_skip[2700];
} ReadCtx;

static bool wanted(ReadCtx *rc, ObjKind kind)
{
    const LoadRequest *rq = rc->rq;
    switch (kind) {
    case OBJ_NODE: return rq->nodes;
    case OBJ_POD: return rq->pods;
    case OBJ_EVENT: return rq->events;
    case OBJ_RESOURCEQUOTA: return rq->quotas;
    case OBJ_DAEMONSET: return rq->daemonsets;
    case OBJ_CLUSTERPOLICY: return rq->clusterpolicy;
    case OBJ_SERVICE: return rq->services;
    case OBJ_CONFIGMAP: return rq->configmaps;
    case OBJ_RESOURCESLICE: case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: case OBJ_DEVICECLASS:
        return loader_wants_dra(rq);
    default: return false;
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
        kv_free(&labels);
        if (!ok) return false;
    }
    return true;
}

static int ingest_item(ReadCtx *rc, const char *path, const cJSON *item, ObjKind list_kind,
                       bool have_list_kind, size_t idx, Error *err)
{
    ObjKind kind;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(item, "kind");
    if (cJSON_IsString(k)) {
        if (!obj_kind_from_name(k->valuestring, &kind)) return 0;    /* a kind we don't use */
    } else if (have_list_kind) {
        kind = list_kind;
    } else {
        error_set(err, "snapshot %s: items[%zu] has no kind", path, idx);
        return -1;
    }
    if (!wanted(rc, kind) || !passes_filters(rc, kind, item)) return 0;
    Error e = { 0 };
    if (cluster_ingest(rc->c, kind, item, &e) != 0) {
        if (!rc->skipped)
            snprintf(rc->first_skip, sizeof rc->first_skip, "items[%zu] (%s): %s", idx, obj_kind_name(kind), e.msg);
        rc->skipped++;
    }
    return 0;
}

static void read_annotations(Cluster *c, const cJSON *meta, bool *have_time)
{
    const cJSON *ann = cJSON_GetObjectItemCaseSensitive(meta, "annotations");
    const char *t = str_at(meta, "annotations", SNAPSHOT_ANN_TIME);
    int64_t when;
    if (t && time_parse_rfc3339(t, &when)) { c->now = when; *have_time = true; }
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
    size_t size = (size_t)st.st_size;
    const char *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) { error_set(err, "snapshot %s: %s", path, strerror(errno)); return -1; }

    ReadCtx rc = { .c = c, .rq = rq };
    int ret = -1;
    cJSON *kind_j = NULL, *meta = NULL;
    if (rq->node_selector && *rq->node_selector) {
        Error se = { 0 };
        if (label_selector_parse(&rc.sel, rq->node_selector, &se)) {
            error_set(err, "invalid node selector \"%s\" (-l): %s", rq->node_selector, se.msg);
            goto out;
        }
        rc.has_sel = true;
    }

    /* pass 1: the top-level keys and where their values are */
    Scan s = { data, data, data + size, NULL };
    Span kind_sp = { 0 }, meta_sp = { 0 }, items_sp = { 0 };
    scan_ws(&s);
    if (s.p >= s.end || *s.p != '{') {
        error_set(err, "snapshot %s: not a Kubernetes List (the file is not a JSON object)", path);
        goto out;
    }
    s.p++;
    scan_ws(&s);
    bool first = true;
    while (s.p < s.end && *s.p != '}') {
        if (!first) {
            if (*s.p != ',') { s.why = "expected ',' between keys"; goto bad; }
            s.p++;
            scan_ws(&s);
        }
        first = false;
        if (s.p >= s.end || *s.p != '"') { s.why = "expected a key"; goto bad; }
        const char *kb = s.p;
        if (scan_string(&s)) goto bad;
        size_t klen = (size_t)(s.p - kb);
        scan_ws(&s);
        if (s.p >= s.end || *s.p != ':') { s.why = "expected ':' after a key"; goto bad; }
        s.p++;
        scan_ws(&s);
        const char *vb = s.p;
        if (scan_value(&s)) goto bad;
        const char *ve = s.p;
        while (ve > vb && (ve[-1] == ' ' || ve[-1] == '\n' || ve[-1] == '\r' || ve[-1] == '\t')) ve--;
        Span sp = { vb, ve };
        if (klen == 6 && memcmp(kb, "\"kind\"", 6) == 0) kind_sp = sp;
        else if (klen == 10 && memcmp(kb, "\"metadata\"", 10) == 0) meta_sp = sp;
        else if (klen == 7 && memcmp(kb, "\"items\"", 7) == 0) items_sp = sp;
    }
    if (s.p >= s.end) { s.why = "unexpected end of file (truncated?)"; goto bad; }
    s.p++;
    scan_ws(&s);
    if (s.p != s.end) { s.why = "data after the end of the List"; goto bad; }

    kind_j = parse_span(kind_sp);
    const char *kind = cJSON_IsString(kind_j) ? kind_j->valuestring : NULL;
    ObjKind single;
    if (kind && !str_ends_with(kind, "List") && obj_kind_from_name(kind, &single)) {
        /* one object, e.g. `kubectl get node x -o json` */
        cJSON *obj = cJSON_ParseWithLength(data, size);
        if (!obj) { error_set(err, "snapshot %s: invalid JSON", path); goto out; }
        int r = ingest_item(&rc, path, obj, single, true, 0, err);
        cJSON_Delete(obj);
        if (r) goto out;
    } else {
        if (!kind || !str_ends_with(kind, "List")) {
            error_set(err, "snapshot %s: not a Kubernetes List (kind %s)", path, kind ? kind : "missing");
            goto out;
        }
        ObjKind list_kind = OBJ__COUNT;
        bool have_list_kind = false;
        if (strcmp(kind, "List") != 0) {
            char *ik = xstrndup(kind, strlen(kind) - 4);        /* "NodeList" -> "Node" */
            have_list_kind = obj_kind_from_name(ik, &list_kind);
            free(ik);
        }
        if (items_sp.b && !(items_sp.e - items_sp.b == 4 && memcmp(items_sp.b, "null", 4) == 0)) {
            if (*items_sp.b != '[') {
                error_set(err, "snapshot %s: \"items\" is not a list", path);
                goto out;
            }
            /* pass 2: the items, one at a time */
            Scan is = { items_sp.b + 1, data, items_sp.e, NULL };
            scan_ws(&is);
            size_t idx = 0;
            while (is.p < is.end && *is.p != ']') {
                if (idx > 0) {
                    if (*is.p != ',') { error_set(err, "snapshot %s: invalid JSON in items[%zu]", path, idx); goto out; }
                    is.p++;
                    scan_ws(&is);
                }
                const char *ib = is.p;
                if (scan_value(&is)) {
                    error_set(err, "snapshot %s: invalid JSON in items[%zu]: %s", path, idx, is.why);
                    goto out;
                }
                cJSON *item = cJSON_ParseWithLength(ib, (size_t)(is.p - ib));
                if (!cJSON_IsObject(item)) {
                    cJSON_Delete(item);
                    error_set(err, "snapshot %s: items[%zu] is not a JSON object", path, idx);
                    goto out;
                }
                int r = ingest_item(&rc, path, item, list_kind, have_list_kind, idx, err);
                cJSON_Delete(item);
                if (r) goto out;
                idx++;
            }
        }
    }
    meta = parse_span(meta_sp);
    bool have_time = false;
    if (cJSON_IsObject(meta)) read_annotations(c, meta, &have_time);
    if (!have_time) c->now = (int64_t)st.st_mtime;
    if (rc.skipped)
        cluster_warn(c, "%zu object(s) in the snapshot could not be read and were skipped (first: %s)",
                     rc.skipped, rc.first_skip);
    free(c->source);
    c->source = xasprintf("snapshot %s", path);
    ret = 0;
    goto out;
bad:
    error_set(err, "snapshot %s: invalid JSON at byte %zu: %s", path, (size_t)(s.p - data),
              s.why ? s.why : "syntax error");
out:
    cJSON_Delete(kind_j);
    cJSON_Delete(meta);
    if (rc.has_sel) label_selector_free(&rc.sel);
    munmap((void *)data, size);
    return ret;
}
