/*
 * Attribute delete callbacks that change the object's attributes
 * (issue 19): a callback that deletes other attributes of the same
 * communicator, during MPI_Comm_free and during MPI_Comm_delete_attr,
 * must not make the library free an attribute twice; and the callbacks
 * of MPI_COMM_SELF's attributes run at MPI_Finalize in the reverse order
 * of their setting (MPI-2.2, 8.7.1), while MPI_Finalized still says
 * false (MPI-4.0 11.2.2: true once MPI_Finalize has completed). The order
 * is checked after MPI_Finalize returns. Also: a key freed from its own
 * delete callback through the callback's copy of the handle, then freed
 * again by its creator (a no-op while attributes still use it, not an
 * error or a second release).
 */
#include "../mpi/mpitest.h"

#define NK 4
static int keys[NK];
static int calls[NK];
static MPI_Comm cascade_comm = MPI_COMM_NULL;

/* keys[0]'s callback deletes keys[1..NK-1] from the same communicator. */
static int del_cascade(MPI_Comm comm, int keyval, void *val, void *extra)
{
    int i = (int)(intptr_t)extra;
    calls[i]++;
    if (i == 0)
        for (int j = 1; j < NK; j++) {
            void *v;
            int flag = 0;
            MPI_Comm_get_attr(comm, keys[j], &v, &flag);
            if (flag)
                MPI_Comm_delete_attr(comm, keys[j]);
        }
    (void)keyval;
    (void)val;
    return MPI_SUCCESS;
}

/* keys[NK-1]'s callback (second variant) deletes keys[0], which was
 * attached before it. */
static int del_prev(MPI_Comm comm, int keyval, void *val, void *extra)
{
    int i = (int)(intptr_t)extra;
    calls[i]++;
    if (i == NK - 1) {
        void *v;
        int flag = 0;
        MPI_Comm_get_attr(comm, keys[0], &v, &flag);
        if (flag)
            MPI_Comm_delete_attr(comm, keys[0]);
    }
    (void)keyval;
    (void)val;
    return MPI_SUCCESS;
}

/* Every callback deletes every other attribute still attached. */
static int del_all(MPI_Comm comm, int keyval, void *val, void *extra)
{
    calls[(int)(intptr_t)extra]++;
    for (int j = 0; j < NK; j++) {
        void *v;
        int flag = 0;
        if (keys[j] == keyval)
            continue;
        MPI_Comm_get_attr(comm, keys[j], &v, &flag);
        if (flag)
            MPI_Comm_delete_attr(comm, keys[j]);
    }
    (void)val;
    return MPI_SUCCESS;
}

static void make_keys(MPI_Comm_delete_attr_function *fn, MPI_Comm comm)
{
    for (int i = 0; i < NK; i++) {
        T_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fn, &keys[i], (void *)(intptr_t)i));
        T_MPI(MPI_Comm_set_attr(comm, keys[i], (void *)(intptr_t)(100 + i)));
        calls[i] = 0;
    }
}

static void free_keys(void)
{
    for (int i = 0; i < NK; i++)
        T_MPI(MPI_Comm_free_keyval(&keys[i]));
}

static char self_order[16];
static int self_n;
static int finalized_in_cb = -1;
static int del_self(MPI_Comm comm, int keyval, void *val, void *extra)
{
    if (self_n < (int)sizeof self_order - 1)
        self_order[self_n++] = (char)(intptr_t)extra;
    int f = 1;
    MPI_Finalized(&f);
    if (f)
        finalized_in_cb = 1;
    else if (finalized_in_cb < 0)
        finalized_in_cb = 0;
    (void)comm;
    (void)keyval;
    (void)val;
    return MPI_SUCCESS;
}

