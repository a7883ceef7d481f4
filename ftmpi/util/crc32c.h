/*
 * CRC-32C (Castagnoli, the iSCSI/SCTP polynomial 0x1EDC6F41, reflected),
 * what the reliability layer (transport/rel/) puts on every fragment. The
 * x86 crc32 instruction (SSE4.2) when the CPU has it, checked once at run
 * time; a table otherwise. Values agree with RFC 3720 appendix B.4.
 */
#ifndef FTMPI_UTIL_CRC32C_H
#define FTMPI_UTIL_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: crc32c(0, ...) starts one; crc32c(crc32c(0, a), b) is
 * the CRC of a followed by b. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);
/* Copy len bytes from src to dst and return the CRC of them, continued
 * from crc, in one pass (the data is read once, LA-MPI's copy-and-sum). */
uint32_t crc32c_copy(uint32_t crc, void *dst, const void *src, size_t len);
/* The table version, whatever the CPU (for tests). */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
/* 1 when the hardware instruction is used. */
int crc32c_hw(void);

#endif
