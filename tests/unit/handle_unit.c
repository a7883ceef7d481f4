/*
 * Unit tests of the handle tables (ftmpi/util/handle.c): allocation,
 * release, reuse of the lowest free index, predefined (reserved) slots,
 * growth past the first capacity, and rejection of handles of other kinds,
 * of freed handles and of out-of-range indices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "util/handle.h"

#define KIND_A 3
#define KIND_B 5
#define RESERVED 4

static int objs[1000];

static int setup(void **state)
{
    handle_table_t *t = malloc(sizeof *t);
    handle_table_init(t, KIND_A, RESERVED);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    handle_table_fini(*state);
    free(*state);
    return 0;
}

static void test_alloc_get_release(void **state)
{
    handle_table_t *t = *state;
    int h = handle_alloc(t, &objs[0]);
    assert_true(h >= 0);
    assert_int_equal(handle_kind(h), KIND_A);
    assert_int_equal(handle_index(h), RESERVED); /* first user index */
    assert_ptr_equal(handle_get(t, h), &objs[0]);
    assert_int_equal(t->live, 1);
    int h2 = handle_alloc(t, &objs[1]);
    assert_int_equal(handle_index(h2), RESERVED + 1);
    assert_ptr_equal(handle_get(t, h2), &objs[1]);
    handle_release(t, h);
    assert_null(handle_get(t, h));
    assert_ptr_equal(handle_get(t, h2), &objs[1]);
    assert_int_equal(t->live, 1);
    handle_release(t, h2);
    assert_int_equal(t->live, 0);
}

static void test_reuse_lowest(void **state)
{
    handle_table_t *t = *state;
    int h[10];
    for (int i = 0; i < 10; i++) {
        h[i] = handle_alloc(t, &objs[i]);
        assert_int_equal(handle_index(h[i]), RESERVED + i);
    }
    /* free 7, 2, 5: the next allocations take 2, 5, 7, then 10 */
    handle_release(t, h[7]);
    handle_release(t, h[2]);
    handle_release(t, h[5]);
    assert_int_equal(handle_index(handle_alloc(t, &objs[100])), RESERVED + 2);
    assert_int_equal(handle_index(handle_alloc(t, &objs[101])), RESERVED + 5);
    assert_int_equal(handle_index(handle_alloc(t, &objs[102])), RESERVED + 7);
    assert_int_equal(handle_index(handle_alloc(t, &objs[103])), RESERVED + 10);
    assert_int_equal(t->live, 11);
    /* a freed-then-reused index maps to the new object */
    assert_ptr_equal(handle_get(t, h[2]), &objs[100]);
}

static void test_reserved(void **state)
{
    handle_table_t *t = *state;
    handle_table_set(t, 0, NULL);
    handle_table_set(t, 1, &objs[500]);
    handle_table_set(t, 3, &objs[503]);
    int p1 = (KIND_A << HANDLE_KIND_SHIFT) | 1;
    int p3 = (KIND_A << HANDLE_KIND_SHIFT) | 3;
    assert_ptr_equal(handle_get(t, p1), &objs[500]);
    assert_ptr_equal(handle_get(t, p3), &objs[503]);
    /* index 0 is the null handle */
    assert_null(handle_get(t, KIND_A << HANDLE_KIND_SHIFT));
    /* user objects never land in reserved slots, even free ones (2) */
    int h = handle_alloc(t, &objs[0]);
    assert_true(handle_index(h) >= RESERVED);
    /* releasing a predefined handle does nothing */
    handle_release(t, p1);
    assert_ptr_equal(handle_get(t, p1), &objs[500]);
    assert_int_equal(t->live, 1);
}

static void test_invalid(void **state)
{
    handle_table_t *t = *state;
    int h = handle_alloc(t, &objs[0]);
    /* same index, another kind */
    int other = (KIND_B << HANDLE_KIND_SHIFT) | (int)handle_index(h);
    assert_null(handle_get(t, other));
    handle_release(t, other); /* must not free ours */
    assert_ptr_equal(handle_get(t, h), &objs[0]);
    assert_int_equal(t->live, 1);
    /* index beyond the table */
    int far = (KIND_A << HANDLE_KIND_SHIFT) | (int)HANDLE_INDEX_MASK;
    assert_null(handle_get(t, far));
    handle_release(t, far);
    /* plain garbage and negative values */
    assert_null(handle_get(t, 12345));
    assert_null(handle_get(t, -1));
    assert_null(handle_get(t, 0));
    /* double release is harmless */
    handle_release(t, h);
    handle_release(t, h);
    assert_int_equal(t->live, 0);
    assert_null(handle_get(t, h));
}

static void test_grow(void **state)
{
    handle_table_t *t = *state;
    int h[1000];
    for (int i = 0; i < 1000; i++) {
        h[i] = handle_alloc(t, &objs[i]);
        assert_true(h[i] >= 0);
        assert_int_equal(handle_index(h[i]), RESERVED + i);
    }
    assert_true(t->cap >= 1000 + RESERVED);
    for (int i = 0; i < 1000; i++)
        assert_ptr_equal(handle_get(t, h[i]), &objs[i]);
    for (int i = 0; i < 1000; i += 2)
        handle_release(t, h[i]);
    assert_int_equal(t->live, 500);
    for (int i = 1; i < 1000; i += 2)
        assert_ptr_equal(handle_get(t, h[i]), &objs[i]);
    /* refill the holes from the bottom */
    for (int i = 0; i < 1000; i += 2)
        assert_int_equal(handle_index(handle_alloc(t, &objs[i])), RESERVED + i);
    assert_int_equal(t->live, 1000);
}

/* Handles of the MPI kinds are what mpi.h says they are. */
static void test_mpi_layout(void **state)
{
    (void)state;
    handle_table_t t;
    handle_table_init(&t, 1, 3); /* like communicators: null, world, self */
    handle_table_set(&t, 1, &objs[1]);
    handle_table_set(&t, 2, &objs[2]);
    assert_ptr_equal(handle_get(&t, (1 << 26) | 1), &objs[1]);
    assert_ptr_equal(handle_get(&t, (1 << 26) | 2), &objs[2]);
    int h = handle_alloc(&t, &objs[3]);
    assert_int_equal(h, (1 << 26) | 3);
    handle_table_fini(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_alloc_get_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reuse_lowest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reserved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grow, setup, teardown),
        cmocka_unit_test(test_mpi_layout),
    };
    return cmocka_run_group_tests_name("handle", tests, NULL, NULL);
}
