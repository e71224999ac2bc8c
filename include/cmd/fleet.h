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
#include "render/fleet.h"

struct Error;
typedef struct {
    const char *name;            /* "status" */
    FleetKind kind;
    const char **output;         /* the command's -o value: read for the fleet's format; each
                                  * context's run is given "json" */
    bool *no_headers;            /* the command's --no-headers (table only), or NULL */
    /* the command (the same run `kubectl gpu NAME` calls) */
    int (*run)(int argc, char **argv, struct GlobalOptions *g, struct Error *err);
} FleetCommand;

/* --contexts or --all-contexts was given */
bool fleet_wanted(const GlobalOptions *g);
/* Checks the flags that make no sense over a fleet (a usage error, EXIT_USAGE with err set),
 * lists the contexts, runs them and renders the fleet.  Returns the exit code. */
int fleet_run(const FleetCommand *fc, int argc, char **argv, GlobalOptions *g, struct Error *err);
#endif
