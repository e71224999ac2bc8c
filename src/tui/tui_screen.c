/* tui_screen.c — terminal setup and restore, colours, clipped text and bars (see tui_screen.h).
 *
 * Why the signal handlers only set a flag: endwin() is not async-signal-safe, and the event
 * loop never blocks for longer than the 200 ms input timeout (loading runs in a worker
 * thread), so the loop notices the flag at once and restores the terminal on its normal path.
 * Crashes are different — the loop will not run again — so there the handler calls endwin()
 * itself, as htop does, and re-raises with the default action.
 */
#include "tui/tui_screen.h"
#include "util/error.h"
#include "util/util.h"
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <term.h>
#include <unistd.h>
#include <wchar.h>

static bool s_open, s_utf8, s_color, s_atexit;
static volatile sig_atomic_t s_quit_sig;
static SCREEN *s_screen;
static int s_attrs[TA__COUNT];

static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
static struct sigaction s_old_quit[4], s_old_crash[4];
static bool s_crash_installed[4];

static void on_quit_signal(int sig) { s_quit_sig = sig; }

static void on_crash_signal(int sig)
{
    if (s_open) endwin();
    s_open = false;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_quit_signal;
    for (size_t i = 0; i < 4; i++) sigaction(quit_signals[i], &sa, &s_old_quit[i]);
    sa.sa_handler = on_crash_signal;
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < 4; i++) {
        struct sigaction old;
        /* leave a sanitizer's or debugger's own handler alone */
        if (sigaction(crash_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            !(old.sa_flags & SA_SIGINFO)) {
            sigaction(crash_signals[i], &sa, &s_old_crash[i]);
            s_crash_installed[i] = true;
        }
    }
}

static void restore_handlers(void)
{
    for (size_t i = 0; i < 4; i++) sigaction(quit_signals[i], &s_old_quit[i], NULL);
    for (size_t i = 0; i < 4; i++)
        if (s_crash_installed[i]) { sigaction(crash_signals[i], &s_old_crash[i], NULL); s_crash_installed[i] = false; }
}

static void init_attrs(void)
{
    /* monochrome first; colour overrides below */
    static const int mono[TA__COUNT] = {
        [TA_NORMAL] = A_NORMAL, [TA_TITLE] = A_REVERSE | A_BOLD, [TA_LABEL] = A_NORMAL,
        [TA_VALUE] = A_BOLD, [TA_DIM] = A_DIM, [TA_OK] = A_NORMAL, [TA_WARN] = A_BOLD,
        [TA_ERROR] = A_BOLD | A_UNDERLINE, [TA_PANE_TITLE] = A_UNDERLINE, [TA_PANE_FOCUS] = A_REVERSE,
        [TA_COLUMNS] = A_BOLD, [TA_SELECTED] = A_REVERSE, [TA_SELECTED_BLUR] = A_BOLD | A_UNDERLINE,
        [TA_BAR_ALLOC] = A_NORMAL, [TA_BAR_UTIL] = A_NORMAL, [TA_BAR_MEM] = A_NORMAL,
        [TA_FKEY] = A_BOLD, [TA_FLABEL] = A_REVERSE, [TA_BUSY] = A_BOLD, [TA_INPUT] = A_UNDERLINE,
        [TA_STRONG] = A_BOLD,
    };
    memcpy(s_attrs, mono, sizeof s_attrs);
    if (!s_color) return;
    static const struct { TuiAttr a; short fg, bg; int extra; } pairs[] = {
        { TA_TITLE, COLOR_BLACK, COLOR_CYAN, 0 },
        { TA_LABEL, COLOR_CYAN, -1, 0 },
        { TA_OK, COLOR_GREEN, -1, 0 },
        { TA_WARN, COLOR_YELLOW, -1, A_BOLD },
        { TA_ERROR, COLOR_RED, -1, A_BOLD },
        { TA_PANE_TITLE, COLOR_BLACK, COLOR_WHITE, 0 },
        { TA_PANE_FOCUS, COLOR_BLACK, COLOR_GREEN, 0 },
        { TA_SELECTED, COLOR_BLACK, COLOR_CYAN, 0 },
        { TA_SELECTED_BLUR, COLOR_BLACK, COLOR_WHITE, 0 },
        { TA_BAR_ALLOC, COLOR_CYAN, -1, 0 },
        { TA_BAR_UTIL, COLOR_GREEN, -1, 0 },
        { TA_BAR_MEM, COLOR_MAGENTA, -1, 0 },
        { TA_FLABEL, COLOR_BLACK, COLOR_CYAN, 0 },
        { TA_BUSY, COLOR_YELLOW, -1, A_BOLD },
        { TA_INPUT, COLOR_YELLOW, -1, A_BOLD },
    };
    start_color();
    bool dflt = use_default_colors() == OK;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        short bg = pairs[i].bg < 0 && !dflt ? COLOR_BLACK : pairs[i].bg;
        short fg = pairs[i].fg;
        if (!dflt && fg == COLOR_BLACK && bg == COLOR_BLACK) fg = COLOR_WHITE;
        init_pair((short)(i + 1), fg, bg);
        s_attrs[pairs[i].a] = (int)COLOR_PAIR(i + 1) | pairs[i].extra;
    }
}

