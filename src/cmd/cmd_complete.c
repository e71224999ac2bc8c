/* cmd_complete.c — the hidden `kubectl-gpu __complete` command: shell completion from the
 * command and option tables (see cmd/complete.h).
 *
 * The words before the cursor are scanned leniently, the way options_parse() would read
 * them, but without ever failing: unknown flags are skipped, the first non-flag word picks
 * the command (whose flags then join the global ones), later non-flag words are positionals,
 * and a flag that takes a value swallows the next word.  What the cursor word means follows
 * from where the scan stopped: the value of a flag, a flag name, a command, or a positional.
 *
 * Names from the cluster cost a round trip, so they are bounded: one page of one list (at
 * most COMPLETE_MAX_NAMES names), a 3 s request timeout (also the exec credential plugin's),
 * and an alarm that ends the process quietly should anything still hang.  stderr and stdin
 * point at /dev/null meanwhile: completion never prints a message and never prompts.
 */
#include "cmd/complete.h"
#include "cmd/commands.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include "sources/kubeconfig.h"
#include "sources/loader.h"
#include "model/pod.h"
#include "model/resources.h"
#include "render/pending_view.h"
#include "render/status.h"
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#define COMPLETE_MAX_NAMES   500
#define COMPLETE_TIMEOUT_S   3.0
#define COMPLETE_DEADLINE_S  6            /* the alarm: everything included */
#define KUBECONFIG_MAX_BYTES (16u << 20)

/* ---- scanning the words before the cursor ---- */

typedef struct {
    const CliProgram *prog;      /* the global flags and the commands */
    const Command *cmd;          /* the subcommand, NULL until its word is seen */
    bool help_word;              /* "kubectl gpu help ..." */
    bool unknown_command;
    bool dashdash;               /* "--" seen: only positionals follow */
    Strvec positionals;          /* after the command word */
    const Option *given[64];     /* flags already typed (not offered again) */
    size_t ngiven;
    const Option *pending;       /* the last word was a flag that still needs its value */
    /* values of the global flags that decide where names come from */
    const char *kubeconfig, *context, *cluster, *user, *namespace_, *selector, *snapshot;
    bool all_namespaces;
} Scan;

static bool takes_value(const Option *o)
{
    return o->type != OPT_BOOL && o->type != OPT_COUNT;
}

static size_t scan_tables(const Scan *s, const Option *tables[2])
{
    tables[0] = s->prog->global_options;
    if (s->cmd && s->cmd->options) { tables[1] = s->cmd->options; return 2; }
    return 1;
}

static const Option *scan_find_long(const Scan *s, const char *name, size_t len)
{
    const Option *tables[2];
    size_t n = scan_tables(s, tables);
    for (size_t t = 0; t < n; t++)
        for (const Option *o = tables[t]; o->type != OPT_END; o++)
            if (strlen(o->long_name) == len && strncmp(o->long_name, name, len) == 0) return o;
    return NULL;
}

static const Option *scan_find_short(const Scan *s, char c)
{
    const Option *tables[2];
    size_t n = scan_tables(s, tables);
    for (size_t t = 0; t < n; t++)
        for (const Option *o = tables[t]; o->type != OPT_END; o++)
            if (o->short_name && o->short_name == c) return o;
    return NULL;
}

static void scan_given(Scan *s, const Option *o)
{
    if (s->ngiven < sizeof s->given / sizeof *s->given) s->given[s->ngiven++] = o;
    if (o->type == OPT_BOOL && strcmp(o->long_name, "all-namespaces") == 0) s->all_namespaces = true;
}

static bool scan_was_given(const Scan *s, const Option *o)
{
    for (size_t i = 0; i < s->ngiven; i++) if (s->given[i] == o) return true;
    return false;
}

/* remember the values that decide where cluster names come from */
static void scan_value(Scan *s, const Option *o, const char *v)
{
    static const struct { const char *flag; size_t off; } wanted[] = {
        { "kubeconfig", offsetof(Scan, kubeconfig) }, { "context", offsetof(Scan, context) },
        { "cluster", offsetof(Scan, cluster) },       { "user", offsetof(Scan, user) },
        { "namespace", offsetof(Scan, namespace_) },  { "selector", offsetof(Scan, selector) },
        { "snapshot", offsetof(Scan, snapshot) },
    };
    bool global = false;
    for (const Option *g = s->prog->global_options; g->type != OPT_END; g++) if (g == o) global = true;
    if (!global) return;
    for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
        if (strcmp(o->long_name, wanted[i].flag) == 0)
            *(const char **)((char *)s + wanted[i].off) = v;
}

