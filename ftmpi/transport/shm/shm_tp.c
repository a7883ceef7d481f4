/*
 * The shared-memory transport behind the transport interface: each
 * operation is one of shm.c's ring operations on shm_self. Peers are named
 * by their slot in the host segment.
 */
#include "shm_tp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const tp_env_t *E;

static void *r_reserve(int addr, size_t len)
{
    return shm_send_reserve(&shm_self, (uint32_t)addr, len);
}

static void r_commit(int addr, size_t len)
{
    shm_send_commit(&shm_self, (uint32_t)addr, len);
}

static int r_send(int world, int addr, const void *hdr, const struct iovec *iov, int n)
{
    (void)world;
    size_t len = E->hdr_len;
    for (int i = 0; i < n; i++)
        len += iov[i].iov_len;
    char *dst = shm_send_reserve(&shm_self, (uint32_t)addr, len);
    if (!dst)
        return -EAGAIN;
    memcpy(dst, hdr, E->hdr_len);
    dst += E->hdr_len;
    for (int i = 0; i < n; i++) {
        memcpy(dst, iov[i].iov_base, iov[i].iov_len);
        dst += iov[i].iov_len;
    }
    shm_send_commit(&shm_self, (uint32_t)addr, len);
    return 0;
}

static void on_record(void *ctx, uint32_t src_slot, void *payload, size_t len)
{
    (void)ctx;
    (void)src_slot;
    E->deliver(-1, payload, len); /* the header names the sender */
}

static int r_progress(void)
{
    return shm_poll(&shm_self, on_record, NULL);
}

static int r_busy(void) { return 0; }
static int r_wait_fd(void) { return -1; }
static void r_drop_peer(int world, int addr) { (void)world; (void)addr; }
static void r_drop_incoming(void) { shm_drop_incoming(&shm_self); }
static void r_close(void) { shm_fini(&shm_self); }

static tp_ops_t shm_ops = {
    .name = "shm",
    .reserve = r_reserve,
    .commit = r_commit,
    .send = r_send,
    .progress = r_progress,
    .busy = r_busy,
    .wait_fd = r_wait_fd,
    .drop_peer = r_drop_peer,
    .drop_incoming = r_drop_incoming,
    .close = r_close,
};

const tp_ops_t *shm_tp_open(const tp_env_t *env, void *base, int slot, int cma)
{
    int rc = shm_init(&shm_self, base, (uint32_t)slot);
    if (rc < 0) {
        fprintf(stderr, "ftmpi: the shared-memory segment is not usable: %s\n", strerror(-rc));
        return NULL;
    }
    E = env;
    shm_self.cma = cma;
    shm_ops.caps = cma ? TP_CAP_CMA : 0;
    shm_ops.max_inline = shm_self.max_record - env->hdr_len;
    return &shm_ops;
}

void shm_tp_no_cma(void)
{
    shm_self.cma = 0;
    shm_ops.caps &= ~TP_CAP_CMA;
}
