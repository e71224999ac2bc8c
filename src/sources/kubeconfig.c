/* kubeconfig.c — kubeconfig loading, merging and selection as kubectl does it
 * (shared/reference/kubeconfig-and-api.md §1-§6).
 *
 * Each file is parsed with libyaml into a cJSON tree (plain scalars stay strings; plain
 * "null", "~" and empty become null), so the rest of the code walks one kind of tree.  The
 * merge keeps, per name, the first file's clusters/users/contexts entry whole, and the first
 * non-empty current-context — the net effect client-go documents for its Load().  Relative
 * paths are resolved against the directory of the file that defined the entry.
 *
 * In-cluster configuration (the service account's files) is kubeconfig_incluster.c; copying
 * and releasing a RestConfig restconfig.c.
 *
 * Error messages start with the file and the entry at fault:
 *   kubeconfig /home/a/.kube/config: user "ci" (context "prod"): exec: apiVersion ...
 * and quote client-go's own wording where one exists, so a search for it finds help.
 */
#include "sources/kubeconfig.h"
#include "util/error.h"
#include "internal.h"
#include "kubeconfig_int.h"
#include "util/yaml_load.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXEC_API_V1 "client.authentication.k8s.io/v1"
#define EXEC_API_V1BETA1 "client.authentication.k8s.io/v1beta1"
#define EXEC_EXTENSION "client.authentication.k8s.io/exec"

/* ---------------------------------------------------------------------------------------
 * Files and the merged view
 */

typedef struct {
    char *name;
    const cJSON *body;       /* the "cluster"/"user"/"context" mapping, may be NULL */
    const char *origin;      /* path of the defining file (owned by the KFile) */
} Entry;

typedef struct { Entry *v; size_t n, cap; } EntryList;

typedef struct {
    char *path;
    cJSON *root;             /* NULL for an empty file */
} KFile;

typedef struct {
    KFile *files; size_t nfiles, capfiles;
    EntryList clusters, users, contexts;
    const char *current_context, *current_context_origin;
    Strvec looked;           /* every path considered */
} Merged;

static void merged_release(Merged *m)
{
    for (size_t i = 0; i < m->nfiles; i++) { free(m->files[i].path); cJSON_Delete(m->files[i].root); }
    free(m->files);
    EntryList *lists[] = { &m->clusters, &m->users, &m->contexts };
    for (size_t l = 0; l < 3; l++) {
        for (size_t i = 0; i < lists[l]->n; i++) free(lists[l]->v[i].name);
        free(lists[l]->v);
    }
    strvec_clear(&m->looked);
}

static const Entry *entry_find(const EntryList *l, const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
    return NULL;
}

static const char *json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* section "clusters" of one file: [{name, cluster}] -> entries (first file wins) */
static int merge_section(Merged *m, const KFile *f, const char *section, const char *inner,
                         EntryList *into, Error *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(f->root, section);
    if (!list || cJSON_IsNull(list)) return 0;
    if (!cJSON_IsArray(list)) {
        error_set(err, "kubeconfig %s: %s: expected a list of {name, %s}", f->path, section, inner);
        return -1;
    }
    size_t first_of_file = into->n;
    int idx = 0;
    for (const cJSON *it = list->child; it; it = it->next, idx++) {
        if (!cJSON_IsObject(it)) {
            error_set(err, "kubeconfig %s: %s[%d]: expected a mapping with name and %s",
                      f->path, section, idx, inner);
            return -1;
        }
        const char *name = json_str(it, "name");
        if (!name || !*name) {
            error_set(err, "kubeconfig %s: %s[%d]: missing name", f->path, section, idx);
            return -1;
        }
        const cJSON *body = cJSON_GetObjectItemCaseSensitive(it, inner);
        if (body && !cJSON_IsNull(body) && !cJSON_IsObject(body)) {
            error_set(err, "kubeconfig %s: %s[%d] \"%s\": %s: expected a mapping",
                      f->path, section, idx, name, inner);
            return -1;
        }
        /* duplicates inside one file are an error in client-go's conversion */
        for (size_t j = first_of_file; j < into->n; j++)
            if (strcmp(into->v[j].name, name) == 0) {
                error_set(err, "kubeconfig %s: %s: duplicate name \"%s\" in list", f->path, section, name);
                return -1;
            }
        if (entry_find(into, name)) continue;          /* an earlier file defined it: it wins */
        ARRAY_GROW(into->v, into->n, into->cap);
        into->v[into->n++] = (Entry){ xstrdup(name), cJSON_IsObject(body) ? body : NULL, f->path };
    }
    (void)m;
    return 0;
}

