program hello_f08
  use mpi_f08
  implicit none
  integer :: rank, np, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  call MPI_Allreduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) write (*, '(a,i0,a,i0)') 'findmpi: ', np, ' ranks, sum ', total
  call MPI_Finalize()
end program hello_f08
