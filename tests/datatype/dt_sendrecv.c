/*
 * dt_sendrecv: derived types on the wire between ranks 0 and 1, eager and
 * rendezvous sizes:
 *   - every zoo type sent, received as the same type and as MPI_BYTE (the
 *     packed stream), checked against the reference typemap;
 *   - send with one type, receive with a different type of the same type
 *     signature (vector <-> contiguous, struct <-> hindexed, subarray face
 *     <-> contiguous, long-run vectors <-> contiguous), both directions;
 *   - MPI_Get_count / MPI_Get_elements(_x) of partial receives;
 *   - non-blocking sends and receives of derived types in flight together.
 * Other ranks only take part in the final check.
 */
#include "dtzoo.h"

enum { TAG_ZOO = 10, TAG_MATCH, TAG_PART, TAG_NB };

static void zoo_exchange(int z, int count)
{
    MPI_Datatype t;
    const char *name = zoo_build(z, &t);
    ref_map_t m = ref_map(t);
    MPI_Aint lb, ext, lo, hi;
    MPI_Type_get_extent(t, &lb, &ext);
    ref_span(&m, (size_t)count, ext, &lo, &hi);
    size_t span = (size_t)(hi - lo) + 1, bytes = ref_size(&m) * (size_t)count;
    char *buf = t_malloc(span), *exp = t_malloc(span), *stream = t_malloc(bytes + 1);
    char *want = t_malloc(bytes + 1);
    MPI_Status st;
    if (t_rank == 0) {
        t_fill(buf, span, (unsigned)(z + count));
        MPI_Send(buf - lo, count, t, 1, TAG_ZOO, MPI_COMM_WORLD);
        MPI_Send(buf - lo, count, t, 1, TAG_ZOO, MPI_COMM_WORLD);
    } else {
        /* the sender's data, as the reference sees it */
        t_fill(exp, span, (unsigned)(z + count));
        ref_pack(&m, (size_t)count, ext, exp - lo, want);
        /* 1: as the packed stream */
        MPI_Recv(stream, (int)bytes, MPI_BYTE, 0, TAG_ZOO, MPI_COMM_WORLD, &st);
        T_STATUS(st, 0, TAG_ZOO, bytes);
        T_CHECK(memcmp(stream, want, bytes) == 0, "%s x%d: stream received differs", name,
                count);
        /* 2: as the type: data where the typemap says, nothing else touched */
        memset(buf, 0x3c, span);
        memset(exp, 0x3c, span);
        ref_unpack(&m, (size_t)count, ext, want, exp - lo);
        MPI_Recv(buf - lo, count, t, 0, TAG_ZOO, MPI_COMM_WORLD, &st);
        int c = -1;
        MPI_Get_count(&st, t, &c);
        T_CHECK(c == count || bytes == 0, "%s: Get_count %d, expected %d", name, c, count);
        T_CHECK(memcmp(buf, exp, span) == 0, "%s x%d: received memory differs", name, count);
    }
    free(buf);
    free(exp);
    free(stream);
    free(want);
    ref_free(&m);
    MPI_Type_free(&t);
}

/* Send n doubles with type st (count sc) from rank `from`, receive with rt
 * (count rc); the receiver's doubles must be 0..n-1 in type order. */
