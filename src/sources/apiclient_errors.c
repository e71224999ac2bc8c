/* apiclient_errors.c — the API client's failures as one line a person can act on: which
 * server, which kubeconfig field or flag to fix (apiclient_int.h), and the server URL split
 * into its parts for those messages and for the client's setup. */
#include "apiclient_int.h"
#include "internal.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void apiclient_url_parts_release(UrlParts *u) { free(u->scheme); free(u->host); free(u->port); free(u->rest); }

int apiclient_url_split(const char *url, UrlParts *u)
{
    memset(u, 0, sizeof *u);
    const char *sep = strstr(url, "://");
    if (!sep) return -1;
    u->scheme = xstrndup(url, (size_t)(sep - url));
    for (char *p = u->scheme; *p; p++) *p = (char)tolower((unsigned char)*p);
    const char *auth = sep + 3;
    size_t alen = strcspn(auth, "/?#");
    const char *end = auth + alen;
    for (const char *p = auth; p < end; p++) if (*p == '@') auth = p + 1;
    const char *portp = NULL;
    if (*auth == '[') {
        const char *rb = memchr(auth, ']', (size_t)(end - auth));
        if (!rb) return -1;
        u->host = xstrndup(auth + 1, (size_t)(rb - auth - 1));
        u->v6 = true;
        if (rb + 1 < end && rb[1] == ':') portp = rb + 2;
    } else {
        const char *colon = memchr(auth, ':', (size_t)(end - auth));
        u->host = xstrndup(auth, (size_t)((colon ? colon : end) - auth));
        if (colon) portp = colon + 1;
    }
    if (!*u->host) return -1;
    u->port = portp && portp < end ? xstrndup(portp, (size_t)(end - portp))
                                   : xstrdup(strcmp(u->scheme, "https") == 0 ? "443" : "80");
    u->rest = xstrdup(end);
    return 0;
}

/* the context's name as apiclient_context gives it (kept here: this file is below apiclient.c) */
static const char *context_of(const ApiClient *c)
{
    return c->rc.context_name && *c->rc.context_name ? c->rc.context_name : "(none)";
}

static const char *ca_description(const ApiClient *c, char *buf, size_t n)
{
    if (c->rc.ca_data) snprintf(buf, n, "certificate-authority-data of cluster \"%s\"", c->rc.cluster_name ? c->rc.cluster_name : "");
    else if (c->rc.ca_file) snprintf(buf, n, "CA file %s", c->rc.ca_file);
    else snprintf(buf, n, "the system CA bundle (the kubeconfig sets no certificate-authority)");
    return buf;
}

static const char *host_of(const ApiClient *c, char *buf, size_t n)
{
    UrlParts u;
    if (apiclient_url_split(c->rc.server, &u) == 0) snprintf(buf, n, "%s%s%s", u.v6 ? "[" : "", u.host, u.v6 ? "]" : "");
    else snprintf(buf, n, "%s", c->shown_server);
    apiclient_url_parts_release(&u);
    return buf;
}

bool apiclient_is_tls_alert(const ApiClient *c)
{
    return strstr(c->cur->errbuf, "alert") != NULL && strstr(c->cur->errbuf, "SSL") != NULL;
}

