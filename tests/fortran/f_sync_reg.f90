! f_sync_reg.f90: MPI_F_SYNC_REG in every binding style (fortran.sync_reg,
! 2 ranks, compiled with -O2). Rank 0 posts MPI_IRECV into a local INTEGER,
! reads it (0: rank 1 sends only after the barrier that follows), waits,
! calls MPI_F_SYNC_REG on it, and reads it again: it must see the message
! (f_sync_reg.inc). Without the call, gfortran -O2 may reuse the first read
! (the variable is not ASYNCHRONOUS, and MPI_WAIT does not take it); the
! program prints that read too, as information.
! Prints "sync_reg rank R: ok" or FAILED.
subroutine sync_mpif(rank, tag, x, y)
  implicit none
  include 'mpif.h'
  integer :: req
  include 'f_sync_reg.inc'
  if (rank == 0) call MPI_F_SYNC_REG(buf)
  y = buf
end subroutine sync_mpif

subroutine sync_mpi(rank, tag, x, y)
  use mpi
  implicit none
  integer :: req
  include 'f_sync_reg.inc'
  if (rank == 0) call MPI_F_SYNC_REG(buf)
  y = buf
end subroutine sync_mpi

subroutine sync_f08(rank, tag, x, y)
  use mpi_f08
  implicit none
  type(MPI_Request) :: req
  include 'f_sync_reg.inc'
  if (rank == 0) call MPI_F_sync_reg(buf)
  y = buf
end subroutine sync_f08

subroutine psync_f08(rank, tag, x, y)
  use mpi_f08
  implicit none
  type(MPI_Request) :: req
  include 'f_sync_reg.inc'
  if (rank == 0) call PMPI_F_sync_reg(buf)
  y = buf
end subroutine psync_f08

! what -O2 makes of the same code without MPI_F_sync_reg (not checked)
subroutine unsynced(rank, tag, x, y)
  use mpi_f08
  implicit none
  type(MPI_Request) :: req
  include 'f_sync_reg.inc'
  y = buf
end subroutine unsynced

program f_sync_reg
  use mpi_f08
  use ftest
  implicit none
  integer :: x, y
  tname = 'sync_reg'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  call sync_mpif(myrank, 1, x, y)
  if (myrank == 0) call check(x == 0 .and. y == 41, 'mpif.h: MPI_F_SYNC_REG')
  call sync_mpi(myrank, 2, x, y)
  if (myrank == 0) call check(x == 0 .and. y == 42, 'mpi: MPI_F_SYNC_REG')
  call sync_f08(myrank, 3, x, y)
  if (myrank == 0) call check(x == 0 .and. y == 43, 'mpi_f08: MPI_F_sync_reg')
  call psync_f08(myrank, 4, x, y)
  if (myrank == 0) call check(x == 0 .and. y == 44, 'mpi_f08: PMPI_F_sync_reg')
  call unsynced(myrank, 5, x, y)
  if (myrank == 0) print '(a,i0,a)', 'sync_reg: without MPI_F_sync_reg, rank 0 read ', y, &
      ' (45 is the message; 0 is a value the compiler kept from before MPI_Wait)'
  call report('')
  call MPI_Finalize()
end program f_sync_reg
