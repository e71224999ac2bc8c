/* kubeconfig_incluster.c — the in-cluster configuration (shared/reference/kubeconfig-and-api.md
 * §6): the API server from KUBERNETES_SERVICE_HOST/PORT, the service account's token file, CA
 * and namespace; and the DNS-label rule namespaces are held to (kubeconfig_int.h). */
#include "sources/kubeconfig.h"
#include "kubeconfig_int.h"
#include "util/error.h"
#include "util/util.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_SA_DIR "/var/run/secrets/kubernetes.io/serviceaccount"

/* DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters */
bool kubeconfig_is_dns_label(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && !(c == '-' && i > 0 && i + 1 < n)) return false;
    }
    return true;
}

static const char *sa_dir(void)
{
    const char *d = getenv("KUBECTL_GPU_SA_DIR");
    return d && *d ? d : DEFAULT_SA_DIR;
}

bool kubeconfig_in_cluster_possible(void)
{
    const char *host = getenv("KUBERNETES_SERVICE_HOST"), *port = getenv("KUBERNETES_SERVICE_PORT");
    if (!host || !*host || !port || !*port) return false;
    char *tok = xasprintf("%s/token", sa_dir());
    struct stat st;
    bool ok = stat(tok, &st) == 0 && S_ISREG(st.st_mode);
    free(tok);
    return ok;
}

static char *trimmed_file(const char *path)
{
    char *s = util_read_file(path, NULL, NULL);
    if (!s) return NULL;
    size_t a = 0, b = strlen(s);
    while (a < b && isspace((unsigned char)s[a])) a++;
    while (b > a && isspace((unsigned char)s[b - 1])) b--;
    char *t = b > a ? xstrndup(s + a, b - a) : NULL;
    free(s);
    return t;
}

int kubeconfig_load_in_cluster(RestConfig *rc, const KubeconfigOverrides *ov, Error *err)
{
    const char *host = getenv("KUBERNETES_SERVICE_HOST"), *port = getenv("KUBERNETES_SERVICE_PORT");
    const char *dir = sa_dir();
    bool v6 = strchr(host, ':') != NULL;
    rc->server = xasprintf("https://%s%s%s:%s", v6 ? "[" : "", host, v6 ? "]" : "", port);
    rc->token_file = xasprintf("%s/token", dir);
    char *ca = xasprintf("%s/ca.crt", dir);
    if (access(ca, R_OK) == 0) rc->ca_file = ca;
    else {
        strvec_pushf(&rc->warnings, "in-cluster: cannot read %s (%s); using the system CA bundle",
                     ca, strerror(errno));
        free(ca);
    }
    if (ov && ov->namespace_) rc->namespace_ = xstrdup(ov->namespace_);
    else if (getenv("POD_NAMESPACE") && *getenv("POD_NAMESPACE")) rc->namespace_ = xstrdup(getenv("POD_NAMESPACE"));
    else {
        char *nsfile = xasprintf("%s/namespace", dir);
        rc->namespace_ = trimmed_file(nsfile);
        free(nsfile);
        if (!rc->namespace_) rc->namespace_ = xstrdup("default");
    }
    if (!kubeconfig_is_dns_label(rc->namespace_)) {
        error_set(err, "in-cluster: namespace \"%s\" does not conform to the kubernetes DNS_LABEL rules",
                  rc->namespace_);
        return -1;
    }
    rc->context_name = xstrdup("in-cluster");
    rc->origin = xasprintf("in-cluster (service account %s)", dir);
    rc->in_cluster = true;
    return 0;
}