static int load_file(Merged *m, const char *path, Error *err)
{
    char *emsg = NULL;
    size_t len = 0;
    char *text = util_read_file(path, &len, &emsg);
    if (!text) {
        error_set(err, "error loading config file \"%s\": %s", path, emsg);
        free(emsg);
        return -1;
    }
    cJSON *root = NULL;
    int rc = yaml_load_json_strings(text, len, &root, &emsg);
    free(text);
    if (rc) {
        error_set(err, "error loading config file \"%s\": %s", path, emsg);
        free(emsg);
        return -1;
    }
    if (root && cJSON_IsNull(root)) { cJSON_Delete(root); root = NULL; }
    if (root && !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        error_set(err, "error loading config file \"%s\": not a kubeconfig (the top level is not a mapping)", path);
        return -1;
    }
    ARRAY_GROW(m->files, m->nfiles, m->capfiles);
    KFile *f = &m->files[m->nfiles++];
    f->path = xstrdup(path);
    f->root = root;
    if (!root) return 0;
    if (merge_section(m, f, "clusters", "cluster", &m->clusters, err) ||
        merge_section(m, f, "users", "user", &m->users, err) ||
        merge_section(m, f, "contexts", "context", &m->contexts, err))
        return -1;
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(root, "current-context");
    if (cc && !cJSON_IsNull(cc) && !cJSON_IsString(cc)) {
        error_set(err, "kubeconfig %s: current-context: expected a string", path);
        return -1;
    }
    if (!m->current_context && cJSON_IsString(cc) && *cc->valuestring) {
        m->current_context = cc->valuestring;
        m->current_context_origin = f->path;
    }
    return 0;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        char cwd[4096];
        return xstrdup(getcwd(cwd, sizeof cwd) ? cwd : ".");
    }
    if (slash == path) return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* relative path -> absolute, against the directory of the file that defined it */
static char *resolve_path(const char *p, const char *origin)
{
    if (!p || !*p) return NULL;
    if (p[0] == '/') return xstrdup(p);
    if (p[0] == '~' && p[1] == '/' && getenv("HOME")) return xasprintf("%s%s", getenv("HOME"), p + 1);
    char *dir = dir_of(origin);
    char *abs;
    if (dir[0] != '/') {                 /* the kubeconfig path itself was relative */
        char cwd[4096];
        abs = xasprintf("%s/%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", dir, p);
    } else {
        abs = xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir, p);
    }
    free(dir);
    return abs;
}

/* ---------------------------------------------------------------------------------------
 * Field readers with error context
 */

typedef struct {
    const char *origin;      /* file */
    char what[512];          /* `user "ci" (context "prod")` */
    Error *err;
} Where;

static void where_error(Where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void where_error(Where *w, const char *fmt, ...)
{
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error_set(w->err, "kubeconfig %s: %s: %s", w->origin, w->what, msg);
}

/* string field: 0 ok (*out NULL when absent/null/empty), -1 wrong type */
static int get_string(Where *w, const cJSON *obj, const char *key, const char **out)
{
    *out = NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v)) return 0;
    if (!cJSON_IsString(v)) { where_error(w, "%s: expected a string", key); return -1; }
    if (*v->valuestring) *out = v->valuestring;
    return 0;
}

static int get_bool(Where *w, const cJSON *obj, const char *key, bool *out)
{
    *out = false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v)) return 0;
    if (cJSON_IsBool(v)) { *out = cJSON_IsTrue(v); return 0; }
    if (cJSON_IsString(v)) {
        /* YAML 1.1 booleans, as Go's yaml decoder reads them */
        static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y" };
        static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N" };
        for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
            if (strcmp(v->valuestring, yes[i]) == 0) { *out = true; return 0; }
        for (size_t i = 0; i < sizeof no / sizeof *no; i++)
            if (strcmp(v->valuestring, no[i]) == 0) { *out = false; return 0; }
    }
    where_error(w, "%s: expected true or false", key);
    return -1;
}

