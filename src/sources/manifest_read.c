/* manifest_read.c — a manifest file's documents to pod templates (contract in manifest_read.h). */
#include "sources/manifest_read.h"
#include "util/error.h"
#include "util/util.h"
#include "util/yaml_load.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name, *default_ns;
    ManifestPodList *out;
    Strvec *notes;
    Error *err;
    int objects;
} ReadCtx;

static int one_document(void *vctx, cJSON *doc, int index)
{
    ReadCtx *x = vctx;
    int rc = 0;
    if (!cJSON_IsNull(doc)) {           /* an empty document ("---" twice) is no object */
        char *where = xasprintf("%s, document %d", x->name, index + 1);
        size_t before = x->out->n + (x->notes ? x->notes->n : 0);
        if (manifest_pods_from_object(doc, x->default_ns, where, x->out, x->notes, x->err) < 0) {
            error_prefix(x->err, "%s: document %d: ", x->name, index + 1);
            rc = -1;
        }
        free(where);
        /* every object read gives a template or a note; a List with no items gives neither, and
         * is no object (kubectl apply: "no objects passed to apply") */
        if (x->out->n + (x->notes ? x->notes->n : 0) > before) x->objects++;
    }
    cJSON_Delete(doc);
    return rc;
}

static bool looks_like_json(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') continue;
        return text[i] == '{' || text[i] == '[';
    }
    return false;
}

/* JSON as kubectl reads it: one value, or a stream of them one after the other (what
 * `kubectl create --dry-run=client -o json` twice writes).  False when any of it is not JSON:
 * the YAML reader then takes the text whole, and its error names the line.  *rc: the
 * documents' outcome (-1 when one is not a Kubernetes object). */
static bool json_stream(ReadCtx *x, const char *text, size_t len, int *rc)
{
    const char *p = text, *end = text + len;
    size_t ndocs = 0;
    /* parse every value first: a text that is JSON only in part is YAML's to judge */
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
        if (p >= end) break;
        const char *stop = NULL;
        cJSON *doc = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, false);
        if (!doc || !stop || stop <= p) { cJSON_Delete(doc); return false; }
        cJSON_Delete(doc);
        ndocs++;
        p = stop;
    }
    if (!ndocs) return false;
    p = text;
    *rc = 0;
    for (int index = 0; *rc == 0; index++) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
        if (p >= end) break;
        const char *stop = NULL;
        cJSON *doc = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, false);
        p = stop;
        *rc = one_document(x, doc, index);
    }
    return true;
}

int manifest_read_text(const char *name, const char *text, size_t len, const char *default_ns,
                       ManifestPodList *out, Strvec *notes, Error *err)
{
    ReadCtx x = { name, default_ns, out, notes, err, 0 };
    int rc = 0;
    if (looks_like_json(text, len) && json_stream(&x, text, len, &rc)) {
        if (rc < 0) return -1;
        goto done;
    }
    int index = 0;
    char *msg = NULL;
    rc = yaml_load_json_stream(text, len, one_document, &x, &index, &msg);
    if (rc < 0 && msg) {
        error_set(err, "%s: document %d: %s", name, index + 1, msg);
        free(msg);
        return -1;
    }
    free(msg);
    if (rc) return -1;
done:
    if (!x.objects) {
        error_set(err, "%s: no Kubernetes objects in it", name);
        return -1;
    }
    return 0;
}

int manifest_read_file(const char *path, const char *default_ns, ManifestPodList *out, Strvec *notes, Error *err)
{
    bool in = strcmp(path, "-") == 0;
    const char *name = in ? "standard input" : path;
    size_t len = 0;
    char *msg = NULL;
    char *text = util_read_file(in ? "/dev/stdin" : path, &len, &msg);
    if (!text) {
        error_set(err, "%s: %s", name, msg ? msg : "cannot read");
        free(msg);
        return -1;
    }
    if (memchr(text, '\0', len)) {
        error_set(err, "%s: not a text file (a NUL byte)", name);
        free(text);
        return -1;
    }
    int rc = manifest_read_text(name, text, len, default_ns, out, notes, err);
    free(text);
    return rc;
}
