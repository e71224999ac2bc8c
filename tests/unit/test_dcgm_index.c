/* test_dcgm_index.c — the usage sources' index of records by their labels (sources/dcgm_index.h):
 * every record found again through the table's growth (or in a table made at its size), a
 * missing key not found, equal hashes told apart by the records' labels. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sources/dcgm_index.h"

typedef struct { char name[24]; int n; } Rec;
typedef struct { const Rec *recs; const char *name; int n; } Want;

static Rec recs[5000];
static int collide;                 /* 1: every record hashes alike */

static uint64_t rec_hash(const char *name, int n)
{
    return collide ? 42 : dcgm_hash_int(dcgm_hash_str(DCGM_HASH_INIT, name), n);
}

static uint64_t rehash(const void *owner, size_t i)
{
    const Rec *r = &((const Rec *)owner)[i];
    return rec_hash(r->name, r->n);
}

static bool matches(const void *ctx, size_t i)
{
    const Want *w = ctx;
    return strcmp(w->recs[i].name, w->name) == 0 && w->recs[i].n == w->n;
}

static size_t find(const DcgmIndex *x, const char *name, int n)
{
    Want w = { recs, name, n };
    return dcgm_index_find(x, rec_hash(name, n), matches, &w);
}

static void run(size_t count, bool reserve)
{
    DcgmIndex x = { 0 };
    assert_int_equal(find(&x, "none", 0), 0);                  /* empty */
    uint32_t *made = NULL;
    if (reserve) {
        dcgm_index_reserve(&x, count);
        made = x.slot;
        assert_int_equal(find(&x, "none", 0), 0);
    }
    for (size_t i = 0; i < count; i++) {
        snprintf(recs[i].name, sizeof recs[i].name, "n%zu", i / 3);
        recs[i].n = (int)(i % 3);
        dcgm_index_add(&x, rec_hash(recs[i].name, recs[i].n), i, rehash, recs);
    }
    assert_int_equal(x.n, count);
    assert_true(3 * count <= 2 * x.cap);                       /* at most two thirds full */
    assert_true(3 * count > x.cap);                            /* and more than a third */
    if (reserve) assert_ptr_equal(x.slot, made);               /* made once, at its size */
    for (size_t i = 0; i < count; i++) assert_int_equal(find(&x, recs[i].name, recs[i].n), i + 1);
    assert_int_equal(find(&x, "n0", 3), 0);                    /* same name, another n */
    assert_int_equal(find(&x, "zz", 0), 0);
    dcgm_index_clear(&x);
    assert_int_equal(find(&x, "n0", 0), 0);
}

static void test_grow(void **state) { (void)state; collide = 0; run(5000, false); }
static void test_reserve(void **state) { (void)state; collide = 0; run(5000, true); run(43, true); }
static void test_collide(void **state) { (void)state; collide = 1; run(300, false); }

/* the hash of ("ab", "c") is not that of ("a", "bc"), nor NULL that of "x" */
static void test_hash(void **state)
{
    (void)state;
    uint64_t a = dcgm_hash_str(dcgm_hash_str(DCGM_HASH_INIT, "ab"), "c");
    uint64_t b = dcgm_hash_str(dcgm_hash_str(DCGM_HASH_INIT, "a"), "bc");
    assert_true(a != b);
    assert_true(dcgm_hash_str(DCGM_HASH_INIT, NULL) == dcgm_hash_str(DCGM_HASH_INIT, ""));
    assert_true(dcgm_hash_str(DCGM_HASH_INIT, NULL) != dcgm_hash_str(DCGM_HASH_INIT, "x"));
    assert_true(dcgm_hash_int(DCGM_HASH_INIT, -1) != dcgm_hash_int(DCGM_HASH_INIT, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_grow), cmocka_unit_test(test_reserve),
                                        cmocka_unit_test(test_collide),
                                        cmocka_unit_test(test_hash) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
