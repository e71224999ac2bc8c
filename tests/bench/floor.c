/* floor.c — the bench's lower bound: fetch every page of some lists over one keep-alive
 * connection, as fast as libcurl can, without parsing anything.
 *
 *   floor --server URL --cacert FILE --token TOKEN [--gzip] [--limit 500] PATH[?QUERY]...
 *
 * Each PATH is read page by page (limit=N, then continue=TOKEN) with one reused easy handle.
 * The continue token is found by looking at the start of the page for the list metadata's
 * "continue" (metadata precedes items in kube-apiserver's output); nothing else is looked at.
 * Prints one line: requests, pages per list, bytes received (after gzip decoding).
 * Built by tests/bench/run.sh (cc floor.c -lcurl).
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD_MAX 65536

typedef struct {
    char head[HEAD_MAX + 1];
    size_t head_len;
    unsigned long long bytes;
} Page;

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
    Page *p = ud;
    size_t len = size * n;
    if (p->head_len < HEAD_MAX) {
        size_t k = HEAD_MAX - p->head_len < len ? HEAD_MAX - p->head_len : len;
        memcpy(p->head + p->head_len, data, k);
        p->head_len += k;
        p->head[p->head_len] = '\0';
    }
    p->bytes += len;
    return len;
}

/* the list's continue token: "continue":"..." before "items" starts; NULL when none */
static char *continue_token(const Page *p)
{
    const char *items = strstr(p->head, "\"items\":");
    const char *c = strstr(p->head, "\"continue\":\"");
    if (!c || (items && c > items)) return NULL;
    c += strlen("\"continue\":\"");
    const char *e = strchr(c, '"');
    if (!e || e == c) return NULL;
    return strndup(c, (size_t)(e - c));
}

static void usage(void)
{
    fprintf(stderr, "usage: floor --server URL --cacert FILE --token TOKEN [--gzip] [--limit N] PATH...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *server = NULL, *cacert = NULL, *token = NULL;
    int gzip = 0, limit = 500, first = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--server") && i + 1 < argc) server = argv[++i];
        else if (!strcmp(argv[i], "--cacert") && i + 1 < argc) cacert = argv[++i];
        else if (!strcmp(argv[i], "--token") && i + 1 < argc) token = argv[++i];
        else if (!strcmp(argv[i], "--limit") && i + 1 < argc) limit = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gzip")) gzip = 1;
        else if (argv[i][0] == '-') usage();
        else { first = i; break; }
    }
    if (!server || !token || !first || limit < 1) usage();
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *h = curl_easy_init();
    char auth[512];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
    struct curl_slist *hl = curl_slist_append(NULL, "Accept: application/json, */*");
    hl = curl_slist_append(hl, auth);
    static Page page;
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &page);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
    if (cacert) curl_easy_setopt(h, CURLOPT_CAINFO, cacert);
    if (gzip) curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "gzip");
    long requests = 0;
    unsigned long long bytes = 0;
    for (int a = first; a < argc; a++) {
        char *cont = NULL;
        int pages = 0;
        do {
            char url[8192];
            char *ec = cont ? curl_easy_escape(h, cont, 0) : NULL;
            snprintf(url, sizeof url, "%s%s%climit=%d%s%s", server, argv[a], strchr(argv[a], '?') ? '&' : '?',
                     limit, ec ? "&continue=" : "", ec ? ec : "");
            curl_free(ec);
            free(cont);
            cont = NULL;
            page.head_len = 0;
            page.head[0] = '\0';
            page.bytes = 0;
            curl_easy_setopt(h, CURLOPT_URL, url);
            CURLcode cc = curl_easy_perform(h);
            long code = 0;
            curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
            requests++;
            if (cc != CURLE_OK || code != 200) {
                fprintf(stderr, "floor: GET %s: %s (HTTP %ld)\n", url, curl_easy_strerror(cc), code);
                return 1;
            }
            bytes += page.bytes;
            pages++;
            cont = continue_token(&page);
        } while (cont);
        fprintf(stderr, "floor: %s: %d page%s\n", argv[a], pages, pages == 1 ? "" : "s");
    }
    long conns = 0;
    curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &conns);
    printf("requests=%ld bytes=%llu\n", requests, bytes);
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    curl_global_cleanup();
    return 0;
}
