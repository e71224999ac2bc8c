/* log.h — the one -v log.  Every diagnostic line that -v asks for goes through log_verbose,
 * to stderr, one line each, cleaned of control characters here, at its sink (a server's
 * header or a name must not drive the terminal).  Credentials never reach it: callers pass
 * redacted text (http.h redacts headers).
 *
 * Levels as kubectl's (its -v=6/7/8/9 HTTP tracing): 1 decisions (retries, what metrics
 * source is tried, the load's totals, kubeconfig warnings), 6 one line per HTTP request
 * (method, URL, status, bytes, time), 7 the request and response headers (credentials
 * redacted), 8 the first KiB of each response body, 9 the first 10 KiB.  The level is the
 * run's: main sets it from -v at the start of each run (log_set_verbosity); a component
 * configured with its own level (ApiClientOptions.verbose, PromConfig.verbose) raises it
 * (log_raise_verbosity).
 */
#ifndef KGPU_UTIL_LOG_H
#define KGPU_UTIL_LOG_H
#include <stdbool.h>

enum { LOG_DECISIONS = 1, LOG_REQUESTS = 6, LOG_HEADERS = 7, LOG_BODIES = 8, LOG_BODIES_MORE = 9 };

void log_set_verbosity(int level);
void log_raise_verbosity(int level);
int log_verbosity(void);
static inline bool log_enabled(int level) { return log_verbosity() >= level; }
/* one line (a trailing newline in fmt is optional) when the run's level is at least level */
void log_verbose(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
