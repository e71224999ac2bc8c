/* plan_script.c — `kubectl gpu plan -o script`: a reviewed bash script that applies a plan's
 * actions (plan_actions.h) in order, pinned to the context and API server it was made for. */
#include "render/plan_report.h"
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/render.h"
#include "render/table.h"
#include "util/shquote.h"

/* ------------------------------------------------------------------ script */

static const PlanWorkload *gw_workload(const PlanRun *run, const PlanGroup *g, const PlanGroupWorkload *gw)
{
    return &run->in.w[g->assign[gw->first].workload];
}

/* every value from the cluster, the kubeconfig or the plan is a word of util/shquote.h */
static void sq(Strbuf *sb, const char *s) { shquote_word(sb, s); }

/* The script's functions.  Every kubectl call goes through k(): KUBECTL may hold a command
 * with arguments ("kubectl --kubeconfig /x"), and --context NAME given to the script is
 * added to it.  Nothing runs before pin_check has compared the context and API server with
 * the ones the plan was made for. */
static const char script_functions[] =
    "log() { printf '%s %s\\n' \"$(date +%H:%M:%S)\" \"$*\" >&2; }\n"
    "# restart_daemonset NS/NAME MARK PATCH: a device plugin without config-manager reads its config at\n"
    "# start only.  PATCH names the config (MARK) in a pod-template annotation: the DaemonSet rolls out\n"
    "# on a template change only, so a second run with the same config restarts nothing.\n"
    "restart_daemonset() {\n"
    "  local cur\n"
    "  cur=$(k get daemonset -n \"${1%%/*}\" \"${1#*/}\" \\\n"
    "    -o jsonpath='{.spec.template.metadata.annotations.kubectl-gpu\\.io/device-plugin-config}') \\\n"
    "    || die \"cannot read DaemonSet $1\"\n"
    "  if [ \"$cur\" = \"$2\" ]; then log \"DaemonSet $1 already runs config $2: no restart\"; return 0; fi\n"
    "  log \"restarting DaemonSet $1 (the device plugin re-reads its config file)\"\n"
    "  k patch daemonset -n \"${1%%/*}\" \"${1#*/}\" --type merge -p \"$3\" >&2\n"
    "}\n"
    "die() { log \"ERROR: $*\"; exit 1; }\n"
    "k() { \"${KUBECTL_CMD[@]}\" ${CONTEXT_ARG:+--context \"$CONTEXT_ARG\"} \"$@\"; }\n"
    "\n"
    "# refuse to touch another cluster than the one the plan was made for\n"
    "pin_check() {\n"
    "  local ctx server\n"
    "  ctx=$(k config view --minify -o jsonpath='{.contexts[0].name}' 2>/dev/null) || ctx=\n"
    "  server=$(k config view --minify -o jsonpath='{.clusters[0].cluster.server}' 2>/dev/null) || server=\n"
    "  if [ -n \"$CONTEXT_ARG\" ]; then\n"
    "    log \"running against context '$ctx' (server $server) as asked with --context; the plan was made for \"\\\n"
    "        \"'${PLAN_CONTEXT:-?}' (${PLAN_SERVER:-?})\"\n"
    "    return 0\n"
    "  fi\n"
    "  if [ -z \"$PLAN_CONTEXT$PLAN_SERVER\" ] || [ \"$ctx\" != \"$PLAN_CONTEXT\" ] || [ \"$server\" != \"$PLAN_SERVER\" ]; then\n"
    "    die \"this plan was made for context '${PLAN_CONTEXT:-unknown}' (server ${PLAN_SERVER:-unknown}); the current\"\\\n"
    "        \"one is '$ctx' (server ${server:-unknown}). Nothing was changed. Run it with --context NAME to apply it there.\"\n"
    "  fi\n"
    "}\n"
    "\n"
    "# namespace/name of the pods on node $1 that hold GPUs (limits name an nvidia.com/ resource)\n"
    "gpu_pods_on() {\n"
    "  k get pods -A --field-selector \"spec.nodeName=$1,status.phase!=Succeeded,status.phase!=Failed\" \\\n"
    "    -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name}{\" \"}{.spec.containers[*].resources.limits}{.spec.initContainers[*].resources.limits}{\"\\n\"}{end}' \\\n"
    "    | awk '/nvidia\\.com\\// {print $1}'\n"
    "}\n"
    "\n"
    "node_label() {   # NODE KEY (dots of KEY escaped for jsonpath)\n"
    "  k get node \"$1\" -o jsonpath=\"{.metadata.labels.${2//./\\\\.}}\"\n"
    "}\n"
    "\n"
    "node_allocatable() {   # NODE RESOURCE\n"
    "  k get node \"$1\" -o jsonpath=\"{.status.allocatable.${2//./\\\\.}}\"\n"
    "}\n"
    "\n"
    "# cordon, remembering that this script did it (an annotation), so a re-run after a failure\n"
    "# uncordons only nodes it cordoned itself\n"
    "cordon_node() {\n"
    "  if [ \"$(k get node \"$1\" -o jsonpath='{.spec.unschedulable}')\" != true ]; then\n"
    "    k annotate node \"$1\" kubectl-gpu/cordoned-by-plan=true --overwrite >/dev/null\n"
    "    k cordon \"$1\" >&2\n"
    "  fi\n"
    "}\n"
    "\n"
    "uncordon_node() {\n"
    "  if [ \"$(k get node \"$1\" -o jsonpath='{.metadata.annotations.kubectl-gpu/cordoned-by-plan}')\" = true ]; then\n"
    "    k uncordon \"$1\" >&2\n"
    "    k annotate node \"$1\" kubectl-gpu/cordoned-by-plan- >/dev/null\n"
    "  fi\n"
    "}\n"
    "\n"
    "# no pod may use the GPUs while mig-manager resets them.  EVICT=yes: kubectl drain (the\n"
    "# Eviction API: PodDisruptionBudgets are honoured, bare pods make it stop); otherwise wait\n"
    "# (at most DRAIN_TIMEOUT s) until the GPU pods have been moved away.\n"
    "drain_node() {\n"
    "  local node=$1 deadline=$((SECONDS + DRAIN_TIMEOUT)) pods\n"
    "  if [ \"$EVICT\" = yes ]; then\n"
    "    k drain \"$node\" --ignore-daemonsets --delete-emptydir-data --timeout=\"${DRAIN_TIMEOUT}s\" >&2 ||\n"
    "      give_back \"$node\" \"kubectl drain $node failed (PodDisruptionBudget, bare pod or timeout)\"\n"
    "    return 0\n"
    "  fi\n"
    "  while :; do\n"
    "    pods=$(gpu_pods_on \"$node\")\n"
    "    [ -z \"$pods\" ] && return 0\n"
    "    [ \"$SECONDS\" -ge \"$deadline\" ] && give_back \"$node\" \"GPU pods still on $node after ${DRAIN_TIMEOUT}s: ${pods//$'\\n'/ }\"\\\n"
    "      \" (move them, e.g. by rolling out their new requests, or re-run with EVICT=yes)\"\n"
    "    log \"waiting for the GPU pods on $node to leave: ${pods//$'\\n'/ }\"\n"
    "    sleep \"$POLL\"\n"
    "  done\n"
    "}\n"
    "\n"
    "# a drain that did not finish: the node's GPUs were not touched, so it goes back into service\n"
    "# (uncordoned when this script cordoned it) and the script stops, saying so\n"
    "give_back() {   # NODE MESSAGE\n"
    "  if [ \"$(k get node \"$1\" -o jsonpath='{.metadata.annotations.kubectl-gpu/cordoned-by-plan}')\" = true ]; then\n"
    "    uncordon_node \"$1\"\n"
    "    die \"$2. $1 was uncordoned again (this script had cordoned it); its GPUs were not changed\"\n"
    "  fi\n"
    "  die \"$2. Nothing was changed on $1\"\n"
    "}\n"
    "\n"
    "# a reconfiguration that did not finish: the node stays as it is, and the script says how to undo\n"
    "stuck() {   # NODE MESSAGE\n"
    "  if [ \"$(k get node \"$1\" -o jsonpath='{.metadata.annotations.kubectl-gpu/cordoned-by-plan}')\" = true ]; then\n"
    "    die \"$2. $1 stays cordoned (its GPUs may be mid-change): fix it and re-run this script, or put it back\" \\\n"
    "        \"in service with: kubectl uncordon $(printf %q \"$1\") && kubectl annotate node $(printf %q \"$1\") kubectl-gpu/cordoned-by-plan-\"\n"
    "  fi\n"
    "  die \"$2\"\n"
    "}\n"
    "\n"
    "wait_mig_success() {   # NODE: the MIG manager reports nvidia.com/mig.config.state\n"
    "  local node=$1 deadline=$((SECONDS + CONFIG_TIMEOUT)) state\n"
    "  while :; do\n"
    "    state=$(node_label \"$node\" nvidia.com/mig.config.state)\n"
    "    case \"$state\" in\n"
    "      success) return 0 ;;\n"
    "      failed) stuck \"$node\" \"MIG reconfiguration failed on $node; see: kubectl logs -n $OPERATOR_NAMESPACE -l app=nvidia-mig-manager -c nvidia-mig-manager\" ;;\n"
    "    esac\n"
    "    [ \"$SECONDS\" -ge \"$deadline\" ] && stuck \"$node\" \"$node: nvidia.com/mig.config.state is '${state}' after ${CONFIG_TIMEOUT}s\"\n"
    "    log \"$node: MIG reconfiguration ${state:-not started yet}\"\n"
    "    sleep \"$POLL\"\n"
    "  done\n"
    "}\n"
    "\n"
    "# count_ok HAVE WANT: WANT is a count, or LO-HI on a node with unhealthy GPUs (a restarted device\n"
    "# plugin reports every GPU healthy until the fault recurs)\n"
    "count_ok() {\n"
    "  local have=${1:-0} want=$2\n"
    "  case \"$want\" in\n"
    "    *-*) [ \"$have\" -ge \"${want%-*}\" ] 2>/dev/null && [ \"$have\" -le \"${want#*-}\" ] ;;\n"
    "    *) [ \"$have\" = \"$want\" ] ;;\n"
    "  esac\n"
    "}\n"
    "\n"
    "wait_allocatable() {   # NODE RESOURCE COUNT: the device plugin advertises the new resources\n"
    "  local node=$1 res=$2 want=$3 deadline=$((SECONDS + CONFIG_TIMEOUT)) have\n"
    "  while :; do\n"
    "    have=$(node_allocatable \"$node\" \"$res\")\n"
    "    count_ok \"${have:-0}\" \"$want\" && return 0\n"
    "    [ \"$SECONDS\" -ge \"$deadline\" ] && stuck \"$node\" \"$node advertises $res: ${have:-0}, expected $want after ${CONFIG_TIMEOUT}s\"\n"
    "    log \"$node: waiting for $res: $want (now ${have:-0})\"\n"
    "    sleep \"$POLL\"\n"
    "  done\n"
    "}\n"
    "\n"
    "# reconfigure_node NODE MIG_CONFIG DEVICE_PLUGIN_CONFIG DRAIN(yes|no) RESOURCE=COUNT|LO-HI...\n"
    "# (an empty config leaves that label alone).  Skips a node that is already done.  Before a\n"
    "# drain, need_room checks the room in the array room (RESOURCE=COUNT... -- NODE...).\n"
    "reconfigure_node() {\n"
    "  local node=$1 mig=$2 dp=$3 drain=$4 r done=yes; shift 4\n"
    "  [ -n \"$mig\" ] && { [ \"$(node_label \"$node\" nvidia.com/mig.config)\" = \"$mig\" ] &&\n"
    "    [ \"$(node_label \"$node\" nvidia.com/mig.config.state)\" = success ] || done=no; }\n"
    "  [ -n \"$dp\" ] && { [ \"$(node_label \"$node\" nvidia.com/device-plugin.config)\" = \"$dp\" ] || done=no; }\n"
    "  for r in \"$@\"; do count_ok \"$(node_allocatable \"$node\" \"${r%%=*}\")\" \"${r#*=}\" || done=no; done\n"
    "  if [ \"$done\" = yes ]; then\n"
    "    log \"$node: already configured\"\n"
    "    uncordon_node \"$node\"\n"
    "    return 0\n"
    "  fi\n"
    "  # drain only while a change that needs it is still to come (a re-run that finds the labels\n"
    "  # set, waiting for the resources, does not drain again)\n"
    "  if [ \"$drain\" = yes ]; then\n"
    "    drain=no\n"
    "    if [ -n \"$mig\" ] && { [ \"$(node_label \"$node\" nvidia.com/mig.config)\" != \"$mig\" ] ||\n"
    "         [ \"$(node_label \"$node\" nvidia.com/mig.config.state)\" != success ]; }; then drain=yes; fi\n"
    "    if [ -n \"$dp\" ] && [ \"$(node_label \"$node\" nvidia.com/device-plugin.config)\" != \"$dp\" ]; then drain=yes; fi\n"
    "  fi\n"
    "  if [ \"$drain\" = yes ] && [ ${#room[@]} -gt 0 ]; then need_room \"$node\" \"${room[@]}\"; fi\n"
    "  if [ \"$drain\" = yes ]; then\n"
    "    log \"$node: cordon, then drain its GPU pods ($( [ \"$EVICT\" = yes ] && echo 'kubectl drain' || echo 'waiting for them to move'))\"\n"
    "    cordon_node \"$node\"\n"
    "    drain_node \"$node\"\n"
    "  else\n"
    "    log \"$node: no cordon, no drain (a device-plugin config change, or labels already set: running pods keep their GPUs)\"\n"
    "  fi\n"
    "  if [ -n \"$mig\" ]; then\n"
    "    if [ \"$(node_label \"$node\" nvidia.com/mig.config)\" != \"$mig\" ]; then\n"
    "      # drop the old state first, so a stale 'success' is not read as the new one\n"
    "      k label node \"$node\" nvidia.com/mig.config.state- >/dev/null 2>&1 || true\n"
    "      k label node \"$node\" \"nvidia.com/mig.config=$mig\" --overwrite >&2\n"
    "    fi\n"
    "    wait_mig_success \"$node\"\n"
    "  fi\n"
    "  [ -n \"$dp\" ] && k label node \"$node\" \"nvidia.com/device-plugin.config=$dp\" --overwrite >&2\n"
    "  for r in \"$@\"; do wait_allocatable \"$node\" \"${r%%=*}\" \"${r#*=}\"; done\n"
    "  uncordon_node \"$node\"\n"
    "  log \"$node: done\"\n"
    "}\n"
    "\n"
    "# before cordoning NODE: with EVICT=no its GPU pods leave only when their workloads' new pods\n"
    "# can run elsewhere, so the nodes that admit them must have the room free now; else stop here,\n"
    "# before any change to NODE.  need_room NODE RESOURCE=COUNT... -- ADMISSIBLE_NODE...\n"
    "is_count() { [[ $1 =~ ^[0-9]{1,15}$ ]]; }   # a number from the cluster, before any arithmetic\n"
    "\n"
    "free_on() {   # RESOURCE ADMISSIBLE_NODE...: free RESOURCE on those of the nodes that are schedulable\n"
    "  local res=$1 esc kind name a b n total=0 vals; shift\n"
    "  local -A ok=() alloc=() used=()\n"
    "  esc=${res//./\\\\.}\n"
    "  for n in \"$@\"; do ok[\"$n\"]=1; done\n"
    "  while IFS='|' read -r kind name a b; do\n"
    "    if [ -z \"$name\" ] || [ -z \"${ok[\"$name\"]:-}\" ]; then continue; fi\n"
    "    case $kind in\n"
    "      N) [ \"$b\" = true ] || ! is_count \"${a:-0}\" || alloc[\"$name\"]=${a:-0} ;;\n"
    "      P) read -r -a vals <<<\"$a\"\n"
    "         for n in \"${vals[@]}\"; do is_count \"$n\" && used[\"$name\"]=$(( ${used[\"$name\"]:-0} + n )); done ;;\n"
    "    esac\n"
    "  done < <(k get nodes -o jsonpath=\"{range .items[*]}N|{.metadata.name}|{.status.allocatable.$esc}|{.spec.unschedulable}{\\\"\\\\n\\\"}{end}\"\n"
    "           k get pods -A --field-selector 'status.phase!=Succeeded,status.phase!=Failed' \\\n"
    "             -o jsonpath=\"{range .items[*]}P|{.spec.nodeName}|{range .spec.containers[*]}{.resources.requests.$esc} {end}|{\\\"\\\\n\\\"}{end}\")\n"
    "  for n in \"${!alloc[@]}\"; do total=$(( total + ${alloc[\"$n\"]} - ${used[\"$n\"]:-0} )); done\n"
    "  echo \"$total\"\n"
    "}\n"
    "\n"
    "need_room() {\n"
    "  local node=$1 r free want; shift\n"
    "  local -a needs=()\n"
    "  while [ $# -gt 0 ] && [ \"$1\" != -- ]; do needs+=(\"$1\"); shift; done\n"
    "  [ $# -gt 0 ] && shift\n"
    "  if [ \"$EVICT\" = yes ]; then return 0; fi\n"
    "  [ -z \"$(gpu_pods_on \"$node\")\" ] && return 0\n"
    "  for r in \"${needs[@]}\"; do\n"
    "    want=${r#*=}\n"
    "    free=$(free_on \"${r%%=*}\" \"$@\")\n"
    "    if [ \"${free:-0}\" -lt \"$want\" ]; then\n"
    "      die \"$node: its GPU pods need ${r%%=*}: $want on other nodes that admit them, which have ${free:-0} free:\" \\\n"
    "          \"with EVICT=no they could not leave and the node would stay cordoned. Nothing was changed on $node.\" \\\n"
    "          \"Add that capacity, move the pods, or re-run with EVICT=yes (they are evicted and wait Pending\" \\\n"
    "          \"until $node is converted)\"\n"
    "    fi\n"
    "  done\n"
    "}\n"
    "\n"
    "# ResourceQuotas last, once the workloads hold their new requests: a quota below what a namespace\n"
    "# holds refuses every pod of it that is recreated (drain, crash, node loss) until it fits.\n"
    "# apply_quota NAMESPACE RESOURCE=HARD... (the manifest on stdin)\n"
    "ns_used() {   # NAMESPACE RESOURCE (requests.nvidia.com/gpu -> the pods' requests of nvidia.com/gpu)\n"
    "  local esc n total=0 vals\n"
    "  esc=${2#requests.}; esc=${esc//./\\\\.}\n"
    "  read -r -a vals <<<\"$(k get pods -n \"$1\" --field-selector 'status.phase!=Succeeded,status.phase!=Failed' \\\n"
    "                          -o jsonpath=\"{range .items[*].spec.containers[*]}{.resources.requests.$esc} {end}\")\"\n"
    "  for n in \"${vals[@]}\"; do is_count \"$n\" && total=$(( total + n )); done\n"
    "  echo \"$total\"\n"
    "}\n"
    "\n"
    "apply_quota() {\n"
    "  local ns=$1 r used manifest; shift\n"
    "  manifest=$(cat)\n"
    "  for r in \"$@\"; do\n"
    "    used=$(ns_used \"$ns\" \"${r%%=*}\")\n"
    "    if [ \"$used\" -gt \"${r#*=}\" ]; then\n"
    "      log \"ResourceQuota in $ns NOT applied yet: the namespace holds ${r%%=*}: $used, above the new hard limit ${r#*=}\" \\\n"
    "          \"(its workloads have not all moved to their new requests). Re-run this script once they have.\"\n"
    "      QUOTAS_LEFT=$((QUOTAS_LEFT + 1))\n"
    "      return 0\n"
    "    fi\n"
    "  done\n"
    "  printf '%s\\n' \"$manifest\" | k apply --server-side --force-conflicts --field-manager=kubectl-gpu-plan -f - >&2\n"
    "}\n";

