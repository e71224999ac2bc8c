/* cmd_fit.c — `kubectl gpu fit -f FILE`: would this manifest's GPU pods schedule now?
 *
 * The manifests read (sources/manifest_read.c) into pod templates (model/manifest_pods.c),
 * judged against the cluster by explain's filters (analysis/fit.c), presented once
 * (render/fit.c).  Exit: 0 all fit, 3 some wait for GPUs held now, 4 some never fit as the
 * cluster is set, 1 no answer (a bad manifest, an unreachable cluster), 2 usage.
 */
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "util/error.h"
#include "analysis/fit.h"
#include "render/fit.h"
#include "sources/loader.h"
#include "sources/manifest_read.h"
#include <stdio.h>
#include <stdlib.h>

static const char *fit_output;
static OptStrings fit_files;
static const char *const fit_formats[] = { "text", "json", "yaml", NULL };
static const Option fit_opts[] = {
    { OPT_STRINGS, 'f', "filename", &fit_files, "FILE",
      "manifest to judge (YAML, multi-document, or JSON; - reads standard input); repeatable", NULL, "file" },
    { OPT_STRING, 'o', "output", &fit_output, "FORMAT", "output format", fit_formats, NULL },
    OPT_END_MARK
};

static int run_fit(int argc, char **argv, GlobalOptions *g, Error *err)
{
    (void)argc; (void)argv;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_JSON, OUT_YAML };
    OutputFormat fmt;
    if (output_format_parse(fit_output, allowed, 3, &fmt, "fit") < 0) return EXIT_USAGE;
    if (!fit_files.n) {
        error_set(err, "fit needs the manifests to judge: -f FILE (- for standard input)");
        return EXIT_USAGE;
    }
    if (g->selector && *g->selector) {
        error_set(err, "fit judges the manifests given with -f; -l selects nodes for status, top and plan");
        return EXIT_USAGE;
    }
    char *ns = loader_default_namespace(&g->source, err);
    if (!ns) return EXIT_FAIL;
    ManifestPodList templates = { 0 };
    Strvec notes = STRVEC_INIT;
    int rc = EXIT_OK;
    for (int i = 0; i < fit_files.n && rc == EXIT_OK; i++)
        if (manifest_read_file(fit_files.v[i], ns, &templates, &notes, err) < 0) rc = EXIT_FAIL;
    free(ns);
    CmdCluster cc;
    LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true, .clusterpolicy = true,
                       .configmaps = true, .queues = true, .priority_classes = true };
    if (rc == EXIT_OK && cmd_load_cluster(&cc, g, &rq, false, err) < 0) rc = EXIT_FAIL;
    else if (rc == EXIT_OK) {
        FitResult r = { 0 };
        FitOptions fo = { .queue = fit_queue_kueue, .gang_queue = fit_queue_volcano,
                          .group_queue = fit_queue_kueue_group };
        if (fit_admit_priority(&cc.cluster, &templates, err) < 0 || fit_run(&cc.cluster, &templates, &fo, &r, err) < 0) {
            rc = EXIT_FAIL;
        } else {
            for (size_t i = 0; i < notes.n; i++) strvec_push(&r.skipped, notes.v[i]);
            rc = fit_render(&r, &cc.cluster.warnings, cmd_render_format(fmt)) < 0 ? EXIT_FAIL : r.exit_code;
        }
        fit_result_clear(&r);
        cmd_cluster_release(&cc);
    }
    strvec_clear(&notes);
    manifest_pod_list_clear(&templates);
    return rc;
}

const Command cmd_fit = {
    .name = "fit",
    .summary = "Tell whether a manifest's GPU pods would schedule now, before it is applied",
    .usage = "kubectl gpu fit -f FILE [-f FILE...] [-n NS] [-o text|json|yaml]",
    .description =
        "Reads Pods, Deployments, StatefulSets, ReplicaSets, DaemonSets, Jobs, CronJobs, JobSets (one\n"
        "item per replicated job, JOBSET/NAME) and any object with a pod template at spec.template or\n"
        "spec.jobTemplate.spec.template, from multi-document YAML, JSON or a List (-f - reads standard\n"
        "input); the namespace is the object's, else -n's, else the context's.  Each pod template is\n"
        "judged as 'explain' judges a pending pod, with the same filters, verdicts and re-checked fixes:\n"
        "its effective GPU request (init containers as the scheduler counts them) times the pods it\n"
        "makes (replicas; a Job's min(parallelism, completions); a DaemonSet's nodes it admits; a\n"
        "Volcano Job's tasks, JOB/TASK, one gang: none start unless minAvailable fit at once, verdict\n"
        "Gang).  The\n"
        "replicas and the templates, in file order, compete for the free GPUs: a template fits when\n"
        "all its pods fit at once; else the verdict is that of its first pod that does not, with how\n"
        "many fit (fitsReplicas).  A namespace's ResourceQuota is judged against its status.used.\n"
        "Each pod gets the priority the API server's Priority admission gives it: its PriorityClass's\n"
        "value and preemptionPolicy (the global default class's when it names none; 0 when there is\n"
        "none), which decides the running pods preemption could evict; a class the cluster lacks, or a\n"
        "spec.priority that differs from the class's, is refused there and here (exit 1).\n"
        "Templates without a GPU request are noted on stderr.  Nothing is written to the cluster.\n"
        "Exit status: 0 every template fits now; 3 some would wait for GPUs that running pods hold\n"
        "(Insufficient, Fragmented, Gated, a quota that running pods fill, Queued, Gang); 4 some can never fit as the\n"
        "cluster is set (TooLarge, Selector, Taint, ResourceName, NoDevicePlugin, NotReady,\n"
        "Unschedulable, a quota the template alone exceeds, QueueQuota, QueueInactive); the worst wins; 1 no answer (a manifest\n"
        "that is not one, named with its document; an unreachable cluster); 2 usage.",
    .examples = "  kubectl gpu fit -f train-job.yaml\n  helm template charts/infer | kubectl gpu fit -f - -n serving -o json\n"
                "  kubectl gpu fit -f jobset.yaml --snapshot cluster.json.gz\n",
    .options = fit_opts,
    .min_args = 0, .max_args = 0,
    .run = run_fit,
};
