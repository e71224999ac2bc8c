/* http.c — the shared libcurl layer (http.h). */
#include "http.h"
#include "internal.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

double http_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void http_sleep(double s)
{
    if (s <= 0) return;
    struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) { }
}

void secret_free(char *s)
{
    if (!s) return;
    volatile char *p = s;
    while (*p) *p++ = 0;
    free(s);
}

void http_setup(CURL *h, const HttpSetup *s)
{
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    if (s->user_agent) curl_easy_setopt(h, CURLOPT_USERAGENT, s->user_agent);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    if (s->compress) curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    if (s->tls12) curl_easy_setopt(h, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    if (s->insecure) {
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
    } else {
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
        if (s->ca_data) {
            struct curl_blob b = { (void *)s->ca_data, strlen(s->ca_data), CURL_BLOB_COPY };
            curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &b);
        } else if (s->ca_file) {
            curl_easy_setopt(h, CURLOPT_CAINFO, s->ca_file);
        } else {
            tls_use_system_ca(h);
        }
    }
    if (s->timeout > 0) curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)ceil(s->timeout * 1000));
    if (s->connect_timeout > 0)
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)(s->connect_timeout * 1000));
}

double http_backoff(const HttpRetry *r, int attempt)
{
    if (r->fixed_wait > 0) return r->fixed_wait;
    return fmin(r->wait_cap, r->base_wait * (double)(1 << attempt));
}

bool http_retry_status(const HttpRetry *r, long code, int attempt, double retry_after,
                       double budget, double *wait)
{
    bool is5xx = r->gateway_only ? (code == 502 || code == 503 || code == 504) : code >= 500;
    if (code != 429 && !is5xx) return false;
    if (attempt >= (code == 429 ? r->max_429 : r->max_5xx)) return false;
    double w = r->honour_retry_after && retry_after >= 0 ? fmin(retry_after, r->wait_cap)
                                                         : http_backoff(r, attempt);
    if (!(w < budget)) return false;
    *wait = w;
    return true;
}

bool http_retry_after(const char *data, size_t len, double *seconds)
{
    if (len <= 12 || strncasecmp(data, "Retry-After:", 12) != 0) return false;
    char v[32];
    size_t vl = len - 12 < sizeof v - 1 ? len - 12 : sizeof v - 1;
    memcpy(v, data + 12, vl);
    v[vl] = '\0';
    char *end;
    double s = strtod(v, &end);
    while (*end == ' ' || *end == '\r' || *end == '\n') end++;
    /* seconds only; an HTTP date is treated as "retry soon" */
    *seconds = (!*end && s >= 0 && s == s) ? s : 1;
    return true;
}

bool http_is_secret_header(const char *name, size_t len)
{
    static const char *const secret[] = { "authorization", "proxy-authorization", "cookie", "set-cookie" };
    for (size_t i = 0; i < sizeof secret / sizeof *secret; i++)
        if (strlen(secret[i]) == len && strncasecmp(name, secret[i], len) == 0) return true;
    return false;
}

void http_log_header(const char *dir, const char *line, size_t len)
{
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    if (!len) return;
    const char *colon = memchr(line, ':', len);
    if (colon && http_is_secret_header(line, (size_t)(colon - line)))
        fprintf(stderr, "%s %.*s: <redacted>\n", dir, (int)(colon - line), line);
    else
        fprintf(stderr, "%s %.*s\n", dir, (int)len, line);
}