/* ---- header: every line with a value goes through shquote_comment, so none ends early ---- */

static void comment(Strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void comment(Strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    strbuf_adds(sb, "# ");
    shquote_comment(sb, s);
    strbuf_addch(sb, '\n');
    free(s);
}

static void script_header(Strbuf *sb, const PlanRun *run)
{
    strbuf_adds(sb, "#!/usr/bin/env bash\n");
    comment(sb, "Generated by `kubectl gpu plan -o script` (kubectl-gpu %s) for context %s, API server %s.",
            KGPU_VERSION, run->context ? run->context : "(unknown)", run->server ? run->server : "(unknown)");
    strbuf_adds(sb, "# REVIEW IT BEFORE RUNNING: it changes the cluster (kubectl-gpu itself never does).\n"
                    "# It refuses to run (exit 1, before any change) against another context or API server,\n"
                    "# unless you name the context to use: bash plan.sh --context NAME\n#\n");
    comment(sb, "Plan: usage p%g over %s, headroom %g%%: GPUs before %d, after %d, freed %d.",
            run->percentile, run->window, run->headroom, run->r.gpus_before, run->r.gpus_after,
            run->r.gpus_before - run->r.gpus_after);
    comment(sb, "Usage: %s%s", run->from_requests ? "NOT MEASURED — " : "", run->usage_line);
    strbuf_adds(sb, "#\n# The changes, in order (each step checks before it acts, so a re-run resumes):\n");
    for (size_t i = 0; i < run->actions.n; i++) {
        const PlanAction *x = &run->actions.v[i];
        comment(sb, "  %zu. %s %s: %s", i + 1, plan_action_kind_name(x->kind), x->target, x->detail ? x->detail : "");
    }
    strbuf_adds(sb, "#\n# The workloads must ask for their new resources (roll them out before or during the node\n"
                    "# steps; pods that still ask for the old ones stay Pending once their node is reconfigured):\n");
    for (size_t i = 0; i < run->r.ngroups; i++) {
        const PlanGroup *g = &run->r.groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t k = 0; k < g->nworkloads; k++) {
            const PlanGroupWorkload *gw = &g->workloads[k];
            const PlanWorkload *w = gw_workload(run, g, gw);
            comment(sb, "  %s/%s (%s, %d pod%s): %s: %d", w->ns ? w->ns : "", w->name ? w->name : "",
                    w->kind ? w->kind : "Pod", gw->pods, gw->pods == 1 ? "" : "s", gw->request_resource,
                    gw->request_count);
        }
    }
    strbuf_adds(sb, "#\n# Knobs: KUBECTL (a kubectl command, arguments allowed: \"kubectl --kubeconfig /x\"),\n"
                    "# EVICT=yes (drain through the Eviction API instead of waiting for the GPU pods to move),\n"
                    "# DRAIN_TIMEOUT and CONFIG_TIMEOUT (seconds), POLL (seconds between checks).\n"
                    "set -euo pipefail\n\n");
}

