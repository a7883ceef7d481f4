/*
 * Commit: compaction of a datatype into loop programs (datatype.h).
 *
 * The constructor tree is walked once. Each part becomes a node: a leaf
 * (count blocks of n units, `stride` apart) or a loop over the nodes of its
 * body. Nodes are simplified as they are made:
 *
 *   - a repetition of a type that is one leaf becomes one strided leaf,
 *     and a strided leaf whose blocks touch becomes one block
 *     (contiguous(n, vector) of doubles ... -> one memcpy);
 *   - a loop over a single strided leaf or loop whose iterations continue
 *     its pattern is folded into it (vector of vectors -> one vector);
 *   - consecutive leaves are merged when the second continues the first in
 *     memory (struct fields without padding -> one block), and equal-sized
 *     blocks at a regular distance become one strided leaf (indexed with
 *     regular displacements -> vector).
 *
 * Pack order is typemap order: only neighbours in that order are merged.
 * The raw program ignores kinds (merges across them); the typed program
 * merges only units of the same kind.
 */
#include "core/dt_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct bnode bnode_t;
typedef struct {
    bnode_t *v;
    size_t n, cap;
} bseq_t;

struct bnode {
    int loop;
    dt_kind_t kind;       /* leaf units: a basic kind, or DTK_NONE for bytes */
    size_t count;
    MPI_Aint disp, stride;
    size_t n;             /* leaf: units per block */
    size_t bytes;         /* packed bytes per block / iteration */
    bseq_t body;          /* loop */
};

typedef struct {
    int typed;
    int nomem;
} bctx_t;

static void seq_free(bseq_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].loop)
            seq_free(&s->v[i].body);
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

static MPI_Aint unit_ext(dt_kind_t k) { return k == DTK_NONE ? 1 : dt_kind_extent(k); }

static void leaf_normalize(bnode_t *L)
{
    if (L->count >= 2 && L->stride == (MPI_Aint)L->n * unit_ext(L->kind)) {
        L->n *= L->count;
        L->bytes *= L->count;
        L->count = 1;
    }
    if (L->count == 1)
        L->stride = 0;
}

/* Merge leaf N into leaf L (L precedes N in typemap order)? */
static int leaf_merge(bnode_t *L, const bnode_t *N)
{
    if (L->kind != N->kind)
        return 0;
    MPI_Aint ue = unit_ext(L->kind);
    if (L->count == 1 && N->count == 1) {
        if (N->disp == L->disp + (MPI_Aint)L->n * ue) {
            L->n += N->n;
            L->bytes += N->bytes;
            return 1;
        }
        if (N->n == L->n) {
            L->count = 2;
            L->stride = N->disp - L->disp;
            leaf_normalize(L);
            return 1;
        }
        return 0;
    }
    if (L->count >= 2 && N->n == L->n &&
        N->disp == L->disp + (MPI_Aint)L->count * L->stride &&
        (N->count == 1 || N->stride == L->stride)) {
        L->count += N->count;
        return 1;
    }
    return 0;
}