static void scan_flag(Scan *s, const char *w)
{
    if (w[1] == '-') {
        const char *name = w + 2, *eq = strchr(name, '=');
        const Option *o = scan_find_long(s, name, eq ? (size_t)(eq - name) : strlen(name));
        if (!o) return;
        scan_given(s, o);
        if (!takes_value(o)) return;
        if (eq) scan_value(s, o, eq + 1);
        else s->pending = o;
        return;
    }
    for (const char *p = w + 1; *p; p++) {          /* -Av, -nteam-a, -n team-a, -o=json */
        const Option *o = scan_find_short(s, *p);
        if (!o) return;
        scan_given(s, o);
        if (o->type == OPT_COUNT && (p[1] == '=' || (p[1] >= '0' && p[1] <= '9'))) return;
        if (!takes_value(o)) continue;
        if (p[1]) scan_value(s, o, p[1] == '=' ? p + 2 : p + 1);
        else s->pending = o;
        return;
    }
}

static void scan_words(Scan *s, int n, char **w)
{
    for (int i = 0; i < n; i++) {
        const char *a = w[i];
        if (s->pending) { scan_value(s, s->pending, a); s->pending = NULL; continue; }
        if (!s->dashdash && a[0] == '-' && a[1]) {
            if (strcmp(a, "--") == 0) s->dashdash = true;
            else scan_flag(s, a);
            continue;
        }
        if (s->cmd || s->help_word || s->unknown_command) { strvec_push(&s->positionals, a); continue; }
        if (strcmp(a, "help") == 0) s->help_word = true;
        else if (!(s->cmd = command_find(s->prog, a))) s->unknown_command = true;
    }
}

/* ---- printing candidates ---- */

typedef struct {
    FILE *out;
    const char *cur;             /* what the user typed of the value */
    const char *prefix;          /* printed before each candidate ("--output=" for "--output=js") */
    Strvec seen;
    int directive;
} Emit;

static void emit(Emit *e, const char *cand, const char *desc)
{
    if (!cand || !*cand || !str_starts_with(cand, e->cur)) return;
    if (strpbrk(cand, "\t\n\r")) return;
    if (strvec_contains(&e->seen, cand)) return;
    strvec_push(&e->seen, cand);
    fprintf(e->out, "%s%s", e->prefix, cand);
    if (desc && *desc) {
        fputc('\t', e->out);
        for (const char *p = desc; *p && *p != '\n'; p++) fputc(*p == '\t' ? ' ' : *p, e->out);
    }
    fputc('\n', e->out);
}

/* ---- names from the kubeconfig files (contexts, clusters, users) ---- */

static char *expand_home(const char *path)
{
    const char *home = getenv("HOME");
    if (path[0] == '~' && path[1] == '/' && home) return xasprintf("%s%s", home, path + 1);
    return xstrdup(path);
}

static const char *yaml_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* section is "contexts", "clusters" or "users": the "name" of each entry */
static void kubeconfig_file_names(const char *path, const char *section, Strvec *out)
{
    size_t len = 0;
    char *msg = NULL, *text = util_read_file(path, &len, &msg);
    free(msg);
    if (!text || len > KUBECONFIG_MAX_BYTES) { free(text); return; }
    yaml_parser_t p;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&p)) { free(text); return; }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (yaml_parser_load(&p, &doc)) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root && root->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *kv = root->data.mapping.pairs.start; kv < root->data.mapping.pairs.top; kv++) {
                const char *key = yaml_scalar(yaml_document_get_node(&doc, kv->key));
                yaml_node_t *seq = yaml_document_get_node(&doc, kv->value);
                if (!key || strcmp(key, section) != 0 || !seq || seq->type != YAML_SEQUENCE_NODE) continue;
                for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
                    yaml_node_t *entry = yaml_document_get_node(&doc, *it);
                    if (!entry || entry->type != YAML_MAPPING_NODE) continue;
                    for (yaml_node_pair_t *e = entry->data.mapping.pairs.start; e < entry->data.mapping.pairs.top; e++) {
                        const char *k = yaml_scalar(yaml_document_get_node(&doc, e->key));
                        const char *v = yaml_scalar(yaml_document_get_node(&doc, e->value));
                        if (k && v && strcmp(k, "name") == 0 && !strvec_contains(out, v)) strvec_push(out, v);
                    }
                }
            }
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&p);
    free(text);
}

