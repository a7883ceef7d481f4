/*
 * comm_info: MPI_Info objects and communicator hints.
 *  - create/set/get/get_valuelen/get_nkeys/get_nthkey/delete/dup/free;
 *    replacing a value keeps the key's place; valuelen truncation
 *  - MPI_INFO_ENV readable, not freeable
 *  - errors: MPI_ERR_INFO (bad handle), MPI_ERR_INFO_KEY (empty / too
 *    long key), MPI_ERR_INFO_VALUE (too long), MPI_ERR_INFO_NOKEY (delete
 *    of a missing key), MPI_ERR_ARG (nthkey out of range)
 *  - Comm_set_info / Comm_get_info (a new object each time, merged
 *    hints), Comm_dup keeps hints, Comm_dup_with_info replaces them
 */
#include "mpitest.h"

static void expect_value(MPI_Info i, const char *key, const char *val)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = -1, len = -1;
    T_MPI(MPI_Info_get(i, key, MPI_MAX_INFO_VAL, buf, &flag));
    if (!val) {
        T_CHECK(!flag, "key '%s' present", key);
        T_MPI(MPI_Info_get_valuelen(i, key, &len, &flag));
        T_CHECK(!flag, "key '%s' has a length", key);
        return;
    }
    T_CHECK(flag && !strcmp(buf, val), "key '%s': flag %d value '%s', expected '%s'", key, flag,
            flag ? buf : "", val);
    T_MPI(MPI_Info_get_valuelen(i, key, &len, &flag));
    T_CHECK(flag && len == (int)strlen(val), "valuelen of '%s' %d", key, len);
}

