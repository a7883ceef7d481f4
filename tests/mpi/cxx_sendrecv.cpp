// cxx_sendrecv: the C bindings used from C++, built with the project's
// mpicxx wrapper. Checks that mpi.h (and ftmpi.h) compile as C++ (extern
// "C" linkage, no C-only constructs), then exchanges std::vector data
// between rank pairs (eager and rendezvous sizes), uses MPI_Status,
// MPI_Request arrays, a collective, and the FT-MPI constants.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

int failures = 0;
int rank = 0, size = 1;

void fail(const std::string &what)
{
    if (failures++ < 20)
        std::fprintf(stderr, "FAIL [cxx_sendrecv rank %d] %s\n", rank, what.c_str());
}

template <typename T> MPI_Datatype mpi_type();
template <> MPI_Datatype mpi_type<int>() { return MPI_INT; }
template <> MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }

template <typename T> void exchange(int peer, std::size_t n, int tag)
{
    std::vector<T> out(n), in(n, T(-1));
    for (std::size_t i = 0; i < n; i++)
        out[i] = static_cast<T>(rank * 1000003 + static_cast<long>(i) % 1000);
    MPI_Request req[2];
    MPI_Status st[2];
    MPI_Irecv(in.data(), static_cast<int>(n), mpi_type<T>(), peer, tag, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out.data(), static_cast<int>(n), mpi_type<T>(), peer, tag, MPI_COMM_WORLD, &req[1]);
    if (MPI_Waitall(2, req, st) != MPI_SUCCESS)
        fail("MPI_Waitall failed");
    int count = -1;
    MPI_Get_count(&st[0], mpi_type<T>(), &count);
    if (count != static_cast<int>(n) || st[0].MPI_SOURCE != peer || st[0].MPI_TAG != tag)
        fail("status of a vector of " + std::to_string(n) + " elements: count " + std::to_string(count));
    for (std::size_t i = 0; i < n; i++)
        if (in[i] != static_cast<T>(peer * 1000003 + static_cast<long>(i) % 1000)) {
            fail("vector of " + std::to_string(n) + " elements: element " + std::to_string(i) + " wrong");
            break;
        }
}

} // namespace

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    if (peer >= size)
        peer = rank; // odd one out talks to itself
    for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(300000)}) {
        exchange<int>(peer, n, 1);
        exchange<double>(peer, n, 2);
    }
    // blocking send/recv with a std::string
    std::string msg = "hello from " + std::to_string(rank);
    std::vector<char> got(64, 0);
    MPI_Status st;
    MPI_Sendrecv(msg.c_str(), static_cast<int>(msg.size() + 1), MPI_CHAR, peer, 3, got.data(),
                 static_cast<int>(got.size()), MPI_CHAR, peer, 3, MPI_COMM_WORLD, &st);
    if (std::string(got.data()) != "hello from " + std::to_string(peer))
        fail("string exchange got '" + std::string(got.data()) + "'");
    std::vector<int> all(static_cast<std::size_t>(size));
    MPI_Allgather(&rank, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> expect(all.size());
    std::iota(expect.begin(), expect.end(), 0);
    if (all != expect)
        fail("MPI_Allgather of ranks");
    // FT-MPI names from ftmpi.h are visible from C++
    static_assert(FTMPI_COMM_MODE_ABORT != FTMPI_COMM_MODE_REBUILD, "ftmpi.h constants");
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf(total ? "cxx_sendrecv: %d failure(s)\n" : "cxx_sendrecv: passed (%d)\n", total ? total : size);
    MPI_Finalize();
    return total ? 1 : 0;
}
