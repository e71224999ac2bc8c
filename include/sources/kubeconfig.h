/* kubeconfig.h — load kubeconfig files as kubectl does (shared/reference/kubeconfig-and-api.md
 * §1-§6) and resolve the context, cluster, user and credentials to use; run exec credential
 * plugins (§5).
 *
 * RestConfig owns all its strings; restconfig_clear releases them.  Secrets (token, password,
 * key data) live only here and in the API client; they are never printed.
 *
 * Which files: --kubeconfig only (must exist), else every file of $KUBECONFIG (':'-separated,
 * missing ones skipped, merged: first file wins for each named entry, taken whole; first
 * non-empty current-context wins), else ~/.kube/config.  When none of them holds anything and
 * the in-cluster environment is present (KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT and
 * a token file), the pod's service account is used.  The service-account directory is
 * /var/run/secrets/kubernetes.io/serviceaccount, or $KUBECTL_GPU_SA_DIR when set (tests).
 */
#ifndef KGPU_KUBECONFIG_H
#define KGPU_KUBECONFIG_H
#include <stdbool.h>
#include <stdint.h>
#include "util/util.h"

typedef struct {
    char *command;               /* resolved path or bare name looked up on PATH */
    Strvec args;
    Strvec env;                  /* "NAME=value" */
    char *api_version;           /* client.authentication.k8s.io/v1 | v1beta1 */
    char *install_hint;
    bool provide_cluster_info;
    char *interactive_mode;      /* Never | IfAvailable | Always */
} ExecConfig;

typedef struct RestConfig {
    char *server;                /* https://host:port[/prefix], no trailing '/' */
    char *ca_file;               /* certificate-authority (absolute) */
    char *ca_data;               /* PEM (decoded from certificate-authority-data) */
    bool insecure;
    char *tls_server_name;
    char *proxy_url;
    bool disable_compression;
    char *token;                 /* static token, or the oidc id-token */
    char *token_file;            /* absolute; wins over token while readable */
    char *client_cert_file, *client_key_file;
    char *client_cert_data, *client_key_data;   /* PEM */
    char *username, *password;
    bool has_exec; ExecConfig exec;
    char *impersonate_user; Strvec impersonate_groups;
    /* where it came from, for messages */
    char *context_name, *cluster_name, *user_name;
    char *namespace_;            /* resolved: -n > context namespace > "default" */
    char *origin;                /* file(s) the config came from, or "in-cluster" */
    bool in_cluster;
    /* --- added after the first draft (compatible) --- */
    char *impersonate_uid;
    Strvec impersonate_extra;    /* "key=value", one per value */
    char *exec_cluster_config;   /* JSON text of the cluster's client.authentication.k8s.io/exec
                                  * extension (spec.cluster.config), or NULL */
    char *user_origin;           /* file that defined the user entry (for messages) */
    char *cluster_origin;        /* file that defined the cluster entry */
    Strvec warnings;             /* non-fatal findings ("... data wins"), for -v */
} RestConfig;

typedef struct {
    const char *kubeconfig;      /* --kubeconfig */
    const char *context, *cluster, *user, *namespace_;
} KubeconfigOverrides;

struct Error;
/* Returns 0, or -1 with err set to one line naming the file, context/cluster/user and field
 * at fault.  *rc is zeroed first; on failure nothing needs freeing (restconfig_clear is safe). */
int kubeconfig_load(RestConfig *rc, const KubeconfigOverrides *ov, struct Error *err);
void restconfig_clear(RestConfig *rc);
/* The names of the contexts of the merged kubeconfig (kubeconfig NULL: $KUBECONFIG's files,
 * else ~/.kube/config), in merge order: the first file's, then each later file's new names (a
 * name a file repeats is the first file's, as kubectl merges).  Appended to out; 0, or -1
 * with err set when a file cannot be read or parsed. */
int kubeconfig_context_names(const char *kubeconfig, Strvec *out, struct Error *err);
/* deep copy; dst is overwritten (not freed first) */
void restconfig_copy(RestConfig *dst, const RestConfig *src);
/* true when credentials may be sent (https server), as client-go decides */
bool restconfig_is_tls(const RestConfig *rc);

/* ---- exec credential plugins (§5) ---- */
typedef struct {
    char *token;                 /* status.token, or NULL */
    char *client_cert_pem;       /* status.clientCertificateData (PEM), or NULL */
    char *client_key_pem;
    int64_t expiry;              /* epoch seconds; 0 = until a 401 */
} ExecCredential;

/* Run the plugin of rc->exec and parse its ExecCredential.  The plugin's stderr goes to ours,
 * stdin is connected only in interactive mode, and it is killed after timeout_s seconds
 * (0 = 60 s).  Returns 0, or -1 with err set ("exec: executable X failed with exit code N"). */
int exec_credential_run(const RestConfig *rc, double timeout_s, ExecCredential *out,
                        struct Error *err);
/* Cached per process (keyed by command, args, env, apiVersion and server) until expiry.
 * refresh=true drops the cached credential first (after a 401).  *out is borrowed from the
 * cache and stays valid until the next call.  verbose >= 1 says on stderr when the plugin
 * runs (never what it returned). */
int exec_credential_get(const RestConfig *rc, double timeout_s, bool refresh, int verbose,
                        const ExecCredential **out, struct Error *err);
void exec_credential_clear(ExecCredential *cred);
/* The reader of what a plugin printed on stdout (out, len bytes: an ExecCredential of
 * rc->exec.api_version), as exec_credential_run uses it; for tests and the fuzz target.  cmd
 * names the plugin in messages, which never repeat the output.  Returns 0 with *cred filled
 * (exec_credential_clear it), or -1 with err set and *cred empty. */
int exec_credential_parse(const RestConfig *rc, const char *cmd, const char *out, size_t len,
                          ExecCredential *cred, struct Error *err);
/* drop every cached credential (tests, and at exit for leak checkers) */
void exec_credential_cache_clear(void);
#endif