static void match_pair(const char *what, MPI_Datatype st, int sc, MPI_Aint sspan,
                       MPI_Datatype rt, int rc, MPI_Aint rspan, int n)
{
    for (int from = 0; from < 2; from++) {
        if (t_rank == from) {
            double *b = t_malloc((size_t)sspan);
            memset(b, 0, (size_t)sspan);
            /* number the doubles in send-type order: unpack 0..n-1 into it */
            double *seq = t_malloc(sizeof(double) * (size_t)n);
            for (int i = 0; i < n; i++)
                seq[i] = i;
            int pos = 0;
            MPI_Unpack(seq, n * 8, &pos, b, sc, st, MPI_COMM_WORLD);
            MPI_Send(b, sc, st, 1 - from, TAG_MATCH, MPI_COMM_WORLD);
            free(seq);
            free(b);
        } else if (t_rank == 1 - from) {
            double *b = t_malloc((size_t)rspan), *seq = t_malloc(sizeof(double) * (size_t)n);
            memset(b, 0, (size_t)rspan);
            MPI_Status s;
            MPI_Recv(b, rc, rt, from, TAG_MATCH, MPI_COMM_WORLD, &s);
            int pos = 0;
            MPI_Pack(b, rc, rt, seq, n * 8, &pos, MPI_COMM_WORLD);
            int bad = -1;
            for (int i = 0; i < n && bad < 0; i++)
                if (seq[i] != i)
                    bad = i;
            T_CHECK(bad < 0, "%s (from %d): double %d is %g", what, from, bad,
                    bad >= 0 ? seq[bad] : 0.0);
            free(b);
            free(seq);
        }
    }
}

static void check_matching(int n)
{
    char what[64];
    MPI_Datatype vec, cont, face, rs;
    /* vector of doubles, stride 2 <-> n contiguous doubles */
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    snprintf(what, sizeof what, "vector(%d,1,2) vs %d doubles", n, n);
    match_pair(what, vec, 1, (MPI_Aint)n * 16, MPI_DOUBLE, n, (MPI_Aint)n * 8, n);
    match_pair(what, MPI_DOUBLE, n, (MPI_Aint)n * 8, vec, 1, (MPI_Aint)n * 16, n);
    /* resized double (extent 24) x n <-> vector(n,1,2) */
    MPI_Type_create_resized(MPI_DOUBLE, 0, 24, &rs);
    MPI_Type_commit(&rs);
    snprintf(what, sizeof what, "resized double x%d vs vector", n);
    match_pair(what, rs, n, (MPI_Aint)n * 24, vec, 1, (MPI_Aint)n * 16, n);
    /* struct {double, double@16} x n/2 <-> contiguous(2) x n/2 */
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 16},
                           (MPI_Datatype[]){MPI_DOUBLE, MPI_DOUBLE}, &face);
    MPI_Type_contiguous(2, MPI_DOUBLE, &cont);
    MPI_Type_commit(&face);
    MPI_Type_commit(&cont);
    snprintf(what, sizeof what, "struct pair x%d vs contiguous(2)", n / 2);
    match_pair(what, face, n / 2, (MPI_Aint)n * 16, cont, n / 2, (MPI_Aint)n * 8, n / 2 * 2);
    MPI_Type_free(&face);
    MPI_Type_free(&cont);
    /* a face of a 3-D array (subarray) <-> indexed with the same doubles */
    int d0 = 8, d1 = n / 8 > 0 ? n / 8 : 1;
    int sz[3] = {d0, d1, 4}, sub[3] = {d0, d1, 1}, stt[3] = {0, 0, 2};
    MPI_Type_create_subarray(3, sz, sub, stt, MPI_ORDER_C, MPI_DOUBLE, &face);
    MPI_Type_commit(&face);
    int k = d0 * d1;
    int *bl = t_malloc(sizeof(int) * (size_t)k), *ds = t_malloc(sizeof(int) * (size_t)k);
    for (int i = 0; i < k; i++) {
        bl[i] = 1;
        ds[i] = 3 * i + 1;
    }
    MPI_Type_indexed(k, bl, ds, MPI_DOUBLE, &cont);
    MPI_Type_commit(&cont);
    snprintf(what, sizeof what, "subarray face %dx%d vs indexed", d0, d1);
    match_pair(what, face, 1, (MPI_Aint)k * 4 * 8, cont, 1, (MPI_Aint)(3 * k + 2) * 8, k);
    free(bl);
    free(ds);
    MPI_Type_free(&face);
    MPI_Type_free(&cont);
    MPI_Type_free(&rs);
    MPI_Type_free(&vec);
}