/* base64 "*-data" field -> decoded text */
static int get_data(Where *w, const cJSON *obj, const char *key, char **out)
{
    const char *s;
    *out = NULL;
    if (get_string(w, obj, key, &s)) return -1;
    if (!s) return 0;
    size_t n;
    *out = base64_decode(s, strlen(s), &n);
    if (!*out) { where_error(w, "%s: not valid base64", key); return -1; }
    if (strlen(*out) != n) {
        free(*out); *out = NULL;
        where_error(w, "%s: decodes to binary data, not PEM text", key);
        return -1;
    }
    return 0;
}

static int check_readable(Where *w, const char *path, const char *field, const char *owner)
{
    if (access(path, R_OK) == 0) return 0;
    where_error(w, "unable to read %s %s for %s due to %s", field, path, owner, strerror(errno));
    return -1;
}

/* ---------------------------------------------------------------------------------------
 * Cluster and user
 */

static int fill_cluster(RestConfig *rc, const Entry *e, const char *ctxname, Error *err)
{
    Where w = { e->origin, "", err };
    if (ctxname) snprintf(w.what, sizeof w.what, "cluster \"%s\" (context \"%s\")", e->name, ctxname);
    else snprintf(w.what, sizeof w.what, "cluster \"%s\"", e->name);
    const cJSON *c = e->body;
    const char *server, *ca, *tls_name, *proxy;
    char *ca_data = NULL;
    if (get_string(&w, c, "server", &server) || get_string(&w, c, "certificate-authority", &ca) ||
        get_string(&w, c, "tls-server-name", &tls_name) || get_string(&w, c, "proxy-url", &proxy) ||
        get_bool(&w, c, "insecure-skip-tls-verify", &rc->insecure) ||
        get_bool(&w, c, "disable-compression", &rc->disable_compression) ||
        get_data(&w, c, "certificate-authority-data", &ca_data))
        return -1;
    rc->ca_data = ca_data;
    if (!server) {
        where_error(&w, "no server found for cluster \"%s\" (field server)", e->name);
        return -1;
    }
    if (ca && ca_data)
        strvec_pushf(&rc->warnings, "kubeconfig %s: %s: certificate-authority-data and "
                     "certificate-authority are both specified; certificate-authority-data wins",
                     e->origin, w.what);
    else if (ca) {
        rc->ca_file = resolve_path(ca, e->origin);
        if (check_readable(&w, rc->ca_file, "certificate-authority", e->name)) return -1;
    }
    if (rc->insecure && (ca || ca_data)) {
        where_error(&w, "specifying a root certificates file with the insecure flag is not allowed "
                    "(insecure-skip-tls-verify with certificate-authority%s)", ca_data ? "-data" : "");
        return -1;
    }
    /* server: scheme://host[:port][/prefix]; no scheme -> https when TLS material is set */
    const char *sep = strstr(server, "://");
    if (sep) {
        size_t slen = (size_t)(sep - server);
        if (!((slen == 5 && strncasecmp(server, "https", 5) == 0) ||
              (slen == 4 && strncasecmp(server, "http", 4) == 0))) {
            where_error(&w, "server \"%s\": scheme must be https:// or http://", server);
            return -1;
        }
        rc->server = xstrdup(server);
    } else {
        bool tls = ca || ca_data || rc->insecure;
        rc->server = xasprintf("%s://%s", tls ? "https" : "http", server);
    }
    const char *host = strstr(rc->server, "://") + 3;
    if (!*host || *host == '/' || *host == ':' || strpbrk(rc->server, " \t\r\n\"<>\\^`{|}")) {
        where_error(&w, "server \"%s\" is not a valid URL", server);
        return -1;
    }
    size_t n = strlen(rc->server);
    while (n > 0 && rc->server[n - 1] == '/') rc->server[--n] = '\0';
    rc->tls_server_name = xstrdup(tls_name);
    if (proxy) {
        if (!str_starts_with(proxy, "http://") && !str_starts_with(proxy, "https://") &&
            !str_starts_with(proxy, "socks5://") && !str_starts_with(proxy, "socks5h://")) {
            char *shown = url_redact(proxy);
            where_error(&w, "proxy-url \"%s\": scheme must be http, https or socks5", shown);
            free(shown);
            return -1;
        }
        rc->proxy_url = xstrdup(proxy);
    }
    /* the exec extension is handed to exec plugins as spec.cluster.config */
    const cJSON *exts = cJSON_GetObjectItemCaseSensitive(c, "extensions");
    if (cJSON_IsArray(exts))
        for (const cJSON *x = exts->child; x; x = x->next)
            if (str_eq(json_str(x, "name"), EXEC_EXTENSION)) {
                const cJSON *ext = cJSON_GetObjectItemCaseSensitive(x, "extension");
                if (ext) rc->exec_cluster_config = cJSON_PrintUnformatted(ext);
            }
    rc->cluster_origin = xstrdup(e->origin);
    return 0;
}

