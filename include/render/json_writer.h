/* json_writer.h — the one JSON writer (after git's json-writer.h): every -o json document is
 * written through it, member by member, straight to the stream, so a long list is printed
 * item by item and never built whole.  json_render (render.h) writes a cJSON tree through it.
 *
 * The text is the project's JSON style, decided here only, and is kubectl's: every member
 * and array element on its own line, indented 2 spaces per level, "key": value; empty
 * containers as {} and []; numbers as cJSON prints them; strings with cJSON's escapes.
 *
 *   JsonWriter jw;
 *   jw_init(&jw, stdout);
 *   jw_object_begin(&jw, NULL);            // the document
 *   jw_string(&jw, "kind", "GPUStatus");
 *   jw_array_begin(&jw, "nodes");
 *   for (...) jw_value(&jw, NULL, item);   // a cJSON subtree, or jw_object_begin(&jw, NULL) ...
 *   jw_end(&jw);                           // the array
 *   jw_end(&jw);                           // the document
 *   rc = jw_release(&jw);                  // adds the final newline; 0, or -1 on a write error
 *
 * key is the member's name inside an object and must be NULL inside an array (and for the
 * document itself).  Misuse (a key in an array, jw_end with nothing open) is an error that
 * jw_release reports.
 *
 * YAML: a writer begun with jw_init_yaml takes the same calls and prints the same document
 * as YAML, through libyaml's emitter (mapping, sequence and scalar events as the calls come:
 * nothing is gathered but the emitter's few events of look-ahead), so -o yaml of a long list
 * is printed item by item too.  The same keys in the same order as the JSON; block style;
 * strings plain unless YAML would read them as another type or they are not plain-safe (then
 * quoted), with newlines as literal blocks; numbers as integers, else "%.6g".  A stream writer
 * (jw_init_yaml_stream) takes any number of documents, each starting with "---".
 */
#ifndef KGPU_RENDER_JSON_WRITER_H
#define KGPU_RENDER_JSON_WRITER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cJSON;

enum { JW_MAX_DEPTH = 64 };

typedef struct {
    FILE *f;
    int depth;                        /* containers open */
    bool in_array[JW_MAX_DEPTH];      /* per open container: array (else object) */
    bool has_items[JW_MAX_DEPTH];     /* per open container: something was written in it */
    bool failed;
    bool yaml;                        /* the YAML backend (jw_init_yaml) */
    bool yaml_stream;                 /* several documents, each with "---" */
    bool yaml_explicit;               /* the document starts with "---" */
    void *em;                         /* the YAML backend's emitter */
    bool tree;                        /* the tree backend (jw_tree_new) */
    struct cJSON *root;               /* the tree backend: the document */
    struct cJSON *open[JW_MAX_DEPTH]; /* ... and its open containers */
    size_t n;                         /* bytes gathered in buf, written in large pieces */
    char buf[1 << 16];
} JsonWriter;

void jw_init(JsonWriter *jw, FILE *f);
/* the YAML backend: one document ("---" first when explicit_start), or a stream of them */
void jw_init_yaml(JsonWriter *jw, FILE *f, bool explicit_start);
void jw_init_yaml_stream(JsonWriter *jw, FILE *f);
/* closes nothing: writes the final newline when the document is complete, flushes;
 * 0, or -1 when writing failed or the calls did not make one document (a YAML stream: any
 * number of documents).  A YAML writer's emitter is released here. */
int jw_release(JsonWriter *jw);

void jw_object_begin(JsonWriter *jw, const char *key);
void jw_array_begin(JsonWriter *jw, const char *key);
void jw_end(JsonWriter *jw);
void jw_string(JsonWriter *jw, const char *key, const char *s);    /* NULL: null */
void jw_number(JsonWriter *jw, const char *key, double v);          /* NaN/inf: null */
void jw_bool(JsonWriter *jw, const char *key, bool v);
void jw_null(JsonWriter *jw, const char *key);
/* a whole cJSON value (borrowed) as this member or element */
void jw_value(JsonWriter *jw, const char *key, const struct cJSON *v);
/* text that is already JSON, written as it is (it was rendered at this depth: json_render_value);
 * JSON and tree writers only (a tree keeps it as a cJSON_Raw item) */
void jw_raw(JsonWriter *jw, const char *key, const char *json);

/* a writer that builds a tree (NULL when out of memory); jw_tree_finish returns the
 * document (the caller cJSON_Deletes it; NULL when the calls did not make one) and frees the
 * writer */
JsonWriter *jw_tree_new(void);
struct cJSON *jw_tree_finish(JsonWriter *jw);
#endif
