/* tls_ca.c — which CA certificates verify a server when the kubeconfig names none.
 *
 * libcurl's default CA bundle is a path fixed when libcurl was built (Debian's:
 * /etc/ssl/certs/ca-certificates.crt).  A release archive carries Debian's libcurl, so on a
 * distribution that keeps its bundle elsewhere that default names nothing and every https
 * request would fail.  Here, as kubectl (Go's crypto/x509) does: SSL_CERT_FILE and
 * SSL_CERT_DIR override; otherwise the first bundle that exists in the places Linux
 * distributions use.  When none exists libcurl's default stays.  One function, called where
 * a handle is set up for https without a CA of its own (API server, Prometheus).
 */
#include "internal.h"
#include <curl/curl.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__linux__)
static const char *const ca_bundles[] = {
    "/etc/ssl/certs/ca-certificates.crt",                 /* Debian, Ubuntu, Gentoo, Arch */
    "/etc/pki/tls/certs/ca-bundle.crt",                   /* Fedora, RHEL */
    "/etc/ssl/ca-bundle.pem",                             /* openSUSE */
    "/etc/pki/tls/cacert.pem",                            /* OpenELEC */
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  /* CentOS, RHEL 7 */
    "/etc/ssl/cert.pem",                                  /* Alpine */
    NULL
};
#endif

static const char *system_ca_bundle(void)
{
    const char *env = getenv("SSL_CERT_FILE");
    if (env && *env) return env;
#if defined(__linux__)
    for (const char *const *p = ca_bundles; *p; p++)
        if (access(*p, R_OK) == 0) return *p;
#endif
    return NULL;
}

void tls_use_system_ca(void *curl_handle)
{
    CURL *h = curl_handle;
    const char *file = system_ca_bundle();
    const char *dir = getenv("SSL_CERT_DIR");
    if (file) curl_easy_setopt(h, CURLOPT_CAINFO, file);
    if (dir && *dir) curl_easy_setopt(h, CURLOPT_CAPATH, dir);
}
