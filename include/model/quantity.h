/* quantity.h — Kubernetes resource quantities ("500m", "16Gi", "1e3", "0.5", "2k").
 *
 * Values are held in milli-units as int64_t: "1" -> 1000, "500m" -> 500,
 * "16Gi" -> 16*2^30*1000.  The range covers +-9.2e15 units (8 PiB of memory), far beyond
 * any object.  Parsing follows apimachinery's resource.Quantity grammar: an optional
 * sign, digits with an optional fraction, then a binary suffix (Ki Mi Gi Ti Pi Ei), a
 * decimal suffix (n u m "" k M G T P E) or a decimal exponent (e3, E-2).  Precision below
 * a milli-unit is rounded up, as Kubernetes rounds requests up.
 */
#ifndef KGPU_QUANTITY_H
#define KGPU_QUANTITY_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

bool quantity_parse(const char *s, int64_t *milli);   /* false on bad syntax or overflow */
int64_t quantity_units_ceil(int64_t milli);           /* whole units, rounded up */
/* human forms: "4", "500m" (cpu-like), and memory MiB from bytes-milli */
void quantity_format(int64_t milli, char *out, size_t outlen);   /* "4", "1500m" */
int64_t quantity_to_mib(int64_t milli);                            /* bytes(milli) -> MiB, floor */
#endif
