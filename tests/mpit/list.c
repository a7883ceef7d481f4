/*
 * list: every MPI_T control variable, performance variable, category,
 * event type and source, with its value where it has one (the example of
 * docs/mpit.md). Before MPI_Init and after it (a tool may start first).
 *
 * Checks, besides printing: each name maps back to its index through
 * MPI_T_*_get_index; the strings are NUL-terminated and the lengths
 * returned count the NUL; every variable and event is in exactly one
 * category, and the root category holds the others; each enumeration's
 * items read back; the string length protocol (NULL buffer: the length).
 *
 *   mpirun -np 1 tests/mpit/list            (prints the table)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors;
#define CHECK(c, ...)                                                         \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            errors++;                                                         \
        }                                                                     \
    } while (0)

static const char *class_name(int c)
{
    static const char *n[] = {"state", "level", "size", "percentage", "highwatermark",
                              "lowwatermark", "counter", "aggregate", "timer", "generic"};
    return c >= 0 && c < 10 ? n[c] : "?";
}

static void print_enum(MPI_T_enum e)
{
    int num = 0, len = 64;
    char name[64];
    CHECK(MPI_T_enum_get_info(e, &num, name, &len) == MPI_SUCCESS, "enum_get_info");
    printf("      enum %s:", name);
    for (int i = 0; i < num; i++) {
        int v;
        char item[64];
        len = sizeof item;
        CHECK(MPI_T_enum_get_item(e, i, &v, item, &len) == MPI_SUCCESS, "enum item %d", i);
        CHECK(len == (int)strlen(item) + 1, "item length %d for '%s'", len, item);
        printf(" %s=%d", item, v);
    }
    printf("\n");
}

static void list_cvars(void)
{
    int n = 0;
    CHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n > 0, "cvar_get_num: %d", n);
    printf("control variables: %d\n", n);
    for (int i = 0; i < n; i++) {
        char name[128], desc[512];
        int nlen = 0, dlen = sizeof desc, verb, bind, scope, idx = -1, count = 0;
        MPI_Datatype dt;
        MPI_T_enum en;
        /* the length protocol: a NULL buffer asks for the length */
        CHECK(MPI_T_cvar_get_info(i, NULL, &nlen, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
                  MPI_SUCCESS && nlen > 1, "cvar %d: length query", i);
        int want = nlen;
        nlen = sizeof name;
        CHECK(MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &en, desc, &dlen, &bind, &scope) ==
                  MPI_SUCCESS, "cvar_get_info %d", i);
        CHECK(nlen == want && nlen == (int)strlen(name) + 1, "cvar %d: name length", i);
        CHECK(MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS && idx == i, "cvar %s: index %d",
              name, idx);
        MPI_T_cvar_handle h;
        CHECK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS && count == 1,
              "cvar %s: handle", name);
        long long v = 0;
        int rc;
        if (dt == MPI_INT) {
            int x = 0;
            rc = MPI_T_cvar_read(h, &x);
            v = x;
        } else {
            unsigned long x = 0;
            CHECK(dt == MPI_UNSIGNED_LONG, "cvar %s: unexpected type", name);
            rc = MPI_T_cvar_read(h, &x);
            v = (long long)x;
        }
        /* the knobs MPI_Init sets are not accessible before it */
        CHECK(rc == MPI_SUCCESS || rc == MPI_T_ERR_NOT_ACCESSIBLE, "cvar %s: read %d", name, rc);
        if (rc == MPI_SUCCESS)
            printf("  %-36s = %-8lld scope %d verbosity %d  %s\n", name, v, scope, verb, desc);
        else
            printf("  %-36s (not accessible now) scope %d  %s\n", name, scope, desc);
        if (en != MPI_T_ENUM_NULL)
            print_enum(en);
        CHECK(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS && h == MPI_T_CVAR_HANDLE_NULL,
              "cvar %s: free", name);
    }
}

