/* tui_fleet.h — `kubectl gpu top --contexts/--all-contexts`: the fleet screen, a row per
 * context with its totals, the state of its data and that data's age (cmd/fleet_top.c reads
 * the contexts and handles the keys; this only draws).
 */
#ifndef KGPU_TUI_FLEET_H
#define KGPU_TUI_FLEET_H
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *context;
    bool have;                   /* figures were read at least once */
    bool lost;                   /* the latest read failed: the figures (if any) are old */
    bool reading;                /* a read is under way */
    double age;                  /* seconds since the figures were read */
    const char *error;           /* the latest failure's reason, or NULL */
    /* NAN: the context cannot say (idle GPUs without metrics) */
    double gpu_nodes, gpus, in_use, idle, free_, unavailable, pending;
} TuiFleetRow;

/* one frame: the header, the rows (selected highlighted), the selected context's error on the
 * last line when it has one, and a message (or NULL) */
void tui_fleet_draw(const TuiFleetRow *rows, size_t n, size_t selected, const char *message);
#endif
