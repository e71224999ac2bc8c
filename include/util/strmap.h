/* strmap.h — string-keyed hash map to void*.  Keys are copied; values are borrowed
 * (the map never frees them; strmap_free takes an optional value destructor). */
#ifndef KGPU_STRMAP_H
#define KGPU_STRMAP_H
#include <stddef.h>

typedef struct StrMap StrMap;
StrMap *strmap_new(void);
void strmap_free(StrMap *m, void (*free_value)(void *));
void *strmap_get(const StrMap *m, const char *key);
void strmap_put(StrMap *m, const char *key, void *value); /* replaces */
/* removes key (no-op when absent); returns the value it held, or NULL */
void *strmap_del(StrMap *m, const char *key);
size_t strmap_size(const StrMap *m);
/* iterate: idx starts at 0; returns 0 at the end */
int strmap_next(const StrMap *m, size_t *idx, const char **key, void **value);
#endif
