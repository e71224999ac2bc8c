/* tui_screen.h — the terminal for `kubectl gpu top` (htop's CRT): setting it up and giving it
 * back, the colour scheme, and the few drawing primitives every pane uses.
 *
 * One screen per process.  tui_screen_open() enters curses (cbreak, no echo, keypad, hidden
 * cursor, 200 ms input timeout) and installs handlers so the terminal is restored whatever
 * happens: SIGINT/SIGTERM/SIGHUP/SIGQUIT only set a flag the event loop polls
 * (tui_screen_quit_signal), crashes (SIGSEGV/SIGBUS/SIGFPE/SIGILL, unless a sanitizer already
 * handles them) call endwin and re-raise.  tui_screen_close() is idempotent and also runs at exit.
 *
 * Roles, not colours: panes draw with a TuiAttr; the mapping to colour pairs (or to bold /
 * reverse / dim in monochrome: --no-color, NO_COLOR, or a terminal without colours) is here.
 * Text drawn through tui_screen_put is clipped to a column count and sanitized: control
 * characters become '?' or spaces, and so do characters the locale cannot show.  Bars use
 * Unicode blocks when the locale's codeset is UTF-8, '#' and '.' otherwise.
 */
#ifndef KGPU_TUI_SCREEN_H
#define KGPU_TUI_SCREEN_H
#include <stdbool.h>
#include "render/textdoc.h"
#include "util/util.h"

/* the attributes of a TextDoc's spans (render/textdoc.h): top paints each */
typedef TextAttr TuiAttr;

typedef enum { G_ELLIPSIS, G_VLINE, G_HLINE, G_MIDDOT, G_UP, G_DOWN, G_SORT, G__COUNT } TuiGlyph;

struct Error;
/* want_color: --no-color / NO_COLOR not given.  -1 with err set when the terminal cannot be
 * used (unknown $TERM ...).  Sets LC_CTYPE from the environment. */
int tui_screen_open(bool want_color, struct Error *err);
void tui_screen_close(void);
bool tui_screen_is_open(void);
bool tui_screen_utf8(void);
bool tui_screen_color(void);
/* the signal that asked to quit (SIGINT, SIGTERM, ...), 0 when none */
int tui_screen_quit_signal(void);
/* next key (curses codes, KEY_RESIZE ...) or -1 after the input timeout or an escape
 * sequence ncurses does not know (dropped whole; a lone Esc is 27) */
int tui_screen_getkey(void);

int tui_screen_attr(TuiAttr a);
const char *tui_screen_glyph(TuiGlyph g);

/* text s at (y, x), at most maxw columns (clipped to the screen); returns columns drawn */
int tui_screen_put(int y, int x, int maxw, TuiAttr a, const char *s);
/* as tui_screen_put, but text longer than maxw ends in an ellipsis (the last column(s)) */
int tui_screen_put_cut(int y, int x, int maxw, TuiAttr a, const char *s);
int tui_screen_putf(int y, int x, int maxw, TuiAttr a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* w blank columns in attribute a */
void tui_screen_fill(int y, int x, int w, TuiAttr a);
/* columns s takes once sanitized (text_width) */
static inline int screen_width(const char *s) { return text_width(s); }
/* the two parts of a bar w columns wide, frac in [0,1] (NAN: unknown, all empty):
 * filled cells appended to *fill, empty cells to *empty */
void tui_screen_bar_parts(int w, double frac, Strbuf *fill, Strbuf *empty);
/* draws a bar; fill_attr for the filled part, TA_DIM (or `over` when not TA_NORMAL) for the rest */
void tui_screen_bar(int y, int x, int w, double frac, TuiAttr fill_attr, TuiAttr over);
/* below min_cols x min_lines the panes do not fit: draws a notice instead and returns true */
bool tui_screen_too_small(int min_cols, int min_lines);
#endif