/* the files kubectl would read: --kubeconfig, else every file of $KUBECONFIG, else ~/.kube/config */
static void kubeconfig_names(const Scan *s, const char *section, Strvec *out)
{
    if (s->kubeconfig && *s->kubeconfig) {
        char *p = expand_home(s->kubeconfig);
        kubeconfig_file_names(p, section, out);
        free(p);
        return;
    }
    const char *env = getenv("KUBECONFIG");
    if (env && *env) {
        char *list = xstrdup(env), *save = NULL;
        for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
            kubeconfig_file_names(f, section, out);
        free(list);
        return;
    }
    const char *home = getenv("HOME");
    if (!home) return;
    char *p = xasprintf("%s/.kube/config", home);
    kubeconfig_file_names(p, section, out);
    free(p);
}

/* ---- names from a snapshot or the API server (nodes, pods, namespaces) ---- */

static void on_deadline(int sig)
{
    static const char line[] = ":4\n";
    (void)sig;
    ssize_t r = write(STDOUT_FILENO, line, sizeof line - 1);
    (void)r;
    _exit(0);
}

typedef struct { int saved_stderr; } Quiet;

static Quiet quiet_begin(void)
{
    Quiet q = { -1 };
    fflush(stderr);
    int fd = open("/dev/null", O_RDWR);
    if (fd < 0) return q;
    q.saved_stderr = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    dup2(fd, STDIN_FILENO);      /* an exec credential plugin must not prompt */
    close(fd);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_deadline;
    sigaction(SIGALRM, &sa, NULL);
    alarm(COMPLETE_DEADLINE_S);
    return q;
}

static void quiet_end(Quiet q)
{
    alarm(0);
    if (q.saved_stderr >= 0) { dup2(q.saved_stderr, STDERR_FILENO); close(q.saved_stderr); }
}

static void snapshot_names(const Scan *s, const char *kind, Strvec *out)
{
    bool pods = strcmp(kind, "node") != 0;
    LoadRequest rq = { .nodes = !pods, .pods = pods, .node_selector = s->selector };
    if (strcmp(kind, "pod") == 0 && !s->all_namespaces)
        rq.pod_namespace = s->namespace_ ? s->namespace_ : "default";
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    char *path = expand_home(s->snapshot);
    if (snapshot_read(&c, path, &rq, &err) == 0) {
        if (!pods)
            for (size_t i = 0; i < c.nnodes; i++) strvec_push(out, c.nodes[i].name);
        for (size_t i = 0; pods && i < c.npods; i++) {
            bool pod = strcmp(kind, "pod") == 0;
            if (pod && !pod_is_pending_unbound(&c.pods[i])) continue;   /* explain's: pending GPU pods */
            char *v = !pod ? xstrdup(c.pods[i].ns)
                    : s->all_namespaces ? xasprintf("%s/%s", c.pods[i].ns, c.pods[i].name)   /* NS/NAME */
                                        : xstrdup(c.pods[i].name);
            if (!strvec_contains(out, v)) strvec_push(out, v);
            free(v);
        }
    }
    free(path);
    cluster_release(&c);
}

typedef struct { Strvec *out; bool pending_gpu, with_ns; } NameList;

/* a pod explain explains: not bound to a node, asking for a GPU resource or a DRA claim (the
 * list asked the server for Pending ones) */
static bool pending_gpu_pod(const cJSON *item)
{
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(item, "spec");
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(spec, "nodeName"))) return false;
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(spec, "resourceClaims")) > 0) return true;
    ResourceList req = RESOURCE_LIST_INIT;
    pod_effective_requests(spec, &req);
    bool gpu = rlist_has_gpu(&req);
    rlist_clear(&req);
    return gpu;
}

