/* http.h — the one libcurl layer of the sources (not a public contract): what every HTTP
 * client here (the Kubernetes API client, Prometheus) does the same way.
 *
 *   - handle setup: no signals, user agent, http/https only, TLS verified against the given
 *     CA (inline PEM or file) or the system's (tls_use_system_ca), timeouts;
 *   - the retry rule: which answers are retried, how long to wait (Retry-After honoured,
 *     capped; else backoff), never past the caller's budget — each client passes its limits;
 *   - tracing for -v: headers logged with credentials redacted;
 *   - secrets wiped before they are freed (secret_free, internal.h).
 * Authentication (what credentials a request carries) lives beside it, in auth.h.
 */
#ifndef KGPU_SOURCES_HTTP_H
#define KGPU_SOURCES_HTTP_H
#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>

/* monotonic clock in seconds; sleep that resumes after signals */
double http_now(void);
void http_sleep(double seconds);

/* TLS and the common options of one easy handle (after curl_easy_reset) */
typedef struct {
    const char *user_agent;
    bool compress;               /* send Accept-Encoding (gzip, ...) */
    bool insecure;               /* do not verify the server (kubeconfig insecure-skip-tls-verify) */
    bool tls12;                  /* refuse TLS below 1.2 */
    const char *ca_data;         /* PEM of the CA, else ... */
    const char *ca_file;         /* ... a CA file, else the system's CAs */
    double timeout;              /* whole transfer, seconds; <= 0 = none */
    double connect_timeout;      /* seconds; <= 0 = libcurl's default */
} HttpSetup;
void http_setup(CURL *h, const HttpSetup *s);

/* When to retry an answer, and after how long.  A 429 is retried up to max_429 times, a
 * 5xx (only 502/503/504 when gateway_only) up to max_5xx times.  The wait is Retry-After
 * (when honoured and sent, capped at wait_cap), else fixed_wait when set, else
 * base_wait * 2^attempt capped at wait_cap; it must fit in budget (seconds left).
 * Returns true with *wait set when the answer (HTTP status code, attempt = retries so far,
 * retry_after = seconds from the header or -1) is to be retried. */
typedef struct {
    int max_429, max_5xx;
    bool gateway_only;
    bool honour_retry_after;
    double fixed_wait, base_wait, wait_cap;
} HttpRetry;
bool http_retry_status(const HttpRetry *r, long code, int attempt, double retry_after,
                       double budget, double *wait);
/* the backoff wait (no Retry-After) of attempt n under r */
double http_backoff(const HttpRetry *r, int attempt);

/* a "Retry-After:" header line (as libcurl hands it, with CRLF): true with *seconds set
 * (an HTTP date counts as 1 s, "retry soon"); false for any other header */
bool http_retry_after(const char *line, size_t len, double *seconds);

/* -v tracing: one header line to stderr prefixed by dir (">" sent, "<" received), with the
 * value of Authorization, Proxy-Authorization, Cookie and Set-Cookie replaced by <redacted> */
void http_log_header(const char *dir, const char *line, size_t len);
bool http_is_secret_header(const char *name, size_t len);
#endif