static int fill_exec(RestConfig *rc, Where *w, const cJSON *x, const char *origin, const char *user)
{
    const char *command, *api, *hint, *mode;
    if (!cJSON_IsObject(x)) { where_error(w, "exec: expected a mapping"); return -1; }
    if (get_string(w, x, "command", &command) || get_string(w, x, "apiVersion", &api) ||
        get_string(w, x, "installHint", &hint) || get_string(w, x, "interactiveMode", &mode) ||
        get_bool(w, x, "provideClusterInfo", &rc->exec.provide_cluster_info))
        return -1;
    if (!command) {
        where_error(w, "command must be specified for %s to use exec authentication plugin (exec.command)", user);
        return -1;
    }
    if (!api) {
        where_error(w, "apiVersion must be specified for %s to use exec authentication plugin (exec.apiVersion)", user);
        return -1;
    }
    if (strcmp(api, EXEC_API_V1) != 0 && strcmp(api, EXEC_API_V1BETA1) != 0) {
        where_error(w, "exec plugin: invalid apiVersion \"%s\" (use %s)", api, EXEC_API_V1);
        return -1;
    }
    if (!mode) {
        if (strcmp(api, EXEC_API_V1) == 0) {
            where_error(w, "interactiveMode must be specified for %s to use exec authentication plugin "
                        "(exec.interactiveMode: Never, IfAvailable or Always)", user);
            return -1;
        }
        mode = "IfAvailable";
    } else if (strcmp(mode, "Never") != 0 && strcmp(mode, "IfAvailable") != 0 && strcmp(mode, "Always") != 0) {
        where_error(w, "invalid interactiveMode for %s: \"%s\" (use Never, IfAvailable or Always)", user, mode);
        return -1;
    }
    /* only a command with a path separator is a path; a bare name is looked up on PATH */
    rc->exec.command = strchr(command, '/') ? resolve_path(command, origin) : xstrdup(command);
    rc->exec.api_version = xstrdup(api);
    rc->exec.install_hint = xstrdup(hint);
    rc->exec.interactive_mode = xstrdup(mode);
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(x, "args");
    if (args && !cJSON_IsNull(args)) {
        if (!cJSON_IsArray(args)) { where_error(w, "exec.args: expected a list of strings"); return -1; }
        for (const cJSON *a = args->child; a; a = a->next) {
            if (!cJSON_IsString(a)) { where_error(w, "exec.args: expected a list of strings"); return -1; }
            strvec_push(&rc->exec.args, a->valuestring);
        }
    }
    const cJSON *env = cJSON_GetObjectItemCaseSensitive(x, "env");
    if (env && !cJSON_IsNull(env)) {
        if (!cJSON_IsArray(env)) { where_error(w, "exec.env: expected a list of {name, value}"); return -1; }
        for (const cJSON *e = env->child; e; e = e->next) {
            const char *name = json_str(e, "name");
            const cJSON *value = cJSON_GetObjectItemCaseSensitive(e, "value");
            if (!name || !*name) {
                where_error(w, "env variable name must be specified for %s to use exec authentication plugin (exec.env)", user);
                return -1;
            }
            if (strchr(name, '=')) { where_error(w, "exec.env: invalid variable name \"%s\"", name); return -1; }
            if (value && !cJSON_IsNull(value) && !cJSON_IsString(value)) {
                where_error(w, "exec.env \"%s\": value: expected a string", name);
                return -1;
            }
            strvec_pushf(&rc->exec.env, "%s=%s", name, cJSON_IsString(value) ? value->valuestring : "");
        }
    }
    rc->has_exec = true;
    return 0;
}