static int on_named_item(void *ctx, const cJSON *item, Error *err)
{
    NameList *nl = ctx;
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(item, "metadata");
    const cJSON *name = md ? cJSON_GetObjectItemCaseSensitive(md, "name") : NULL;
    const cJSON *ns = md ? cJSON_GetObjectItemCaseSensitive(md, "namespace") : NULL;
    if (nl->pending_gpu && !pending_gpu_pod(item)) return 0;
    if (cJSON_IsString(name) && name->valuestring[0]) {
        if (nl->with_ns && cJSON_IsString(ns)) strvec_pushf(nl->out, "%s/%s", ns->valuestring, name->valuestring);
        else strvec_push(nl->out, name->valuestring);
    }
    if (nl->out->n >= COMPLETE_MAX_NAMES) { error_set(err, "enough names"); return -1; }
    return 0;
}

static bool safe_path_segment(const char *s)
{
    if (!s || !*s) return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '.')) return false;
    return true;
}

static void api_names(const Scan *s, const char *kind, Strvec *out)
{
    KubeconfigOverrides ov = { s->kubeconfig, s->context, s->cluster, s->user, s->namespace_ };
    char *kc = s->kubeconfig ? expand_home(s->kubeconfig) : NULL;
    if (kc) ov.kubeconfig = kc;
    RestConfig rc;
    Error err = { 0 };
    if (kubeconfig_load(&rc, &ov, &err)) { free(kc); return; }
    ApiClientOptions opt = { COMPLETE_TIMEOUT_S, 0, COMPLETE_MAX_NAMES };
    ApiClient *api = apiclient_new(&rc, &opt, &err);
    if (api) {
        char *path = NULL, *query = NULL;
        if (strcmp(kind, "node") == 0) {
            path = xstrdup("/api/v1/nodes");
            if (s->selector && *s->selector) {
                char *sel = apiclient_query_escape(s->selector);
                query = xasprintf("labelSelector=%s", sel);
                free(sel);
            }
        } else if (strcmp(kind, "namespace") == 0) {
            path = xstrdup("/api/v1/namespaces");
        } else if (s->all_namespaces) {
            path = xstrdup("/api/v1/pods");
        } else if (safe_path_segment(rc.namespace_)) {
            path = xasprintf("/api/v1/namespaces/%s/pods", rc.namespace_);
        }
        bool pods = strcmp(kind, "pod") == 0;
        if (pods) query = xstrdup("fieldSelector=status.phase%3DPending");
        NameList nl = { out, pods, pods && s->all_namespaces };
        if (path) (void)apiclient_list(api, path, query, on_named_item, &nl, &err);
        free(path);
        free(query);
        apiclient_free(api);
    }
    restconfig_clear(&rc);
    free(kc);
}

/* names for a completion hint; true when the hint was one this function knows */
static bool hint_names(const Scan *s, const char *hint, Strvec *out)
{
    if (strcmp(hint, "context") == 0) { kubeconfig_names(s, "contexts", out); return true; }
    if (strcmp(hint, "cluster") == 0) { kubeconfig_names(s, "clusters", out); return true; }
    if (strcmp(hint, "user") == 0) { kubeconfig_names(s, "users", out); return true; }
    if (strcmp(hint, "node") && strcmp(hint, "pod") && strcmp(hint, "namespace")) return false;
    Quiet q = quiet_begin();
    if (s->snapshot && *s->snapshot) snapshot_names(s, hint, out);
    else api_names(s, hint, out);
    quiet_end(q);
    return true;
}

/* ---- what the cursor word can be ---- */

/* --contexts a,b,c: the name being typed after the last comma, among the contexts not yet listed */
static void complete_context_list(const Scan *s, Emit *e)
{
    const char *comma = strrchr(e->cur, ',');
    char *given = comma ? xstrndup(e->cur, (size_t)(comma - e->cur + 1)) : xstrdup("");
    char *prefix = xasprintf("%s%s", e->prefix, given);
    const char *outer_prefix = e->prefix, *outer_cur = e->cur;
    e->prefix = prefix;
    e->cur = comma ? comma + 1 : e->cur;
    Strvec names = STRVEC_INIT;
    kubeconfig_names(s, "contexts", &names);
    for (size_t i = 0; i < names.n; i++) {
        char *item = xasprintf(",%s,", names.v[i]);
        char *listed = xasprintf(",%s", given);
        if (!strstr(listed, item)) emit(e, names.v[i], NULL);
        free(item);
        free(listed);
    }
    strvec_clear(&names);
    e->prefix = outer_prefix;
    e->cur = outer_cur;
    free(prefix);
    free(given);
}