void apiclient_transport_error(const ApiClient *c, CURLcode cc, const char *path, const char *url, Error *err)
{
    char ca[512], host[256];
    const char *detail = c->cur->errbuf[0] ? c->cur->errbuf : curl_easy_strerror(cc);
    if ((cc == CURLE_RECV_ERROR || cc == CURLE_SEND_ERROR || cc == CURLE_SSL_CONNECT_ERROR) &&
        (apiclient_is_tls_alert(c) || (c->no_answer && c->used_client_cert))) {
        /* TLS 1.3 rejects a client certificate after the handshake: the first read or write
         * fails with the alert, or just with a closed connection */
        error_set(err, "the API server %s refused the TLS connection (%s); check the client certificate "
                  "of user \"%s\" (client-certificate / client-key in the kubeconfig)", c->shown_server, detail,
                  c->rc.user_name ? c->rc.user_name : "");
        return;
    }
    switch (cc) {
    case CURLE_OPERATION_TIMEDOUT: {
        /* named by what timed out, with the limit that applied: the TCP connection or the TLS
         * handshake (libcurl's connect timeout covers both), else the answer */
        curl_off_t tcp = 0, tls = 0;
        long local_port = 0;     /* set once the socket connected (libcurl 7.88 leaves the
                                  * connect time 0 until the TLS handshake is done too) */
        curl_easy_getinfo(c->cur->h, CURLINFO_CONNECT_TIME_T, &tcp);
        curl_easy_getinfo(c->cur->h, CURLINFO_APPCONNECT_TIME_T, &tls);
        curl_easy_getinfo(c->cur->h, CURLINFO_LOCAL_PORT, &local_port);
        if (local_port > 0 && tcp == 0) tcp = 1;
        long fresh = 0;          /* 0: a kept-alive connection was reused, nothing to set up */
        curl_easy_getinfo(c->cur->h, CURLINFO_NUM_CONNECTS, &fresh);
        bool https = restconfig_is_tls(&c->rc) && !c->rc.proxy_url;
        if (fresh > 0 && (tcp == 0 || (https && tls == 0))) {
            double limit = c->timeout > 0 && c->timeout < CONNECT_TIMEOUT ? c->timeout : CONNECT_TIMEOUT;
            bool flag = limit == c->opt.request_timeout && c->opt.request_timeout > 0;
            error_set(err, "%s the API server %s did not complete within %gs (%s)",
                      tcp == 0 ? "the TCP connection to" : "the TLS handshake with", c->shown_server, limit,
                      flag ? "--request-timeout" : "the connect timeout");
            break;
        }
        if (c->timeout > 0 && c->timeout != c->opt.request_timeout)
            error_set(err, "GET %s: no complete answer from the API server %s within %gs", path,
                      c->shown_server, c->timeout);
        else if (c->opt.request_timeout > 0)
            error_set(err, "GET %s: no complete answer from the API server %s within %gs (--request-timeout)",
                      path, c->shown_server, c->opt.request_timeout);
        else
            error_set(err, "GET %s: the API server %s stopped sending data for %lds; try again or set "
                      "--request-timeout", path, c->shown_server, c->stall ? c->stall : STALL_SECONDS);
        break;
    }
    case CURLE_PEER_FAILED_VERIFICATION:
        error_set(err, "TLS verification of the API server %s%s%s%s failed (%s) using %s; fix "
                  "certificate-authority%s of cluster \"%s\" in the kubeconfig",
                  host_of(c, host, sizeof host), c->host_header ? " (verified as " : "",
                  c->host_header ? c->rc.tls_server_name : "", c->host_header ? ", the tls-server-name)" : "",
                  detail, ca_description(c, ca, sizeof ca), c->host_header ? " or tls-server-name" : "",
                  c->rc.cluster_name ? c->rc.cluster_name : "");
        break;
    case CURLE_SSL_CACERT_BADFILE:
        error_set(err, "cannot use %s to verify the API server %s: %s", ca_description(c, ca, sizeof ca),
                  host_of(c, host, sizeof host), detail);
        break;
    case CURLE_SSL_CERTPROBLEM:
        error_set(err, "the client certificate or key of user \"%s\" cannot be used: %s",
                  c->rc.user_name ? c->rc.user_name : "", detail);
        break;
    case CURLE_SSL_CONNECT_ERROR:
        error_set(err, "TLS handshake with the API server %s failed: %s", c->shown_server, detail);
        break;
    case CURLE_WRITE_ERROR:
        if (c->cur->too_big) {
            error_set(err, "the answer to GET %s is larger than %zu MiB; narrow it with a selector",
                      path, BODY_MAX >> 20);
            break;
        }
        /* fall through */
    case CURLE_PARTIAL_FILE: case CURLE_RECV_ERROR: case CURLE_GOT_NOTHING: case CURLE_SEND_ERROR:
    case CURLE_BAD_CONTENT_ENCODING:
        error_set(err, "the connection to the API server %s broke while reading GET %s: %s",
                  c->shown_server, path, detail);
        break;
    default:
        error_set(err, "cannot reach the API server %s: %s", c->shown_server, detail);
        break;
    }
    (void)url;
}