static void list_pvars(void)
{
    int n = 0;
    CHECK(MPI_T_pvar_get_num(&n) == MPI_SUCCESS && n > 0, "pvar_get_num: %d", n);
    printf("performance variables: %d\n", n);
    MPI_T_pvar_session s;
    CHECK(MPI_T_pvar_session_create(&s) == MPI_SUCCESS, "session_create");
    for (int i = 0; i < n; i++) {
        char name[128], desc[512];
        int nlen = sizeof name, dlen = sizeof desc, verb, cls, bind, ro, cont, atomic, idx = -1;
        MPI_Datatype dt;
        MPI_T_enum en;
        CHECK(MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &en, desc, &dlen, &bind, &ro,
                                  &cont, &atomic) == MPI_SUCCESS, "pvar_get_info %d", i);
        CHECK(MPI_T_pvar_get_index(name, cls, &idx) == MPI_SUCCESS && idx == i,
              "pvar %s: index %d", name, idx);
        int other = cls == MPI_T_PVAR_CLASS_COUNTER ? MPI_T_PVAR_CLASS_LEVEL
                                                    : MPI_T_PVAR_CLASS_COUNTER;
        CHECK(MPI_T_pvar_get_index(name, other, &idx) == MPI_T_ERR_INVALID_NAME,
              "pvar %s found under another class", name);
        printf("  %-36s %-13s %s%s%s bind %d  %s\n", name, class_name(cls), ro ? "ro " : "",
               cont ? "continuous " : "", atomic ? "atomic" : "", bind, desc);
        MPI_Comm comm = MPI_COMM_WORLD;
        int initialized;
        MPI_Initialized(&initialized);
        if (bind == MPI_T_BIND_MPI_COMM && !initialized)
            continue; /* no communicator before MPI_Init */
        MPI_T_pvar_handle h;
        int count = 0;
        CHECK(MPI_T_pvar_handle_alloc(s, i, bind == MPI_T_BIND_MPI_COMM ? &comm : NULL, &h,
                                      &count) == MPI_SUCCESS && count >= 1,
              "pvar %s: handle", name);
        if (!cont)
            CHECK(MPI_T_pvar_start(s, h) == MPI_SUCCESS, "pvar %s: start", name);
        if (dt == MPI_DOUBLE) {
            double v[16];
            CHECK(count <= 16 && MPI_T_pvar_read(s, h, v) == MPI_SUCCESS, "read %s", name);
            printf("      = %g\n", v[0]);
        } else if (dt == MPI_INT) {
            int v[16];
            CHECK(count <= 16 && MPI_T_pvar_read(s, h, v) == MPI_SUCCESS, "read %s", name);
            printf("      = %d\n", v[0]);
            if (en != MPI_T_ENUM_NULL)
                print_enum(en);
        } else {
            unsigned long long v[16];
            CHECK(dt == MPI_UNSIGNED_LONG_LONG && count <= 16 &&
                      MPI_T_pvar_read(s, h, v) == MPI_SUCCESS, "read %s", name);
            printf("      =");
            for (int k = 0; k < count; k++)
                printf(" %llu", v[k]);
            printf("\n");
        }
        CHECK(MPI_T_pvar_handle_free(s, &h) == MPI_SUCCESS && h == MPI_T_PVAR_HANDLE_NULL,
              "pvar %s: free", name);
    }
    CHECK(MPI_T_pvar_session_free(&s) == MPI_SUCCESS && s == MPI_T_PVAR_SESSION_NULL,
          "session_free");
}