static void seq_push(bctx_t *b, bseq_t *s, bnode_t *node)
{
    if (s->n && !node->loop && !s->v[s->n - 1].loop && leaf_merge(&s->v[s->n - 1], node))
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        bnode_t *v = realloc(s->v, cap * sizeof(*v));
        if (!v) {
            b->nomem = 1;
            if (node->loop)
                seq_free(&node->body);
            return;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = *node;
}

/* Append the nodes of `src` displaced by disp (a body inlined). */
static void seq_append_shifted(bctx_t *b, bseq_t *dst, bseq_t *src, MPI_Aint disp)
{
    for (size_t i = 0; i < src->n; i++) {
        bnode_t nd = src->v[i];
        nd.disp += disp;
        seq_push(b, dst, &nd);
    }
    free(src->v);
    src->v = NULL;
    src->n = src->cap = 0;
}

static void build(bctx_t *b, const dt_t *t, MPI_Aint disp, bseq_t *seq);

/* A loop of `count` iterations of body (taken over), `stride` apart from
 * disp, simplified where its shape allows, appended to seq. */
static void loop_push(bctx_t *b, bseq_t *seq, size_t count, MPI_Aint disp, MPI_Aint stride,
                      size_t bytes, bseq_t *body)
{
    if (count == 0 || body->n == 0) {
        seq_free(body);
        return;
    }
    if (count == 1) {
        seq_append_shifted(b, seq, body, disp);
        return;
    }
    bnode_t L = {.loop = 1, .count = count, .disp = disp, .stride = stride, .bytes = bytes,
                 .body = *body};
    if (body->n == 1) {
        bnode_t *B = &body->v[0];
        if (!B->loop && B->count == 1) {
            /* Repetitions of one block: a strided leaf. */
            L = *B;
            L.count = count;
            L.disp = disp + B->disp;
            L.stride = stride;
            leaf_normalize(&L);
            free(body->v);
        } else if (stride == (MPI_Aint)B->count * B->stride) {
            /* The repetitions continue B's own pattern: fold into B. */
            L = *B;
            L.count = count * B->count;
            L.disp = disp + B->disp;
            if (!L.loop)
                leaf_normalize(&L);
            free(body->v);
        }
    }
    body->v = NULL;
    body->n = body->cap = 0;
    seq_push(b, seq, &L);
}

/* count instances of t, `stride` bytes apart, from disp. */
static void repeat(bctx_t *b, const dt_t *t, size_t count, MPI_Aint stride, MPI_Aint disp,
                   bseq_t *seq)
{
    if (count == 0 || t->size == 0)
        return;
    if (count == 1) {
        build(b, t, disp, seq);
        return;
    }
    bseq_t body = {0};
    build(b, t, 0, &body);
    loop_push(b, seq, count, disp, stride, t->size, &body);
}

static void build_predef(bctx_t *b, const dt_t *t, MPI_Aint disp, bseq_t *seq)
{
    if (b->typed) {
        bnode_t L = {.kind = t->kind, .count = 1, .disp = disp, .n = 1, .bytes = t->size};
        seq_push(b, seq, &L);
        return;
    }
    for (size_t i = 0; i < t->raw.nops; i++) {
        const dt_op_t *o = &t->raw.ops[i];
        bnode_t L = {.count = 1, .disp = disp + o->disp, .n = o->n, .bytes = o->bytes};
        seq_push(b, seq, &L);
    }
}

static void build(bctx_t *b, const dt_t *t, MPI_Aint disp, bseq_t *seq)
{
    if (t->size == 0 || b->nomem)
        return;
    if (t->predefined) {
        build_predef(b, t, disp, seq);
        return;
    }
    const dt_env_t *e = t->envelope;
    const int *I = e->ints;
    const MPI_Aint *A = e->aints;
    dt_t *o = e->nd ? e->types[0] : NULL;
    switch (e->combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        build(b, o, disp, seq);
        break;
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
        build(b, e->impl, disp, seq);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        repeat(b, o, e->nl ? (size_t)e->counts[0] : (size_t)I[0], o->extent, disp, seq);
        break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        /* a record with large counts holds count, blocklength, stride there */
        const MPI_Count *L = e->counts;
        MPI_Aint stride = e->nl ? (MPI_Aint)L[2] : e->combiner == MPI_COMBINER_VECTOR ? I[2] : A[0];
        if (e->combiner == MPI_COMBINER_VECTOR)
            stride *= o->extent;
        size_t count = e->nl ? (size_t)L[0] : (size_t)I[0];
        size_t bl = e->nl ? (size_t)L[1] : (size_t)I[1];
        if (count == 0 || bl == 0)
            break;
        bseq_t blk = {0};
        repeat(b, o, bl, o->extent, 0, &blk);
        loop_push(b, seq, count, disp, stride, bl * o->size, &blk);
        break;
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
        int c = I[0];
        int blk = e->combiner == MPI_COMBINER_INDEXED_BLOCK ||
                  e->combiner == MPI_COMBINER_HINDEXED_BLOCK;
        for (int i = 0; i < c && !b->nomem; i++) {
            size_t bl = (size_t)(blk ? I[1] : I[1 + i]);
            MPI_Aint d;
            if (e->combiner == MPI_COMBINER_INDEXED)
                d = (MPI_Aint)I[1 + c + i] * o->extent;
            else if (e->combiner == MPI_COMBINER_INDEXED_BLOCK)
                d = (MPI_Aint)I[2 + i] * o->extent;
            else
                d = A[i];
            repeat(b, o, bl, o->extent, disp + d, seq);
        }
        break;
    }
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < I[0] && !b->nomem; i++) {
            dt_t *ti = e->types[i];
            repeat(b, ti, (size_t)I[1 + i], ti->extent, disp + A[i], seq);
        }
        break;
    default:
        break;
    }
}

