/* yaml.c — YAML output: cJSON trees walked into libyaml's emitter.
 *
 * Scalars: numbers print plain; strings print plain unless YAML would read them as another
 * type (true, null, 1.5, "", leading/trailing space, ": " ...), then they are double-quoted,
 * so `kubectl apply` reads back exactly the string we meant (label values like "true").
 */
#include "render/render.h"
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

/* length of the valid UTF-8 sequence at s (1-4), 0 when the bytes there are not one */
static size_t utf8_seq(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
    if (n == 0 || (s[0] & 0xf8) == 0xf8) return 0;
    for (size_t i = 1; i < n; i++) if ((s[i] & 0xc0) != 0x80) return 0;
    unsigned cp = n == 2 ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu)
                : n == 3 ? (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu)
                : (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 | (s[3] & 0x3fu);
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return n;
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
        size_t k = utf8_seq((const unsigned char *)s + i);
        if (k) { i += k; continue; }
        fixed = malloc(len * 3 + 1);
        if (!fixed) return -1;
        size_t o = 0;
        for (size_t j = 0; j < len;) {
            size_t m = utf8_seq((const unsigned char *)s + j);
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
        if (strchr(s, '\n')) style = YAML_LITERAL_SCALAR_STYLE;
        else style = looks_like_other_type(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
    } else if (cJSON_IsNumber(n)) {
        double d = n->valuedouble;
        if (d == floor(d) && fabs(d) < 1e15) snprintf(buf, sizeof buf, "%.0f", d);
        else snprintf(buf, sizeof buf, "%.6g", d);
        s = buf;
    } else if (cJSON_IsBool(n)) {
        s = cJSON_IsTrue(n) ? "true" : "false";
    } else {
        s = "null";
    }
    return emit_scalar(em, s, style);
}

static int emit_docs(FILE *f, const cJSON *const *docs, size_t n, bool explicit_start)
{
    yaml_emitter_t em;
    yaml_event_t ev;
    if (!yaml_emitter_initialize(&em)) return -1;
    yaml_emitter_set_output(&em, write_handler, f);
    yaml_emitter_set_unicode(&em, 1);
    yaml_emitter_set_width(&em, -1);
    int rc = -1;
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    if (!yaml_emitter_emit(&em, &ev)) goto out;
    for (size_t i = 0; i < n; i++) {
        yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, explicit_start ? 0 : 1);
        if (!yaml_emitter_emit(&em, &ev)) goto out;
        if (emit(&em, docs[i])) goto out;
        yaml_document_end_event_initialize(&ev, 1);
        if (!yaml_emitter_emit(&em, &ev)) goto out;
    }
    yaml_stream_end_event_initialize(&ev);
    if (!yaml_emitter_emit(&em, &ev)) goto out;
    rc = 0;
out:
    yaml_emitter_delete(&em);
    return rc == 0 && !ferror(f) ? 0 : -1;
}

int render_yaml(FILE *f, const cJSON *doc, bool explicit_start)
{
    return emit_docs(f, &doc, 1, explicit_start);
}

int render_yaml_stream(FILE *f, const cJSON *const *docs, size_t n)
{
    return emit_docs(f, docs, n, true);
}
