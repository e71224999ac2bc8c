/* util.h — allocation that never returns NULL, growable strings and string vectors.
 *
 * Ownership: every function returning char* returns a newly allocated string the caller
 * frees with free(). Strbuf and Strvec own their contents; strbuf_clear / strvec_clear free
 * them and leave the struct empty (STRBUF_INIT / STRVEC_INIT), ready for reuse.
 * Names across the project, as git's: S_init sets S up, S_release frees what S holds (S needs
 * S_init again), S_clear frees what S holds and leaves S as its INIT state, S_free also frees
 * S itself (tests/README.md, "Ownership names").
 */
#ifndef KGPU_UTIL_H
#define KGPU_UTIL_H
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);            /* xstrdup(NULL) == NULL */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* the set bits of x: the popcnt instruction where the build targets it, else a SWAR count (the
 * x86-64 baseline has no popcnt, and __builtin_popcountll is then a library call) */
static inline int util_popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* grow an array: ensure capacity for n+1 elements of size sz */
#define ARRAY_GROW(ptr, n, cap) do { if ((n) >= (cap)) { (cap) = (cap) ? (cap) * 2 : 8; \
    (ptr) = xrealloc((ptr), (cap) * sizeof(*(ptr))); } } while (0)

typedef struct { char *buf; size_t len, cap; } Strbuf;
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_add(Strbuf *sb, const char *data, size_t n);
void strbuf_grow(Strbuf *sb, size_t n);     /* room for n more bytes and the NUL */
void strbuf_adds(Strbuf *sb, const char *s);
void strbuf_addf(Strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_addch(Strbuf *sb, char c);
/* v in decimal, as "%lld" writes it (keys built per pod: no printf) */
void strbuf_addi(Strbuf *sb, long long v);
const char *strbuf_str(Strbuf *sb);      /* never NULL; "" when empty */
char *strbuf_detach(Strbuf *sb);         /* caller frees; sb reset */
void strbuf_reset(Strbuf *sb);
void strbuf_clear(Strbuf *sb);

typedef struct { char **v; size_t n, cap; } Strvec;
#define STRVEC_INIT { NULL, 0, 0 }
void strvec_push(Strvec *sv, const char *s);      /* copies s */
void strvec_pushf(Strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool strvec_contains(const Strvec *sv, const char *s);
void strvec_clear(Strvec *sv);

bool str_starts_with(const char *s, const char *prefix);
bool str_ends_with(const char *s, const char *suffix);
bool str_eq(const char *a, const char *b);        /* NULL-safe */
bool str_to_int64(const char *s, int64_t *out);   /* whole string must be a decimal integer */
/* (str.c) length of the valid UTF-8 sequence at s (1-4), 0 when the bytes there are not one (overlong
 * forms, surrogates and code points past U+10FFFF are not) */
size_t str_utf8_len(const unsigned char *s);
/* a copy safe to print on a terminal and in JSON: at most max bytes of s (never a split
 * character), control characters as spaces, bytes that are not UTF-8 as U+FFFD; NULL for NULL */
char *str_printable(const char *s, size_t max);
/* how many of s's first bytes JSON prints as they are: the run up to the first control byte
 * (the NUL that ends s among them), '"' or '\\' (the JSON writer's and the snapshot writer's) */
size_t str_json_plain(const char *s);
/* NUL-terminated; errmsg set (allocated) on failure; files over 64 MiB are refused */
char *util_read_file(const char *path, size_t *len, char **errmsg);

/* RFC 3339 ("2024-05-14T17:30:41Z", fractional seconds and offsets allowed) -> epoch seconds */
bool util_time_parse_rfc3339(const char *s, int64_t *epoch);
/* kubectl-style age: "45s", "12m", "5h", "3d", "2y" */
void util_format_age(int64_t seconds, char *out, size_t outlen);
/* Go/kubectl duration: "30s", "2m", "1h30m", "7d" (d and w accepted too), bare integer = seconds */
bool util_duration_parse(const char *s, double *seconds);
#endif
