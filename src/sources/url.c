/* url.c — URLs as messages and logs may show them. */
#include "internal.h"
#include "util/util.h"
#include <string.h>

char *url_redact(const char *url)
{
    if (!url) return xstrdup("");
    const char *scheme = strstr(url, "://");
    if (!scheme) return xstrdup(url);
    const char *host = scheme + 3;
    size_t hostlen = strcspn(host, "/?#");
    const char *at = NULL;
    for (size_t i = 0; i < hostlen; i++)
        if (host[i] == '@') at = host + i;          /* the last '@' ends the userinfo */
    if (!at) return xstrdup(url);
    return xasprintf("%.*s%s", (int)(host - url), url, at + 1);
}
