/* http_inflate.h — a gzip-encoded answer decoded as it arrives (not a public contract).
 *
 * The transfer (http.c) asks for gzip and decodes it itself rather than through libcurl's
 * zlib: with Intel ISA-L's igzip (libisal, when the build found it: KGPU_HAVE_ISAL) the
 * inflate and its CRC-32 cost a fraction of zlib's, and the pages of a large list are most of
 * what a command reads.  zlib stays the fallback where ISA-L is missing.  One gzip member is
 * decoded (what an API server and Prometheus send); bytes after its end are ignored, as
 * libcurl ignores them.
 */
#ifndef KGPU_SOURCES_HTTP_INFLATE_H
#define KGPU_SOURCES_HTTP_INFLATE_H
#include <stdbool.h>
#include <stddef.h>
#include "util/util.h"

typedef struct HttpInflate HttpInflate;
/* one piece of the decoded answer; non-zero stops the decoding (http_inflate_feed returns 1) */
typedef int (*HttpInflateOutFn)(void *ctx, const char *data, size_t len);

HttpInflate *http_inflate_new(void);
/* ready for a new answer */
void http_inflate_reset(HttpInflate *z);
/* decodes data[0..len) into out: 0, 1 when out stopped it, -1 when the data is not gzip or is
 * damaged (http_inflate_error says how) */
int http_inflate_feed(HttpInflate *z, const char *data, size_t len, HttpInflateOutFn out, void *ctx);
/* the same, decoded straight onto the end of dst (grown as it needs, NUL-terminated) instead
 * of handed out piece by piece: no copy of what the page buffer holds.  1 once more than room
 * bytes were added in this call (what was decoded stays in dst) */
int http_inflate_feed_into(HttpInflate *z, const char *data, size_t len, Strbuf *dst, size_t room);
/* the member's end (and its checksum) was read */
bool http_inflate_finished(const HttpInflate *z);
const char *http_inflate_error(const HttpInflate *z);
void http_inflate_free(HttpInflate *z);
/* "isa-l" or "zlib": what decodes (for -v) */
const char *http_inflate_backend(void);
#endif
