/* restconfig.c — a RestConfig (kubeconfig.h) released, copied and asked whether it is TLS. */
#include "sources/kubeconfig.h"
#include "internal.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void exec_config_release(ExecConfig *e)
{
    free(e->command); free(e->api_version); free(e->install_hint); free(e->interactive_mode);
    strvec_clear(&e->args); strvec_clear(&e->env);
}

void restconfig_clear(RestConfig *rc)
{
    if (!rc) return;
    free(rc->server); free(rc->ca_file); free(rc->ca_data); free(rc->tls_server_name);
    free(rc->proxy_url); http_secret_free(rc->token); free(rc->token_file);
    free(rc->client_cert_file); free(rc->client_key_file); free(rc->client_cert_data);
    http_secret_free(rc->client_key_data); free(rc->username); http_secret_free(rc->password);
    exec_config_release(&rc->exec);
    free(rc->impersonate_user); strvec_clear(&rc->impersonate_groups);
    free(rc->context_name); free(rc->cluster_name); free(rc->user_name); free(rc->namespace_);
    free(rc->origin); free(rc->impersonate_uid); strvec_clear(&rc->impersonate_extra);
    free(rc->exec_cluster_config); free(rc->user_origin); free(rc->cluster_origin);
    strvec_clear(&rc->warnings);
    memset(rc, 0, sizeof *rc);
}

static void strvec_copy(Strvec *dst, const Strvec *src)
{
    *dst = (Strvec)STRVEC_INIT;
    for (size_t i = 0; i < src->n; i++) strvec_push(dst, src->v[i]);
}

void restconfig_copy(RestConfig *d, const RestConfig *s)
{
    *d = *s;              /* bools; every pointer is replaced below */
    d->server = xstrdup(s->server); d->ca_file = xstrdup(s->ca_file); d->ca_data = xstrdup(s->ca_data);
    d->tls_server_name = xstrdup(s->tls_server_name); d->proxy_url = xstrdup(s->proxy_url);
    d->token = xstrdup(s->token); d->token_file = xstrdup(s->token_file);
    d->client_cert_file = xstrdup(s->client_cert_file); d->client_key_file = xstrdup(s->client_key_file);
    d->client_cert_data = xstrdup(s->client_cert_data); d->client_key_data = xstrdup(s->client_key_data);
    d->username = xstrdup(s->username); d->password = xstrdup(s->password);
    d->exec.command = xstrdup(s->exec.command); strvec_copy(&d->exec.args, &s->exec.args);
    strvec_copy(&d->exec.env, &s->exec.env); d->exec.api_version = xstrdup(s->exec.api_version);
    d->exec.install_hint = xstrdup(s->exec.install_hint);
    d->exec.interactive_mode = xstrdup(s->exec.interactive_mode);
    d->impersonate_user = xstrdup(s->impersonate_user);
    strvec_copy(&d->impersonate_groups, &s->impersonate_groups);
    d->context_name = xstrdup(s->context_name); d->cluster_name = xstrdup(s->cluster_name);
    d->user_name = xstrdup(s->user_name); d->namespace_ = xstrdup(s->namespace_);
    d->origin = xstrdup(s->origin); d->impersonate_uid = xstrdup(s->impersonate_uid);
    strvec_copy(&d->impersonate_extra, &s->impersonate_extra);
    d->exec_cluster_config = xstrdup(s->exec_cluster_config);
    d->user_origin = xstrdup(s->user_origin); d->cluster_origin = xstrdup(s->cluster_origin);
    strvec_copy(&d->warnings, &s->warnings);
}

bool restconfig_is_tls(const RestConfig *rc)
{
    return rc && rc->server && strncasecmp(rc->server, "https://", 8) == 0;
}
