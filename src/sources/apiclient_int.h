/* apiclient_int.h — the API client's state, shared by apiclient.c (requests, pages) and
 * apiclient_errors.c (what a failure means to a person).  Not a public contract. */
#ifndef KGPU_SOURCES_APICLIENT_INT_H
#define KGPU_SOURCES_APICLIENT_INT_H
#include "sources/apiclient.h"
#include "auth.h"
#include "http.h"
#include "util/error.h"
#include "sources/jsonscan.h"
#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define STALL_SECONDS 60L            /* no byte for this long = a stalled answer */
#define CONNECT_TIMEOUT 30.0
#define BODY_MAX ((size_t)1 << 30)   /* one answer (page) may not exceed 1 GiB */

/* the next page of a list, requested before the current one is parsed */
typedef struct {
    HttpXfer *x;                     /* one of the client's two transfers */
    struct curl_slist *hl;           /* its headers (with credentials), wiped when done */
    char *url;                       /* the URL requested, as build_url made it */
    bool active;                     /* started in the loop, not yet taken */
    double t0;
    /* performed on a thread of its own (fetch, TLS and gzip there, the page being parsed here);
     * this thread leaves the loop alone until it has joined it */
    pthread_t thread;
    bool running;                    /* the thread is to be joined */
    atomic_int stop;                 /* asks it to give up (prefetch_cancel) */
    CURLcode cc;                     /* its result, once joined */
} Prefetch;

struct ApiClient {
    HttpXfer xf[2];                  /* the current request's and the prefetch's, they swap */
    HttpXfer *cur;                   /* the current request's answer */
    HttpLoop *loop;                  /* every transfer runs in it (prefetch alongside) */
    Prefetch pf;
    JsonArena *arena;
    RestConfig rc;                   /* own copy */
    ApiClientOptions opt;
    long requests;
    char *base;                      /* scheme://host[:port][/prefix] used in URLs */
    char *shown_server;              /* rc.server without userinfo, for messages */
    char *host_header;               /* "Host: ..." when tls-server-name rewrites the URL */
    struct curl_slist *connect_to;
    Auth auth;                       /* the credentials (token file, exec plugin) */
    bool used_client_cert;           /* this attempt presented a client certificate */
    bool no_answer;                  /* this attempt failed before any HTTP status line */
    /* the request being made (apiclient_get_raw_ex can narrow both) */
    int max_retries;                 /* for 5xx and cut connections; 429 keeps HTTP_MAX_RETRIES */
    double timeout;                  /* seconds for the whole request, 0 = none */
    int retries_done;
    /* the attempt being made */
    const char *url, *shown;
    struct curl_slist *hl;
    char *list_rv;                   /* resourceVersion of the last list read (its first page) */
    const atomic_int *cancel;        /* apiclient_set_cancel */
    long stall;                      /* apiclient_set_stall; 0 = STALL_SECONDS */
};

/* a server URL in parts: scheme://[userinfo@]host[:port][/rest]; host without brackets */
typedef struct { char *scheme, *host, *port, *rest; bool v6; } UrlParts;
/* 0, or -1 when url is not one (u is filled as far as it went: release it either way) */
int apiclient_url_split(const char *url, UrlParts *u);
void apiclient_url_parts_release(UrlParts *u);

/* ---- apiclient_errors.c: one line a person can act on ---- */
/* the transfer of GET path failed with cc (c->cur holds the attempt: errbuf, too_big) */
void apiclient_transport_error(const ApiClient *c, CURLcode cc, const char *path, const char *url, Error *err);
/* GET path (page page of a list) was answered with the non-2xx code; its body in c->cur */
void apiclient_status_error(const ApiClient *c, const char *path, long code, int page, Error *err);
/* the server ended the TLS session with an alert (e.g. it did not accept our client
 * certificate): retrying will not help */
bool apiclient_is_tls_alert(const ApiClient *c);
#endif
