/* cmd_snapshot.c — `kubectl gpu snapshot [-o FILE]`: dump what the other commands read from
 * the API server, and the usage they read from the metrics, into one JSON List that
 * --snapshot reads back (the writing: sources/snapshot_write.c; the format: snapshot_format.h).
 */
#include "cmd/commands.h"
#include "render/text.h"
#include "sources/loader.h"
#include "sources/snapshot_write.h"
#include "util/error.h"
#include "util/outfile.h"
#include <stdio.h>
#include <unistd.h>

static const char *snapshot_output;

static const Option snapshot_opts[] = {
    { OPT_STRING, 'o', "output", &snapshot_output, "FILE", "write the snapshot to FILE instead of stdout (gzip unless FILE ends in .json; - is stdout; a format word such as json is refused)", NULL, "file" },
    OPT_END_MARK
};

/* -o json, -o yaml ... as the other commands take them: snapshot's -o is a file, so a format
 * word there is a mistake, not a file to create (write ./json for a file of that name) */
static bool format_word(const char *s)
{
    static const char *const words[] = { "json", "yaml", "wide", "table", "name", "text", "script", NULL };
    static const char *const prefixes[] = { "jsonpath=", "go-template=", "custom-columns=", "custom-columns-file=",
                                            "jsonpath-file=", "go-template-file=", NULL };
    for (size_t i = 0; words[i]; i++) if (str_eq(s, words[i])) return true;
    for (size_t i = 0; prefixes[i]; i++) if (str_starts_with(s, prefixes[i])) return true;
    return false;
}

static int run_snapshot(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)argv;
    if (snapshot_output && format_word(snapshot_output)) {
        error_set(out_err, "snapshot -o takes a FILE, not an output format: \"%s\" (allowed: -o FILE.json.gz for gzip "
                  "JSON, -o FILE.json for plain JSON, -o - for stdout; ./%s for a file of that name)", snapshot_output,
                  snapshot_output);
        return EXIT_USAGE;
    }
    if (g->snapshot) {
        error_set(out_err, "snapshot reads the API server; --snapshot cannot be used with it");
        return EXIT_USAGE;
    }
    LoadRequest rq = { true, true, true, true, true, true, true, g->selector,
                       g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL, true, false, NULL, true, true };
    SnapshotWritten sw;
    int rc = snapshot_write(&g->source, &rq, snapshot_output, &sw, out_err);
    for (size_t i = 0; i < sw.warnings.n; i++) text_printf(stderr, "warning: %s\n", sw.warnings.v[i]);
    if (rc == 0 && !outfile_is_stdout(snapshot_output) && (g->verbose >= 1 || isatty(STDERR_FILENO))) {
        if (sw.usage_devices || sw.usage_workloads)
            text_printf(stderr, "wrote %zu objects to %s, with the usage of %zu GPU devices and %zu workloads\n",
                        sw.objects, snapshot_output, sw.usage_devices, sw.usage_workloads);
        else
            text_printf(stderr, "wrote %zu objects to %s, without usage (metrics: %s)\n", sw.objects,
                        snapshot_output, sw.no_usage ? sw.no_usage : "none");
    }
    snapshot_written_release(&sw);
    return rc ? EXIT_FAIL : EXIT_OK;
}

const Command cmd_snapshot = {
    .name = "snapshot",
    .summary = "write a cluster dump that --snapshot reads (for offline analysis or a ticket)",
    .usage = "kubectl gpu snapshot [-o FILE] [flags]",
    .description =
        "Reads what the other commands use from the API server (nodes, non-terminal pods,\n"
        "FailedScheduling and FailedCreate events, resource quotas, DaemonSets, GPU Operator\n"
        "ClusterPolicies and the ConfigMaps they name, services, PriorityClasses, the Kueue, Volcano and\n"
        "KAI queues and workloads, Kueue's WorkloadPriorityClasses), reduced to the fields the\n"
        "commands read, and writes it as one JSON List, to stdout or to FILE (gzip-compressed\n"
        "unless FILE ends in .json).  With metrics reachable, the usage the commands read is\n"
        "stored too: per GPU and per pod over status's 1h window, per workload the p95 and the\n"
        "peak over plan's 7d window, and from Prometheus each GPU's utilization and memory\n"
        "series over the hour (top's sparklines) and the time each pod held each GPU (status\n"
        "--by's GPU-hours).  Read it back with --snapshot FILE on any command; older\n"
        "snapshots load with a note.  Nothing is written unless every list was read.  Left\n"
        "out: annotations, managedFields, container env values, commands and arguments;\n"
        "credentials never appear.  -l limits the nodes, -n the pods, events and quotas.",
    .examples =
        "  kubectl gpu snapshot -o cluster.json.gz\n"
        "  kubectl gpu status --snapshot cluster.json.gz\n"
        "  kubectl gpu snapshot --prometheus http://prometheus.example:9090 -o cluster.json.gz\n",
    .options = snapshot_opts,
    .min_args = 0, .max_args = 0,
    .run = run_snapshot,
};
