/* cmd_snapshot.c — `kubectl gpu snapshot [-o FILE]`: dump what the other commands read from
 * the API server into one JSON List that --snapshot reads back.
 *
 * Items are written as they arrive, page by page (the cluster is never held in memory), to a
 * temporary file next to FILE (or an anonymous one for stdout) that becomes the output only
 * when every list was read: a failed snapshot leaves no half-written List behind.  If a
 * continue token expires meanwhile, the snapshot starts over once.
 *
 * Each item gets its apiVersion and kind; metadata.managedFields, the last-applied annotation
 * and container env values are left out (noise, and env values often hold secrets: a
 * snapshot is meant to be attached to a ticket).  The List's annotations record the time,
 * the context name and server (never credentials), and the warnings met.
 */
#include "sources/apiclient.h"
#include "cmd/commands.h"
#include "util/error.h"
#include "sources/kubeconfig.h"
#include "sources/loader.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *snapshot_output;

static const Option snapshot_opts[] = {
    { OPT_STRING, 'o', "output", &snapshot_output, "FILE", "write the snapshot to FILE instead of stdout", NULL, "file" },
    OPT_END_MARK
};

typedef struct {
    FILE *f;
    size_t items;
    bool write_failed;
} SnapWriter;

static void redact_env(cJSON *spec, const char *containers)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(spec, containers);
    cJSON *ctr;
    cJSON_ArrayForEach(ctr, list) {
        cJSON *env = cJSON_GetObjectItemCaseSensitive(ctr, "env"), *e;
        cJSON_ArrayForEach(e, env)
            if (cJSON_GetObjectItemCaseSensitive(e, "value"))
                cJSON_ReplaceItemInObjectCaseSensitive(e, "value", cJSON_CreateString("<redacted by kubectl-gpu snapshot>"));
    }
}

static int write_item(void *ctx, ObjKind kind, const cJSON *item, Error *err)
{
    SnapWriter *w = ctx;
    cJSON *copy = cJSON_Duplicate(item, 1);
    if (!copy) { error_set(err, "out of memory copying a %s", obj_kind_name(kind)); return -1; }
    /* apiVersion and kind first, as kubectl prints them, then the item's own fields */
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "apiVersion", loader_api_version(kind));
    cJSON_AddStringToObject(obj, "kind", obj_kind_name(kind));
    while (copy->child) {
        cJSON *field = cJSON_DetachItemViaPointer(copy, copy->child);
        if (str_eq(field->string, "apiVersion") || str_eq(field->string, "kind")) cJSON_Delete(field);
        else cJSON_AddItemToArray(obj, field);      /* keeps the field's name */
    }
    cJSON_Delete(copy);
    copy = obj;
    cJSON *meta = cJSON_GetObjectItemCaseSensitive(copy, "metadata");
    cJSON_DeleteItemFromObjectCaseSensitive(meta, "managedFields");
    cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(meta, "annotations"),
                                            "kubectl.kubernetes.io/last-applied-configuration");
    if (kind == OBJ_POD) {
        cJSON *spec = cJSON_GetObjectItemCaseSensitive(copy, "spec");
        redact_env(spec, "containers");
        redact_env(spec, "initContainers");
        redact_env(spec, "ephemeralContainers");
    }
    char *text = cJSON_PrintUnformatted(copy);
    cJSON_Delete(copy);
    if (!text) { error_set(err, "out of memory writing a %s", obj_kind_name(kind)); return -1; }
    if (fprintf(w->f, "%s\n    %s", w->items ? "," : "", text) < 0) w->write_failed = true;
    free(text);
    w->items++;
    return 0;
}

static void rfc3339_utc(time_t t, char *buf, size_t n)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* one full pass: every list into w->f, then the List's metadata */
static int write_snapshot(SnapWriter *w, ApiClient *api, const RestConfig *rc, const LoadRequest *rq, Error *err)
{
    char when[32];
    rfc3339_utc(time(NULL), when, sizeof when);
    fputs("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [", w->f);
    Strvec warnings = STRVEC_INIT;
    bool checked = false;
    int rc_ = loader_list_live(api, rq, write_item, w, &warnings, &checked, err);
    if (rc_) { strvec_free(&warnings); return -1; }
    fputs("\n  ],\n", w->f);
    cJSON *meta = cJSON_CreateObject();
    cJSON *ann = cJSON_AddObjectToObject(meta, "annotations");
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_TIME, when);
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_CONTEXT, rc->context_name ? rc->context_name : "");
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_SERVER, apiclient_server(api));
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_VERSION, KGPU_VERSION);
    if (checked) cJSON_AddStringToObject(ann, SNAPSHOT_ANN_CP_CHECKED, "true");
    if (warnings.n) {
        Strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < warnings.n; i++) strbuf_addf(&sb, "%s%s", i ? "\n" : "", warnings.v[i]);
        cJSON_AddStringToObject(ann, SNAPSHOT_ANN_WARNINGS, strbuf_str(&sb));
        strbuf_free(&sb);
        for (size_t i = 0; i < warnings.n; i++) fprintf(stderr, "warning: %s\n", warnings.v[i]);
    }
    char *text = cJSON_PrintUnformatted(meta);
    fprintf(w->f, "  \"metadata\": %s\n}\n", text);
    free(text);
    cJSON_Delete(meta);
    strvec_free(&warnings);
    return 0;
}

