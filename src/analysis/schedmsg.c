/* schedmsg.c — parse the scheduler's FitError text of any version (see schedmsg.h).
 *
 * The message is built by FitError.Error() from up to three parts (reference §2.2):
 *
 *   "0/N nodes are available:" [PreFilter msg "."] [histogram "."] [PostFilter msg]
 *
 * The histogram is "<count> <reason>" entries joined by ", "; the PostFilter part of the
 * default preemption plugin is "preemption: " followed by a FitError of its own.  Versions
 * differ only in punctuation (1.26–1.28 end in ".."), in whether a PreFilter message has a
 * count (<=1.25) and in the wording of individual reasons, so the parser works in three
 * steps: cut the text at "preemption: ", cut the filter part into sentences at ". ", and cut
 * a histogram at ", " — re-joining a piece that does not start with a count to the entry
 * before it, because the 1.18–1.23 taint wording itself contains ", that the pod didn't
 * tolerate".  Each reason is then classified by its known prefixes (one table below), and
 * wording that only some versions use narrows the [min_minor, max_minor] version range.
 */
#include "analysis/schedmsg.h"
#include "util/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const code_names[] = {
    [SC_INSUFFICIENT] = "Insufficient",
    [SC_UNTOLERATED_TAINT] = "UntoleratedTaint",
    [SC_NODE_SELECTOR_MISMATCH] = "NodeSelectorMismatch",
    [SC_NODE_AFFINITY_MISMATCH] = "NodeAffinityMismatch",
    [SC_UNSCHEDULABLE] = "Unschedulable",
    [SC_NOT_READY] = "NotReady",
    [SC_TOO_MANY_PODS] = "TooManyPods",
    [SC_NODE_NAME] = "NodeNameMismatch",
    [SC_NODE_PORTS] = "NodePorts",
    [SC_VOLUME] = "Volume",
    [SC_TOPOLOGY_SPREAD] = "PodTopologySpread",
    [SC_POD_AFFINITY] = "PodAffinity",
    [SC_DYNAMIC_RESOURCES] = "DynamicResources",
    [SC_PREFILTER_EXCLUDED] = "PreFilterExcluded",
    [SC_NODE_CONDITION] = "NodeCondition",
    [SC_NO_PREEMPTION_VICTIMS] = "NoPreemptionVictims",
    [SC_PREEMPTION_NOT_HELPFUL] = "PreemptionNotHelpful",
    [SC_OTHER] = "Other",
};

const char *schedmsg_code_name(SchedCode c)
{
    return (size_t)c < sizeof code_names / sizeof *code_names ? code_names[c] : "Other";
}

const char *schedmsg_kind_name(SchedMsgKind k)
{
    switch (k) {
    case SM_EMPTY: return "None";
    case SM_FIT_ERROR: return "FitError";
    case SM_NO_NODES: return "NoNodes";
    case SM_GATED: return "SchedulingGated";
    case SM_WAITING_PREEMPTION: return "WaitingForPreemption";
    case SM_DELETING: return "Deleting";
    case SM_UNRECOGNISED: return "Unrecognised";
    }
    return "Unrecognised";
}

/* Known reason strings.  match: 'p' = prefix, 'e' = exact, 'c' = contains (case as written).  min/max: Kubernetes minor
 * versions that use this wording (0 = no bound), from the reference tables §4–§5. */
