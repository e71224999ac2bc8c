/* apiclient_escape.c — percent-encoding for a path segment or query value (RFC 3986: every
 * byte but the unreserved ones).  Below apiclient.c and auth.c, which both escape (paths,
 * continue tokens, the Impersonate-Extra-* header key). */
#include "sources/apiclient.h"
#include "util/util.h"
#include <ctype.h>

char *apiclient_query_escape(const char *s)
{
    Strbuf sb = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.' || *p == '~') strbuf_addch(&sb, (char)*p);
        else strbuf_addf(&sb, "%%%02X", *p);
    }
    return strbuf_detach(&sb);
}
