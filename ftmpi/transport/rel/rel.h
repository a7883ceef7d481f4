/*
 * The end-to-end reliability layer (docs/network.md, "Reliability"), after
 * LA-MPI: a transport that implements tp_ops_t on top of a network
 * transport. Every packet or stream is cut into fragments with a 64-bit
 * per-peer sequence number and a CRC-32C; the sender keeps each fragment
 * (a copy of an eager packet, a reference to a stream's source) until the
 * receiver's cumulative ACK covers it; a bad CRC is NACKed, a gap is
 * NACKed, duplicates are dropped, and fragments are sent again on a
 * timeout with truncated exponential backoff. p2p still sees one ordered
 * packet stream per peer.
 *
 * Environment: FTMPI_RELIABILITY=on|off (default on), FTMPI_REL_RTO_MS
 * (the retransmission timeout's floor, default 100), FTMPI_REL_FRAG (stream
 * fragment bytes, default 524288).
 */
#ifndef FTMPI_TRANSPORT_REL_H
#define FTMPI_TRANSPORT_REL_H

#include "transport/transport.h"

typedef const tp_ops_t *(*tp_open_fn)(const tp_env_t *env);

/* FTMPI_RELIABILITY: 1 on (the default), 0 off, -1 not a valid value (the
 * reason is on stderr). */
int rel_wanted(void);

/* Open `lower` with the layer's own environment and return the layer's
 * operations over it; NULL with the reason on stderr. */
const tp_ops_t *rel_tp_open(const tp_env_t *env, tp_open_fn lower);

#endif