typedef struct { const char *text; char match; SchedCode code; int min, max; } ReasonPattern;
static const ReasonPattern patterns[] = {
    { "Insufficient ", 'p', SC_INSUFFICIENT, 0, 0 },
    { "Too many pods", 'e', SC_TOO_MANY_PODS, 0, 0 },
    { "node(s) had untolerated taint(s)", 'e', SC_UNTOLERATED_TAINT, 34, 0 },
    { "node(s) had untolerated taint {", 'p', SC_UNTOLERATED_TAINT, 24, 34 },
    { "node(s) had taint {", 'p', SC_UNTOLERATED_TAINT, 18, 23 },
    { "node(s) had taints that the pod didn't tolerate", 'e', SC_UNTOLERATED_TAINT, 0, 17 },
    { "node(s) didn't match node selector", 'e', SC_NODE_SELECTOR_MISMATCH, 0, 19 },
    { "node(s) didn't match Pod's node affinity/selector", 'e', SC_NODE_AFFINITY_MISMATCH, 21, 0 },
    { "node(s) didn't match Pod's node affinity", 'e', SC_NODE_AFFINITY_MISMATCH, 20, 20 },
    { "node(s) didn't match scheduler-enforced node affinity", 'e', SC_NODE_AFFINITY_MISMATCH, 0, 0 },
    { "pod affinity terms conflict", 'e', SC_NODE_AFFINITY_MISMATCH, 0, 0 },
    { "node(s) were unschedulable", 'e', SC_UNSCHEDULABLE, 0, 0 },
    { "node(s) were not ready", 'e', SC_NOT_READY, 0, 17 },
    { "node(s) had unknown conditions", 'e', SC_NOT_READY, 0, 0 },
    { "node(s) had memory pressure", 'e', SC_NODE_CONDITION, 0, 17 },
    { "node(s) had disk pressure", 'e', SC_NODE_CONDITION, 0, 17 },
    { "node(s) had pid pressure", 'e', SC_NODE_CONDITION, 0, 17 },
    { "node(s) had unavailable network", 'e', SC_NODE_CONDITION, 0, 17 },
    { "node(s) didn't match the requested hostname", 'e', SC_NODE_NAME, 0, 20 },
    { "node(s) didn't match the requested node name", 'e', SC_NODE_NAME, 21, 0 },
    { "node(s) didn't have free ports for the requested pod ports", 'e', SC_NODE_PORTS, 0, 0 },
    { "pod has unbound immediate PersistentVolumeClaims", 'e', SC_VOLUME, 0, 0 },
    { "node(s) had volume node affinity conflict", 'e', SC_VOLUME, 0, 0 },
    { "node(s) did not have enough free storage", 'e', SC_VOLUME, 0, 0 },
    { "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)", 'e', SC_VOLUME, 23, 0 },
    { "node(s) had no available disk", 'e', SC_VOLUME, 0, 0 },
    { "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode", 'e', SC_VOLUME, 22, 0 },
    { "node(s) had no available volume zone", 'e', SC_VOLUME, 0, 0 },
    { "node(s) exceed max volume count", 'e', SC_VOLUME, 0, 0 },
    { "node(s) didn't match pod topology spread constraints", 'p', SC_TOPOLOGY_SPREAD, 0, 0 },
    { "node(s) didn't match pod affinity/anti-affinity rules", 'e', SC_POD_AFFINITY, 21, 21 },
    { "node(s) didn't match pod affinity/anti-affinity", 'e', SC_POD_AFFINITY, 0, 20 },
    { "node(s) didn't match pod affinity rules", 'e', SC_POD_AFFINITY, 0, 0 },
    { "node(s) didn't match pod anti-affinity rules", 'e', SC_POD_AFFINITY, 0, 0 },
    { "node(s) didn't satisfy existing pods anti-affinity rules", 'e', SC_POD_AFFINITY, 0, 0 },
    { "node is filtered out by the prefilter result", 'e', SC_PREFILTER_EXCLUDED, 30, 30 },
    { "node(s) didn't satisfy plugin", 'p', SC_PREFILTER_EXCLUDED, 24, 0 },
    { "Pod has a restartable init container and the SidecarContainers feature is disabled", 'e', SC_OTHER, 28, 0 },
    { "cannot allocate all claims", 'e', SC_DYNAMIC_RESOURCES, 0, 0 },
    { "resourceclaim", 'p', SC_DYNAMIC_RESOURCES, 0, 0 },
    { "unallocated immediate resourceclaim", 'e', SC_DYNAMIC_RESOURCES, 0, 0 },
    /* DynamicResources PreFilter (dynamicresources.go validateDeviceClass, PreFilter):
     * "request R: device class C does not exist", "resource claim NS/N is in the process of
     * being allocated", "resource claim NS/N, request R: has subrequests, but ..." */
    { ": device class ", 'c', SC_DYNAMIC_RESOURCES, 0, 0 },
    { "resource claim ", 'p', SC_DYNAMIC_RESOURCES, 0, 0 },
    { "excluded by resource class node filter", 'e', SC_DYNAMIC_RESOURCES, 30, 30 },
    /* predicate names of the oldest form ("... predicates:: MatchNodeSelector (18)", <= 1.9) */
    { "MatchNodeSelector", 'e', SC_NODE_SELECTOR_MISMATCH, 0, 9 },
    { "PodToleratesNodeTaints", 'e', SC_UNTOLERATED_TAINT, 0, 9 },
    { "No preemption victims found for incoming pod", 'e', SC_NO_PREEMPTION_VICTIMS, 0, 0 },
    { "Preemption is not helpful for scheduling", 'e', SC_PREEMPTION_NOT_HELPFUL, 0, 0 },
};

