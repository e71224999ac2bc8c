/* auth.c — credentials of a request (auth.h). */
#include "auth.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include "http.h"
#include "internal.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN_FILE_REREAD 60.0       /* seconds */

void auth_init(Auth *a, const RestConfig *rc, double exec_timeout, int verbose)
{
    memset(a, 0, sizeof *a);
    a->rc = rc;
    a->exec_timeout = exec_timeout;
    a->verbose = verbose;
}

void auth_release(Auth *a)
{
    http_secret_free(a->file_token);
    a->file_token = NULL;
}

/* the bearer token to send: the token file's content (re-read every minute), else the
 * static token; an unreadable token file without a fallback is an error */
static int bearer_token(Auth *a, const char **out, Error *err)
{
    *out = NULL;
    if (a->rc->token_file) {
        double t = http_now();
        if (!a->file_token || t - a->file_token_at >= TOKEN_FILE_REREAD) {
            char *emsg = NULL;
            size_t len = 0;
            char *s = util_read_file(a->rc->token_file, &len, &emsg);
            const char *why = NULL;
            if (s) {
                /* client-go trims the file's content (transport/token_source.go,
                 * fileTokenSource.Token: strings.TrimSpace); a line break or NUL left inside
                 * cannot go out as a header */
                size_t b = 0, n = len;
                while (n > b && isspace((unsigned char)s[n - 1])) n--;
                while (b < n && isspace((unsigned char)s[b])) b++;
                why = http_header_value_problem(s + b, n - b);
                if (!why) {
                    memmove(s, s + b, n - b);
                    s[n - b] = '\0';
                    http_secret_free(a->file_token);
                    a->file_token = s;
                    a->file_token_at = t;
                } else {
                    memset(s, 0, len);
                    free(s);
                }
            }
            if (why) {
                error_set(err, "%s%s: tokenFile %s %s and cannot be sent as an HTTP header",
                          a->rc->in_cluster ? "in-cluster" : "kubeconfig ",
                          a->rc->in_cluster ? "" : (a->rc->user_origin ? a->rc->user_origin : ""),
                          a->rc->token_file, why);
                free(emsg);
                return -1;
            }
            if (!s && !a->rc->token && !a->file_token) {
                error_set(err, "%s%s: cannot read tokenFile %s: %s",
                          a->rc->in_cluster ? "in-cluster" : "kubeconfig ",
                          a->rc->in_cluster ? "" : (a->rc->user_origin ? a->rc->user_origin : ""),
                          a->rc->token_file, emsg);
                free(emsg);
                return -1;
            }
            free(emsg);
        }
        if (a->file_token && *a->file_token) { *out = a->file_token; return 0; }
    }
    *out = a->rc->token;
    return 0;
}

/* the credential-related options of one attempt; headers appended to *hl */
static void add_impersonation(const RestConfig *rc, struct curl_slist **hl)
{
    if (rc->impersonate_user) {
        char *v = xasprintf("Impersonate-User: %s", rc->impersonate_user);
        *hl = curl_slist_append(*hl, v); free(v);
    }
    if (rc->impersonate_uid) {
        char *v = xasprintf("Impersonate-Uid: %s", rc->impersonate_uid);
        *hl = curl_slist_append(*hl, v); free(v);
    }
    for (size_t i = 0; i < rc->impersonate_groups.n; i++) {
        char *v = xasprintf("Impersonate-Group: %s", rc->impersonate_groups.v[i]);
        *hl = curl_slist_append(*hl, v); free(v);
    }
    for (size_t i = 0; i < rc->impersonate_extra.n; i++) {
        const char *kv = rc->impersonate_extra.v[i];
        size_t kl = strcspn(kv, "=");
        char *k = xstrndup(kv, kl), *ek = apiclient_query_escape(k);
        char *v = xasprintf("Impersonate-Extra-%s: %s", ek, kv[kl] ? kv + kl + 1 : "");
        *hl = curl_slist_append(*hl, v);
        free(v); free(k); free(ek);
    }
}

/* Credentials and libcurl: every secret header is built here into the caller's slist, whose
 * copies http_headers_free wipes before freeing.  Basic auth too ("Authorization: Basic
 * base64(user:password)") rather than CURLOPT_USERNAME/PASSWORD/USERPWD, which libcurl copies
 * into its handle and into a header of its own and frees without wiping.  What cannot be
 * cleared from here: libcurl's request buffer, which holds the header lines while they are
 * sent (freed, not wiped, by libcurl), the TLS library's record buffers, and libcurl's copy
 * of a client key given as a blob (CURL_BLOB_COPY, freed without wiping).  CURL_BLOB_NOCOPY
 * would spare that copy, but the parallel page requests would then point at a key the exec
 * credential cache frees when a 401 refreshes it. */
static void add_basic(struct curl_slist **hl, const char *user_password)
{
    char *b64 = base64_encode(user_password, strlen(user_password));
    char *hdr = xasprintf("Authorization: Basic %s", b64);
    *hl = curl_slist_append(*hl, hdr);
    http_secret_free(hdr);
    http_secret_free(b64);
}

int auth_apply(Auth *a, CURL *h, struct curl_slist **hl, bool refresh_exec, Error *err)
{
    a->used_client_cert = false;
    curl_easy_setopt(h, CURLOPT_USERNAME, NULL);
    curl_easy_setopt(h, CURLOPT_PASSWORD, NULL);
    curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
    add_impersonation(a->rc, hl);
    if (!restconfig_is_tls(a->rc)) return 0;   /* client-go sends no credentials over http */
    const RestConfig *rc = a->rc;
    const char *token = NULL;
    if (bearer_token(a, &token, err)) return -1;
    const char *cert_pem = rc->client_cert_data, *key_pem = rc->client_key_data;
    if (!token && rc->has_exec && !(rc->username && rc->password)) {
        const ExecCredential *cred;
        if (exec_credential_get(rc, a->exec_timeout, refresh_exec, a->verbose, &cred, err))
            return -1;
        token = cred->token;
        if (cred->client_cert_pem) { cert_pem = cred->client_cert_pem; key_pem = cred->client_key_pem; }
    }
    if (token) {
        char *hdr = xasprintf("Authorization: Bearer %s", token);
        *hl = curl_slist_append(*hl, hdr);
        http_secret_free(hdr);
    } else if (rc->username || rc->password) {
        char *pair = xasprintf("%s:%s", rc->username ? rc->username : "", rc->password ? rc->password : "");
        add_basic(hl, pair);
        http_secret_free(pair);
    }
    if (cert_pem && key_pem) {
        struct curl_blob cb = { (void *)cert_pem, strlen(cert_pem), CURL_BLOB_COPY };
        struct curl_blob kb = { (void *)key_pem, strlen(key_pem), CURL_BLOB_COPY };
        curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &cb);
        curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &kb);
        curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
        curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
        a->used_client_cert = true;
    } else if (rc->client_cert_file && rc->client_key_file) {
        curl_easy_setopt(h, CURLOPT_SSLCERT, rc->client_cert_file);
        curl_easy_setopt(h, CURLOPT_SSLKEY, rc->client_key_file);
        curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
        curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
        a->used_client_cert = true;
    }
    return 0;
}


void auth_apply_simple(CURL *h, struct curl_slist **hl, const char *token, const char *basic,
                       char **secret)
{
    *secret = NULL;
    if (token) {
        *secret = xasprintf("Authorization: Bearer %s", token);
        *hl = curl_slist_append(*hl, *secret);
    }
    if (basic) add_basic(hl, basic);
}

void auth_clear_simple(CURL *h)
{
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(h, CURLOPT_USERPWD, NULL);
}
