/*
 * The TCP transport (docs/network.md): non-blocking sockets driven by the
 * progress engine, connections made on first use to addresses published in
 * the job's key-value store, an HMAC challenge on every connection, frames
 * that carry the upper layer's packets, long payloads streamed straight
 * from and into the user's buffers with writev/readv.
 *
 * Environment: FTMPI_NET=IF[,IF] chooses the interfaces (default: every
 * IPv4 interface that is up, loopback only when there is no other);
 * FTMPI_TCP_STALL_MS (default 10000): output that makes no progress this
 * long makes the peer suspect.
 */
#ifndef FTMPI_TRANSPORT_TCP_H
#define FTMPI_TRANSPORT_TCP_H

#include "transport/transport.h"

/* Listen, publish this process's address record, return the operations;
 * NULL with the reason on stderr (a bad FTMPI_NET, no interface, ...). */
const tp_ops_t *tcp_tp_open(const tp_env_t *env);

#endif