static void test_objects(void)
{
    MPI_Info i, d;
    int n;
    char key[MPI_MAX_INFO_KEY + 1], buf[16];
    T_MPI(MPI_Info_create(&i));
    T_MPI(MPI_Info_get_nkeys(i, &n));
    T_CHECK(n == 0, "new info has %d keys", n);
    T_MPI(MPI_Info_set(i, "alpha", "1"));
    T_MPI(MPI_Info_set(i, "beta", "two"));
    T_MPI(MPI_Info_set(i, "gamma", "three"));
    T_MPI(MPI_Info_set(i, "alpha", "uno")); /* replaced in place */
    T_MPI(MPI_Info_get_nkeys(i, &n));
    T_CHECK(n == 3, "nkeys %d", n);
    const char *order[] = {"alpha", "beta", "gamma"};
    for (int k = 0; k < 3; k++) {
        T_MPI(MPI_Info_get_nthkey(i, k, key));
        T_CHECK(!strcmp(key, order[k]), "key %d is '%s'", k, key);
    }
    expect_value(i, "alpha", "uno");
    expect_value(i, "delta", NULL);
    /* truncation: valuelen characters plus the terminator */
    int flag;
    memset(buf, '#', sizeof buf);
    T_MPI(MPI_Info_get(i, "gamma", 3, buf, &flag));
    T_CHECK(flag && !strcmp(buf, "thr"), "truncated value '%s'", buf);
    T_MPI(MPI_Info_dup(i, &d));
    T_MPI(MPI_Info_delete(i, "beta"));
    expect_value(i, "beta", NULL);
    expect_value(d, "beta", "two");
    T_MPI(MPI_Info_get_nkeys(i, &n));
    T_CHECK(n == 2, "nkeys after delete %d", n);
    T_MPI(MPI_Info_get_nthkey(i, 1, key));
    T_CHECK(!strcmp(key, "gamma"), "key 1 after delete is '%s'", key);
    T_MPI(MPI_Info_free(&i));
    T_CHECK(i == MPI_INFO_NULL, "Info_free did not null the handle");
    expect_value(d, "alpha", "uno");
    T_MPI(MPI_Info_free(&d));
    /* MPI_INFO_ENV */
    T_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    char val[MPI_MAX_INFO_VAL + 1];
    T_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, val, &flag));
    T_CHECK(flag && atoi(val) == t_size, "INFO_ENV maxprocs '%s'", flag ? val : "");
    T_MPI(MPI_Info_dup(MPI_INFO_ENV, &d));
    T_MPI(MPI_Info_free(&d));
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Info i, none = MPI_INFO_NULL;
    int n, flag;
    char buf[8];
    T_MPI(MPI_Info_create(&i));
    T_MPI_CLASS(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    T_MPI_CLASS(MPI_Info_free(&none), MPI_ERR_INFO);
    T_MPI_CLASS(MPI_Info_set(i, "", "v"), MPI_ERR_INFO_KEY);
    char longkey[MPI_MAX_INFO_KEY + 8];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    T_MPI_CLASS(MPI_Info_set(i, longkey, "v"), MPI_ERR_INFO_KEY);
    T_MPI_CLASS(MPI_Info_get(i, longkey, 4, buf, &flag), MPI_ERR_INFO_KEY);
    char *longval = t_malloc(MPI_MAX_INFO_VAL + 8);
    memset(longval, 'v', MPI_MAX_INFO_VAL + 7);
    longval[MPI_MAX_INFO_VAL + 7] = '\0';
    T_MPI_CLASS(MPI_Info_set(i, "k", longval), MPI_ERR_INFO_VALUE);
    free(longval);
    T_MPI_CLASS(MPI_Info_delete(i, "absent"), MPI_ERR_INFO_NOKEY);
    T_MPI_CLASS(MPI_Info_get_nthkey(i, 0, buf), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Info_get_nthkey(i, -1, buf), MPI_ERR_ARG);
    MPI_Info env = MPI_INFO_ENV;
    T_MPI_CLASS(MPI_Info_free(&env), MPI_ERR_INFO);
    T_MPI_CLASS(MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL), MPI_ERR_INFO);
    MPI_Comm c;
    T_MPI_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, (MPI_Info)999, &c), MPI_ERR_INFO);
    T_MPI(MPI_Info_free(&i));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_comm_hints(void)
{
    MPI_Info i, got;
    MPI_Comm d, e;
    int n;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    T_MPI(MPI_Comm_get_info(d, &got));
    T_MPI(MPI_Info_get_nkeys(got, &n));
    T_CHECK(n == 0, "fresh communicator has %d hints", n);
    T_MPI(MPI_Info_free(&got));
    T_MPI(MPI_Info_create(&i));
    T_MPI(MPI_Info_set(i, "mpi_assert_no_any_tag", "true"));
    T_MPI(MPI_Comm_set_info(d, i));
    T_MPI(MPI_Info_set(i, "mpi_assert_no_any_tag", "false"));
    T_MPI(MPI_Info_set(i, "mpi_assert_exact_length", "true"));
    T_MPI(MPI_Comm_get_info(d, &got));
    expect_value(got, "mpi_assert_no_any_tag", "true"); /* a copy was taken */
    T_MPI(MPI_Info_free(&got));
    T_MPI(MPI_Comm_set_info(d, i)); /* merged: both keys, new value */
    T_MPI(MPI_Comm_get_info(d, &got));
    expect_value(got, "mpi_assert_no_any_tag", "false");
    expect_value(got, "mpi_assert_exact_length", "true");
    T_MPI(MPI_Info_free(&got));
    T_MPI(MPI_Comm_dup(d, &e));
    T_MPI(MPI_Comm_get_info(e, &got));
    expect_value(got, "mpi_assert_exact_length", "true");
    T_MPI(MPI_Info_free(&got));
    T_MPI(MPI_Comm_free(&e));
    MPI_Info only;
    T_MPI(MPI_Info_create(&only));
    T_MPI(MPI_Info_set(only, "mpi_assert_allow_overtaking", "true"));
    T_MPI(MPI_Comm_dup_with_info(d, only, &e));
    T_MPI(MPI_Comm_get_info(e, &got));
    expect_value(got, "mpi_assert_allow_overtaking", "true");
    expect_value(got, "mpi_assert_exact_length", NULL);
    T_MPI(MPI_Info_free(&got));
    T_MPI(MPI_Comm_free(&e));
    T_MPI(MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &e));
    T_MPI(MPI_Comm_get_info(e, &got));
    T_MPI(MPI_Info_get_nkeys(got, &n));
    T_CHECK(n == 0, "dup_with_info(MPI_INFO_NULL) has %d hints", n);
    T_MPI(MPI_Info_free(&got));
    int x = 1, y = 0;
    T_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, e));
    T_CHECK(y == t_size, "allreduce on dup_with_info: %d", y);
    T_MPI(MPI_Comm_free(&e));
    T_MPI(MPI_Info_free(&only));
    T_MPI(MPI_Info_free(&i));
    T_MPI(MPI_Comm_free(&d));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    test_objects();
    test_errors();
    test_comm_hints();
    return t_finish();
}