/* Every variable and event in exactly one category; the root holds the rest. */
static void list_categories(void)
{
    int ncat = 0, ncv = 0, npv = 0, nev = 0;
    MPI_T_category_get_num(&ncat);
    MPI_T_cvar_get_num(&ncv);
    MPI_T_pvar_get_num(&npv);
    MPI_T_event_get_num(&nev);
    int *seen_c = calloc((size_t)ncv, sizeof(int)), *seen_p = calloc((size_t)npv, sizeof(int));
    int *seen_e = calloc((size_t)nev + 1, sizeof(int));
    printf("categories: %d\n", ncat);
    for (int c = 0; c < ncat; c++) {
        char name[64], desc[256];
        int nlen = sizeof name, dlen = sizeof desc, nc, np, nsub, ne, idx = -1;
        CHECK(MPI_T_category_get_info(c, name, &nlen, desc, &dlen, &nc, &np, &nsub) ==
                  MPI_SUCCESS, "category_get_info %d", c);
        CHECK(MPI_T_category_get_num_events(c, &ne) == MPI_SUCCESS, "num_events %d", c);
        CHECK(MPI_T_category_get_index(name, &idx) == MPI_SUCCESS && idx == c, "cat %s", name);
        printf("  %-16s %d cvars, %d pvars, %d events, %d categories: %s\n", name, nc, np, ne,
               nsub, desc);
        int ids[64];
        CHECK(nc <= 64 && np <= 64 && nsub <= 64 && ne <= 64, "category %s too big", name);
        MPI_T_category_get_cvars(c, nc, ids);
        for (int i = 0; i < nc; i++)
            seen_c[ids[i]]++;
        MPI_T_category_get_pvars(c, np, ids);
        for (int i = 0; i < np; i++)
            seen_p[ids[i]]++;
        MPI_T_category_get_events(c, ne, ids);
        for (int i = 0; i < ne; i++)
            seen_e[ids[i]]++;
        MPI_T_category_get_categories(c, nsub, ids);
        if (c == 0)
            CHECK(nsub == ncat - 1, "root holds %d of %d categories", nsub, ncat - 1);
    }
    for (int i = 0; i < ncv; i++)
        CHECK(seen_c[i] == 1, "cvar %d in %d categories", i, seen_c[i]);
    for (int i = 0; i < npv; i++)
        CHECK(seen_p[i] == 1, "pvar %d in %d categories", i, seen_p[i]);
    for (int i = 0; i < nev; i++)
        CHECK(seen_e[i] == 1, "event %d in %d categories", i, seen_e[i]);
    free(seen_c);
    free(seen_p);
    free(seen_e);
    int stamp = -1;
    CHECK(MPI_T_category_changed(&stamp) == MPI_SUCCESS && stamp == 0, "changed %d", stamp);
}

static void list_events(void)
{
    int n = 0, ns = 0;
    CHECK(MPI_T_event_get_num(&n) == MPI_SUCCESS && n > 0, "event_get_num");
    printf("event types: %d\n", n);
    for (int i = 0; i < n; i++) {
        char name[64], desc[256];
        int nlen = sizeof name, dlen = sizeof desc, verb, nel = 4, bind, idx = -1;
        MPI_Datatype types[4];
        MPI_Aint disps[4];
        MPI_T_enum en;
        MPI_Info info;
        CHECK(MPI_T_event_get_info(i, name, &nlen, &verb, types, disps, &nel, &en, &info, desc,
                                   &dlen, &bind) == MPI_SUCCESS, "event_get_info %d", i);
        CHECK(MPI_T_event_get_index(name, &idx) == MPI_SUCCESS && idx == i, "event %s", name);
        printf("  %-28s %d elements: %s\n", name, nel, desc);
    }
    CHECK(MPI_T_source_get_num(&ns) == MPI_SUCCESS && ns == 1, "source_get_num %d", ns);
    char name[64], desc[256];
    int nlen = sizeof name, dlen = sizeof desc;
    MPI_T_source_order order;
    MPI_Count tps, maxt, t1 = 0, t2 = 0;
    MPI_Info info;
    CHECK(MPI_T_source_get_info(0, name, &nlen, desc, &dlen, &order, &tps, &maxt, &info) ==
              MPI_SUCCESS && tps == 1000000000 && order == MPI_T_SOURCE_ORDERED, "source info");
    MPI_T_source_get_timestamp(0, &t1);
    MPI_T_source_get_timestamp(0, &t2);
    CHECK(t1 > 0 && t2 >= t1, "source timestamps %lld %lld", (long long)t1, (long long)t2);
    printf("source: %s, %lld ticks/s: %s\n", name, (long long)tps, desc);
}

int main(int argc, char **argv)
{
    int provided = -1;
    /* a tool starts first: everything works before MPI_Init */
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "T_init_thread");
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    printf("---- before MPI_Init\n");
    list_cvars();
    list_pvars();
    list_categories();
    list_events();
    MPI_Init(&argc, &argv);
    printf("---- after MPI_Init\n");
    list_cvars();
    list_pvars();
    MPI_Finalize();
    /* and after MPI_Finalize */
    int n = 0;
    CHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n > 0, "after finalize: %d cvars", n);
    CHECK(MPI_T_finalize() == MPI_SUCCESS, "T_finalize");
    printf("list: %s\n", errors ? "FAILED" : "ok");
    return errors ? 1 : 0;
}
