/* groups_base.c — what groups.c (allocation per group) and groups_hours.c (GPU-hours and cost
 * per group) share, below both: the --price list and the table of groups by name.
 */
#include "analysis/groups.h"
#include "groups_int.h"
#include "util/error.h"
#include "util/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int price_list_parse(PriceList *pl, const char *s, Error *err)
{
    memset(pl, 0, sizeof *pl);
    if (!s) return 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        char *end = NULL;
        double v = eq ? strtod(eq + 1, &end) : NAN;
        if (!eq || eq == tok || !end || end == eq + 1 || *end || !(v >= 0 && v < 1e6)) {
            error_set(err, "--price: \"%s\" is not MODEL=USD_PER_HOUR (e.g. A100-SXM4-80GB=2.5)", tok);
            free(copy);
            price_list_clear(pl);
            return -1;
        }
        *eq = '\0';
        pl->v = xrealloc(pl->v, (pl->n + 1) * sizeof *pl->v);
        pl->v[pl->n++] = (Price){ xstrdup(tok), v };
    }
    free(copy);
    if (!pl->n) { error_set(err, "--price: no MODEL=USD_PER_HOUR given"); return -1; }
    return 0;
}

void price_list_clear(PriceList *pl)
{
    for (size_t i = 0; i < pl->n; i++) free(pl->v[i].model);
    free(pl->v);
    memset(pl, 0, sizeof *pl);
}

double price_list_for_product(const PriceList *pl, const char *gfd_product, const char *short_name)
{
    const char *names[3] = { gfd_product, gfd_product && str_starts_with(gfd_product, "NVIDIA-")
                             ? gfd_product + 7 : NULL, short_name };
    for (size_t i = 0; pl && i < pl->n; i++)
        for (int k = 0; k < 3; k++)
            if (names[k] && strcasecmp(names[k], pl->v[i].model) == 0) return pl->v[i].usd_per_hour;
    return NAN;
}

StatusGroup *status_group_for(StatusGroups *g, const char *name, size_t *cap)
{
    for (size_t i = 0; i < g->n; i++) if (str_eq(g->v[i].name, name)) return &g->v[i];
    ARRAY_GROW(g->v, g->n, *cap);
    StatusGroup *sg = &g->v[g->n++];
    memset(sg, 0, sizeof *sg);
    sg->name = xstrdup(name);
    return sg;
}
