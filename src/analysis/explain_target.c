/* explain_target.c — what `kubectl gpu explain NAME` names (explain_target.h). */
#include "analysis/explain_target.h"
#include "util/error.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* the pod named in ns, or with -A the only pod of that name in any namespace */
static const Pod *find_pod(const Cluster *c, const char *ns, const char *name, Error *err)
{
    if (ns) {
        const Pod *p = cluster_find_pod(c, ns, name);
        if (!p) error_set(err, "no GPU pod \"%s\" in namespace \"%s\" (explain looks at pods that request a GPU)", name, ns);
        return p;
    }
    const Pod *found = NULL;
    for (size_t i = 0; i < c->npods; i++) {
        if (strcmp(c->pods[i].name, name) != 0) continue;
        if (found) {
            error_set(err, "pod \"%s\" exists in namespaces \"%s\" and \"%s\": choose one with -n", name, found->ns, c->pods[i].ns);
            return NULL;
        }
        found = &c->pods[i];
    }
    if (!found) error_set(err, "no GPU pod \"%s\" in any namespace (explain looks at pods that request a GPU)", name);
    return found;
}

/* an owner whose pods a ResourceQuota refused (kubectl gpu pending lists it by the owner's name) */
static bool find_never_created(const Cluster *c, const char *ns, const char *kind, const char *name, Explanation *out)
{
    ExplanationList l;
    explain_pending(c, ns, &l);
    bool found = false;
    for (size_t i = 0; i < l.n; i++) {
        if (!found && !l.items[i].created && strcmp(l.items[i].name, name) == 0 &&
            (!kind || (l.items[i].owner_kind && strcasecmp(l.items[i].owner_kind, kind) == 0))) {
            *out = l.items[i];
            found = true;
        } else {
            explanation_clear(&l.items[i]);
        }
    }
    free(l.items);
    return found;
}

int explain_target(const Cluster *c, const char *ns, const char *arg, Explanation *out, bool *pending, Error *err)
{
    /* NAME, pod/NAME, or KIND/NAME as `pending` prints an owner whose pods were not created */
    const char *name = arg, *slash = strchr(arg, '/');
    char *kind = slash ? xstrndup(arg, (size_t)(slash - arg)) : NULL;
    if (slash) name = slash + 1;
    bool pod_kind = !kind || strcasecmp(kind, "pod") == 0 || strcasecmp(kind, "pods") == 0 || strcasecmp(kind, "po") == 0;
    if (!*name) {
        error_set(err, "\"%s\": no name after the kind", arg);
        free(kind);
        return -2;
    }
    const Pod *p = NULL;
    bool queued = false;
    /* workload/NAME, podgroup/NAME or an owner (job/NAME) waiting in a batch queue */
    if (!pod_kind) explain_workload_one(c, ns, arg, out, &queued);
    if (queued) { free(kind); *pending = true; return 0; }
    if (pod_kind && (p = find_pod(c, ns, name, err))) {
        explain_workload_of_pod(c, p, out, &queued);      /* a gated or gang pod: its workload */
        if (queued) { free(kind); *pending = true; return 0; }
    } else if (pod_kind) {
        explain_workload_one(c, ns, name, out, &queued);  /* a workload named without its kind */
        if (queued) { free(kind); error_clear(err); *pending = true; return 0; }
    }
    if (!pod_kind || !p) {
        if (find_never_created(c, ns, pod_kind ? NULL : kind, name, out)) {
            free(kind);
            error_clear(err);            /* not a pod of that name: the owner it names */
            *pending = true;
            return 0;
        }
        if (!pod_kind)
            error_set(err, "no %s \"%s\" whose pods a ResourceQuota refused%s%s%s, nor waiting in a queue (explain takes a "
                      "pod, workload/NAME, podgroup/NAME, or KIND/NAME as 'kubectl gpu pending' lists an owner)", kind, name,
                      ns ? " in namespace \"" : "", ns ? ns : "", ns ? "\"" : "");
        free(kind);
        return -1;
    }
    free(kind);
    explain_pod_queued(c, p, out);
    *pending = !p->node_name && p->phase == PHASE_PENDING;
    return 0;
}