/* a document applied from a quoted heredoc whose terminator is no line of it */
static void heredoc(Strbuf *sb, const char *body)
{
    char *delim = shquote_heredoc_delim(body, "KGPU_MANIFESTS");
    strbuf_addf(sb, "<<'%s'\n", delim);
    strbuf_adds(sb, body);
    if (*body && body[strlen(body) - 1] != '\n') strbuf_addch(sb, '\n');
    strbuf_addf(sb, "%s\n", delim);
    free(delim);
}

/* ---- one emitter per action kind (plan_actions.h); a new kind is one entry of the table ---- */

static void emit_configmap(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    char *yaml = x->doc ? plan_yaml_text(x->doc) : NULL;
    const char *slash = strchr(x->target, '/');
    bool dp = run->m.device_plugin && slash && strcmp(slash + 1, MANIFESTS_DEVICE_PLUGIN_CONFIGMAP) == 0;
    if (dp)
        strbuf_adds(sb, "dp_rv() { k get configmap -n \"$OPERATOR_NAMESPACE\" " MANIFESTS_DEVICE_PLUGIN_CONFIGMAP
                        " -o jsonpath='{.metadata.resourceVersion}' 2>/dev/null || true; }\n"
                        "dp_before=$(dp_rv)\n");
    strbuf_adds(sb, "# server-side apply: no last-applied annotation, so large maps stay under its 256 KiB limit\n"
                    "k apply --server-side --force-conflicts --field-manager=kubectl-gpu-plan -f - >&2 ");
    heredoc(sb, yaml ? yaml : "");
    if (dp)
        strbuf_adds(sb, "# the operator does not watch a ConfigMap's content: restart the plugin when it changed\n"
                        "if [ -n \"$dp_before\" ] && [ \"$(dp_rv)\" != \"$dp_before\" ]; then\n"
                        "  k rollout restart -n \"$OPERATOR_NAMESPACE\" daemonset/nvidia-device-plugin-daemonset >&2 || "
                        "log \"restart the device plugin DaemonSet by hand\"\nfi\n");
    free(yaml);
}

