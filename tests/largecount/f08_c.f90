! mpi_f08's large-count specific procedures: MPI_Send, MPI_Recv, MPI_Bcast,
! MPI_Allreduce and MPI_Type_contiguous called with INTEGER(KIND=MPI_COUNT_KIND)
! counts resolve to MPI_X_f08c (the C MPI_X_c), with the answers checked;
! a count of 3e9 (beyond a default INTEGER) reaches the library whole.
program f08_c
  use mpi_f08
  implicit none
  integer(kind=MPI_COUNT_KIND) :: n, got, big, sz
  integer :: me, np, ierr, buf(4), i, fails
  type(MPI_Status) :: st
  type(MPI_Datatype) :: t
  character :: small(8)
  fails = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  n = 4
  big = 3000000000_MPI_COUNT_KIND
  if (me == 0) buf = [(10 + i, i = 1, 4)]
  call MPI_Bcast(buf, n, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(buf /= [(10 + i, i = 1, 4)])) fails = fails + 1
  buf = me + 1
  call MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(buf /= np * (np + 1) / 2)) fails = fails + 1
  if (np >= 2) then
    if (me == 0) then
      call MPI_Send(buf, n, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
      small = ['h', 'e', 'l', 'l', 'o', ' ', ' ', ' ']
      call MPI_Send(small, 5_MPI_COUNT_KIND, MPI_CHARACTER, 1, 8, MPI_COMM_WORLD, ierr)
    else if (me == 1) then
      buf = 0
      call MPI_Recv(buf, n, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
      call MPI_Get_count_c(st, MPI_INTEGER, got, ierr)
      if (got /= 4 .or. any(buf /= np * (np + 1) / 2)) fails = fails + 1
      ! 3e9 characters asked for, 5 arrive
      call MPI_Recv(small, big, MPI_CHARACTER, 0, 8, MPI_COMM_WORLD, st, ierr)
      call MPI_Get_count_c(st, MPI_CHARACTER, got, ierr)
      if (ierr /= MPI_SUCCESS .or. got /= 5 .or. small(1) /= 'h') fails = fails + 1
    end if
  end if
  call MPI_Type_contiguous(big, MPI_CHARACTER, t, ierr)
  call MPI_Type_size_c(t, sz, ierr)
  if (sz /= big) fails = fails + 1
  call MPI_Type_free(t, ierr)
  if (fails /= 0) then
    print '(a,i0,a,i0)', 'FAIL rank ', me, ': ', fails
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  call MPI_Finalize(ierr)
end program f08_c
