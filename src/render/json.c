/* json.c — JSON output through cJSON's printer. */
#include "render.h"
#include <cjson/cJSON.h>
#include <stdlib.h>

int render_json(FILE *f, const cJSON *doc)
{
    char *s = cJSON_Print(doc);
    if (!s) return -1;
    /* cJSON indents with tabs; kubectl prints 4 spaces.  Re-indent leading tabs only. */
    for (char *p = s; *p; ) {
        char *line = p;
        while (*p == '\t') { fputs("    ", f); p++; }
        (void)line;
        while (*p && *p != '\n') fputc(*p++, f);
        if (*p == '\n') { fputc('\n', f); p++; }
    }
    fputc('\n', f);
    free(s);
    return ferror(f) ? -1 : 0;
}