/* ResourceQuotas come last (plan_actions.h): apply_quota applies each once its namespace holds
 * no more than the new hard limits */
static void emit_quota(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    (void)run;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(x->doc, "metadata");
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(meta, "namespace");
    const cJSON *hard = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(x->doc, "spec"), "hard");
    char *yaml = x->doc ? plan_yaml_text(x->doc) : NULL;
    strbuf_adds(sb, "apply_quota ");
    sq(sb, cJSON_IsString(ns) ? ns->valuestring : "");
    const cJSON *h;
    cJSON_ArrayForEach(h, hard) {
        if (!cJSON_IsString(h) || !h->string) continue;
        char *kv = xasprintf("%s=%s", h->string, h->valuestring);
        strbuf_addch(sb, ' ');
        sq(sb, kv);
        free(kv);
    }
    strbuf_addch(sb, ' ');
    heredoc(sb, yaml ? yaml : "");
    free(yaml);
}

static void emit_clusterpolicy_patch(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    (void)run;
    comment(sb, "%s", x->detail ? x->detail : "");
    strbuf_adds(sb, "k patch ");
    sq(sb, x->target);
    strbuf_adds(sb, " --type merge -p ");
    sq(sb, x->patch);
    strbuf_adds(sb, " >&2\n");
}

static void emit_node_label(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    (void)run;
    if (!x->pn) {                      /* an inert label removed */
        comment(sb, "%s: %s", x->target, x->detail ? x->detail : "");
        strbuf_adds(sb, "k label node ");
        sq(sb, x->target);
        strbuf_adds(sb, " nvidia.com/device-plugin.config- >&2\n");
        return;
    }
    const PlanNode *pn = x->pn;
    comment(sb, "%s (%s, %d GPU pod%s now): %s", pn->name, x->g->product, x->pods, x->pods == 1 ? "" : "s",
            x->detail ? x->detail : "");
    /* what the pods a drain moves need, and the nodes that admit them (need_room, once the node
     * is found not done) */
    strbuf_adds(sb, "room=(");
    if (x->drain && x->room.n) {
        for (size_t i = 0; i < x->room.n; i++) { sq(sb, x->room.v[i]); strbuf_addch(sb, ' '); }
        strbuf_adds(sb, "--");
        for (size_t i = 0; i < x->room_nodes.n; i++) { strbuf_addch(sb, ' '); sq(sb, x->room_nodes.v[i]); }
    }
    strbuf_adds(sb, ")\n");
    strbuf_adds(sb, "reconfigure_node ");
    sq(sb, pn->name);
    strbuf_addch(sb, ' ');
    sq(sb, pn->mig_change ? pn->mig_config : "");
    strbuf_addch(sb, ' ');
    sq(sb, pn->device_plugin_config ? pn->device_plugin_config : "");
    strbuf_adds(sb, x->drain ? " yes" : " no");
    for (size_t q = 0; q < pn->expected.n; q++) {
        long long lo = (long long)(pn->expected.items[q].milli / 1000);
        long long hi = (long long)(rlist_get(&pn->expected_max, pn->expected.items[q].name) / 1000);
        char *kv = hi > lo ? xasprintf("%s=%lld-%lld", pn->expected.items[q].name, lo, hi)
                           : xasprintf("%s=%lld", pn->expected.items[q].name, lo);
        strbuf_addch(sb, ' ');
        sq(sb, kv);
        free(kv);
    }
    strbuf_addch(sb, '\n');
}

