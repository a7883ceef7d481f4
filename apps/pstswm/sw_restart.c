/*
 * sw_restart.c - the model's restart records, as models have them: each
 * computing rank writes its part of the prognostic spectral state (both
 * leapfrog levels of vorticity, divergence and geopotential) and the step,
 * with a header that says which run and rank it belongs to and an FNV-1a
 * hash of the whole record. The routines take a FILE *: the model's own
 * files (FILE.r<rank>, written to a temporary name, fsync'd, renamed), and
 * the in-memory checkpoints (sw_run.c hands them fmemopen streams).
 */
#include "pstswm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char sw_magic[8] = {'P', 'S', 'T', 'S', 'W', 'M', '0', '1'};

typedef struct sw_rhdr {
    char magic[8];
    int32_t test_case, trunc, nlon, nlat, np, rank, nm_loc, nspec_loc;
    int64_t step, step0;
    double dt, phibar, alpha;
    double mass0, energy0; /* diagnostics of the first run's initial state */
} sw_rhdr_t;

static void rhdr_fill(const sw_model_t *m, sw_rhdr_t *h)
{
    memset(h, 0, sizeof(*h));
    memcpy(h->magic, sw_magic, sizeof sw_magic);
    h->test_case = m->o->test_case;
    h->trunc = m->g.M;
    h->nlon = m->g.nlon;
    h->nlat = m->g.nlat;
    h->np = m->g.np;
    h->rank = m->g.rank;
    h->nm_loc = m->g.nm_loc;
    h->nspec_loc = m->g.nspec_loc;
    h->step = m->step;
    h->step0 = m->step0;
    h->dt = m->dt;
    h->phibar = m->phibar;
    h->alpha = m->alpha;
    h->mass0 = m->mass0;
    h->energy0 = m->energy0;
}

size_t sw_restart_size(const sw_model_t *m)
{
    return sizeof(sw_rhdr_t) + sizeof(int32_t) * (size_t)m->g.nm_loc +
           sizeof(double complex) * sw_state_count(m) + sizeof(uint64_t);
}

int sw_restart_write(const sw_model_t *m, FILE *f)
{
    sw_rhdr_t h;
    rhdr_fill(m, &h);
    uint64_t sum = app_fnv1a(APP_FNV1A_INIT, &h, sizeof h);
    int32_t *ml = malloc(sizeof(int32_t) * ((size_t)m->g.nm_loc + 1));
    if (!ml)
        return -1;
    for (int i = 0; i < m->g.nm_loc; i++)
        ml[i] = m->g.m_loc[i];
    size_t nml = (size_t)m->g.nm_loc, ns = sw_state_count(m);
    sum = app_fnv1a(sum, ml, sizeof(int32_t) * nml);
    sum = app_fnv1a(sum, m->state, sizeof(double complex) * ns);
    int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(ml, sizeof(int32_t), nml, f) == nml &&
             fwrite(m->state, sizeof(double complex), ns, f) == ns &&
             fwrite(&sum, sizeof sum, 1, f) == 1 && fflush(f) == 0;
    free(ml);
    return ok ? 0 : -1;
}

#define RFAIL(...)                                                                          \
    do {                                                                                    \
        snprintf(m->err, sizeof m->err, __VA_ARGS__);                                       \
        goto fail;                                                                          \
    } while (0)

int sw_restart_read(sw_model_t *m, FILE *f)
{
    sw_rhdr_t h, want;
    rhdr_fill(m, &want);
    size_t nml = (size_t)m->g.nm_loc, ns = sw_state_count(m);
    int32_t *ml = malloc(sizeof(int32_t) * (nml + 1));
    double complex *st = malloc(sizeof(double complex) * (ns + 1));
    uint64_t sum_f;
    if (!ml || !st)
        RFAIL("out of memory reading a restart record");
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, sw_magic, sizeof sw_magic) != 0)
        RFAIL("not a pstswm restart record (too short or wrong magic)");
    if (h.test_case != want.test_case || h.trunc != want.trunc)
        RFAIL("written by a case %d T%d run, this is case %d T%d", (int)h.test_case,
              (int)h.trunc, (int)want.test_case, (int)want.trunc);
    if (h.np != want.np || h.rank != want.rank)
        RFAIL("written by rank %d of %d computing ranks, this is rank %d of %d", (int)h.rank,
              (int)h.np, (int)want.rank, (int)want.np);
    if (h.dt != want.dt || h.phibar != want.phibar || h.alpha != want.alpha)
        RFAIL("written with --dt %g --alpha %g, this run has --dt %g --alpha %g", h.dt,
              h.alpha, want.dt, want.alpha);
    if (h.nm_loc != want.nm_loc || h.nspec_loc != want.nspec_loc || h.nlon != want.nlon ||
        h.nlat != want.nlat || h.step < 0)
        RFAIL("its layout does not match this run's");
    if (fread(ml, sizeof(int32_t), nml, f) != nml || fread(st, sizeof *st, ns, f) != ns ||
        fread(&sum_f, sizeof sum_f, 1, f) != 1)
        RFAIL("truncated restart record");
    uint64_t sum = app_fnv1a(APP_FNV1A_INIT, &h, sizeof h);
    sum = app_fnv1a(sum, ml, sizeof(int32_t) * nml);
    sum = app_fnv1a(sum, st, sizeof *st * ns);
    if (sum != sum_f)
        RFAIL("the restart record is damaged (checksum mismatch)");
    for (size_t i = 0; i < nml; i++)
        if (ml[i] != m->g.m_loc[i])
            RFAIL("its wavenumbers do not match this rank's");
    memcpy(m->state, st, sizeof *st * ns);
    m->step = h.step;
    m->step0 = h.step0;
    m->mass0 = h.mass0;
    m->energy0 = h.energy0;
    free(ml);
    free(st);
    return 0;
fail:
    free(ml);
    free(st);
    return -1;
}

static void restart_path(const sw_model_t *m, const char *base, char *p, size_t n)
{
    snprintf(p, n, "%s.r%d", base, m->g.rank);
}

int sw_restart_write_file(const sw_model_t *m, const char *base)
{
    char path[4096], tmp[4112];
    restart_path(m, base, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    int ok = sw_restart_write(m, f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int sw_restart_read_file(sw_model_t *m, const char *base)
{
    char path[4096];
    restart_path(m, base, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(m->err, sizeof m->err, "%.160s: %s", path, strerror(errno));
        return -1;
    }
    int rc = sw_restart_read(m, f);
    fclose(f);
    if (rc != 0) {
        char e[sizeof m->err];
        snprintf(e, sizeof e, "%.120s: %.120s", path, m->err);
        memcpy(m->err, e, sizeof e);
    }
    return rc;
}
