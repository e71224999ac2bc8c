/* tui_fleet.h — `kubectl gpu top --contexts/--all-contexts`: the fleet screen, a row per
 * context with its totals and the state of its watch: live, or lost since a time with its
 * data's age (cmd/fleet_top.c follows the contexts and handles the keys; this only draws).
 */
#ifndef KGPU_TUI_FLEET_H
#define KGPU_TUI_FLEET_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

typedef struct {
    const char *context;
    bool have;                   /* figures were received at least once */
    bool lost;                   /* the context's watch (or lists) are down: the figures (if any) are old */
    bool listing;                /* its lists are being read (its first figures are to come) */
    double age;                  /* lost with figures: seconds since they were last known current */
    time_t lost_since;           /* lost: when (wall clock) */
    const char *error;           /* why it is lost or failed, or NULL */
    /* NAN: the context cannot say (idle GPUs without metrics) */
    double gpu_nodes, gpus, in_use, idle, free_, unavailable, pending;
} TuiFleetRow;

/* one frame: the header, the rows (selected highlighted), the selected context's error on the
 * last line when it has one, and a message (or NULL) */
void tui_fleet_draw(const TuiFleetRow *rows, size_t n, size_t selected, const char *message);
#endif
