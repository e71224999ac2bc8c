/* tui_keymap.h — a key table: one row per key binding, {keys, views where they apply, action,
 * help text, function-bar label}, from which the dispatch of a key (keymap_find), the
 * function bar of a view (keymap_bar) and the KEYS section of the help (keymap_help) are all
 * made.  Adding a key to `kubectl gpu top` is one row of its table (tui_keys.c); htop's
 * Action.c keeps its keys the same way.
 *
 * Views are bits chosen by the table's owner; a row applies in the views of `views` and shows
 * in the function bar of those of `bar_views` (a subset), in the order of the table.  Rows that
 * share their help_keys ("q Esc": back in one view, quit in another) are one line of the help,
 * the first row's.
 */
#ifndef KGPU_TUI_KEYMAP_H
#define KGPU_TUI_KEYMAP_H
#include <stdbool.h>
#include <stddef.h>
#include "tui/tui_text.h"

#define KEYMAP_MAX_KEYS 12

/* what a key did: keep going, or quit the program */
typedef enum { KEY_ACT_DONE, KEY_ACT_QUIT } KeyActResult;
typedef KeyActResult (*KeyActionFn)(void *ctx, int ch);
/* a label that depends on the state ("Sort:name"): written into buf (n bytes), returned */
typedef const char *(*KeyLabelFn)(const void *ctx, char *buf, size_t n);

typedef struct {
    int keys[KEYMAP_MAX_KEYS];  /* key codes (curses), ended by 0; none: a row the help lists only
                                 * (a key the terminal handles, as Ctrl-C) */
    unsigned views;             /* where the keys act */
    KeyActionFn action;
    const char *help_keys;      /* the keys as the help names them: "Up/Down j/k" */
    const char *help;           /* what they do */
    unsigned bar_views;         /* where the function bar shows the row (0: nowhere) */
    const char *bar_key;        /* the key as the bar names it: "Enter" */
    const char *bar_key_ascii;  /* the same without UTF-8 (NULL: bar_key) */
    const char *bar_label;      /* "Refresh"; or (NULL) made by bar_label_fn */
    KeyLabelFn bar_label_fn;
} KeyBinding;

typedef struct { const KeyBinding *rows; size_t n; } KeyMap;

/* the row whose keys include ch in view (a bit of views), the first in table order; NULL: none */
const KeyBinding *keymap_find(const KeyMap *m, unsigned view, int ch);
/* finds ch's row in view and runs its action; *found says whether one was there */
KeyActResult keymap_dispatch(const KeyMap *m, unsigned view, int ch, void *ctx, bool *found);

typedef struct { const char *key; char label[64]; } KeyBarItem;
/* the function bar of view: up to max items, in table order; the count */
size_t keymap_bar(const KeyMap *m, unsigned view, const void *ctx, bool utf8, KeyBarItem *out, size_t max);
/* the help's lines: "  KEYS" padded to key_col, then the help wrapped under it, one line per
 * distinct help_keys */
void keymap_help(TextDoc *d, const KeyMap *m, int key_col);
#endif
