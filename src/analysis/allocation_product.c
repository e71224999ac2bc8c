/* allocation_product.c — a GPU product's short name for tables ("NVIDIA-A100-SXM4-80GB" ->
 * "A100-SXM4-80GB"), shared by the status rows of device-plugin nodes (allocation.c) and of DRA
 * nodes (allocation_dra.c), below both.
 */
#include "analysis/allocation.h"
#include "util/util.h"
#include <string.h>

char *allocation_product_short_name(const char *p)
{
    if (!p || !*p) return xstrdup("-");
    static const char *const prefixes[] = { "NVIDIA-", "Tesla-", "Quadro-" };
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (str_starts_with(p, prefixes[i]) && p[strlen(prefixes[i])]) { p += strlen(prefixes[i]); break; }
    size_t n = strlen(p);
    if (str_ends_with(p, "-SHARED") && n > 7) n -= 7;
    char *s = xstrndup(p, n);
    char *mig = strstr(s, "-MIG-");
    if (mig && mig != s) *mig = '\0';
    return s;
}
