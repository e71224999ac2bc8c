/* text.h — the terminal sink: text that reaches a terminal passes here (or through table.h,
 * whose cells come here too), so whatever came from outside (names, namespaces, labels,
 * messages from the cluster, Prometheus or a snapshot) is made harmless once, where it is
 * printed, for every field: no escape sequence (ESC, C1 controls), no carriage return,
 * backspace, bell or other control character reaches the terminal — each becomes a space.
 * JSON and YAML do not need this: their writers escape control characters.
 */
#ifndef KGPU_RENDER_TEXT_H
#define KGPU_RENDER_TEXT_H
#include <stdbool.h>
#include <stdio.h>

/* a copy of s with every control character (C0, DEL, C1) a space and bytes that are not
 * UTF-8 U+FFFD; keep_newlines keeps '\n' (text that is meant to span lines).  Caller frees;
 * NULL gives "". */
char *text_clean(const char *s, bool keep_newlines);
/* printf to f with every %s argument cleaned (text_clean, newlines too), except the colour
 * codes of color_start/color_end, which are ours.  The format itself is trusted. */
void text_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
