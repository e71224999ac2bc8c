/* tui_panel.c — list panes: selection, scrolling, drawing through callbacks (see tui_panel.h). */
#include "tui/tui_panel.h"
#include "tui/tui_screen.h"
#include <curses.h>
#include <stdio.h>

void panel_place(Panel *p, int y, int x, int h, int w)
{
    p->y = y; p->x = x; p->h = h < 0 ? 0 : h; p->w = w < 0 ? 0 : w;
}

int panel_rows(const Panel *p) { return p->h > 1 ? p->h - 1 : 0; }

static void clamp(Panel *p)
{
    if (p->count == 0) { p->selected = p->top = 0; return; }
    if (p->selected >= p->count) p->selected = p->count - 1;
    size_t rows = (size_t)(panel_rows(p) > 0 ? panel_rows(p) : 1);
    if (p->selected < p->top) p->top = p->selected;
    if (p->selected >= p->top + rows) p->top = p->selected - rows + 1;
    if (p->top + rows > p->count) p->top = p->count > rows ? p->count - rows : 0;
}

void panel_set_count(Panel *p, size_t count) { p->count = count; clamp(p); }
void panel_select(Panel *p, size_t index) { p->selected = index; clamp(p); }

void panel_move(Panel *p, long delta)
{
    if (!p->count) return;
    long s = (long)p->selected + delta;
    if (s < 0) s = 0;
    if (s >= (long)p->count) s = (long)p->count - 1;
    p->selected = (size_t)s;
    clamp(p);
}

void panel_page(Panel *p, int direction)
{
    long rows = panel_rows(p) > 1 ? panel_rows(p) - 1 : 1;
    panel_move(p, direction * rows);
}

void panel_home(Panel *p) { p->selected = 0; clamp(p); }
void panel_end(Panel *p) { if (p->count) p->selected = p->count - 1; clamp(p); }

bool panel_key(Panel *p, int ch)
{
    switch (ch) {
    case KEY_UP: case 'k': panel_move(p, -1); return true;
    case KEY_DOWN: case 'j': panel_move(p, 1); return true;
    case KEY_PPAGE: panel_page(p, -1); return true;
    case KEY_NPAGE: panel_page(p, 1); return true;
    case KEY_HOME: case 'g': panel_home(p); return true;
    case KEY_END: case 'G': panel_end(p); return true;
    default: return false;
    }
}

void panel_draw(Panel *p, PanelHeaderFn header, PanelRowFn row, void *ctx, const char *empty)
{
    if (p->h <= 0 || p->w <= 0) return;
    clamp(p);
    header(ctx, p->y, p->x, p->w, p->focused);
    int rows = panel_rows(p);
    for (int r = 0; r < rows; r++) {
        int y = p->y + 1 + r;
        size_t i = p->top + (size_t)r;
        if (i < p->count) {
            bool sel = i == p->selected;
            tui_screen_fill(y, p->x, p->w, sel ? (p->focused ? TA_SELECTED : TA_SELECTED_BLUR) : TA_NORMAL);
            row(ctx, i, y, p->x, p->w, sel, p->focused);
        } else {
            tui_screen_fill(y, p->x, p->w, TA_NORMAL);
            if (r == 0 && p->count == 0 && empty) tui_screen_put(y, p->x + 1, p->w - 1, TA_DIM, empty);
        }
    }
    /* more above / below */
    if (rows > 0 && p->top > 0) tui_screen_put(p->y + 1, p->x + p->w - 1, 1, TA_DIM, tui_screen_glyph(G_UP));
    if (rows > 0 && p->top + (size_t)rows < p->count)
        tui_screen_put(p->y + rows, p->x + p->w - 1, 1, TA_DIM, tui_screen_glyph(G_DOWN));
}

TuiAttr tui_panel_header_begin(int y, int x, int w, bool focused, char *title, size_t title_size,
                       const char *label, size_t shown, size_t total, bool partial)
{
    TuiAttr at = focused ? TA_PANE_FOCUS : TA_PANE_TITLE;
    tui_screen_fill(y, x, w, at);
    if (partial) snprintf(title, title_size, "%s %zu/%zu", label, shown, total);
    else snprintf(title, title_size, "%s %zu", label, shown);
    return at;
}
