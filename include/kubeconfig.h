/* kubeconfig.h — load kubeconfig files as kubectl does (shared/reference/kubeconfig-and-api.md
 * §1-§6) and resolve the context, cluster, user and credentials to use.
 *
 * RestConfig owns all its strings; restconfig_free releases them.  Secrets (token, password,
 * key data) live only here and in the API client; they are never printed.
 */
#ifndef KGPU_KUBECONFIG_H
#define KGPU_KUBECONFIG_H
#include <stdbool.h>
#include <stdint.h>
#include "util.h"

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
    char *server;                /* https://host:port[/prefix] */
    char *ca_file;               /* certificate-authority (absolute) */
    char *ca_data;               /* PEM (decoded from certificate-authority-data) */
    bool insecure;
    char *tls_server_name;
    char *proxy_url;
    bool disable_compression;
    char *token;
    char *token_file;
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
} RestConfig;

typedef struct {
    const char *kubeconfig;      /* --kubeconfig */
    const char *context, *cluster, *user, *namespace_;
} KubeconfigOverrides;

struct Error;
int kubeconfig_load(RestConfig *rc, const KubeconfigOverrides *ov, struct Error *err);
void restconfig_free(RestConfig *rc);
#endif