static int copy_to_stdout(FILE *f)
{
    rewind(f);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, stdout) != n) return -1;
    return ferror(f) ? -1 : 0;
}

static int run_snapshot(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)argv;
    if (g->snapshot) {
        fprintf(stderr, "error: snapshot reads the API server; --snapshot cannot be used with it\n");
        return EXIT_USAGE;
    }
    Error err = { 0 };
    RestConfig rc;
    ApiClient *api;
    if (loader_connect(&g->source, &rc, &api, &err)) {
        fprintf(stderr, "error: %s\n", err.msg);
        return EXIT_FAIL;
    }
    LoadRequest rq = { true, true, true, true, true, true, true, g->selector,
                       g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL, true };
    int ret = EXIT_FAIL;
    char *tmp_path = NULL;
    FILE *f = NULL;
    if (snapshot_output) {
        tmp_path = xasprintf("%s.tmp.XXXXXX", snapshot_output);
        int fd = mkstemp(tmp_path);
        if (fd < 0) {
            fprintf(stderr, "error: cannot write %s: %s\n", snapshot_output, strerror(errno));
            free(tmp_path);
            tmp_path = NULL;
            goto out;
        }
        f = fdopen(fd, "w+");
    } else {
        f = tmpfile();
    }
    if (!f) {
        fprintf(stderr, "error: cannot create a temporary file for the snapshot: %s\n", strerror(errno));
        goto out;
    }
    SnapWriter w = { f, 0, false };
    for (int attempt = 0;; attempt++) {
        error_clear(&err);
        if (write_snapshot(&w, api, &rc, &rq, &err) == 0) break;
        if (err.code == 410 && attempt == 0) {
            /* a continue token expired: start over so the dump is one consistent read */
            if (g->verbose >= 1) fprintf(stderr, "a list expired while being read; starting the snapshot again\n");
            rewind(f);
            if (ftruncate(fileno(f), 0) != 0) { fprintf(stderr, "error: %s\n", strerror(errno)); goto out; }
            w.items = 0;
            w.write_failed = false;
            continue;
        }
        fprintf(stderr, "error: %s\n", err.msg);
        goto out;
    }
    if (fflush(f) != 0 || ferror(f) || w.write_failed) {
        fprintf(stderr, "error: writing the snapshot failed: %s\n", strerror(errno));
        goto out;
    }
    if (tmp_path) {
        if (fsync(fileno(f)) != 0 || fclose(f) != 0) {
            f = NULL;
            fprintf(stderr, "error: writing %s failed: %s\n", snapshot_output, strerror(errno));
            goto out;
        }
        f = NULL;
        if (rename(tmp_path, snapshot_output) != 0) {
            fprintf(stderr, "error: cannot write %s: %s\n", snapshot_output, strerror(errno));
            goto out;
        }
        free(tmp_path);
        tmp_path = NULL;
        if (g->verbose >= 1 || isatty(STDERR_FILENO))
            fprintf(stderr, "wrote %zu objects to %s\n", w.items, snapshot_output);
    } else if (copy_to_stdout(f) != 0) {
        fprintf(stderr, "error: writing the snapshot to stdout failed\n");
        goto out;
    }
    ret = EXIT_OK;
out:
    if (f) fclose(f);
    if (tmp_path) { unlink(tmp_path); free(tmp_path); }
    apiclient_free(api);
    restconfig_free(&rc);
    exec_credential_cache_clear();
    return ret;
}

const Command command_snapshot = {
    .name = "snapshot",
    .summary = "write a cluster dump that --snapshot reads (for offline analysis or a ticket)",
    .usage = "kubectl gpu snapshot [-o FILE] [flags]",
    .description =
        "Reads what the other commands use from the API server (nodes, non-terminal pods,\n"
        "FailedScheduling and FailedCreate events, resource quotas, DaemonSets, GPU Operator\n"
        "ClusterPolicies, services) and writes it as one JSON List, to stdout or to FILE.\n"
        "Read it back with --snapshot FILE on any command.  Nothing is written unless every\n"
        "list was read.  Left out: managedFields, last-applied annotations and container env\n"
        "values; credentials never appear.  -l limits the nodes, -n the pods, events and quotas.",
    .examples =
        "  kubectl gpu snapshot -o cluster.json\n"
        "  kubectl gpu status --snapshot cluster.json\n"
        "  kubectl gpu snapshot | gzip > cluster.json.gz\n",
    .options = snapshot_opts,
    .min_args = 0, .max_args = 0,
    .run = run_snapshot,
};
