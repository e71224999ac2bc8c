/* libFuzzer target: what the API client does with whatever an API server answers
 * (src/sources/apiclient.c: status handling, Status bodies, list pages, items, continue
 * tokens; items into cluster_ingest).  A tiny HTTP server thread in this process answers every
 * request with the fuzz input:
 *   byte 0, low nibble: status (0-7: 200, 8: 401, 9: 403, 10: 404, 11: 410, 12: 429,
 *           13: 500, 14: 503, 15: 400); bit 0x10 of the high nibble... see below
 *   byte 0, high nibble: kind handed to cluster_ingest (0-6 a kind, 7 = the item's "kind");
 *           the high bit (0x80) adds "Content-Encoding: gzip" (a body that is not gzip)
 *   the rest: the body (Retry-After: 0 on every answer, so retries cost nothing)
 * Any answer: no crash, no leak, no hang; an error is one line. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include "sources/apiclient.h"
#include "model/cluster.h"
#include "util/error.h"
#include "fuzz_util.h"
#include "sources/kubeconfig.h"

static int listen_fd = -1, port;
/* the answer: a copy owned by the test, read by the server thread under the lock; the test
 * waits until the server has closed every connection before the input is freed */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cv = PTHREAD_COND_INITIALIZER;
static uint8_t *cur;
static size_t cur_len;
static int serving;

static void write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n) {
        ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
        if (w <= 0) return;
        s += w; n -= (size_t)w;
    }
}

static void *serve(void *arg)
{
    (void)arg;
    for (;;) {
        int fd = accept(listen_fd, NULL, NULL);
        if (fd < 0) continue;
        pthread_mutex_lock(&lock);
        serving++;
        pthread_mutex_unlock(&lock);
        char buf[8192];
        size_t got = 0;
        while (got < sizeof buf - 1) {     /* the request head */
            ssize_t r = recv(fd, buf + got, sizeof buf - 1 - got, 0);
            if (r <= 0) break;
            got += (size_t)r;
            buf[got] = '\0';
            if (strstr(buf, "\r\n\r\n")) break;
        }
        static const int codes[16] = { 200, 200, 200, 200, 200, 200, 200, 200,
                                        401, 403, 404, 410, 429, 500, 503, 400 };
        pthread_mutex_lock(&lock);
        uint8_t b0 = cur_len ? cur[0] : 0;
        const uint8_t *body = cur_len ? cur + 1 : cur;
        size_t blen = cur_len ? cur_len - 1 : 0;
        char head[512];
        int n = snprintf(head, sizeof head,
                         "HTTP/1.1 %d Fuzz\r\nContent-Type: application/json\r\nRetry-After: 0\r\n"
                         "%sContent-Length: %zu\r\nConnection: close\r\n\r\n",
                         codes[b0 & 15], (b0 & 0x80) ? "Content-Encoding: gzip\r\n" : "", blen);
        write_all(fd, head, (size_t)n);
        write_all(fd, body, blen);
        pthread_mutex_unlock(&lock);
        shutdown(fd, SHUT_WR);
        while (recv(fd, buf, sizeof buf, 0) > 0) { }
        close(fd);
        pthread_mutex_lock(&lock);
        serving--;
        pthread_cond_broadcast(&idle_cv);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listen_fd, (struct sockaddr *)&a, sizeof a) || listen(listen_fd, 16)) abort();
    socklen_t al = sizeof a;
    getsockname(listen_fd, (struct sockaddr *)&a, &al);
    port = ntohs(a.sin_port);
    pthread_t t;
    if (pthread_create(&t, NULL, serve, NULL)) abort();
    pthread_detach(t);
    return 0;
}

typedef struct { Cluster *c; ObjKind kind; size_t items; } Ctx;

static int on_item(void *ctx, const cJSON *item, Error *err)
{
    Ctx *x = ctx;
    x->items++;
    return cluster_ingest(x->c, x->kind, item, err);
}

static int on_reset(void *ctx, Error *err)
{
    (void)err;
    Ctx *x = ctx;
    cluster_release(x->c);
    cluster_init(x->c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pthread_mutex_lock(&lock);
    free(cur);
    cur = malloc(size ? size : 1);
    if (!cur) abort();
    memcpy(cur, data, size);
    cur_len = size;
    pthread_mutex_unlock(&lock);
    RestConfig rc;
    memset(&rc, 0, sizeof rc);
    char server[64];
    snprintf(server, sizeof server, "http://127.0.0.1:%d", port);
    rc.server = server;
    rc.context_name = "fuzz";
    ApiClientOptions opt = { 5, 0, 500 };
    Error err = { .set = false };
    ApiClient *api = apiclient_new(&rc, &opt, &err);
    FUZZ_ASSERT(api != NULL);
    int hi = size ? (data[0] >> 4) & 7 : 7;
    Cluster c;
    cluster_init(&c);
    Ctx x = { &c, hi == 7 ? OBJ__COUNT : (ObjKind)hi, 0 };
    if (apiclient_list_ex(api, "/api/v1/pods", "fieldSelector=x", on_item, on_reset, &x, &err) != 0)
        FUZZ_ASSERT(err.set && !strchr(err.msg, '\n'));
    cluster_finalize(&c);
    cluster_release(&c);
    error_clear(&err);
    cJSON *j = NULL;
    if (apiclient_get_json(api, "/apis/nvidia.com/v1/clusterpolicies", NULL, &j, &err) == 0) FUZZ_ASSERT(j);
    else FUZZ_ASSERT(err.set && !strchr(err.msg, '\n') && !j);
    cJSON_Delete(j);
    error_clear(&err);
    Strbuf sb = STRBUF_INIT;
    if (apiclient_get_raw(api, "/api/v1/namespaces/m/services/p:web/proxy/api/v1/query", "query=up", &sb, &err) != 0)
        FUZZ_ASSERT(err.set && !strchr(err.msg, '\n'));
    strbuf_clear(&sb);
    apiclient_free(api);      /* closes the client's connection */
    pthread_mutex_lock(&lock);
    while (serving) pthread_cond_wait(&idle_cv, &lock);
    pthread_mutex_unlock(&lock);
    return 0;
}