static const ReasonPattern *find_pattern(const char *text)
{
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        const ReasonPattern *p = &patterns[i];
        if (p->match == 'e' ? strcasecmp(text, p->text) == 0
            : p->match == 'c' ? strstr(text, p->text) != NULL
                              : strncasecmp(text, p->text, strlen(p->text)) == 0)
            return p;
    }
    return NULL;
}

/* "{key: value}" (value may be empty) -> key, value */
static void parse_taint_braces(const char *s, SchedReason *r)
{
    const char *open = strchr(s, '{'), *close = open ? strchr(open, '}') : NULL;
    if (!open || !close) return;
    const char *sep = NULL;
    for (const char *p = open + 1; p + 1 < close + 1; p++)
        if (p[0] == ':' && (p[1] == ' ' || p + 1 == close)) { sep = p; break; }
    if (!sep) { r->taint_key = xstrndup(open + 1, (size_t)(close - open - 1)); r->taint_value = xstrdup(""); return; }
    r->taint_key = xstrndup(open + 1, (size_t)(sep - open - 1));
    const char *v = sep + 1;
    if (v < close && *v == ' ') v++;
    r->taint_value = xstrndup(v, (size_t)(close - v));
}

/* "node(s) didn't satisfy plugin(s) [A B] simultaneously" / "... plugin A" */
static void parse_plugins(const char *s, SchedReason *r)
{
    const char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;
    const char *p, *end;
    if (open && close) { p = open + 1; end = close; }
    else {
        p = strstr(s, "plugin ");
        if (!p) return;
        p += 7;
        end = p;
        while (*end && *end != ' ') end++;
    }
    while (p < end) {
        while (p < end && *p == ' ') p++;
        const char *w = p;
        while (p < end && *p != ' ') p++;
        if (p > w) {
            r->plugins = xrealloc(r->plugins, (r->nplugins + 1) * sizeof *r->plugins);
            r->plugins[r->nplugins++] = xstrndup(w, (size_t)(p - w));
        }
    }
}

void schedmsg_reason_classify(const char *text, SchedReason *r)
{
    r->text = xstrdup(text);
    r->code = SC_OTHER;
    const ReasonPattern *p = find_pattern(text);
    if (!p) return;
    r->code = p->code;
    switch (p->code) {
    case SC_INSUFFICIENT:
        if (!r->truncated && text[13]) r->resource = xstrdup(text + 13);
        break;
    case SC_UNTOLERATED_TAINT:
        if (strchr(text, '{') && !r->truncated) parse_taint_braces(text, r);
        break;
    case SC_PREFILTER_EXCLUDED:
        if (!r->truncated) parse_plugins(text, r);
        break;
    default:
        break;
    }
}

void schedmsg_reason_clear(SchedReason *r)
{
    free(r->text); free(r->resource); free(r->taint_key); free(r->taint_value);
    for (size_t i = 0; i < r->nplugins; i++) free(r->plugins[i]);
    free(r->plugins);
    memset(r, 0, sizeof *r);
}

static void narrow(SchedMessage *m, int min, int max)
{
    if (min && min > m->min_minor) m->min_minor = min;
    if (max && (!m->max_minor || max < m->max_minor)) m->max_minor = max;
}

static void add_reason(SchedHistogram *h, SchedMessage *m, int count, const char *text,
                       bool prefilter, bool truncated)
{
    h->reasons = xrealloc(h->reasons, (h->nreasons + 1) * sizeof *h->reasons);
    SchedReason *r = &h->reasons[h->nreasons++];
    memset(r, 0, sizeof *r);
    r->count = count;
    r->prefilter = prefilter;
    r->truncated = truncated;
    schedmsg_reason_classify(text, r);
    if (!truncated) {
        const ReasonPattern *p = find_pattern(text);
        if (p) narrow(m, p->min, p->max);
        if (r->code == SC_PREFILTER_EXCLUDED && r->nplugins && !strstr(text, "simultaneously") &&
            strstr(text, "plugin(s)"))
            narrow(m, 31, 0);   /* absent-node accounting */
    }
}

static bool starts_with_count(const char *s)
{
    return isdigit((unsigned char)s[0]);
}

