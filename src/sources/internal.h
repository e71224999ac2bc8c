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

/* the system's CA certificates on a libcurl handle (a CURL *) that verifies a server with no
 * CA of its own: $SSL_CERT_FILE, else the first bundle found where Linux distributions keep
 * one; $SSL_CERT_DIR as the directory.  Nothing found: libcurl's built-in default stays. */
void tls_use_system_ca(void *curl_handle);
/* overwrite a NUL-terminated secret (token, password, key, "Authorization: ..." header) before
 * freeing it: a core dump should not hold it longer than needed.  NULL is fine. */
void http_secret_free(char *s);
/* why v (len bytes) cannot be sent as an HTTP header field value, or NULL when it can.  RFC 9110
 * §5.5: a field value is visible characters, space, tab and bytes >= 0x80; CR and LF would end
 * the header line (the rest going out as headers of its own), NUL and the other control
 * characters are not allowed ("contains a line break (CR/LF)", "contains a NUL byte", "contains
 * a control character").  Go's net/http refuses the same ("invalid header field value"). */
const char *http_header_value_problem(const char *v, size_t len);
#endif
