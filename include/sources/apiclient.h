/* apiclient.h — read-only Kubernetes API client on libcurl.
 *
 * Every request is a GET.  Lists are paginated (limit/continue) and handed to the caller one
 * item at a time through ApiItemFn while the page is alive, so memory does not grow with the
 * cluster; the next page is requested while the current one is parsed.  Items are read-only
 * nodes of an arena (jsonscan.h): use the cJSON getters, cJSON_Duplicate to keep one, never
 * modify or cJSON_Delete them.  410 Expired restarts the list; 429 and 5xx are retried with bounded backoff
 * honouring Retry-After.  Errors become one line a person can act on.  Credentials never
 * appear in messages or logs.
 */
#ifndef KGPU_APICLIENT_H
#define KGPU_APICLIENT_H
#include <stdatomic.h>
#include <stdbool.h>
#include "sources/kubeconfig.h"
#include "util/util.h"

struct cJSON;
struct Error;
typedef struct ApiClient ApiClient;

typedef struct {
    double request_timeout;      /* seconds, 0 = none */
    int verbose;                 /* -v level: 1 requests, 2 + timing, 3 + headers (redacted) */
    int page_size;               /* default 500 */
} ApiClientOptions;

ApiClient *apiclient_new(const RestConfig *rc, const ApiClientOptions *opt, struct Error *err);
void apiclient_free(ApiClient *c);
/* a client kept for later requests (top's, after its list): what its transfers keep between
 * requests (the inflaters, the last answer's buffer, the item arena: about 1 MB) is freed; the
 * connection stays */
void apiclient_idle(ApiClient *c);

/* called per list item; the item is borrowed and freed after the call; return non-zero to stop
 * (with err set) */
typedef int (*ApiItemFn)(void *ctx, const struct cJSON *item, struct Error *err);

/* GET path?query (query without '?', already encoded, may be NULL) as a paginated list
 * (limit=page_size&continue=...; the request timeout is sent as timeout=).  When the list's
 * kind is e.g. "PodList", items lack kind; the callback receives items as served.
 * Returns 0, or -1 with err set (err->code = HTTP status when the server answered). */
int apiclient_list(ApiClient *c, const char *path, const char *query,
                   ApiItemFn fn, void *ctx, struct Error *err);
/* As apiclient_list, with what to do when the continue token expires (410 Expired on a page
 * after the first): reset(ctx, err) is called so the caller can drop what it received, then
 * the list is read again from the first page (once; a second expiry is an error).  Without a
 * reset function (and in apiclient_list) an expired token is an error with err->code = 410,
 * so the caller can restart at its own level.  A reset returning non-zero aborts with its err. */
typedef int (*ApiListResetFn)(void *ctx, struct Error *err);
int apiclient_list_ex(ApiClient *c, const char *path, const char *query,
                      ApiItemFn fn, ApiListResetFn reset, void *ctx, struct Error *err);
/* As apiclient_list_ex, for callers that read only part of each item: the members named in
 * skip ("key" or "key.sub", e.g. "metadata.managedFields"; NULL-terminated, may be NULL) are
 * left out of the items handed to fn (passed over without being parsed). */
int apiclient_list_skip(ApiClient *c, const char *path, const char *query, ApiItemFn fn,
                        ApiListResetFn reset, const char *const *skip, void *ctx, struct Error *err);
/* Queries are passed already encoded; this percent-encodes one value (a selector, a continue
 * token) for them.  Caller frees. */
char *apiclient_query_escape(const char *s);
/* "/api/v1/RESOURCE", or "/api/v1/namespaces/NS/RESOURCE" with NS escaped; caller frees */
char *apiclient_core_path(const char *ns, const char *resource);
/* "PARAM=VALUE" with VALUE escaped (a label or field selector); caller frees */
char *apiclient_query_param(const char *param, const char *value);
/* the context name used in messages ("in-cluster" for the service account) */
const char *apiclient_context(const ApiClient *c);
/* GET a JSON object; *out owned by the caller (cJSON_Delete) */
int apiclient_get_json(ApiClient *c, const char *path, const char *query,
                       struct cJSON **out, struct Error *err);
/* GET raw bytes (proxied metrics); body appended to *out */
int apiclient_get_raw(ApiClient *c, const char *path, const char *query,
                      Strbuf *out, struct Error *err);
/* Limits for one request, for optional probes (a Prometheus or an exporter behind the API
 * server's proxy) whose 503 "no endpoints" / "error trying to reach service" will not heal
 * within seconds: max_retries bounds the retries of 5xx answers and cut connections (0 = none,
 * -1 = the default 5; 429 is still retried honouring Retry-After); timeout (seconds, 0 = the
 * client's --request-timeout) bounds the whole request, retries included, and only narrows
 * the client's own timeout. */
typedef struct {
    int max_retries;
    double timeout;
    bool long_running;     /* a watch: timeout replaces --request-timeout instead of narrowing it.
                              The watch ends at its own timeoutSeconds (or the stall limit), and
                              a view that follows a cluster for hours renews it; a watch cut at
                              every --request-timeout would never be up.  (kubectl get -w, which
                              ends when its one watch ends, lets --request-timeout cut it.) */
} ApiRequestOptions;
int apiclient_get_raw_ex(ApiClient *c, const char *path, const char *query,
                         const ApiRequestOptions *ro, Strbuf *out, struct Error *err);
/* As apiclient_get_raw_ex, but a successful (2xx) answer's body is handed to sink piece by
 * piece as it arrives (code = the HTTP status), never held whole; a non-zero return aborts
 * the transfer (an error).  Once a piece went to sink, a cut connection is not retried (the
 * consumer cannot take it back); answers that are not 2xx are collected for the error message
 * as usual. */
typedef int (*ApiSinkFn)(void *ctx, const char *data, size_t len, long code);
int apiclient_get_stream(ApiClient *c, const char *path, const char *query,
                         const ApiRequestOptions *ro, ApiSinkFn sink, void *ctx, struct Error *err);
/* metadata.resourceVersion of the last list read to its end by apiclient_list* (all its
 * pages share it), NULL when none was served; the point a watch of that list starts from.
 * Borrowed until the next list. */
const char *apiclient_list_rv(const ApiClient *c);
/* When *flag becomes non-zero, the request in progress stops (an error) within about a
 * second, and so does any later one: for a thread that must end while a long request (a
 * watch) is open.  NULL removes it.  The flag is borrowed. */
void apiclient_set_cancel(ApiClient *c, const atomic_int *flag);
/* An answer whose body sends no byte for this many seconds is cut (default 60): a watch
 * stream, quiet between the server's bookmarks, needs longer (watch.c).  0 = the default. */
void apiclient_set_stall(ApiClient *c, long seconds);
/* number of HTTP requests made (for -v and the bench) */
long apiclient_request_count(const ApiClient *c);
const char *apiclient_server(const ApiClient *c);
#endif