/* Histogram "3 Insufficient cpu, 2 node(s) had taint {a: b}, that the pod didn't tolerate".
 * A piece without a leading count continues the previous entry. */
static void parse_histogram(const char *s, SchedHistogram *h, SchedMessage *m, bool truncated)
{
    Strvec pieces = STRVEC_INIT;
    const char *p = s;
    while (*p) {
        const char *sep = strstr(p, ", ");
        size_t len = sep ? (size_t)(sep - p) : strlen(p);
        char *piece = xstrndup(p, len);
        if (pieces.n && !starts_with_count(piece)) {
            char *joined = xasprintf("%s, %s", pieces.v[pieces.n - 1], piece);
            free(pieces.v[pieces.n - 1]);
            pieces.v[pieces.n - 1] = joined;
        } else {
            strvec_push(&pieces, piece);
        }
        free(piece);
        p = sep ? sep + 2 : p + len;
    }
    for (size_t i = 0; i < pieces.n; i++) {
        char *e = pieces.v[i], *end;
        long count = -1;
        if (starts_with_count(e)) {
            count = strtol(e, &end, 10);
            while (*end == ' ') end++;
            e = end;
        }
        add_reason(h, m, count > 1000000000L ? -1 : (int)count, e, false,
                   truncated && i + 1 == pieces.n);
    }
    strvec_clear(&pieces);
}

static void rstrip(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
}

static void strip_periods(char *s)
{
    rstrip(s);
    size_t n = strlen(s);
    while (n && s[n - 1] == '.') s[--n] = '\0';
}

/* a node count as the scheduler prints it: decimal digits only (no sign, no blanks), at most
 * 1e9 (sscanf's %d would take "-4" or " 4" and overflow on long digit strings); -1 when s
 * does not start with one.  *end is set after the digits. */
static long parse_count(const char *s, const char **end)
{
    long v = 0;
    const char *p = s;
    if (!isdigit((unsigned char)*p)) { *end = s; return -1; }
    for (; isdigit((unsigned char)*p); p++) {
        v = v * 10 + (*p - '0');
        if (v > 1000000000L) { *end = s; return -1; }
    }
    *end = p;
    return v;
}

/* "0/N nodes are available" at s; on success *rest points after the optional ':' */
static bool parse_head(const char *s, SchedHistogram *h, const char **rest)
{
    const char *p;
    long avail = parse_count(s, &p);
    if (avail < 0 || *p != '/') return false;
    long total = parse_count(p + 1, &p);
    if (total < 0 || strncasecmp(p, " nodes are available", strlen(" nodes are available")) != 0) return false;
    h->available = (int)avail;
    h->total = (int)total;
    s = p + strlen(" nodes are available");
    if (*s == ':') s++;
    while (*s == ' ') s++;
    *rest = s;
    return true;
}

/* the filter part after "0/N nodes are available:", without the preemption part */
static void parse_filter_part(char *s, SchedMessage *m, bool truncated)
{
    rstrip(s);
    size_t n = strlen(s);
    if (n >= 1 && s[n - 1] == ',') s[--n] = '\0';      /* DRA PostFilter text joined by ", " */
    bool have_hist = false;
    Strbuf other = STRBUF_INIT;
    char *p = s;
    while (*p) {
        char *sep = strstr(p, ". ");
        if (sep) *sep = '\0';
        bool last = !sep;
        strip_periods(p);
        if (*p) {
            if (!have_hist && starts_with_count(p)) {
                parse_histogram(p, &m->filter, m, truncated && last);
                have_hist = true;
            } else if (!have_hist && m->filter.nreasons == 0) {
                add_reason(&m->filter, m, -1, p, true, truncated && last);   /* PreFilter */
                if (!truncated || !last) narrow(m, 26, 0);
            } else {
                if (other.len) strbuf_adds(&other, ". ");
                strbuf_adds(&other, p);
            }
        }
        if (last) break;
        p = sep + 2;
    }
    if (other.len) m->postfilter_other = strbuf_detach(&other);
    strbuf_clear(&other);
}

