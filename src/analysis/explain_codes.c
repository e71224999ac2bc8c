/* explain_codes.c — the result types' helpers shared by every stage of explain (node,
 * verdict, fixes, reconcile): what a node's reasons hold, releasing a node's result and a fix's
 * change, and the owner kinds whose pods work as one.  Below all the stages: calls none of them.
 */
#include "explain_int.h"
#include <stdlib.h>
#include <string.h>

static void node_reason_release(NodeReason *x)
{
    free(x->resource); free(x->holders); free(x->key); free(x->value); free(x->effect);
    free(x->detail); strvec_clear(&x->advertised);
}

void node_result_clear(NodeResult *r)
{
    for (size_t i = 0; i < r->nreasons; i++) node_reason_release(&r->reasons[i]);
    free(r->reasons);
    r->reasons = NULL;
    r->nreasons = 0;
}

bool explain_has_code(const NodeResult *r, NodeReasonCode code)
{
    for (size_t i = 0; i < r->nreasons; i++) if (r->reasons[i].code == code) return true;
    return false;
}

const NodeReason *explain_find_code(const NodeResult *r, NodeReasonCode code, const char *res)
{
    for (size_t i = 0; i < r->nreasons; i++)
        if (r->reasons[i].code == code && (!res || str_eq(res, r->reasons[i].resource))) return &r->reasons[i];
    return NULL;
}

void explain_fix_info_release(FixInfo *f)
{
    free(f->fits_on);
    rlist_clear(&f->requests);
    kv_clear(&f->selector);
    strvec_clear(&f->tolerations);
    strvec_clear(&f->end_pods);
    free(f->node);
    free(f->advertise);
    kv_clear(&f->labels);
    memset(f, 0, sizeof *f);
}

/* Pods of a training workload (a batch Job, or a training operator's job): their GPUs work as
 * one, so splitting them is a change to the program, not to the pod spec */
bool explain_owner_is_training(const char *kind)
{
    static const char *const kinds[] = { "Job", "JobSet", "PyTorchJob", "TFJob", "MPIJob", "XGBoostJob",
                                         "PaddleJob", "JAXJob", "MXJob", "TrainJob", "RayJob", NULL };
    for (size_t i = 0; kind && kinds[i]; i++) if (str_eq(kind, kinds[i])) return true;
    return false;
}
