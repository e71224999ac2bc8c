/* kubeconfig_int.h — what kubeconfig_incluster.c gives kubeconfig.c (not a public contract). */
#ifndef KGPU_SOURCES_KUBECONFIG_INT_H
#define KGPU_SOURCES_KUBECONFIG_INT_H
#include <stdbool.h>
#include "sources/kubeconfig.h"
#include "util/error.h"

/* DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters */
bool kubeconfig_is_dns_label(const char *s);
/* KUBERNETES_SERVICE_HOST and _PORT set and the service account's token file there */
bool kubeconfig_in_cluster_possible(void);
/* rc from the service account ($KUBECTL_GPU_SA_DIR, else the standard directory): 0, or -1
 * with err set (a namespace that is not a DNS label) */
int kubeconfig_load_in_cluster(RestConfig *rc, const KubeconfigOverrides *ov, Error *err);
#endif