/* a device plugin without config-manager reads its config file only at start */
static void emit_rollout_restart(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    (void)run;
    comment(sb, "%s", x->detail ? x->detail : "");
    cJSON *patch = x->patch ? cJSON_Parse(x->patch) : NULL;
    const cJSON *ann = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(patch, "spec"), "template"), "metadata"),
        "annotations");
    const cJSON *mark = cJSON_GetObjectItemCaseSensitive(ann, PLAN_DP_CONFIG_ANNOTATION);
    strbuf_adds(sb, "restart_daemonset ");
    sq(sb, x->target);
    strbuf_addch(sb, ' ');
    sq(sb, cJSON_IsString(mark) ? mark->valuestring : "");
    strbuf_addch(sb, ' ');
    sq(sb, x->patch ? x->patch : "{}");
    strbuf_addch(sb, '\n');
    cJSON_Delete(patch);
}

/* a cloud command with placeholders (cluster, location): shown, never run */
static void emit_nodepool(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    (void)run;
    strbuf_adds(sb, "log ");
    char *msg = xasprintf("node pool %s: run by hand: %s", x->target, x->command ? x->command : "");
    sq(sb, msg);
    free(msg);
    strbuf_addch(sb, '\n');
}

typedef void (*ActionEmitFn)(Strbuf *sb, const PlanRun *run, const PlanAction *x);
static const struct { PlanActionKind kind; ActionEmitFn emit; } action_emitters[] = {
    { ACT_CONFIGMAP, emit_configmap },
    { ACT_QUOTA, emit_quota },
    { ACT_CLUSTERPOLICY_PATCH, emit_clusterpolicy_patch },
    { ACT_NODE_LABEL, emit_node_label },
    { ACT_ROLLOUT_RESTART, emit_rollout_restart },
    { ACT_NODEPOOL, emit_nodepool },
};

