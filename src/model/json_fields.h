/* json_fields.h — private to src/model: typed, NULL-safe reads of cJSON fields.
 *
 * Every getter returns NULL / the default when the field is absent or has the wrong type, so
 * hostile input (a number where a string belongs, an array for an object) degrades to
 * "field missing" instead of a crash.  Returned pointers are borrowed from the JSON tree.
 */
#ifndef KGPU_MODEL_JSON_FIELDS_H
#define KGPU_MODEL_JSON_FIELDS_H
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "util/strpool.h"
#include "util/util.h"

/* cJSON_IsObject / IsArray / IsString / IsNumber / IsBool / IsTrue as cJSON 1.7.15 defines
 * them (cJSON.c: the low byte of type, NULL is none of them), inline: the library's calls were
 * a million a 1,000-node cluster, a tenth of a pod's reading */
static inline bool jtype(const cJSON *v, int type) { return v && (v->type & 0xFF) == type; }
static inline bool jis_bool(const cJSON *v) { return v && (v->type & (cJSON_True | cJSON_False)) != 0; }

/* cJSON_GetObjectItemCaseSensitive's answer (the first member named key; a member without a
 * name ends the search), with the first bytes compared before strcmp is called: a pod's
 * reading looks up some forty fields among their siblings, and the calls were 8% of `status` */
static inline const cJSON *jget(const cJSON *obj, const char *key)
{
    if (!jtype(obj, cJSON_Object) || !key) return NULL;
    for (const cJSON *c = obj->child; c && c->string; c = c->next)
        if (c->string[0] == key[0] && strcmp(c->string, key) == 0) return c;
    return NULL;
}
/* a member already found (jget's answer, or a one-pass reader's), as a typed value */
static inline const cJSON *jv_obj(const cJSON *v) { return jtype(v, cJSON_Object) ? v : NULL; }
static inline const cJSON *jv_arr(const cJSON *v) { return jtype(v, cJSON_Array) ? v : NULL; }
static inline const char *jv_str(const cJSON *v)
{
    return jtype(v, cJSON_String) && v->valuestring ? v->valuestring : NULL;
}
static inline const char *jv_str_ne(const cJSON *v)
{
    const char *s = jv_str(v);
    return s && *s ? s : NULL;
}
/* integral number within [lo, hi], else dflt */
static inline int64_t jv_int(const cJSON *v, int64_t lo, int64_t hi, int64_t dflt)
{
    if (!jtype(v, cJSON_Number) || !isfinite(v->valuedouble)) return dflt;
    double d = v->valuedouble;
    if (d != floor(d) || d < (double)lo || d > (double)hi) return dflt;
    return (int64_t)d;
}
/* a number that is an int32 (a required field such as a PriorityClass's value): true with *out */
static inline bool jv_int32(const cJSON *v, int32_t *out)
{
    int64_t x = jv_int(v, INT32_MIN, INT32_MAX, 0);
    if (x != jv_int(v, INT32_MIN, INT32_MAX, 1)) return false;     /* a default either way: not one */
    *out = (int32_t)x;
    return true;
}

static inline const cJSON *jobj(const cJSON *obj, const char *key) { return jv_obj(jget(obj, key)); }
static inline const cJSON *jarr(const cJSON *obj, const char *key) { return jv_arr(jget(obj, key)); }
static inline const char *jstr(const cJSON *obj, const char *key) { return jv_str(jget(obj, key)); }
/* a non-empty string, else NULL */
static inline const char *jstr_ne(const cJSON *obj, const char *key) { return jv_str_ne(jget(obj, key)); }
static inline bool jbool(const cJSON *obj, const char *key, bool dflt)
{
    const cJSON *v = jget(obj, key);
    return jis_bool(v) ? jtype(v, cJSON_True) : dflt;
}
static inline int64_t jint(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t dflt)
{
    return jv_int(jget(obj, key), lo, hi, dflt);
}
/* A copy of a string field (NULL when absent) of at most max bytes (cut at a UTF-8
 * boundary), control characters (newlines, ESC, CR, ...) replaced by spaces and bytes that
 * are not UTF-8 by U+FFFD (str_printable): every string the model keeps is printed somewhere
 * (tables, explain text, the TUI, JSON, error and warning lines), and an object's text must
 * not move the cursor, clear the screen, retitle the terminal, start a second line or make
 * the JSON output invalid. */
static inline char *jdup_trunc(const char *s, size_t max)
{
    return str_printable(s, max);
}
/* the same, as the pool's copy (util/strpool.h): nothing to free */
static inline const char *jpool_trunc(StrPool *pool, const char *s, size_t max)
{
    return strpool_printable(pool, s, max);
}
/* epoch seconds of an RFC 3339 string (a member found, or a field), 0 when absent or malformed */
static inline int64_t jv_time(const cJSON *v)
{
    int64_t t = 0;
    const char *s = jv_str(v);
    if (!s || !util_time_parse_rfc3339(s, &t)) return 0;
    return t;
}
static inline int64_t jtime(const cJSON *obj, const char *key) { return jv_time(jget(obj, key)); }

/* limits for names and free text kept from objects (Kubernetes' own limits, with room) */
#define MODEL_NAME_MAX 253          /* DNS subdomain: object names */
#define MODEL_TEXT_MAX 4096         /* event / condition messages are truncated to this */
#endif
