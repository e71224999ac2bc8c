/* tui_panel.h — a list pane (htop's Panel): a box with a header row and one row per item, a
 * selection and a scroll offset.  The panel knows how many items there are, never what they
 * are: the caller draws each visible row through a callback.
 */
#ifndef KGPU_TUI_PANEL_H
#define KGPU_TUI_PANEL_H
#include <stdbool.h>
#include <stddef.h>
#include "tui/tui_screen.h"

typedef struct Panel {
    int y, x, h, w;          /* the box, header row included */
    size_t count;            /* items */
    size_t selected, top;    /* selected item, first item shown */
    bool focused;
} Panel;

/* draws item `index` on row y, columns x..x+w-1 */
typedef void (*PanelRowFn)(void *ctx, size_t index, int y, int x, int w, bool selected, bool focused);
/* draws the header row (y, x, w) */
typedef void (*PanelHeaderFn)(void *ctx, int y, int x, int w, bool focused);

void panel_place(Panel *p, int y, int x, int h, int w);
void panel_set_count(Panel *p, size_t count);        /* keeps the selection in range */
void panel_select(Panel *p, size_t index);
void panel_move(Panel *p, long delta);               /* clamps at both ends */
void panel_page(Panel *p, int direction);            /* one screenful down (+1) or up (-1) */
void panel_home(Panel *p);
void panel_end(Panel *p);
/* the keys every list pane moves by: arrows and j/k, PgUp/PgDn, Home/End and g/G; true when
 * ch was one of them */
bool panel_key(Panel *p, int ch);
int panel_rows(const Panel *p);                      /* rows for items */
/* a header row begun: filled in the pane's title colours (focused or not), title set to
 * "LABEL SHOWN", or "LABEL SHOWN/TOTAL" when only part of the list shows; returns the
 * attribute to write the header's columns with */
TuiAttr tui_panel_header_begin(int y, int x, int w, bool focused, char *title, size_t title_size,
                           const char *label, size_t shown, size_t total, bool partial);
/* header, visible rows (scrolled so the selection shows), blank rows below the items;
 * `empty` is shown on the first row when there are no items */
void panel_draw(Panel *p, PanelHeaderFn header, PanelRowFn row, void *ctx, const char *empty);
#endif
