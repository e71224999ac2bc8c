/* libFuzzer target: the kube-scheduler's "why Pending" message (schedmsg_parse,
 * src/analysis/schedmsg.c).  Any text: no crash, no leak; counts are -1 or more; the parse
 * of the same text twice is the same. */
#include <stdio.h>
#include "fuzz_util.h"
#include "analysis/schedmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    SchedMessage m, m2;
    memset(&m, 0, sizeof m);
    memset(&m2, 0, sizeof m2);
    schedmsg_parse(s, &m);
    schedmsg_parse(s, &m2);
    FUZZ_ASSERT(m.kind == m2.kind && m.filter.nreasons == m2.filter.nreasons);
    FUZZ_ASSERT(m.filter.total >= -1);
    for (size_t i = 0; i < m.filter.nreasons; i++) {
        const SchedReason *r = &m.filter.reasons[i];
        FUZZ_ASSERT(r->count >= -1);
        FUZZ_ASSERT(r->text != NULL);
        FUZZ_ASSERT(schedmsg_code_name(r->code) != NULL);
        if (r->resource) FUZZ_ASSERT(r->code == SC_INSUFFICIENT && *r->resource);   /* NULL when cut off */
    }
    for (size_t i = 0; i < m.preemption.nreasons; i++) FUZZ_ASSERT(m.preemption.reasons[i].count >= -1);
    char buf[64];
    (void)schedmsg_versions(&m, buf, sizeof buf);
    FUZZ_ASSERT(strlen(buf) < sizeof buf);
    (void)schedmsg_kind_name(m.kind);
    (void)schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu");
    (void)schedmsg_count(&m, SC_UNTOLERATED_TAINT, NULL);
    schedmsg_clear(&m);
    schedmsg_clear(&m2);
    free(s);
    return 0;
}