/* a value of flag o (or a positional described by hint/choices) */
static void complete_value(const Scan *s, Emit *e, const char *const *choices, const char *hint)
{
    e->directive = COMP_DIRECTIVE_NOFILE;
    if (choices) {
        size_t matches = 0, open_ended = 0;     /* "custom-columns=": the value goes on */
        for (const char *const *c = choices; *c; c++) {
            if (!str_starts_with(*c, e->cur)) continue;
            matches++;
            if (str_ends_with(*c, "=")) open_ended++;
            emit(e, *c, NULL);
        }
        if (matches && matches == open_ended) e->directive |= COMP_DIRECTIVE_NOSPACE;
        return;
    }
    if (!hint) return;
    if (strcmp(hint, "file") == 0) { e->directive = COMP_DIRECTIVE_DEFAULT; return; }
    if (strcmp(hint, "contexts") == 0) { complete_context_list(s, e); return; }
    if (str_starts_with(hint, "sort:")) {      /* --sort-by: the fields the command documents */
        const char *list = strcmp(hint + 5, "status") == 0 ? status_sort_fields_help
                         : strcmp(hint + 5, "pending") == 0 ? pending_sort_fields_help : "";
        for (const char *p = list; *p;) {
            p += strspn(p, ", ");
            size_t n = strcspn(p, ", ");
            if (!n) break;
            char *f = xstrndup(p, n);
            if (str_starts_with(f, e->cur)) emit(e, f, NULL);
            free(f);
            p += n;
        }
        return;
    }
    Strvec names = STRVEC_INIT;
    if (hint_names(s, hint, &names))
        for (size_t i = 0; i < names.n; i++) emit(e, names.v[i], NULL);
    strvec_clear(&names);
}

static void complete_flags(const Scan *s, Emit *e)
{
    const Option *tables[2];
    size_t n = scan_tables(s, tables);
    char buf[128];
    e->directive = COMP_DIRECTIVE_NOFILE;
    for (size_t t = n; t-- > 0;)        /* the command's own flags first */
        for (const Option *o = tables[t]; o->type != OPT_END; o++) {
            if (scan_was_given(s, o) && o->type != OPT_COUNT && o->type != OPT_STRINGS) continue;
            snprintf(buf, sizeof buf, "--%s", o->long_name);
            emit(e, buf, o->help);
            if (o->short_name && (strcmp(e->cur, "-") == 0 || (e->cur[1] == o->short_name && !e->cur[2]))) {
                snprintf(buf, sizeof buf, "-%c", o->short_name);
                emit(e, buf, o->help);
            }
        }
}

static void complete_commands(const CliProgram *prog, Emit *e)
{
    e->directive = COMP_DIRECTIVE_NOFILE;
    for (const Command *const *c = prog->commands; *c; c++)
        if (strncmp((*c)->name, "__", 2) != 0) emit(e, (*c)->name, (*c)->summary);
}

/* The positional arguments a usage line names, in order: "kubectl gpu explain POD [-n NS]"
 * gives POD; "kubectl gpu status [NODE...] [-o table|wide]" gives NODE, repeatable;
 * "kubectl gpu completion bash|zsh|fish" gives the alternatives.  Flag groups and "[flags]"
 * are skipped. */
typedef struct { char word[96]; bool repeat; } UsageArg;

static size_t usage_args(const Command *cmd, UsageArg *args, size_t max)
{
    if (!cmd->usage) return 0;
    char line[512];
    snprintf(line, sizeof line, "%s", cmd->usage);
    line[strcspn(line, "\n")] = '\0';
    size_t n = 0;
    int depth = 0;
    bool past_name = false;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (!past_name) { past_name = strcmp(tok, cmd->name) == 0; continue; }
        int opens = 0, closes = 0;
        for (const char *p = tok; *p; p++) { opens += *p == '['; closes += *p == ']'; }
        if (depth > 0 || str_starts_with(tok, "[-") || tok[0] == '-') { depth += opens - closes; continue; }
        if (strcmp(tok, "[flags]") == 0 || strcmp(tok, "[FLAGS]") == 0) continue;
        char *w = tok;
        while (*w == '[') w++;
        size_t len = strlen(w);
        while (len && w[len - 1] == ']') w[--len] = '\0';
        bool repeat = false;
        if (len >= 3 && strcmp(w + len - 3, "...") == 0) { w[len -= 3] = '\0'; repeat = true; }
        while (len && w[len - 1] == ']') w[--len] = '\0';
        if (!len || n >= max) continue;
        snprintf(args[n].word, sizeof args[n].word, "%s", w);
        args[n++].repeat = repeat;
    }
    return n;
}

