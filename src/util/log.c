/* log.c — the one -v log (log.h). */
#include "util/log.h"
#include "util/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int verbosity;       /* the run's -v; set by main at the start of every run */

void log_set_verbosity(int level) { verbosity = level; }
void log_raise_verbosity(int level) { if (level > verbosity) verbosity = level; }
int log_verbosity(void) { return verbosity; }

void log_verbose(int level, const char *fmt, ...)
{
    if (verbosity < level) return;
    va_list ap;
    va_start(ap, fmt);
    char *line = xvasprintf(fmt, ap);
    va_end(ap);
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n') line[--n] = '\0';
    char *clean = str_printable(line, n);
    fprintf(stderr, "%s\n", clean);
    free(clean);
    free(line);
}
