/* tui_filter_edit.c — top's filter (/) while it is typed and applied: the text as a label
 * selector or as words (tui_filter.c matches either), the lists made again as it changes
 * (tui_lists.c).
 */
#include "tui/tui_app.h"
#include "util/error.h"
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* key=value, key!=value, "key in (a,b)", "!key": a label selector; anything else a word */
static void filter_compile(App *a)
{
    label_selector_clear(&a->sel);
    a->sel_mode = false;
    const char *f = a->filter;
    if (!f || !*f) return;
    if (!strchr(f, '=') && !strchr(f, '!') && !strstr(f, " in ") && !strstr(f, " notin ")) return;
    Error err = { .set = false };
    if (label_selector_parse(&a->sel, f, &err) == 0) {
        a->sel_mode = true;
        return;
    }
    label_selector_clear(&a->sel);
    /* said, not silently taken as text: the filter then matches it as words */
    char *msg = xasprintf("bad label selector (%.120s); filtering by text", err.msg);
    app_message(a, msg);
    free(msg);
}

/* ------------------------------------------------------------------ editing */

void app_set_filter(App *a, const char *f)
{
    free(a->filter);
    a->filter = f && *f ? xstrdup(f) : NULL;
    filter_compile(a);
    app_rebuild_lists(a);
    app_remember_selection(a);
}

void app_filter_cancel(App *a)
{
    a->editing = false;                              /* back to what was applied */
    app_set_filter(a, a->filter_before);
    free(a->filter_before);
    a->filter_before = NULL;
}

void app_filter_apply(App *a)
{
    a->editing = false;
    app_set_filter(a, strbuf_str(&a->edit));
    free(a->filter_before);
    a->filter_before = NULL;
}

void app_filter_key(App *a, int ch)
{
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        while (a->edit.len && ((unsigned char)a->edit.buf[a->edit.len - 1] & 0xC0) == 0x80) a->edit.len--;
        if (a->edit.len) a->edit.len--;
        if (a->edit.buf) a->edit.buf[a->edit.len] = '\0';
    } else if (ch == 21) {                           /* ^U */
        strbuf_reset(&a->edit);
    } else if (ch >= 32 && ch < 256 && ch != 127 && a->edit.len < 200) {
        strbuf_addch(&a->edit, (char)ch);
    } else {
        return;
    }
    app_set_filter(a, strbuf_str(&a->edit));             /* the list follows what is typed */
}

void app_start_filter(App *a)
{
    a->editing = true;
    free(a->filter_before);
    a->filter_before = xstrdup(a->filter);
    strbuf_reset(&a->edit);
    if (a->filter) strbuf_adds(&a->edit, a->filter);
}
