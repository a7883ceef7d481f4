/*
 * test_place.c - encoding groups across hosts (dckpt_place): the plain
 * consecutive layout without hosts or on one host; one member per host in
 * block, cyclic and 3-host layouts; the unavoidable case of unequal hosts;
 * and, for random tables with equal hosts, no group with two members on
 * one host whenever groups are no larger than the number of hosts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "dckpt_place.h"
#include "test_util.h"

/* Sizes and member numbering every placement must have. */
static void check_shape(int n, int g, const int *gof, const int *grk)
{
    int *seen = calloc((size_t)n, sizeof(int)), *size = calloc((size_t)g, sizeof(int));
    assert_non_null(seen);
    assert_non_null(size);
    for (int r = 0; r < n; r++) {
        assert_true(gof[r] >= 0 && gof[r] < g);
        /* members in rank order: rank r is preceded by grk[r] members */
        assert_int_equal(grk[r], size[gof[r]]);
        size[gof[r]]++;
    }
    for (int i = 0; i < g; i++)
        assert_int_equal(size[i], n / g + (i < n % g));
    free(seen);
    free(size);
}

/* Most members any group has on one host. */
static int worst(int n, int g, const int *host, const int *gof)
{
    int w = 0;
    for (int a = 0; a < n; a++) {
        int c = 0;
        for (int b = 0; b < n; b++)
            c += gof[b] == gof[a] && host[b] == host[a];
        if (c > w)
            w = c;
    }
    return w;
}

/* Place, check the shape, and return the most members a group has on one host. */
static int place(int n, int g, const int *host, int *gof, int *grk)
{
    assert_int_equal(dckpt_place(n, g, host, gof, grk), 0);
    check_shape(n, g, gof, grk);
    return host ? worst(n, g, host, gof) : 1;
}

static void test_plain(void **state)
{
    (void)state;
    int gof[10], grk[10], one[10] = {0};
    place(10, 3, NULL, gof, grk);
    int want[10] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 2};
    assert_memory_equal(gof, want, sizeof want);
    assert_int_equal(dckpt_place(10, 3, one, gof, grk), 0); /* one host */
    assert_memory_equal(gof, want, sizeof want);
}

static void test_block_hosts(void **state)
{
    (void)state;
    /* np 8, 2 per host on 4 hosts (ftmpirun's block placement), 2 groups */
    int host[8] = {0, 0, 1, 1, 2, 2, 3, 3}, gof[8], grk[8];
    assert_int_equal(place(8, 2, host, gof, grk), 1);
    int want[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    assert_memory_equal(gof, want, sizeof want);
    /* host labels need not be 0..H-1 nor in rank order */
    int host2[8] = {7, 7, 3, 3, 9, 9, 1, 1};
    assert_int_equal(dckpt_place(8, 2, host2, gof, grk), 0);
    assert_memory_equal(gof, want, sizeof want);
}

static void test_cyclic_and_three(void **state)
{
    (void)state;
    int cyc[8] = {0, 1, 2, 3, 0, 1, 2, 3}, gof[12], grk[12];
    assert_int_equal(place(8, 2, cyc, gof, grk), 1);
    /* 12 ranks, 4 per host on 3 hosts, 4 groups of 3 */
    int three[12] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    assert_int_equal(place(12, 4, three, gof, grk), 1);
}

static void test_unequal(void **state)
{
    (void)state;
    /* hosts of 3, 2, 2 and 1 ranks, 2 groups of 4: the first group takes
       one rank of each host; the second has only 3 hosts left */
    int host[8] = {0, 0, 0, 1, 1, 2, 2, 3}, gof[8], grk[8];
    assert_int_equal(place(8, 2, host, gof, grk), 2);
    int want[8] = {0, 1, 1, 0, 1, 0, 1, 0};
    assert_memory_equal(gof, want, sizeof want);
}

static void test_random_equal_hosts(void **state)
{
    (void)state;
    uint64_t s = 42;
    for (int iter = 0; iter < 300; iter++) {
        int nh = 2 + (int)(tu_rand(&s) % 7), per = 1 + (int)(tu_rand(&s) % 6);
        int n = nh * per;
        int gsz = 2 + (int)(tu_rand(&s) % (unsigned)(nh - 1)); /* 2 .. nh */
        int g = n / gsz;
        if (g < 1)
            continue;
        int *host = malloc(sizeof(int) * (size_t)n), *gof = malloc(sizeof(int) * (size_t)n),
            *grk = malloc(sizeof(int) * (size_t)n), *fill = calloc((size_t)nh, sizeof(int));
        assert_non_null(fill);
        /* a random table with per ranks on each host */
        for (int r = 0; r < n; r++) {
            int h;
            do
                h = (int)(tu_rand(&s) % (unsigned)nh);
            while (fill[h] == per);
            fill[h]++;
            host[r] = h * 10 + 5;
        }
        int w = place(n, g, host, gof, grk);
        if (n / g + (n % g > 0) <= nh)
            assert_int_equal(w, 1);
        free(host);
        free(gof);
        free(grk);
        free(fill);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_block_hosts),
        cmocka_unit_test(test_cyclic_and_three),
        cmocka_unit_test(test_unequal),
        cmocka_unit_test(test_random_equal_hosts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