/* a value that becomes an HTTP header (token, basic auth, impersonation): CR/LF would add
 * header lines of its own; refused as Go's net/http refuses it ("invalid header field value").
 * The message names the field, never the value. */
static int check_header_value(Where *w, const char *field, const char *v)
{
    const char *why = v ? http_header_value_problem(v, strlen(v)) : NULL;
    if (!why) return 0;
    where_error(w, "%s %s and cannot be sent as an HTTP header", field, why);
    return -1;
}

static int fill_auth_provider(RestConfig *rc, Where *w, const cJSON *ap)
{
    const char *name;
    if (!cJSON_IsObject(ap)) { where_error(w, "auth-provider: expected a mapping"); return -1; }
    if (get_string(w, ap, "name", &name)) return -1;
    if (str_eq(name, "gcp")) {
        where_error(w, "auth-provider gcp: The gcp auth plugin has been removed. Please use the "
                    "\"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin instead "
                    "(gcloud components install gke-gcloud-auth-plugin; then gcloud container clusters get-credentials)");
        return -1;
    }
    if (str_eq(name, "azure")) {
        where_error(w, "auth-provider azure: The azure auth plugin has been removed. Please use the "
                    "https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead "
                    "(kubelogin convert-kubeconfig)");
        return -1;
    }
    if (!str_eq(name, "oidc")) {
        where_error(w, "auth-provider: no Auth Provider found for name \"%s\"", name ? name : "");
        return -1;
    }
    /* oidc: only the cached id-token can be used; refreshing needs the IdP (not done here) */
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(ap, "config");
    const char *idt = json_str(cfg, "id-token");
    if (!idt || !*idt) {
        where_error(w, "auth-provider oidc has no cached id-token (auth-provider.config.id-token); "
                    "log in with your OIDC helper (e.g. kubectl oidc-login) or switch to an exec plugin");
        return -1;
    }
    if (check_header_value(w, "auth-provider oidc id-token", idt)) return -1;
    rc->token = xstrdup(idt);
    return 0;
}