static int dk_free_seen; /* the key's value, saved by its callback */
static int del_free_key(MPI_Comm comm, int keyval, void *val, void *extra)
{
    if (!dk_free_seen)
        dk_free_seen = keyval;
    (void)comm;
    (void)val;
    (void)extra;
    return MPI_Comm_free_keyval(&keyval);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);

    /* 0. Comm_free and Comm_delete_attr: every callback deletes all the
     * other attributes (the double free of issue 19). */
    MPI_Comm c;
    for (int variant = 0; variant < 2; variant++) {
        T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        make_keys(del_all, c);
        if (variant == 0)
            T_MPI(MPI_Comm_free(&c));
        else
            T_MPI(MPI_Comm_delete_attr(c, keys[1]));
        for (int i = 0; i < NK; i++)
            T_CHECK(calls[i] == 1, "delete-all %d: callback %d ran %d times", variant, i, calls[i]);
        if (variant == 1)
            T_MPI(MPI_Comm_free(&c));
        free_keys();
    }

    /* 1. Comm_free: the first callback deletes the others. */
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    make_keys(del_cascade, c);
    cascade_comm = c;
    T_MPI(MPI_Comm_free(&c));
    for (int i = 0; i < NK; i++)
        T_CHECK(calls[i] == 1, "free: callback %d ran %d times", i, calls[i]);
    free_keys();

    /* 2. Comm_delete_attr of the first attribute, whose callback deletes
     * the ones after it. */
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    make_keys(del_cascade, c);
    T_MPI(MPI_Comm_delete_attr(c, keys[0]));
    for (int i = 0; i < NK; i++) {
        void *v;
        int flag = 1;
        T_MPI(MPI_Comm_get_attr(c, keys[i], &v, &flag));
        T_CHECK(!flag, "delete_attr: attribute %d still attached", i);
        T_CHECK(calls[i] == 1, "delete_attr: callback %d ran %d times", i, calls[i]);
    }
    T_MPI(MPI_Comm_free(&c));
    free_keys();

    /* 3. Comm_delete_attr of the last attribute, whose callback deletes the
     * first (its predecessor in the list), then the communicator is freed. */
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    make_keys(del_prev, c);
    T_MPI(MPI_Comm_delete_attr(c, keys[NK - 1]));
    T_CHECK(calls[0] == 1 && calls[NK - 1] == 1, "delete_attr of last: calls %d %d", calls[0],
            calls[NK - 1]);
    T_MPI(MPI_Comm_free(&c));
    for (int i = 0; i < NK; i++)
        T_CHECK(calls[i] == 1, "after free: callback %d ran %d times", i, calls[i]);
    free_keys();

    /* 4. Setting an attribute again while its old value's callback deletes
     * another attribute. */
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    make_keys(del_prev, c);
    T_MPI(MPI_Comm_set_attr(c, keys[NK - 1], (void *)(intptr_t)7));
    void *v = NULL;
    int flag = 0;
    T_MPI(MPI_Comm_get_attr(c, keys[NK - 1], &v, &flag));
    T_CHECK(flag && (intptr_t)v == 7, "re-set attribute: flag %d value %ld", flag, (long)(intptr_t)v);
    T_MPI(MPI_Comm_free(&c));
    free_keys();

    /* 5. A key freed twice: from its delete callback (run when the
     * duplicate is freed), then by its creator, then through a copy of the
     * handle; an attribute on MPI_COMM_SELF keeps it alive meanwhile. */
    int dk, dk_copy;
    T_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_free_key, &dk, NULL));
    dk_copy = dk;
    T_MPI(MPI_Comm_dup(MPI_COMM_SELF, &c));
    T_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, dk, NULL));
    T_MPI(MPI_Comm_set_attr(c, dk, NULL));
    T_MPI(MPI_Comm_free(&c));
    T_MPI(MPI_Comm_free_keyval(&dk));
    T_CHECK(dk == MPI_KEYVAL_INVALID, "free_keyval left the handle %d", dk);
    T_MPI(MPI_Comm_free_keyval(&dk_copy));
    T_CHECK(dk_free_seen != 0, "the delete callback did not run at MPI_Comm_free");
    /* MPI_COMM_SELF's attribute runs the callback (a third free) at
     * MPI_Finalize */

    /* 6. MPI_COMM_SELF at MPI_Finalize: set a, b, c, d; the delete
     * callbacks are expected in the order d c b a. */
    int sk[4];
    for (int i = 0; i < 4; i++) {
        T_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_self, &sk[i],
                                     (void *)(intptr_t)('a' + i)));
        T_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, sk[i], NULL));
    }
    for (int i = 0; i < 4; i++)
        T_MPI(MPI_Comm_free_keyval(&sk[i])); /* attributes stay attached */
    self_n = 0;
    int rc = t_finish();
    if (strcmp(self_order, "dcba") != 0) {
        fprintf(stderr, "FAIL [%s rank %d] MPI_COMM_SELF delete callbacks ran in order '%s', "
                        "expected 'dcba'\n", t_name, t_rank, self_order);
        rc = 1;
    }
    if (finalized_in_cb != 0) {
        fprintf(stderr, "FAIL [%s rank %d] MPI_Finalized said true inside a delete callback "
                        "of MPI_COMM_SELF at MPI_Finalize (%d)\n", t_name, t_rank, finalized_in_cb);
        rc = 1;
    }
    return rc;
}
