/* fleet.h — `status` and `pending` over several kubeconfig contexts at once (--contexts a,b,c,
 * --all-contexts; issue 33).
 *
 * Each context is run by the command itself, in a child process of ours (fork, no exec) with
 * --context NAME and -o json, its stdout and stderr going to unlinked temporary files: so each
 * context's document is, by construction, what `--context NAME -o json` prints, each context
 * has its own server, CA, credentials, exec plugin and --request-timeout, and the parent holds
 * at most one context's document at a time.  At most --max-concurrent-contexts (8) run at
 * once; results are handed to render/fleet.h in the kubeconfig's order as they complete.
 *
 * A context that fails is one stderr line, warning: context "NAME": REASON (its own error
 * line, which never holds a credential), and no table row; JSON still lists it with its
 * error.  A context that answered passes its own stderr lines on, each prefixed with its name.
 * Exit 0 when at least one context answered, else 1.
 */
#ifndef KGPU_CMD_FLEET_H
#define KGPU_CMD_FLEET_H
#include <stdbool.h>
#include "cmd/global_options.h"
#include "cmd/watch_loop.h"
#include "render/fleet.h"
#include "util/util.h"
#include <stdio.h>
#include <sys/types.h>

struct Error;
typedef struct {
    const char *name;            /* "status" */
    FleetKind kind;
    const char **output;         /* the command's -o value: read for the fleet's format; each
                                  * context's run is given "json" */
    bool *no_headers;            /* the command's --no-headers (table only), or NULL */
    /* the command (the same run `kubectl gpu NAME` calls) */
    int (*run)(int argc, char **argv, struct GlobalOptions *g, struct Error *err);
    /* top's fleet screen (status's only, else NULL): lists the context, prints one line of JSON
     * {"summary": {the GPUStatus summary's gpuNodes, physicalGPUs, pendingGPUPods, physical}},
     * then follows it by watches and prints the line again each time it changes, calling
     * tick(tick_ctx, stats) between waits (--request-timeout bounds its lists, not its
     * watches); returns the exit code (err set) when it cannot */
    int (*watch)(struct GlobalOptions *g, WatchTickFn tick, void *tick_ctx, struct Error *err);
} FleetCommand;

/* status's, for top's fleet screen (cmd_status.c) */
extern const FleetCommand cmd_status_fleet;

/* --contexts or --all-contexts was given */
bool fleet_wanted(const GlobalOptions *g);
/* Checks the flags that make no sense over a fleet (a usage error, EXIT_USAGE with err set),
 * lists the contexts, runs them and renders the fleet.  Returns the exit code. */
int fleet_run(const FleetCommand *fc, int argc, char **argv, GlobalOptions *g, struct Error *err);
/* top's fleet screen (cmd/fleet_top.c): a row per context, each context listed then followed
 * by its own watch (status_fc->watch, in a child process of its own), its row redrawn when its
 * figures change, marked lost while its watch is down; Enter runs top_run for the selected
 * context (interval is that top's).  Needs a terminal (the caller checks).  Returns the exit
 * code. */
int fleet_top_run(const FleetCommand *status_fc, int (*top_run)(int, char **, struct GlobalOptions *, struct Error *),
                  GlobalOptions *g, double interval, struct Error *err);

/* ---- the parts fleet_run is made of (fleet_contexts: top's fleet screen's too) ---- */

/* the contexts to run, in order, into names (empty on entry): 0, or the exit code with err set
 * (a usage error for a name the kubeconfig lacks or flags a fleet cannot take) */
int fleet_contexts(const GlobalOptions *g, const char *output, Strvec *names, struct Error *err);

typedef enum { SLOT_WAITING, SLOT_RUNNING, SLOT_DONE } SlotState;
typedef struct {
    const char *context;         /* borrowed */
    SlotState state;
    pid_t pid;
    FILE *out, *err;             /* the child's stdout and stderr: unlinked temporary files */
    int wait_status;             /* set by the caller from waitpid, with state SLOT_DONE */
    char *spawn_error;           /* the child could not be started (state SLOT_DONE at once) */
} FleetSlot;

/* starts the context's run: state SLOT_RUNNING (pid set), or SLOT_DONE with spawn_error */
void fleet_slot_spawn(const FleetCommand *fc, FleetSlot *s, int argc, char **argv, GlobalOptions *g);
/* after SLOT_DONE: the context's document (caller cJSON_Deletes it), or NULL with *reason (its
 * error line; caller frees).  relay: pass the child's other stderr lines on, named (verbose:
 * also those of a failed child).  The slot is SLOT_WAITING again, its files closed. */
struct cJSON *fleet_slot_collect(FleetSlot *s, bool relay, bool verbose, char **reason);
#endif