static size_t seq_nops(const bseq_t *s)
{
    size_t n = s->n;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].loop)
            n += seq_nops(&s->v[i].body);
    return n;
}

static size_t seq_emit(const bseq_t *s, dt_op_t *ops)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        const bnode_t *nd = &s->v[i];
        dt_op_t *o = &ops[k++];
        memset(o, 0, sizeof(*o));
        o->code = nd->loop ? DT_OP_LOOP : DT_OP_LEAF;
        o->kind = (uint32_t)nd->kind;
        o->count = nd->count;
        o->disp = nd->disp;
        o->stride = nd->stride;
        o->n = nd->n;
        o->bytes = nd->bytes;
        if (nd->loop) {
            o->body = seq_emit(&nd->body, ops + k);
            k += o->body;
        }
    }
    return k;
}

int dt_build_prog(const dt_t *dt, int typed, dt_prog_t *out)
{
    bctx_t b = {.typed = typed};
    bseq_t seq = {0};
    build(&b, dt, 0, &seq);
    if (b.nomem) {
        seq_free(&seq);
        return MPI_ERR_NO_MEM;
    }
    out->nops = seq_nops(&seq);
    out->ops = NULL;
    if (out->nops) {
        out->ops = malloc(out->nops * sizeof(dt_op_t));
        if (!out->ops) {
            seq_free(&seq);
            out->nops = 0;
            return MPI_ERR_NO_MEM;
        }
        seq_emit(&seq, out->ops);
    }
    seq_free(&seq);
    return MPI_SUCCESS;
}

void dt_prog_free(dt_prog_t *p)
{
    free(p->ops);
    p->ops = NULL;
    p->nops = 0;
}

/* Runs per element and the shortest run of a raw program. */
static void prog_runs(const dt_op_t *ops, size_t nops, size_t mult, size_t *nruns,
                      size_t *min_run)
{
    for (size_t i = 0; i < nops; i++) {
        const dt_op_t *o = &ops[i];
        size_t m;
        if (__builtin_mul_overflow(mult, o->count, &m))
            m = SIZE_MAX;
        if (o->code == DT_OP_LOOP) {
            prog_runs(ops + i + 1, o->body, m, nruns, min_run);
            i += o->body;
        } else {
            if (__builtin_add_overflow(*nruns, m, nruns))
                *nruns = SIZE_MAX;
            if (*min_run == 0 || o->bytes < *min_run)
                *min_run = o->bytes;
        }
    }
}

int dt_commit(dt_t *dt)
{
    if (dt->committed || dt->predefined)
        return MPI_SUCCESS;
    int rc = dt_build_prog(dt, 0, &dt->raw);
    if (rc == MPI_SUCCESS)
        rc = dt_build_prog(dt, 1, &dt->typed);
    if (rc != MPI_SUCCESS) {
        dt_prog_free(&dt->raw);
        dt_prog_free(&dt->typed);
        return rc;
    }
    dt->nruns = 0;
    dt->min_run = 0;
    prog_runs(dt->raw.ops, dt->raw.nops, 1, &dt->nruns, &dt->min_run);
    const dt_op_t *o = dt->raw.ops;
    dt->dense1 = dt->size == 0 ||
                 (dt->raw.nops == 1 && o->code == DT_OP_LEAF && o->count == 1 &&
                  o->bytes == dt->size && o->disp == dt->true_lb);
    dt->contig = dt->size == 0 || (dt->dense1 && dt->extent == (MPI_Aint)dt->size);
    dt->committed = 1;
    return MPI_SUCCESS;
}
