/* output_template.h — kubectl's -o jsonpath=TEMPLATE and -o go-template=TEMPLATE (and their
 * -file= forms), a subset as kubectl documents them, run on the very document -o json prints
 * (parsed with cJSON: the command renders JSON, the template walks that).
 *
 * jsonpath (kubectl's JSONPath support page): text outside braces as it is; {PATH} with PATH
 * as render/jsonpath.h takes it, relative to the current object (the document, or the item of
 * a range), "@" the current object, "$" the document ({$.kind}); several values joined by one
 * space; strings as they are, numbers and booleans as kubectl prints them, objects and lists
 * as JSON; {range PATH}...{end} repeats its body for each value (each item of a list);
 * {"\n"}, {'\t'} literal text with escapes.  Filters, unions and recursive descent are refused
 * with a clear error, as jsonpath.h's paths are.
 *
 * go-template (Go's text/template, the part kubectl users write): {{.a.b}} (a field of dot),
 * {{.}}, {{index .a "key"}} (a map key such as "nvidia.com/gpu", or a list index), {{"text"}},
 * {{range PIPE}}...{{else}}...{{end}} (dot each item of a list, each value of an object by
 * sorted key), {{if PIPE}}...{{else}}...{{end}} (Go's truth: false, 0, "", null, empty list or
 * object are false), and {{- / -}} trimming.  Values print as Go's fmt does (jsonpath.h's
 * jsonpath_value_text); a missing key prints "<no value>".  Anything else is refused.
 *
 * Ownership: an OutputTemplate is the caller's (output_template_free); the document is borrowed.
 */
#ifndef KGPU_RENDER_OUTPUT_TEMPLATE_H
#define KGPU_RENDER_OUTPUT_TEMPLATE_H
#include <stdbool.h>
#include <stdio.h>

struct cJSON;
struct Error;
typedef struct OutputTemplate OutputTemplate;

/* the -o value names a template format: jsonpath=, jsonpath-file=, go-template=,
 * go-template-file= (or the word alone, which output_template_new refuses as kubectl does) */
bool output_template_format(const char *output);
/* the template of an -o value, compiled; NULL with err set (a usage error) */
OutputTemplate *output_template_new(const char *output, struct Error *err);
/* the template run on doc, to f; 0, or -1 with err set (an index out of range, a write error) */
int output_template_execute(const OutputTemplate *t, const struct cJSON *doc, FILE *f, struct Error *err);
void output_template_free(OutputTemplate *t);
#endif