/* a server message made safe for one line: no control characters, bounded */
static char *clean_message(const char *s, size_t max)
{
    Strbuf sb = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && sb.len < max; p++)
        strbuf_addch(&sb, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
    if (s && strlen(s) > max) strbuf_adds(&sb, "...");
    size_t n = sb.len;
    while (n && sb.buf[n - 1] == ' ') sb.buf[--n] = '\0';
    return strbuf_detach(&sb);
}

/* message and reason of a Status body, if it is one; else the body's text when it is short */
static void status_parts(const ApiClient *c, char **message, char **reason)
{
    *message = *reason = NULL;
    cJSON *j = c->cur->body.len ? cJSON_ParseWithLength(c->cur->body.buf, c->cur->body.len) : NULL;
    if (cJSON_IsObject(j)) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "message");
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "reason");
        if (!m && !r) {   /* a proxied Prometheus: {"status":"error","errorType":..,"error":..} */
            m = cJSON_GetObjectItemCaseSensitive(j, "error");
            r = cJSON_GetObjectItemCaseSensitive(j, "errorType");
        }
        if (cJSON_IsString(m) && *m->valuestring) *message = clean_message(m->valuestring, 400);
        if (cJSON_IsString(r) && *r->valuestring) *reason = clean_message(r->valuestring, 60);
    } else if (!j && c->cur->body.len && c->cur->body.len < 400 && !memchr(c->cur->body.buf, '<', c->cur->body.len)) {
        *message = clean_message(c->cur->body.buf, 400);     /* plain text, e.g. APF's 429 */
        if (!**message) { free(*message); *message = NULL; }
    }
    cJSON_Delete(j);
}

/* "pods" of /api/v1/namespaces/x/pods, "daemonsets" of /apis/apps/v1/daemonsets?... */
static char *resource_of(const char *path)
{
    size_t n = strcspn(path, "?");
    while (n && path[n - 1] == '/') n--;
    size_t s = n;
    while (s && path[s - 1] != '/') s--;
    return xstrndup(path + s, n - s);
}

void apiclient_status_error(const ApiClient *c, const char *path, long code, int page, Error *err)
{
    char *msg, *reason;
    status_parts(c, &msg, &reason);
    char *res = resource_of(path);
    switch (code) {
    case 401: {
        const char *why = "";
        if (!restconfig_is_tls(&c->rc))
            why = " (no credentials are sent to an http:// server)";
        else if (!c->rc.token && !c->rc.token_file && !c->rc.has_exec && !c->rc.username &&
                 !c->rc.client_cert_file && !c->rc.client_cert_data)
            why = " (the kubeconfig gives this context no credentials)";
        error_set(err, "the server rejected the credentials of context \"%s\" (Unauthorized)%s; "
                  "check the token/certificate, or log in again", context_of(c), why);
        break;
    }
    case 403:
        if (msg) error_set(err, "forbidden: %s", msg);
        else error_set(err, "forbidden: cannot list %s (GET %s)", res, path);
        break;
    case 404:
        error_set(err, "not found: GET %s: %s", path, msg ? msg : "the server could not find the requested resource");
        break;
    case 410:
        error_set(err, "GET %s (page %d): 410 %s: %s", path, page, reason ? reason : "Gone",
                  msg ? msg : "the list expired");
        break;
    default:
        if ((code == 429 || code >= 500) && c->retries_done == 0)
            error_set(err, "the API server %s answered GET %s with %ld %s%s%s%s", c->shown_server, path, code,
                      reason ? reason : http_reason(code), msg ? ": " : "", msg ? msg : "",
                      c->max_retries > 0 ? "; try again later" : "");
        else if (code == 429 || code >= 500)
            error_set(err, "the API server %s kept answering GET %s with %ld %s%s%s after %d %s; "
                      "try again later", c->shown_server, path, code, reason ? reason : http_reason(code),
                      msg ? ": " : "", msg ? msg : "", c->retries_done, c->retries_done == 1 ? "retry" : "retries");
        else
            error_set(err, "the API server refused GET %s: %ld %s%s%s", path, code,
                      reason ? reason : http_reason(code), msg ? ": " : "", msg ? msg : "");
        break;
    }
    err->code = (int)code;
    free(msg); free(reason); free(res);
}