static const char *placeholder_hint(const char *w)
{
    static const struct { const char *word, *hint; } map[] = {
        { "NODE", "node" }, { "POD", "pod" }, { "NS", "namespace" }, { "NAMESPACE", "namespace" },
        { "CONTEXT", "context" }, { "FILE", "file" }, { "PATH", "file" },
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(w, map[i].word) == 0) return map[i].hint;
    return NULL;
}

static void complete_positional(Scan *s, Emit *e)
{
    e->directive = COMP_DIRECTIVE_NOFILE;
    if (s->unknown_command) return;
    if (!s->cmd) {
        if (!s->help_word || s->positionals.n == 0) complete_commands(s->prog, e);
        return;
    }
    size_t index = s->positionals.n;
    if (s->cmd->max_args >= 0 && index >= (size_t)s->cmd->max_args) return;
    UsageArg args[8];
    size_t n = usage_args(s->cmd, args, 8);
    if (n == 0) return;
    const UsageArg *a = index < n ? &args[index] : args[n - 1].repeat ? &args[n - 1] : NULL;
    if (!a) return;
    if (a->repeat)      /* NODE...: the names already typed are not offered again */
        for (size_t i = 0; i < s->positionals.n; i++) strvec_push(&e->seen, s->positionals.v[i]);
    if (strchr(a->word, '|')) {
        const char *choices[9] = { NULL };
        char buf[sizeof a->word], *save = NULL;
        size_t k = 0;
        snprintf(buf, sizeof buf, "%s", a->word);
        for (char *c = strtok_r(buf, "|", &save); c && k < 8; c = strtok_r(NULL, "|", &save)) choices[k++] = c;
        complete_value(s, e, choices, NULL);
        return;
    }
    complete_value(s, e, NULL, placeholder_hint(a->word));
}

int cmd_complete_words(const CliProgram *prog, int nwords, char **words, FILE *out)
{
    if (nwords > 0 && strcmp(words[0], "--") == 0) { words++; nwords--; }
    const char *cur = nwords > 0 ? words[nwords - 1] : "";
    Scan s;
    memset(&s, 0, sizeof s);
    s.prog = prog;
    scan_words(&s, nwords > 0 ? nwords - 1 : 0, words);
    Emit e = { out, cur, "", STRVEC_INIT, COMP_DIRECTIVE_NOFILE };

    if (s.pending) {
        complete_value(&s, &e, s.pending->choices, s.pending->complete);
    } else if (!s.dashdash && cur[0] == '-') {
        const char *eq = strchr(cur, '=');
        const Option *o = NULL;
        if (cur[1] == '-' && eq) {                  /* --output=js */
            o = scan_find_long(&s, cur + 2, (size_t)(eq - cur - 2));
            if (o && takes_value(o)) {
                char *prefix = xstrndup(cur, (size_t)(eq - cur + 1));
                e.prefix = prefix;
                e.cur = eq + 1;
                complete_value(&s, &e, o->choices, o->complete);
                free(prefix);
            }
        } else if (cur[1] && cur[1] != '-' && cur[2] && (o = scan_find_short(&s, cur[1])) && takes_value(o)) {
            char prefix[4] = { '-', cur[1], cur[2] == '=' ? '=' : '\0', '\0' };   /* -ojs, -o=js */
            e.prefix = prefix;
            e.cur = cur + strlen(prefix);
            complete_value(&s, &e, o->choices, o->complete);
        } else {
            complete_flags(&s, &e);
        }
    } else {
        complete_positional(&s, &e);
    }
    fprintf(out, ":%d\n", e.directive);
    fflush(out);
    strvec_clear(&e.seen);
    strvec_clear(&s.positionals);
    return 0;
}

/* Hidden: not listed by --help nor offered by completion (names starting with "__"). */
static int run_complete(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    return cmd_complete_words(g->program, argc, argv, stdout);
}

const Command cmd_complete = {
    .name = "__complete",
    .summary = "(hidden) completion candidates for the shell scripts and kubectl",
    .usage = "kubectl-gpu __complete -- WORD... CURRENT",
    .description = "Prints the candidates for CURRENT, one per line, then \":<directive>\".",
    .options = NULL,
    .min_args = 0, .max_args = -1,
    .run = run_complete,
};
