/* tui_text.h — a TextDoc (render/textdoc.h: the one text presentation, printed by the CLI)
 * drawn by top: the node view, the explain view, the help screen and the detail pane are
 * TextDocs, rebuilt from the current data each time they are drawn.  On the screen a field
 * label is its word in the label colour and a heading's first word is upper case.
 */
#ifndef KGPU_TUI_TEXT_H
#define KGPU_TUI_TEXT_H
#include <stddef.h>
#include "render/textdoc.h"
#include "tui/tui_screen.h"

/* text_init for the screen: w columns, the screen's glyphs (UTF-8 or ASCII) */
void tui_doc_init(TextDoc *d, int width);
/* lines top.. into the box (y, x, h rows, w columns); rows past the end are blanked */
void tui_text_draw(const TextDoc *d, int y, int x, int h, int w, size_t top);
#endif