/* A release archive carries compiled terminfo entries for common terminals in share/terminfo
 * beside the binary, for machines without a terminfo database (minimal images, containers).
 * The system's entries come first: the bundled directory is added at the end of
 * TERMINFO_DIRS, and only once the system has been found to have no entry for $TERM (or no
 * terminfo database at all).
 * Returns whether there was such a directory. */
static bool add_bundled_terminfo(void)
{
#if defined(__linux__)
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = '\0';
    char *dir = xasprintf("%s/share/terminfo", exe);
    struct stat st;
    bool found = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    if (found) {
        const char *old = getenv("TERMINFO_DIRS");
        char *dirs = old && *old ? xasprintf("%s:%s", old, dir) : xasprintf("%s", dir);
        setenv("TERMINFO_DIRS", dirs, 1);
        free(dirs);
    }
    free(dir);
    return found;
#else
    return false;
#endif
}

int tui_screen_open(bool want_color, Error *err)
{
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    s_utf8 = cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);

    int terr = 0;
    const char *term = getenv("TERM");
    if (!term || !*term) {
        error_set(err, "$TERM is not set: top cannot drive the terminal");
        return -1;
    }
    if (setupterm(NULL, STDOUT_FILENO, &terr) != OK &&
        !(terr != 1 && add_bundled_terminfo() && setupterm(NULL, STDOUT_FILENO, &terr) == OK)) {
        error_set(err, "terminal type \"%s\" is unknown here (no terminfo entry); try TERM=xterm-256color", term);
        return -1;
    }
    del_curterm(cur_term);
    install_handlers();
    s_screen = newterm(NULL, stdout, stdin);
    if (!s_screen) {
        restore_handlers();
        error_set(err, "cannot initialize terminal \"%s\"", term);
        return -1;
    }
    set_term(s_screen);
    s_open = true;
    if (!s_atexit) { atexit(tui_screen_close); s_atexit = true; }
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    set_escdelay(25);
    curs_set(0);
    timeout(200);
    s_color = want_color && has_colors();
    init_attrs();
    erase();
    return 0;
}

void tui_screen_close(void)
{
    if (!s_open) return;
    s_open = false;
    curs_set(1);
    endwin();
    if (s_screen) { delscreen(s_screen); s_screen = NULL; }
    restore_handlers();
    fflush(stdout);
}

bool tui_screen_is_open(void) { return s_open; }
bool tui_screen_utf8(void) { return s_utf8; }
bool tui_screen_color(void) { return s_color; }
int tui_screen_quit_signal(void) { return (int)s_quit_sig; }
/* An Esc that ncurses could not match to a key (its terminfo does not know the sequence, e.g.
 * bracketed paste's ESC [ 2 0 0 ~, or Alt-x sent as ESC x) arrives as 27 followed at once by
 * the rest of the sequence.  Only a lone Esc (nothing follows within the escape delay) is the
 * Esc key; the rest of an unknown sequence is read and dropped, so it never quits or acts. */
int tui_screen_getkey(void)
{
    int ch = getch();
    if (ch == ERR) return -1;
    if (ch != 27) return ch;
    nodelay(stdscr, TRUE);
    int next = getch();
    if (next != ERR && (next == '[' || next == 'O')) {
        /* CSI / SS3: parameter and intermediate bytes, then one final byte 0x40-0x7e */
        for (int i = 0; i < 32; i++) {
            int c = getch();
            if (c == ERR || (c >= 0x40 && c <= 0x7e)) break;
        }
    }
    nodelay(stdscr, FALSE);
    timeout(200);
    return next == ERR ? 27 : -1;
}
int tui_screen_attr(TuiAttr a) { return a >= 0 && a < TA__COUNT ? s_attrs[a] : (int)A_NORMAL; }

const char *tui_screen_glyph(TuiGlyph g)
{
    static const char *const utf[G__COUNT] = { "…", "│", "─", "·", "↑", "↓", "▼" };
    static const char *const ascii[G__COUNT] = { "~", "|", "-", ".", "^", "v", "*" };
    if (g < 0 || g >= G__COUNT) return "?";
    return s_utf8 ? utf[g] : ascii[g];
}

