/* internal.h — helpers shared by the sources/ modules only (not a public contract).
 *
 * Ownership: returned buffers are newly allocated; the caller frees them.
 */
#ifndef KGPU_SOURCES_INTERNAL_H
#define KGPU_SOURCES_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>

/* standard base64 (RFC 4648, '=' padding optional, whitespace ignored).  Returns a
 * NUL-terminated buffer (length in *outlen), or NULL when the text is not base64. */
char *base64_decode(const char *in, size_t inlen, size_t *outlen);
char *base64_encode(const void *in, size_t inlen);

/* a URL with any "user:password@" part removed, for messages and logs; caller frees */
char *url_redact(const char *url);
#endif
