/* yaml.c — the JSON writer's YAML backend (json_writer.h, yaml_out.h): the writer's calls
 * and cJSON subtrees as libyaml emitter events, as they come.
 *
 * Scalars: numbers print plain; strings print plain unless YAML would read them as another
 * type (true, null, 1.5, "", leading/trailing space, ": " ...), then they are double-quoted,
 * so `kubectl apply` reads back exactly the string we meant (label values like "true").
 */
#include "render/render.h"
#include "render/json_writer.h"
#include "yaml_out.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <yaml.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    return fwrite(buffer, 1, size, (FILE *)data) == size;
}

static bool looks_like_other_type(const char *s)
{
    if (!*s) return true;
    static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "null", "y", "n",
                                         "True", "False", "Yes", "No", "On", "Off", "Null", "NULL",
                                         "TRUE", "FALSE", "YES", "NO", "ON", "OFF", "~", NULL };
    for (const char *const *w = words; *w; w++) if (strcmp(s, *w) == 0) return true;
    /* numbers, including 0x, 0o, 1e3, .5, -1, +1, .inf, .nan */
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    if (*p == '.' && (isdigit((unsigned char)p[1]) || strncmp(p, ".inf", 4) == 0 || strncmp(p, ".nan", 4) == 0 ||
                      strncmp(p, ".Inf", 4) == 0 || strncmp(p, ".NaN", 4) == 0)) return true;
    if (isdigit((unsigned char)*p)) {
        bool numeric = true;
        for (const char *q = p; *q; q++)
            if (!isdigit((unsigned char)*q) && !strchr("._:eExXoOabcdefABCDEF+-", *q)) numeric = false;
        if (numeric) return true;
    }
    return false;
}

/* One scalar event.  libyaml refuses text that is not valid UTF-8 (and then leaves the event
 * uninitialised: emitting it anyway frees a previous event's memory twice), and text from the
 * cluster can hold any bytes: invalid sequences are written as U+FFFD. */
static int emit_scalar(yaml_emitter_t *em, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    char *fixed = NULL;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        size_t k = str_utf8_len((const unsigned char *)s + i);
        if (k) { i += k; continue; }
        fixed = malloc(len * 3 + 1);
        if (!fixed) return -1;
        size_t o = 0;
        for (size_t j = 0; j < len;) {
            size_t m = str_utf8_len((const unsigned char *)s + j);
            if (m) { memcpy(fixed + o, s + j, m); o += m; j += m; }
            else { memcpy(fixed + o, "\xef\xbf\xbd", 3); o += 3; j++; }
        }
        fixed[o] = '\0';
        s = fixed;
        len = o;
        break;
    }
    int ok = yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)len, 1, 1, style) &&
             yaml_emitter_emit(em, &ev);
    free(fixed);
    return ok ? 0 : -1;
}

/* a number as YAML shows it: integers whole, others with 6 significant digits */
static void number_text(double d, char *buf, size_t n)
{
    if (d == floor(d) && fabs(d) < 1e15) snprintf(buf, n, "%.0f", d);
    else snprintf(buf, n, "%.6g", d);
}

