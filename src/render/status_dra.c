/* status_dra.c — GPUs published through DRA in status output (status_dra.h). */
#include "render/status_dra.h"
#include "render/json_writer.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include "render/table.h"
#include "render/text.h"
#include "util/util.h"

static void fmt_mem(char *out, size_t n, int64_t mib)
{
    if (mib <= 0) snprintf(out, n, "-");
    else if (mib % 1024 == 0) snprintf(out, n, "%lldGi", (long long)(mib / 1024));
    else snprintf(out, n, "%lldMi", (long long)mib);
}

/* "8 gpu", "1 gpu, 2 mig 3g.20gb" */
static char *devices_cell(const NodeDraStatus *d)
{
    Strbuf sb = STRBUF_INIT;
    int whole = d->devices - d->mig_devices;
    if (whole) strbuf_addf(&sb, "%d gpu", whole);
    if (d->mig_devices) {
        const char *profile = NULL;
        bool one = true;
        for (size_t i = 0; i < d->ndevs; i++) {
            if (!str_eq(d->devs[i].type, "mig")) continue;
            if (!profile) profile = d->devs[i].profile;
            else if (!str_eq(profile, d->devs[i].profile)) one = false;
        }
        strbuf_addf(&sb, "%s%d mig%s%s", sb.len ? ", " : "", d->mig_devices, one && profile ? " " : "",
                    one && profile ? profile : "");
    }
    return strbuf_detach(&sb);
}

static char *claims_cell(const NodeDraStatus *d, size_t max)
{
    Strvec seen = STRVEC_INIT;
    for (size_t i = 0; i < d->ndevs; i++)
        if (d->devs[i].claim && !strvec_contains(&seen, d->devs[i].claim)) strvec_push(&seen, d->devs[i].claim);
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < seen.n && i < max; i++) strbuf_addf(&sb, "%s%s", i ? ", " : "", seen.v[i]);
    if (seen.n > max) strbuf_addf(&sb, " +%zu more", seen.n - max);
    if (!seen.n) strbuf_adds(&sb, "-");
    strvec_clear(&seen);
    return strbuf_detach(&sb);
}

void status_dra_print(const GpuStatus *st, bool wide, bool color)
{
    if (!st->dra_devices && !st->dra_claims) return;
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    text_printf(stdout, "\n%sDRA%s (driver gpu.nvidia.com): %d GPU%s as %d device%s, %d allocated; claims: %d allocated, %d pending\n",
           b, e, st->dra_gpus, st->dra_gpus == 1 ? "" : "s", st->dra_devices, st->dra_devices == 1 ? "" : "s",
           st->dra_allocated, st->dra_claims_allocated, st->dra_claims_pending);
    if (!st->dra_devices) return;
    if (!wide) {
        static const char *const headers[] = { "NODE", "GPUS", "DEVICES", "ALLOC", "CLAIMS" };
        Table *t = table_new(headers, 5);
        for (size_t i = 0; i < st->ngpu_node_list; i++) {
            const NodeStatus *n = &st->gpu_node_list[i];
            if (!n->dra.devices) continue;
            table_add_row(t);
            table_cell(t, n->name);
            table_cellf(t, "%d", n->dra.gpus);
            char *dc = devices_cell(&n->dra);
            table_cell(t, dc);
            free(dc);
            table_cellf(t, "%d/%d", n->dra.allocated, n->dra.devices);
            char *cc = claims_cell(&n->dra, 2);
            table_cell(t, cc);
            free(cc);
        }
        table_print(t, stdout, color);
        table_free(t);
        return;
    }
    static const char *const headers[] = { "NODE", "DEVICE", "PRODUCT", "PROFILE", "MEMORY", "CLAIM", "PODS" };
    Table *t = table_new(headers, 7);
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[i];
        for (size_t k = 0; k < n->dra.ndevs; k++) {
            const DraDeviceStatus *v = &n->dra.devs[k];
            char mem[32];
            fmt_mem(mem, sizeof mem, v->memory_mib);
            table_add_row(t);
            table_cell(t, n->name);
            table_cell(t, v->name);
            table_cell(t, v->product ? v->product : "-");
            table_cell(t, v->profile ? v->profile : "-");
            table_cell(t, mem);
            if (v->claim) table_cell(t, v->claim);
            else table_cell_color(t, v->blocked ? C_NONE : C_GREEN, v->blocked ? "(GPU held)" : "free");
            Strbuf sb = STRBUF_INIT;
            for (size_t j = 0; j < v->pods.n; j++) strbuf_addf(&sb, "%s%s", j ? ", " : "", v->pods.v[j]);
            table_cell(t, v->pods.n ? strbuf_str(&sb) : "-");
            strbuf_clear(&sb);
        }
    }
    table_print(t, stdout, color);
    table_free(t);
}

void status_dra_summary_json(cJSON *summary, const GpuStatus *st)
{
    if (!st->dra_devices && !st->dra_claims) return;     /* no DRA GPUs: the document as before */
    cJSON *d = cJSON_AddObjectToObject(summary, "dra");
    cJSON_AddNumberToObject(d, "physicalGPUs", st->dra_gpus);
    cJSON_AddNumberToObject(d, "devices", st->dra_devices);
    cJSON_AddNumberToObject(d, "allocatedDevices", st->dra_allocated);
    cJSON_AddNumberToObject(d, "claims", st->dra_claims);
    cJSON_AddNumberToObject(d, "claimsAllocated", st->dra_claims_allocated);
    cJSON_AddNumberToObject(d, "claimsPending", st->dra_claims_pending);
}

void status_dra_node_write(JsonWriter *jw, const NodeStatus *n)
{
    const NodeDraStatus *d = &n->dra;
    if (!d->devices) return;
    jw_object_begin(jw, "dra");
    jw_string(jw, "driver", "gpu.nvidia.com");
    jw_number(jw, "physicalGPUs", d->gpus);
    jw_number(jw, "devices", d->devices);
    jw_number(jw, "migDevices", d->mig_devices);
    jw_number(jw, "allocated", d->allocated);
    jw_array_begin(jw, "deviceList");
    for (size_t i = 0; i < d->ndevs; i++) {
        const DraDeviceStatus *v = &d->devs[i];
        jw_object_begin(jw, NULL);
        jw_string(jw, "name", v->name);
        jw_string(jw, "type", v->type);                /* NULL: null */
        jw_string(jw, "product", v->product);
        if (v->profile) jw_string(jw, "migProfile", v->profile);
        if (v->uuid) jw_string(jw, "uuid", v->uuid);
        if (v->parent_uuid) jw_string(jw, "parentUUID", v->parent_uuid);
        if (v->memory_mib) jw_number(jw, "memoryMiB", (double)v->memory_mib);
        else jw_null(jw, "memoryMiB");
        jw_string(jw, "claim", v->claim);
        jw_array_begin(jw, "pods");
        for (size_t j = 0; j < v->pods.n; j++) jw_string(jw, NULL, v->pods.v[j]);
        jw_end(jw);
        jw_string(jw, "state", v->claim ? (v->pods.n ? "reserved" : "allocated") : v->blocked ? "blocked" : "free");
        jw_end(jw);
    }
    jw_end(jw);
    jw_end(jw);
}