/* Long runs (single copy straight into the runs where the transport can):
 * a vector of 600-double blocks against contiguous doubles, and against
 * itself. */
static void check_long_runs(void)
{
    int k = 40, bl = 600, n = k * bl;
    MPI_Datatype v;
    MPI_Type_vector(k, bl, bl + 37, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    MPI_Aint span = (MPI_Aint)((k - 1) * (bl + 37) + bl) * 8;
    match_pair("vector of long blocks vs doubles", v, 1, span, MPI_DOUBLE, n, (MPI_Aint)n * 8,
               n);
    match_pair("doubles vs vector of long blocks", MPI_DOUBLE, n, (MPI_Aint)n * 8, v, 1, span,
               n);
    match_pair("vector of long blocks both sides", v, 1, span, v, 1, span, n);
    MPI_Type_free(&v);
    /* More runs than one process_vm_readv takes (1024 a side), and runs
     * that do not line up: 1500 blocks of 300 doubles against 1800 of 250. */
    MPI_Datatype a, b;
    n = 1500 * 300;
    MPI_Type_vector(1500, 300, 337, MPI_DOUBLE, &a);
    MPI_Type_vector(1800, 250, 271, MPI_DOUBLE, &b);
    MPI_Type_commit(&a);
    MPI_Type_commit(&b);
    MPI_Aint aspan = (MPI_Aint)(1499 * 337 + 300) * 8, bspan = (MPI_Aint)(1799 * 271 + 250) * 8;
    match_pair("1500 long blocks vs 1800 long blocks", a, 1, aspan, b, 1, bspan, n);
    match_pair("1500 long blocks vs doubles", a, 1, aspan, MPI_DOUBLE, n, (MPI_Aint)n * 8, n);
    MPI_Type_free(&a);
    MPI_Type_free(&b);
}

/* Partial receives: MPI_Get_count undefined, MPI_Get_elements counts the
 * basic elements that arrived. */
static void check_partial(void)
{
    /* struct {int @0, double @8}: 12 bytes, 2 basic elements */
    MPI_Datatype rt, v2;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                           (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &rt);
    MPI_Type_commit(&rt);
    MPI_Type_contiguous(2, MPI_INT, &v2);
    MPI_Type_commit(&v2);
    if (t_rank == 0) {
        /* int, double, int: 16 bytes */
        char b[16];
        int one = 1, two = 2;
        double x = 3.0;
        memcpy(b, &one, 4);
        memcpy(b + 4, &x, 8);
        memcpy(b + 12, &two, 4);
        MPI_Send(b, 16, MPI_BYTE, 1, TAG_PART, MPI_COMM_WORLD);
        int three[3] = {7, 8, 9};
        MPI_Send(three, 3, MPI_INT, 1, TAG_PART, MPI_COMM_WORLD);
        MPI_Send(three, 0, MPI_INT, 1, TAG_PART, MPI_COMM_WORLD);
    } else if (t_rank == 1) {
        struct { int i; double d; } r[2];
        MPI_Status st;
        int c = 0, e = 0;
        MPI_Count ex = 0;
        MPI_Recv(r, 2, rt, 0, TAG_PART, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, rt, &c);
        MPI_Get_elements(&st, rt, &e);
        MPI_Get_elements_x(&st, rt, &ex);
        T_CHECK(c == MPI_UNDEFINED, "partial struct: Get_count %d, expected MPI_UNDEFINED", c);
        T_CHECK(e == 3 && ex == 3, "partial struct: Get_elements %d/%lld, expected 3", e,
                (long long)ex);
        T_CHECK(r[0].i == 1 && r[0].d == 3.0 && r[1].i == 2, "partial struct data");
        int b[4] = {0};
        MPI_Recv(b, 2, v2, 0, TAG_PART, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, v2, &c);
        MPI_Get_elements(&st, v2, &e);
        T_CHECK(c == MPI_UNDEFINED && e == 3, "3 ints into contiguous(2): count %d elements %d",
                c, e);
        T_CHECK(b[0] == 7 && b[1] == 8 && b[2] == 9 && b[3] == 0, "3 ints data");
        MPI_Recv(b, 2, v2, 0, TAG_PART, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, v2, &c);
        MPI_Get_elements(&st, v2, &e);
        T_CHECK(c == 0 && e == 0, "empty message: count %d elements %d", c, e);
    }
    MPI_Type_free(&rt);
    MPI_Type_free(&v2);
}

/* Many derived-type messages in flight, both directions, mixed sizes. */
static void check_nonblocking(void)
{
    enum { N = 8 };
    MPI_Datatype t[N];
    int counts[N];
    char *sb[N], *rb[N], *eb[N];
    MPI_Aint spans[N], los[N];
    ref_map_t maps[N];
    MPI_Request req[2 * N];
    MPI_Status sts[2 * N];
    const int zoo_pick[N] = {0, 2, 7, 12, 13, 16, 19, 21};
    if (t_rank > 1)
        return;
    for (int i = 0; i < N; i++) {
        zoo_build(zoo_pick[i], &t[i]);
        maps[i] = ref_map(t[i]);
        MPI_Aint lb, ext, hi;
        MPI_Type_get_extent(t[i], &lb, &ext);
        counts[i] = 1 + (i * 37) % 200;
        ref_span(&maps[i], (size_t)counts[i], ext, &los[i], &hi);
        spans[i] = hi - los[i] + 1;
        sb[i] = t_malloc((size_t)spans[i]);
        rb[i] = t_malloc((size_t)spans[i]);
        eb[i] = t_malloc((size_t)spans[i]);
        t_fill(sb[i], (size_t)spans[i], (unsigned)(i + 100 * t_rank));
        memset(rb[i], 0, (size_t)spans[i]);
    }
    int peer = 1 - t_rank;
    for (int i = 0; i < N; i++)
        MPI_Irecv(rb[i] - los[i], counts[i], t[i], peer, TAG_NB + i, MPI_COMM_WORLD, &req[i]);
    for (int i = N - 1; i >= 0; i--)
        MPI_Isend(sb[i] - los[i], counts[i], t[i], peer, TAG_NB + i, MPI_COMM_WORLD,
                  &req[N + i]);
    MPI_Waitall(2 * N, req, sts);
    for (int i = 0; i < N; i++) {
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t[i], &lb, &ext);
        size_t bytes = ref_size(&maps[i]) * (size_t)counts[i];
        char *stream = t_malloc(bytes + 1);
        t_fill(eb[i], (size_t)spans[i], (unsigned)(i + 100 * peer));
        ref_pack(&maps[i], (size_t)counts[i], ext, eb[i] - los[i], stream);
        memset(eb[i], 0, (size_t)spans[i]);
        ref_unpack(&maps[i], (size_t)counts[i], ext, stream, eb[i] - los[i]);
        T_CHECK(memcmp(rb[i], eb[i], (size_t)spans[i]) == 0, "non-blocking message %d differs",
                i);
        free(stream);
        free(sb[i]);
        free(rb[i]);
        free(eb[i]);
        ref_free(&maps[i]);
        MPI_Type_free(&t[i]);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    if (t_rank <= 1) {
        for (int z = 0; z < ZOO_N; z++) {
            zoo_exchange(z, 1);
            zoo_exchange(z, 3);
            zoo_exchange(z, 700); /* most zoo types: rendezvous */
        }
        check_matching(16);     /* eager */
        check_matching(2000);   /* rendezvous */
        check_matching(100000); /* rendezvous, beyond the bounce buffer */
        check_long_runs();
        check_partial();
    }
    check_nonblocking();
    return t_finish();
}
