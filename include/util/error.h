/* error.h — errors carry context upward and are printed once, at the top.
 *
 * A function that can fail takes an Error* and returns -1 (or NULL) after error_set().
 * Callers that add context use error_prefix(): "kubeconfig /x: user \"ci\": " + inner.
 * main() prints "error: <msg>" to stderr.  Messages never contain credentials.
 */
#ifndef KGPU_ERROR_H
#define KGPU_ERROR_H
#include <stdbool.h>

/* exit codes of the contract */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef struct Error {
    char msg[2048];
    int code;          /* optional detail: HTTP status for API errors, else 0 */
    bool set;
} Error;

void error_set(Error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void error_prefix(Error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void error_clear(Error *e);
#endif
