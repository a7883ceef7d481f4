/* Helpers over tp_io_t (transport.h) shared by the transports. */
#include "transport/transport.h"

#include <string.h>

#define PUT_IOV 64

size_t tp_io_put(tp_io_t *io, size_t off, const void *src, size_t n)
{
    const char *s = src;
    size_t done = 0;
    while (done < n) {
        struct iovec v[PUT_IOV];
        size_t b = 0, got = 0;
        int k = io->iov(io, off + done, n - done, v, PUT_IOV, &b);
        for (int i = 0; i < k; i++) {
            memcpy(v[i].iov_base, s + done + got, v[i].iov_len);
            got += v[i].iov_len;
        }
        if (!got)
            break;
        io->moved(io, off + done, got);
        done += got;
    }
    return done;
}
