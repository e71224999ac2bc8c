/* usage_int.h — between usage.c and usage_copy.c (private to src/model). */
#ifndef KGPU_USAGE_INT_H
#define KGPU_USAGE_INT_H
#include "model/usage.h"

/* dst's series arrays become src's, shared and counted (freed by the last usage_clear) */
void usage_series_share(UsageData *dst, const UsageData *src);
/* dst's pool of interned strings becomes src's, shared and counted the same way (read-only:
 * usage_intern on either gives own copies from then on) */
void usage_strings_share(UsageData *dst, const UsageData *src);
/* dst's records (gpus, pods, held) become src's, shared and counted the same way: read-only;
 * freed by the last usage_clear (dst shares src's pool too, which their strings are in) */
void usage_records_share(UsageData *dst, const UsageData *src);
/* d's held records and their own strings freed (d->held NULL, nheld 0) */
void usage_held_release(UsageData *d);
/* d's series arrays released (the last copy frees them) */
void usage_series_release(UsageData *d);
#endif