static void emit_action(Strbuf *sb, const PlanRun *run, const PlanAction *x)
{
    for (size_t i = 0; i < sizeof action_emitters / sizeof action_emitters[0]; i++)
        if (action_emitters[i].kind == x->kind) { action_emitters[i].emit(sb, run, x); return; }
    comment(sb, "%s %s: not applied by this script: %s", plan_action_kind_name(x->kind), x->target,
            x->detail ? x->detail : "");
}

char *plan_report_script(const PlanRun *run, const char *yaml)
{
    (void)yaml;                        /* each action renders its own document */
    Strbuf sb = STRBUF_INIT;
    script_header(&sb, run);
    strbuf_adds(&sb, "CONTEXT_ARG=\nwhile [ $# -gt 0 ]; do\n  case $1 in\n"
                     "    --context) [ $# -ge 2 ] || { echo 'error: --context needs a NAME' >&2; exit 2; }; CONTEXT_ARG=$2; shift 2 ;;\n"
                     "    --context=*) CONTEXT_ARG=${1#--context=}; shift ;;\n"
                     "    -h|--help) sed -n '2,/^set -euo/p' \"$0\" | sed '$d'; exit 0 ;;\n"
                     "    *) echo \"error: unknown argument '$1' (only --context NAME)\" >&2; exit 2 ;;\n  esac\ndone\n"
                     ": \"$CONTEXT_ARG\"\n");
    if (run->actions.n == 0) {
        strbuf_adds(&sb, "echo 'kubectl gpu plan: nothing to apply (the plan changes nothing)' >&2\nexit 0\n");
        return strbuf_detach(&sb);
    }
    if (run->m.blocked) {
        strbuf_adds(&sb, "echo ");
        char *msg = xasprintf("error: not safe to apply: %s. Nothing was changed.", run->m.blocked);
        sq(&sb, msg);
        free(msg);
        strbuf_adds(&sb, " >&2\nexit 1\n");
        return strbuf_detach(&sb);
    }
    strbuf_adds(&sb, "read -r -a KUBECTL_CMD <<<\"${KUBECTL:-kubectl}\"\nPLAN_CONTEXT=");
    sq(&sb, run->context ? run->context : "");
    strbuf_adds(&sb, "\nPLAN_SERVER=");
    sq(&sb, run->server ? run->server : "");
    strbuf_adds(&sb, "\nOPERATOR_NAMESPACE=");
    sq(&sb, run->operator_ns);
    strbuf_adds(&sb, "\nEVICT=${EVICT:-no}\nDRAIN_TIMEOUT=${DRAIN_TIMEOUT:-1800}\nCONFIG_TIMEOUT=${CONFIG_TIMEOUT:-1200}\n"
                     "POLL=${POLL:-10}\nQUOTAS_LEFT=0\nroom=()\n\n");
    strbuf_adds(&sb, script_functions);
    strbuf_adds(&sb, "\npin_check\n");
    strbuf_adds(&sb, "\n# ---- the changes, in the order of the plan's actions ------------------------------\n");
    for (size_t i = 0; i < run->actions.n; i++) {
        strbuf_addch(&sb, '\n');
        emit_action(&sb, run, &run->actions.v[i]);
    }
    if (!run->cur.clusterpolicy && run->m.n && (run->act.dp.by == ACTUATOR_NONE || run->act.dp.by == ACTUATOR_UNKNOWN))
        strbuf_adds(&sb, "# No ClusterPolicy was found (device plugin installed without the GPU Operator?): point the\n"
                         "# device plugin at " MANIFESTS_DEVICE_PLUGIN_CONFIGMAP " (Helm value config.name) and the MIG\n"
                         "# manager at " MANIFESTS_MIG_PARTED_CONFIGMAP " yourself.\n");
    strbuf_adds(&sb, "\nif [ \"$QUOTAS_LEFT\" -gt 0 ]; then\n"
                     "  log \"plan applied but for $QUOTAS_LEFT ResourceQuota(s): re-run this script once the workloads hold their new requests\"\n"
                     "else\n  log \"plan applied\"\nfi\n");
    return strbuf_detach(&sb);
}