static int fill_user(RestConfig *rc, const Entry *e, const char *ctxname, Error *err)
{
    Where w = { e->origin, "", err };
    if (ctxname) snprintf(w.what, sizeof w.what, "user \"%s\" (context \"%s\")", e->name, ctxname);
    else snprintf(w.what, sizeof w.what, "user \"%s\"", e->name);
    const cJSON *u = e->body;
    const char *token, *token_file, *cert, *key, *username, *password, *as, *as_uid;
    char *cert_data = NULL, *key_data = NULL;
    if (get_string(&w, u, "token", &token) || get_string(&w, u, "tokenFile", &token_file) ||
        get_string(&w, u, "client-certificate", &cert) || get_string(&w, u, "client-key", &key) ||
        get_string(&w, u, "username", &username) || get_string(&w, u, "password", &password) ||
        get_string(&w, u, "as", &as) || get_string(&w, u, "as-uid", &as_uid))
        return -1;
    if (check_header_value(&w, "token", token) || check_header_value(&w, "username", username) ||
        check_header_value(&w, "password", password) || check_header_value(&w, "as", as) ||
        check_header_value(&w, "as-uid", as_uid))
        return -1;
    if (get_data(&w, u, "client-certificate-data", &cert_data)) return -1;
    rc->client_cert_data = cert_data;
    if (get_data(&w, u, "client-key-data", &key_data)) return -1;
    rc->client_key_data = key_data;
    rc->user_origin = xstrdup(e->origin);

    const cJSON *exec = cJSON_GetObjectItemCaseSensitive(u, "exec");
    const cJSON *ap = cJSON_GetObjectItemCaseSensitive(u, "auth-provider");
    bool has_exec = exec && !cJSON_IsNull(exec), has_ap = ap && !cJSON_IsNull(ap);
    if (has_exec && has_ap) {
        where_error(&w, "authProvider cannot be provided in combination with an exec plugin for %s", e->name);
        return -1;
    }
    if ((token || token_file) && (username || password)) {
        where_error(&w, "more than one authentication method found for %s; found [token basicAuth], "
                    "only one is allowed (username/password or bearer token may be set, but not both)", e->name);
        return -1;
    }
    /* client certificate: data wins over file; cert and key come together */
    if (cert && cert_data)
        strvec_pushf(&rc->warnings, "kubeconfig %s: %s: client-certificate-data and client-certificate "
                     "are both specified; client-certificate-data wins", e->origin, w.what);
    if (key && key_data)
        strvec_pushf(&rc->warnings, "kubeconfig %s: %s: client-key-data and client-key "
                     "are both specified; client-key-data wins", e->origin, w.what);
    bool has_cert = cert || cert_data, has_key = key || key_data;
    if (has_cert && !has_key) {
        where_error(&w, "client-key-data or client-key must be specified for %s to use the clientCert authentication method.", e->name);
        return -1;
    }
    if (has_key && !has_cert) {
        where_error(&w, "client-cert-data or client-cert must be specified for %s to use the clientCert authentication method.", e->name);
        return -1;
    }
    if (cert && !cert_data) {
        rc->client_cert_file = resolve_path(cert, e->origin);
        if (check_readable(&w, rc->client_cert_file, "client-cert", e->name)) return -1;
    }
    if (key && !key_data) {
        rc->client_key_file = resolve_path(key, e->origin);
        if (check_readable(&w, rc->client_key_file, "client-key", e->name)) return -1;
    }
    rc->token = xstrdup(token);
    rc->token_file = resolve_path(token_file, e->origin);
    rc->username = xstrdup(username);
    rc->password = xstrdup(password);
    rc->impersonate_user = xstrdup(as);
    rc->impersonate_uid = xstrdup(as_uid);
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(u, "as-groups");
    if (groups && !cJSON_IsNull(groups)) {
        if (!cJSON_IsArray(groups)) { where_error(&w, "as-groups: expected a list of strings"); return -1; }
        for (const cJSON *g = groups->child; g; g = g->next) {
            if (!cJSON_IsString(g)) { where_error(&w, "as-groups: expected a list of strings"); return -1; }
            if (check_header_value(&w, "an as-groups entry", g->valuestring)) return -1;
            strvec_push(&rc->impersonate_groups, g->valuestring);
        }
    }
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(u, "as-user-extra");
    if (extra && !cJSON_IsNull(extra)) {
        if (!cJSON_IsObject(extra)) { where_error(&w, "as-user-extra: expected a mapping of lists"); return -1; }
        for (const cJSON *k = extra->child; k; k = k->next) {
            const cJSON *vals = k;
            if (check_header_value(&w, "an as-user-extra key", k->string)) return -1;
            if (cJSON_IsString(vals) && check_header_value(&w, "an as-user-extra value", vals->valuestring)) return -1;
            if (cJSON_IsString(vals)) { strvec_pushf(&rc->impersonate_extra, "%s=%s", k->string, vals->valuestring); continue; }
            if (!cJSON_IsArray(vals)) { where_error(&w, "as-user-extra \"%s\": expected a list of strings", k->string); return -1; }
            for (const cJSON *v = vals->child; v; v = v->next) {
                if (!cJSON_IsString(v)) { where_error(&w, "as-user-extra \"%s\": expected a list of strings", k->string); return -1; }
                if (check_header_value(&w, "an as-user-extra value", v->valuestring)) return -1;
                strvec_pushf(&rc->impersonate_extra, "%s=%s", k->string, v->valuestring);
            }
        }
    }
    if (has_exec && fill_exec(rc, &w, exec, e->origin, e->name)) return -1;
    if (has_ap) {
        if (token) {
            /* an explicit token is what client-go would send; the provider is not consulted */
        } else if (fill_auth_provider(rc, &w, ap)) {
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * Load and select
 */

static void join_names(Strbuf *sb, const EntryList *l)
{
    for (size_t i = 0; i < l->n && i < 10; i++) strbuf_addf(sb, "%s%s", i ? ", " : "", l->v[i].name);
    if (l->n > 10) strbuf_addf(sb, ", ... (%zu in all)", l->n);
}

static char *files_label(const Merged *m)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < m->nfiles; i++) strbuf_addf(&sb, "%s%s", i ? ", " : "", m->files[i].path);
    return strbuf_detach(&sb);
}

static int select_and_fill(RestConfig *rc, const Merged *m, const KubeconfigOverrides *ov, Error *err)
{
    char *files = files_label(m);
    int rc_ = -1;
    const char *ctxname = ov->context ? ov->context : m->current_context;
    const Entry *ctx = NULL;
    if (ctxname) {
        ctx = entry_find(&m->contexts, ctxname);
        if (!ctx && ov->context) {
            Strbuf sb = STRBUF_INIT;
            join_names(&sb, &m->contexts);
            error_set(err, "kubeconfig %s: context \"%s\" does not exist (--context; contexts: %s)",
                      files, ctxname, m->contexts.n ? strbuf_str(&sb) : "none");
            strbuf_clear(&sb);
            goto out;
        }
        if (!ctx && !ov->cluster) {
            error_set(err, "kubeconfig %s: current-context \"%s\": context was not found for "
                      "specified context: %s; use --context NAME", m->current_context_origin, ctxname, ctxname);
            goto out;
        }
    } else if (!ov->cluster) {
        Strbuf sb = STRBUF_INIT;
        join_names(&sb, &m->contexts);
        if (m->contexts.n)
            error_set(err, "kubeconfig %s: no current-context is set; use --context NAME (contexts: %s)",
                      files, strbuf_str(&sb));
        else
            error_set(err, "kubeconfig %s: no contexts defined; add one (kubectl config set-context) "
                      "or use --cluster and --user", files);
        strbuf_clear(&sb);
        goto out;
    }
    const char *ctx_origin = ctx ? ctx->origin : files;
    const char *clname = ov->cluster, *uname = ov->user, *ns = NULL;
    if (ctx) {
        Where w = { ctx->origin, "", err };
        snprintf(w.what, sizeof w.what, "context \"%s\"", ctx->name);
        const char *c_cluster, *c_user;
        if (get_string(&w, ctx->body, "cluster", &c_cluster) || get_string(&w, ctx->body, "user", &c_user) ||
            get_string(&w, ctx->body, "namespace", &ns))
            goto out;
        if (!clname) clname = c_cluster;
        if (!uname) uname = c_user;
        if (ns && !ov->namespace_ && !kubeconfig_is_dns_label(ns)) {
            where_error(&w, "namespace \"%s\" for context \"%s\" does not conform to the kubernetes DNS_LABEL rules",
                        ns, ctx->name);
            goto out;
        }
    }
    /* cluster */
    if (!clname) {
        error_set(err, "kubeconfig %s: context \"%s\" has no cluster (field cluster); use --cluster NAME",
                  ctx_origin, ctxname ? ctxname : "");
        goto out;
    }
    const Entry *cl = entry_find(&m->clusters, clname);
    if (!cl) {
        if (ov->cluster) error_set(err, "kubeconfig %s: cluster \"%s\" does not exist (--cluster)", files, clname);
        else error_set(err, "kubeconfig %s: context \"%s\": cluster \"%s\" was not found for context \"%s\"",
                       ctx_origin, ctxname, clname, ctxname);
        goto out;
    }
    if (fill_cluster(rc, cl, ctx ? ctx->name : NULL, err)) goto out;
    /* user (none = anonymous) */
    if (uname) {
        const Entry *u = entry_find(&m->users, uname);
        if (!u) {
            if (ov->user) error_set(err, "kubeconfig %s: auth info \"%s\" does not exist (--user)", files, uname);
            else error_set(err, "kubeconfig %s: context \"%s\": user \"%s\" was not found for context \"%s\"",
                           ctx_origin, ctxname, uname, ctxname);
            goto out;
        }
        if (fill_user(rc, u, ctx ? ctx->name : NULL, err)) goto out;
        rc->user_name = xstrdup(uname);
    }
    rc->cluster_name = xstrdup(clname);
    rc->context_name = xstrdup(ctx ? ctx->name : "");
    rc->namespace_ = xstrdup(ov->namespace_ ? ov->namespace_ : ns ? ns : "default");
    rc->origin = xstrdup(ctx ? ctx->origin : files);
    rc_ = 0;
out:
    free(files);
    return rc_;
}

/* every file kubectl would read, merged into *m (which the caller releases): --kubeconfig only,
 * else each file of $KUBECONFIG (missing ones skipped), else ~/.kube/config; 0, or -1 with err */
static int load_merged(Merged *m, const KubeconfigOverrides *ov, Error *err)
{
    if (ov->kubeconfig) {
        strvec_push(&m->looked, ov->kubeconfig);
        struct stat st;
        if (stat(ov->kubeconfig, &st) != 0) {
            error_set(err, "kubeconfig %s (--kubeconfig): %s", ov->kubeconfig, strerror(errno));
            return -1;
        }
        if (load_file(m, ov->kubeconfig, err)) return -1;
    } else if (getenv("KUBECONFIG") && *getenv("KUBECONFIG")) {
        char *list = xstrdup(getenv("KUBECONFIG"));
        for (char *save = NULL, *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
            if (!*p || strvec_contains(&m->looked, p)) continue;
            strvec_push(&m->looked, p);
            if (!file_exists(p)) continue;            /* missing files are skipped */
            if (load_file(m, p, err)) { free(list); return -1; }
        }
        free(list);
    } else {
        const char *home = getenv("HOME");
        char *def = xasprintf("%s/.kube/config", home && *home ? home : "");
        strvec_push(&m->looked, def);
        if (file_exists(def) && load_file(m, def, err)) { free(def); return -1; }
        free(def);
    }
    return 0;
}

int kubeconfig_load(RestConfig *rc, const KubeconfigOverrides *ov_in, Error *err)
{
    static const KubeconfigOverrides none = { 0 };
    const KubeconfigOverrides *ov = ov_in ? ov_in : &none;
    memset(rc, 0, sizeof *rc);
    if (ov->namespace_ && !kubeconfig_is_dns_label(ov->namespace_)) {
        error_set(err, "invalid namespace \"%s\" (--namespace): a namespace is a DNS label "
                  "(lower-case letters, digits and '-', at most 63)", ov->namespace_);
        return -1;
    }
    Merged m = { 0 };
    int ret = -1;
    if (load_merged(&m, ov, err)) goto out;
    bool empty = m.clusters.n == 0 && m.users.n == 0 && m.contexts.n == 0 && !m.current_context;
    if (empty) {
        if (!ov->kubeconfig && !ov->context && !ov->cluster && !ov->user && kubeconfig_in_cluster_possible()) {
            ret = kubeconfig_load_in_cluster(rc, ov, err);
            goto out;
        }
        Strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < m.looked.n; i++) strbuf_addf(&sb, "%s%s", i ? ", " : "", m.looked.v[i]);
        if (m.nfiles == 0)
            error_set(err, "no kubeconfig found (looked in %s); set KUBECONFIG or use --kubeconfig",
                      strbuf_str(&sb));
        else
            error_set(err, "kubeconfig %s is empty (no contexts, clusters or users); set KUBECONFIG "
                      "or use --kubeconfig", strbuf_str(&sb));
        strbuf_clear(&sb);
        goto out;
    }
    ret = select_and_fill(rc, &m, ov, err);
out:
    merged_release(&m);
    if (ret) restconfig_clear(rc);
    return ret;
}

int kubeconfig_context_names(const char *kubeconfig, Strvec *out, Error *err)
{
    KubeconfigOverrides ov = { 0 };
    ov.kubeconfig = kubeconfig;
    Merged m = { 0 };
    int ret = load_merged(&m, &ov, err);
    for (size_t i = 0; !ret && i < m.contexts.n; i++) strvec_push(out, m.contexts.v[i].name);
    merged_release(&m);
    return ret;
}
