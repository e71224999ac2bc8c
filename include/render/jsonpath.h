/* jsonpath.h — the part of kubectl's JSONPath that custom columns use, evaluated on cJSON.
 *
 * Accepted, as kubectl's RelaxedJSONPathExpression accepts them (cli-runtime
 * pkg/printers/customcolumn.go): "a.b", ".a.b", "{a.b}", "{.a.b}"; inside, fields (.name,
 * .name\.with\.dots, ['key'], ["key"]), the wildcard (.* or [*]), an index ([0], [-1]) and a
 * slice ([1:3], [:2], [::2]).  Not accepted (a clear error when compiled): recursive descent
 * (..), unions ([a,b]), filters ([?(...)]), range/end and text between expressions.
 *
 * Evaluation follows client-go's jsonpath with missing keys allowed: a missing key or a field
 * of a non-object gives no value; an index into a non-array or out of its bounds is an error
 * (kubectl's messages).  Values print as kubectl prints them (Go's fmt.Sprint of the decoded
 * JSON): strings as they are, integers without a point, null as <nil>, objects as
 * map[k:v ...] (keys sorted), arrays as [a b]; several values joined by ",", none as <none>.
 *
 * Ownership: a JsonPath is the caller's (jsonpath_free); the cJSON evaluated is borrowed; the
 * text returned is the caller's.
 */
#ifndef KGPU_RENDER_JSONPATH_H
#define KGPU_RENDER_JSONPATH_H

struct cJSON;
struct Error;
typedef struct JsonPath JsonPath;

/* NULL with err set when expr is not an expression of the subset above */
JsonPath *jsonpath_compile(const char *expr, struct Error *err);
/* the values at the path in v as a custom-columns cell; NULL with err set on an index error */
char *jsonpath_eval_text(const JsonPath *p, const struct cJSON *v, struct Error *err);
/* the first value at the path in v (borrowed from v), or NULL when there is none or on an
 * index error: for sorting by a path */
const struct cJSON *jsonpath_first(const JsonPath *p, const struct cJSON *v);
void jsonpath_free(JsonPath *p);
/* calls fn with every value at the path in v (borrowed), in document order; a non-zero return
 * of fn stops (returned); -1 with err set on an index error */
int jsonpath_each(const JsonPath *p, const struct cJSON *v, int (*fn)(void *ctx, const struct cJSON *v), void *ctx,
                  struct Error *err);
/* kubectl's object paths a row of ours answers by its own keys (a row of pending, status, plan
 * has no metadata): .metadata.name -> .name, .metadata.namespace -> .namespace (any of the
 * relaxed spellings); the path of the row's key, or NULL for any other path */
JsonPath *jsonpath_row_alias(const char *expr);
/* --sort-by's order of two values (NULL = no value): numbers by value, strings bytewise, false
 * before true; values of different kinds by kind (numbers, strings, booleans, lists and
 * objects, null), no value last */
int jsonpath_value_compare(const struct cJSON *a, const struct cJSON *b);
/* one value as Go's fmt.Sprint prints the decoded JSON (see above); caller frees */
char *jsonpath_value_text(const struct cJSON *v);
#endif
