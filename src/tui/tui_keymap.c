/* tui_keymap.c — dispatch, function bar and help from one key table (tui_keymap.h). */
#include "tui/tui_keymap.h"
#include "util/util.h"
#include <stdio.h>
#include <string.h>

const KeyBinding *keymap_find(const KeyMap *m, unsigned view, int ch)
{
    for (size_t i = 0; i < m->n; i++) {
        const KeyBinding *b = &m->rows[i];
        if (!(b->views & view) || !b->action) continue;
        for (size_t k = 0; k < KEYMAP_MAX_KEYS && b->keys[k]; k++)
            if (b->keys[k] == ch) return b;
    }
    return NULL;
}

KeyActResult keymap_dispatch(const KeyMap *m, unsigned view, int ch, void *ctx, bool *found)
{
    const KeyBinding *b = keymap_find(m, view, ch);
    *found = b != NULL;
    return b ? b->action(ctx, ch) : KEY_ACT_DONE;
}

size_t keymap_bar(const KeyMap *m, unsigned view, const void *ctx, bool utf8, KeyBarItem *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n && n < max; i++) {
        const KeyBinding *b = &m->rows[i];
        if (!(b->bar_views & view) || !b->bar_key) continue;
        KeyBarItem *it = &out[n++];
        it->key = !utf8 && b->bar_key_ascii ? b->bar_key_ascii : b->bar_key;
        const char *l = b->bar_label ? b->bar_label
                        : b->bar_label_fn ? b->bar_label_fn(ctx, it->label, sizeof it->label) : "";
        if (l != it->label) snprintf(it->label, sizeof it->label, "%s", l);
    }
    return n;
}

void keymap_help(TextDoc *d, const KeyMap *m, int key_col)
{
    for (size_t i = 0; i < m->n; i++) {
        const KeyBinding *b = &m->rows[i];
        if (!b->help_keys || !b->help) continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) seen = m->rows[j].help_keys && str_eq(m->rows[j].help_keys, b->help_keys);
        if (seen) continue;
        text_newline(d);
        text_addf(d, TA_FKEY, "  %s", b->help_keys);
        text_pad(d, key_col);
        text_wrap(d, key_col, TA_NORMAL, b->help);
    }
}
