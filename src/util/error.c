/* error.c — error messages with context, built from the inside out.
 *
 * A message is one line by contract, and parts of it come from outside (object names, label
 * keys, a server's message, a kubeconfig's values): control characters (newlines, escape
 * sequences) are replaced by spaces here, once for every message. */
#include "util/error.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void one_line(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) *p = ' ';
}

void error_set(Error *e, const char *fmt, ...)
{
    if (!e) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    one_line(e->msg);
    e->set = true;
}

void error_prefix(Error *e, const char *fmt, ...)
{
    if (!e) return;
    char prefix[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    size_t plen = strlen(prefix), olen = strlen(e->msg);
    if (plen >= sizeof e->msg) plen = sizeof e->msg - 1;
    if (plen + olen >= sizeof e->msg) olen = sizeof e->msg - 1 - plen;
    memmove(e->msg + plen, e->msg, olen);
    memcpy(e->msg, prefix, plen);
    e->msg[plen + olen] = '\0';
    one_line(e->msg);
    e->set = true;
}

void error_clear(Error *e)
{
    if (!e) return;
    e->msg[0] = '\0';
    e->code = 0;
    e->set = false;
}