/* a string scalar's style: literal block with newlines, quoted when YAML would read another type */
static yaml_scalar_style_t string_style(const char *s)
{
    if (strchr(s, '\n')) return YAML_LITERAL_SCALAR_STYLE;
    return looks_like_other_type(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
}

static int emit(yaml_emitter_t *em, const cJSON *n)
{
    yaml_event_t ev;
    if (cJSON_IsObject(n)) {
        yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
        if (!yaml_emitter_emit(em, &ev)) return -1;
        for (const cJSON *c = n->child; c; c = c->next) {
            const char *k = c->string ? c->string : "";
            if (emit_scalar(em, k, looks_like_other_type(k) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                                            : YAML_ANY_SCALAR_STYLE))
                return -1;
            if (emit(em, c)) return -1;
        }
        yaml_mapping_end_event_initialize(&ev);
        return yaml_emitter_emit(em, &ev) ? 0 : -1;
    }
    if (cJSON_IsArray(n)) {
        yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
        if (!yaml_emitter_emit(em, &ev)) return -1;
        for (const cJSON *c = n->child; c; c = c->next)
            if (emit(em, c)) return -1;
        yaml_sequence_end_event_initialize(&ev);
        return yaml_emitter_emit(em, &ev) ? 0 : -1;
    }
    char buf[64];
    const char *s;
    yaml_scalar_style_t style = YAML_PLAIN_SCALAR_STYLE;
    if (cJSON_IsString(n)) {
        s = n->valuestring;
        style = string_style(s);
    } else if (cJSON_IsNumber(n)) {
        number_text(n->valuedouble, buf, sizeof buf);
        s = buf;
    } else if (cJSON_IsBool(n)) {
        s = cJSON_IsTrue(n) ? "true" : "false";
    } else {
        s = "null";
    }
    return emit_scalar(em, s, style);
}

/* ---- the writer's backend ---- */

static bool event(JsonWriter *jw, yaml_event_t *ev, int initialized)
{
    if (!initialized || !yaml_emitter_emit(jw->em, ev)) { jw->failed = true; return false; }
    return true;
}

bool yaml_out_open(JsonWriter *jw)
{
    yaml_emitter_t *em = calloc(1, sizeof *em);
    if (!em || !yaml_emitter_initialize(em)) { free(em); jw->failed = true; return false; }
    yaml_emitter_set_output(em, write_handler, jw->f);
    yaml_emitter_set_unicode(em, 1);
    yaml_emitter_set_width(em, -1);
    jw->em = em;
    yaml_event_t ev;
    return event(jw, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
}

bool yaml_out_document_start(JsonWriter *jw)
{
    yaml_event_t ev;
    return event(jw, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, jw->yaml_explicit ? 0 : 1));
}

bool yaml_out_document_end(JsonWriter *jw)
{
    yaml_event_t ev;
    return event(jw, &ev, yaml_document_end_event_initialize(&ev, 1));
}

bool yaml_out_key(JsonWriter *jw, const char *key)
{
    if (emit_scalar(jw->em, key, looks_like_other_type(key) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE)) {
        jw->failed = true;
        return false;
    }
    return true;
}

bool yaml_out_begin(JsonWriter *jw, bool array)
{
    yaml_event_t ev;
    if (array)
        return event(jw, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
    return event(jw, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

bool yaml_out_end(JsonWriter *jw, bool array)
{
    yaml_event_t ev;
    if (array) return event(jw, &ev, yaml_sequence_end_event_initialize(&ev));
    return event(jw, &ev, yaml_mapping_end_event_initialize(&ev));
}

static bool plain(JsonWriter *jw, const char *s)
{
    if (emit_scalar(jw->em, s, YAML_PLAIN_SCALAR_STYLE)) { jw->failed = true; return false; }
    return true;
}

bool yaml_out_string(JsonWriter *jw, const char *s)
{
    if (!s) return plain(jw, "null");
    if (emit_scalar(jw->em, s, string_style(s))) { jw->failed = true; return false; }
    return true;
}

bool yaml_out_number(JsonWriter *jw, double v)
{
    char buf[64];
    number_text(v, buf, sizeof buf);
    return plain(jw, buf);
}

bool yaml_out_bool(JsonWriter *jw, bool v) { return plain(jw, v ? "true" : "false"); }
bool yaml_out_null(JsonWriter *jw) { return plain(jw, "null"); }

bool yaml_out_value(JsonWriter *jw, const cJSON *v)
{
    if (!v || emit(jw->em, v)) { jw->failed = true; return false; }
    return true;
}

bool yaml_out_close(JsonWriter *jw, bool complete)
{
    yaml_emitter_t *em = jw->em;
    bool ok = true;
    if (em && complete) {
        yaml_event_t ev;
        ok = event(jw, &ev, yaml_stream_end_event_initialize(&ev));
    }
    if (em) { yaml_emitter_delete(em); free(em); }
    jw->em = NULL;
    return ok;
}