static void parse_legacy(char *s, SchedMessage *m, bool truncated)
{
    /* "No nodes are available that match all of the following predicates:: A (3), B (2)." */
    m->legacy_predicates = true;
    narrow(m, 0, 9);
    while (*s == ':' || *s == ' ') s++;
    strip_periods(s);
    char *p = s;
    while (*p) {
        char *sep = strstr(p, ", ");
        if (sep) *sep = '\0';
        int count = -1;
        char *open = strrchr(p, '(');
        size_t len = strlen(p);
        if (open && len && p[len - 1] == ')') {
            const char *cend;
            long c = parse_count(open + 1, &cend);
            count = c >= 0 && *cend == ')' ? (int)c : -1;
            while (open > p && open[-1] == ' ') open--;
            *open = '\0';
        }
        add_reason(&m->filter, m, count, p, false, truncated && !sep);
        if (!sep) break;
        p = sep + 2;
    }
}

static bool starts_ci(const char *s, const char *prefix)
{
    return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* A copy of the message without the prefixes put before the scheduler's text (kept in
 * m->prefix): "Reissued from pod/NAME: " (Kubeflow's notebook controller re-issues its pod's
 * events on the Notebook), the event aggregator's "(combined from similar events): ", and
 * "Unschedulable: " (the condition's reason and message joined, as Argo / Kubeflow Pipelines
 * and `kubectl get pod -o jsonpath` users paste them). */
static char *strip_prefixes(SchedMessage *m)
{
    const char *s = m->text;
    Strbuf pre = STRBUF_INIT;
    for (;;) {
        const char *colon = NULL;
        if (starts_ci(s, "Reissued from ")) colon = strstr(s, ": ");
        else if (starts_ci(s, "(combined from similar events): ")) colon = s + strlen("(combined from similar events)");
        else if (starts_ci(s, "Unschedulable: ")) colon = s + strlen("Unschedulable");
        if (!colon) break;
        if (pre.len) strbuf_adds(&pre, "; ");
        strbuf_add(&pre, s, (size_t)(colon - s));
        s = colon + 2;
        while (*s == ' ') s++;
    }
    if (pre.len) m->prefix = strbuf_detach(&pre);
    strbuf_clear(&pre);
    return xstrdup(s);
}

/* GeneralPredicates (<= 1.19 wording) gathered every failing reason of a node; so do messages
 * whose counts from different filters add up to more than the nodes */
static void set_lists_all_reasons(SchedMessage *m)
{
    if (m->legacy_predicates || (m->max_minor && m->max_minor <= 19)) { m->lists_all_reasons = true; return; }
    if (m->filter.total < 0 || m->min_minor >= 20) return;
    long long other = 0, fit = 0;
    for (size_t i = 0; i < m->filter.nreasons; i++) {
        const SchedReason *r = &m->filter.reasons[i];
        if (r->count < 0 || r->code == SC_POD_AFFINITY || r->code == SC_OTHER) continue;
        if (r->code == SC_INSUFFICIENT || r->code == SC_TOO_MANY_PODS) { if (r->count > fit) fit = r->count; }
        else other += r->count;
    }
    if (other + fit > m->filter.total) {
        m->lists_all_reasons = true;
        narrow(m, 0, 19);
    }
}

bool schedmsg_parse(const char *msg, SchedMessage *m)
{
    memset(m, 0, sizeof *m);
    m->filter.total = m->preemption.total = -1;
    m->kind = SM_EMPTY;
    if (!msg) return false;
    while (isspace((unsigned char)*msg)) msg++;
    m->text = xstrdup(msg);
    rstrip(m->text);
    if (!*m->text) return false;

    char *work = strip_prefixes(m);
    size_t n = strlen(work);
    if (n > 4 && strcmp(work + n - 4, " ...") == 0) {
        m->truncated = true;
        work[n - 4] = '\0';
        narrow(m, 21, 0);   /* before 1.21 an oversize event was rejected, not cut */
    }
    const char *rest;
    static const char legacy[] = "No nodes are available that match all of the following predicates:";
    if (starts_ci(work, "no nodes available to schedule pods")) {
        m->kind = SM_NO_NODES;
    } else if (starts_ci(work, "Scheduling is blocked due to non-empty scheduling gates")) {
        m->kind = SM_GATED;
    } else if (starts_ci(work, "waiting for the preemption for this pod to be finished")) {
        m->kind = SM_WAITING_PREEMPTION;
        narrow(m, 32, 0);
    } else if (starts_ci(work, "skip schedule deleting pod")) {
        m->kind = SM_DELETING;
    } else if (starts_ci(work, legacy)) {
        m->kind = SM_FIT_ERROR;
        parse_legacy(work + sizeof legacy - 1, m, m->truncated);
    } else if (parse_head(work, &m->filter, &rest)) {
        m->kind = SM_FIT_ERROR;
        char *body = work + (rest - work);
        char *pre = strstr(body, "preemption: ");
        if (pre) {
            m->has_preemption = true;
            narrow(m, 24, 0);
            *pre = '\0';
            char *ptext = pre + strlen("preemption: ");
            m->preemption_text = xstrdup(ptext);
            rstrip(m->preemption_text);
            const char *prest;
            if (parse_head(ptext, &m->preemption, &prest)) {
                char *pbody = ptext + (prest - ptext);
                rstrip(pbody);
                size_t pl = strlen(pbody);
                /* 1.26-1.28 append " %v." after a text that already ends in "." */
                if (!m->truncated && pl >= 2 && strcmp(pbody + pl - 2, "..") == 0) narrow(m, 26, 28);
                strip_periods(pbody);
                parse_histogram(pbody, &m->preemption, m, m->truncated);
            }
        }
        parse_filter_part(body, m, m->truncated && !pre);
    } else {
        m->kind = SM_UNRECOGNISED;
    }
    free(work);
    if (m->kind == SM_FIT_ERROR) set_lists_all_reasons(m);
    if (m->min_minor && m->max_minor && m->min_minor > m->max_minor)
        m->min_minor = m->max_minor = 0;   /* contradictory wording: say nothing */
    return m->kind != SM_UNRECOGNISED;
}

