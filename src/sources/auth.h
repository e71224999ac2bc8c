/* auth.h — the credentials one HTTP request carries (not a public contract), beside the
 * transport (http.h), which knows nothing of them.
 *
 * Kubernetes API (auth_apply): impersonation headers always; over https only, as client-go
 * does, a bearer token (the token file re-read every minute, else the static token), else
 * exec plugin credentials (token and/or client certificate; refresh_exec re-runs the plugin),
 * else basic auth; and the client certificate (inline PEM or files).
 * Prometheus (auth_apply_simple): a bearer token or basic auth "user:password".
 * Headers are appended to *hl; the caller wipes them when done (they hold secrets).
 */
#ifndef KGPU_SOURCES_AUTH_H
#define KGPU_SOURCES_AUTH_H
#include <stdbool.h>
#include <curl/curl.h>
#include "sources/kubeconfig.h"

struct Error;

typedef struct {
    const RestConfig *rc;        /* borrowed */
    double exec_timeout;         /* for the exec plugin, seconds */
    int verbose;
    char *file_token;            /* the token file's content, re-read every minute */
    double file_token_at;
    bool used_client_cert;       /* the last auth_apply presented a client certificate */
} Auth;

void auth_init(Auth *a, const RestConfig *rc, double exec_timeout, int verbose);
void auth_release(Auth *a);
/* Returns 0, or -1 with err set (unreadable token file, failing exec plugin). */
int auth_apply(Auth *a, CURL *h, struct curl_slist **hl, bool refresh_exec, struct Error *err);
/* *secret gets the header it added (caller passes it to http_secret_free after the transfer) */
void auth_apply_simple(CURL *h, struct curl_slist **hl, const char *token, const char *basic,
                       char **secret);
/* forget what auth_apply_simple set on the handle */
void auth_clear_simple(CURL *h);
#endif
