/* fit_admit.c — what the API server's Priority admission plugin does to a new pod, done to the
 * manifests' pods before they are judged: their priority (and preemption policy) are their
 * PriorityClass's, and a class that does not exist refuses them.
 *
 * kubernetes plugin/pkg/admission/priority/admission.go, admitPod (on Create):
 *   - no priorityClassName: the global default class (globalDefault: true; when several, the
 *     one of lowest value: getDefaultPriorityClass) gives its name, value and policy; with
 *     none, priority 0 (DefaultPriorityWhenNoDefaultClassExists) and PreemptLowerPriority;
 *   - a name: the class's value and preemptionPolicy; none of that name is Forbidden "no
 *     PriorityClass with name %v was found";
 *   - a spec.priority or spec.preemptionPolicy that differs from the computed one is Forbidden.
 * Every API server has the classes system-cluster-critical and system-node-critical (created
 * at bootstrap: pkg/apis/scheduling/v1/helpers.go systemPriorityClasses), so a cluster with
 * none read is one whose classes could not be read: the pods are then judged as written. */
#include "analysis/fit.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <string.h>

static const PriorityClass *default_class(const Cluster *c)
{
    const PriorityClass *d = NULL;
    for (size_t i = 0; i < c->npriority_classes; i++) {
        const PriorityClass *pc = &c->priority_classes[i];
        if (pc->global_default && (!d || pc->value < d->value)) d = pc;
    }
    return d;
}

/* the member key of obj set to v (replaced when present) */
static void set_member(cJSON *obj, const char *key, cJSON *v)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) cJSON_ReplaceItemInObjectCaseSensitive(obj, key, v);
    else cJSON_AddItemToObject(obj, key, v);
}

static int admit_one(const Cluster *c, cJSON *pod, Error *err)
{
    cJSON *spec = cJSON_GetObjectItemCaseSensitive(pod, "spec");
    if (!cJSON_IsObject(spec)) return 0;             /* (manifest_pods gives every pod a spec) */
    const cJSON *cn = cJSON_GetObjectItemCaseSensitive(spec, "priorityClassName");
    const char *name = cJSON_IsString(cn) && cn->valuestring[0] ? cn->valuestring : NULL;
    const PriorityClass *pc = name ? cluster_find_priority_class(c, name) : default_class(c);
    if (name && !pc) {
        error_set(err, "no PriorityClass with name %.253s was found: the API server's Priority admission refuses "
                  "its pods", name);
        return -1;
    }
    int32_t value = pc ? pc->value : 0;
    const char *policy = pc ? pc->preemption_policy : "PreemptLowerPriority";
    const cJSON *given = cJSON_GetObjectItemCaseSensitive(spec, "priority");
    if (given && (!cJSON_IsNumber(given) || given->valuedouble != (double)value)) {
        error_set(err, "spec.priority %.0f differs from the %d its PriorityClass%s%s gives: the API server's Priority "
                  "admission refuses its pods", cJSON_IsNumber(given) ? given->valuedouble : 0.0, (int)value,
                  pc ? " " : "", pc ? pc->name : "");
        return -1;
    }
    const cJSON *gp = cJSON_GetObjectItemCaseSensitive(spec, "preemptionPolicy");
    if (policy && cJSON_IsString(gp) && strcmp(gp->valuestring, policy) != 0) {
        error_set(err, "spec.preemptionPolicy %.32s differs from the %s its PriorityClass%s%s gives: the API server's "
                  "Priority admission refuses its pods", gp->valuestring, policy, pc ? " " : "", pc ? pc->name : "");
        return -1;
    }
    if (pc && !name) set_member(spec, "priorityClassName", cJSON_CreateString(pc->name));
    set_member(spec, "priority", cJSON_CreateNumber(value));
    if (policy) set_member(spec, "preemptionPolicy", cJSON_CreateString(policy));
    return 0;
}

int fit_admit_priority(const Cluster *c, ManifestPodList *templates, Error *err)
{
    if (!c->npriority_classes) return 0;
    for (size_t i = 0; i < templates->n; i++) {
        ManifestPod *mp = &templates->v[i];
        if (admit_one(c, mp->pod, err) < 0) {
            error_prefix(err, "%s: %s %s/%s: ", mp->where, mp->kind, mp->ns, mp->name);
            return -1;
        }
    }
    return 0;
}