static void histogram_release(SchedHistogram *h)
{
    for (size_t i = 0; i < h->nreasons; i++) schedmsg_reason_clear(&h->reasons[i]);
    free(h->reasons);
    h->reasons = NULL;
    h->nreasons = 0;
}

void schedmsg_clear(SchedMessage *m)
{
    histogram_release(&m->filter);
    histogram_release(&m->preemption);
    free(m->text); free(m->preemption_text); free(m->postfilter_other); free(m->prefix);
    memset(m, 0, sizeof *m);
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static void histogram_copy(SchedHistogram *dst, const SchedHistogram *src)
{
    *dst = *src;
    dst->reasons = src->nreasons ? xcalloc(src->nreasons, sizeof *dst->reasons) : NULL;
    for (size_t i = 0; i < src->nreasons; i++) {
        const SchedReason *a = &src->reasons[i];
        SchedReason *b = &dst->reasons[i];
        *b = *a;
        b->text = dup_or_null(a->text);
        b->resource = dup_or_null(a->resource);
        b->taint_key = dup_or_null(a->taint_key);
        b->taint_value = dup_or_null(a->taint_value);
        b->plugins = a->nplugins ? xcalloc(a->nplugins, sizeof *b->plugins) : NULL;
        for (size_t k = 0; k < a->nplugins; k++) b->plugins[k] = dup_or_null(a->plugins[k]);
    }
}

void schedmsg_copy(SchedMessage *dst, const SchedMessage *src)
{
    *dst = *src;
    dst->text = dup_or_null(src->text);
    dst->preemption_text = dup_or_null(src->preemption_text);
    dst->postfilter_other = dup_or_null(src->postfilter_other);
    dst->prefix = dup_or_null(src->prefix);
    histogram_copy(&dst->filter, &src->filter);
    histogram_copy(&dst->preemption, &src->preemption);
}

int schedmsg_count(const SchedMessage *m, SchedCode c, const char *resource)
{
    long long sum = 0;    /* counts are at most 1e9 each: no overflow, clamped below */
    for (size_t i = 0; i < m->filter.nreasons; i++) {
        const SchedReason *r = &m->filter.reasons[i];
        if (r->code != c || r->count < 0) continue;
        if (resource && !str_eq(resource, r->resource)) continue;
        sum += r->count;
    }
    return sum > 1000000000LL ? 1000000000 : (int)sum;
}

const char *schedmsg_versions(const SchedMessage *m, char *buf, size_t len)
{
    if (m->min_minor && m->max_minor && m->min_minor == m->max_minor)
        snprintf(buf, len, "1.%d", m->min_minor);
    else if (m->min_minor && m->max_minor)
        snprintf(buf, len, "1.%d-1.%d", m->min_minor, m->max_minor);
    else if (m->min_minor)
        snprintf(buf, len, "1.%d+", m->min_minor);
    else if (m->max_minor)
        snprintf(buf, len, "<=1.%d", m->max_minor);
    else
        snprintf(buf, len, "%s", "");
    return buf;
}
