/* loader_dra.c — the resource.k8s.io lists (DRA): DeviceClasses, ResourceSlices,
 * ResourceClaims, ResourceClaimTemplates, page by page like the other lists (loader.c).
 *
 * Version: resource.k8s.io/v1 (Kubernetes 1.34+), else v1beta2 (1.33), else v1beta1 (1.32).
 * The first list (deviceclasses) picks it: a 404 moves to the next version; 404 on all three
 * means the cluster serves no DRA, which is not worth a warning (as a missing ClusterPolicy
 * CRD).  A 403 on any of the lists is a warning naming what is not shown; other failures fail
 * the load.  The model reads all three shapes (dra.h).  The version found is what snapshots
 * write as the items' apiVersion.
 */
#include "sources/loader.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dra_version = "resource.k8s.io/v1";   /* last one served (for snapshots) */

const char *loader_dra_api_version(void) { return dra_version; }

bool loader_wants_dra(const LoadRequest *rq) { return rq->nodes && rq->pods; }

typedef struct {
    ObjKind kind;
    LoaderItemFn fn;
    void *ctx;
} DraListCtx;

static int on_dra_item(void *ctx, const cJSON *item, Error *err)
{
    DraListCtx *lc = ctx;
    return lc->fn(lc->ctx, lc->kind, item, err);
}

static const char *const dra_skip[] = { "metadata.managedFields", NULL };

int loader_list_dra(ApiClient *api, LoaderItemFn fn, void *ctx, Strvec *warnings, bool model, char **list_rv,
                    Error *err)
{
    static const char *const versions[] = { "v1", "v1beta2", "v1beta1" };
    static const char *const api_versions[] = { "resource.k8s.io/v1", "resource.k8s.io/v1beta2",
                                                "resource.k8s.io/v1beta1" };
    static const struct { ObjKind kind; const char *plural, *consequence; } lists[] = {
        { OBJ_DEVICECLASS, "deviceclasses", "DRA device classes not read" },
        { OBJ_RESOURCESLICE, "resourceslices", "GPUs published through DRA not shown" },
        { OBJ_RESOURCECLAIM, "resourceclaims", "DRA claims not shown" },
        { OBJ_RESOURCECLAIMTEMPLATE, "resourceclaimtemplates", "claims of pods not yet created not read" },
    };
    size_t v = 0;
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        for (;;) {
            char *path = xasprintf("/apis/resource.k8s.io/%s/%s", versions[v], lists[i].plural);
            DraListCtx lc = { lists[i].kind, fn, ctx };
            Error e = { 0 };
            int rc = apiclient_list_skip(api, path, NULL, on_dra_item, NULL, model ? dra_skip : NULL, &lc, &e);
            free(path);
            if (rc == 0) {
                if (i == 0) dra_version = api_versions[v];
                if (list_rv) {                   /* where its watch starts (watch.h) */
                    free(list_rv[lists[i].kind]);
                    list_rv[lists[i].kind] = apiclient_list_rv(api) ? xstrdup(apiclient_list_rv(api)) : NULL;
                }
                break;
            }
            if (e.code == 404 && i == 0 && v + 1 < sizeof versions / sizeof *versions) { v++; continue; }
            if (e.code == 404 && i == 0) return 0;          /* no DRA served: nothing to show */
            if (e.code == 403 || e.code == 404) {
                strvec_pushf(warnings, "%s.resource.k8s.io: %s (%s)", lists[i].plural, e.msg, lists[i].consequence);
                break;
            }
            *err = e;
            return -1;
        }
    }
    return 0;
}
