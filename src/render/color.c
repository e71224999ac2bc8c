/* color.c — the colour codes of table.h's Color, below both table.c (coloured cells) and
 * text.c (which lets exactly these codes through to the terminal, text_printf). */
#include "render/table.h"

static const char *const codes[] = { "", "\033[31m", "\033[33m", "\033[32m", "\033[36m", "\033[1m", "\033[2m" };
const char *color_start(Color c, bool enabled) { return enabled && c ? codes[c] : ""; }
static const char reset_code[] = "\033[0m";
const char *color_end(Color c, bool enabled) { return enabled && c ? reset_code : ""; }
bool color_is_code(const char *s)
{
    if (s == reset_code) return true;
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) if (s == codes[i]) return true;
    return false;
}