/* Sanitizes s into *out, at most maxw columns; returns the columns used.  Control characters
 * become '?' (newline and tab a space), invalid or unprintable sequences '?'. */
static int sanitize(const char *s, int maxw, Strbuf *out)
{
    int cols = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t len = strlen(s);
    const char *p = s, *end = s + len;
    while (p < end && cols < maxw) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x80) {
            if (c == '\n' || c == '\t' || c == '\r') strbuf_addch(out, ' ');
            else if (c < 0x20 || c == 0x7f) strbuf_addch(out, '?');
            else strbuf_addch(out, (char)c);
            cols++; p++;
            continue;
        }
        wchar_t wc;
        size_t n = mbrtowc(&wc, p, (size_t)(end - p), &st);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
            memset(&st, 0, sizeof st);
            strbuf_addch(out, '?');
            cols++; p++;
            /* skip the rest of a broken sequence */
            while (p < end && ((unsigned char)*p & 0xC0) == 0x80) p++;
            continue;
        }
        int w = wcwidth(wc);
        if (w < 0) { strbuf_addch(out, '?'); cols++; p += n; continue; }
        if (cols + w > maxw) break;
        strbuf_add(out, p, n);
        cols += w;
        p += n;
    }
    return cols;
}

int tui_screen_put(int y, int x, int maxw, TuiAttr a, const char *s)
{
    if (!s_open || !s || y < 0 || y >= LINES || x < 0 || x >= COLS) return 0;
    if (maxw > COLS - x) maxw = COLS - x;
    if (maxw <= 0) return 0;
    Strbuf sb = STRBUF_INIT;
    int cols = sanitize(s, maxw, &sb);
    attrset(tui_screen_attr(a));
    mvaddnstr(y, x, strbuf_str(&sb), (int)sb.len);
    attrset(A_NORMAL);
    strbuf_clear(&sb);
    return cols;
}

int tui_screen_put_cut(int y, int x, int maxw, TuiAttr a, const char *s)
{
    if (!s || maxw <= 0) return 0;
    if (screen_width(s) <= maxw) return tui_screen_put(y, x, maxw, a, s);
    const char *e = tui_screen_glyph(G_ELLIPSIS);
    int ew = screen_width(e);
    if (maxw <= ew) return tui_screen_put(y, x, maxw, a, s);
    int n = tui_screen_put(y, x, maxw - ew, a, s);
    return n + tui_screen_put(y, x + n, ew, a == TA_NORMAL ? TA_DIM : a, e);
}

int tui_screen_putf(int y, int x, int maxw, TuiAttr a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    int n = tui_screen_put(y, x, maxw, a, s);
    free(s);
    return n;
}

void tui_screen_fill(int y, int x, int w, TuiAttr a)
{
    if (!s_open || y < 0 || y >= LINES || x < 0 || x >= COLS) return;
    if (w > COLS - x) w = COLS - x;
    if (w <= 0) return;
    attrset(tui_screen_attr(a));
    mvhline(y, x, ' ', w);
    attrset(A_NORMAL);
}

void tui_screen_bar_parts(int w, double frac, Strbuf *fill, Strbuf *empty)
{
    text_bar_parts(w, frac, s_utf8, fill, empty);
}

void tui_screen_bar(int y, int x, int w, double frac, TuiAttr fill_attr, TuiAttr over)
{
    Strbuf f = STRBUF_INIT, e = STRBUF_INIT;
    tui_screen_bar_parts(w, frac, &f, &e);
    int n = tui_screen_put(y, x, w, over != TA_NORMAL ? over : fill_attr, strbuf_str(&f));
    tui_screen_put(y, x + n, w - n, over != TA_NORMAL ? over : TA_DIM, strbuf_str(&e));
    strbuf_clear(&f);
    strbuf_clear(&e);
}

bool tui_screen_too_small(int min_cols, int min_lines)
{
    if (COLS >= min_cols && LINES >= min_lines) return false;
    erase();
    char msg[96];
    snprintf(msg, sizeof msg, "terminal too small (%dx%d): top needs %dx%d", COLS, LINES, min_cols, min_lines);
    int w = (int)strlen(msg);
    int y = LINES / 2, x = COLS > w ? (COLS - w) / 2 : 0;
    tui_screen_put(y, x, COLS - x, TA_ERROR, msg);
    if (y + 1 < LINES) tui_screen_put(y + 1, x, COLS - x, TA_NORMAL, "q quits");
    refresh();
    return true;
}
