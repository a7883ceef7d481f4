/* Internal interfaces between the point-to-point files. */
#ifndef FTMPI_P2P_INT_H
#define FTMPI_P2P_INT_H

#include "p2p/p2p.h"
#include "core/proc.h"
#include "transport/shm/shm.h"

/* xmit.c */
int xmit_init(void);
void xmit_fini(void);
int xmit(int world, const pkt_t *p, req_t *req_with_data);
int xmit_flush(void);
int xmit_eager_now(int world, const pkt_t *p, const void *buf, size_t count, const dt_t *dt);
int xmit_pending(void);
void xmit_drop_peer(int world, int err);
void xmit_fail_comm(comm_t *c, int err); /* NULL: every comm */

/* p2p.c */
void p2p_deliver(const pkt_t *p, const void *data, size_t len);
void p2p_eager_sent(req_t *r);

/* stream.c: rendezvous fallback when single copy is not possible */
void stream_add(req_t *r);
int stream_progress(void);
void stream_drop_peer(int world, int err);
void stream_fail_comm(comm_t *c, int err);
int stream_active(void);

#endif
