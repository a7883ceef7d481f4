! f_sync_reg.f90: MPI_F_SYNC_REG in every binding style (fortran.sync_reg,
! 2 ranks, compiled with -O2). Rank 0 posts MPI_IRECV into a local INTEGER,
! reads it (0: rank 1 sends only after the barrier that follows), waits,
! calls MPI_F_SYNC_REG on it, and reads it again: it must see the message.
! Without the call, gfortran -O2 may reuse the first read (the variable is
! not ASYNCHRONOUS, and MPI_WAIT does not take it); the mpi_f08 part shows
! that read too, as information. Prints "sync_reg rank R: ok" or FAILED.
subroutine sync_mpif(rank, x, y)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank
  integer, intent(out) :: x, y
  integer :: buf, req, ierr
  x = -1
  y = -1
  if (rank == 0) then
    buf = 0
    call MPI_IRECV(buf, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req, ierr)
    x = buf
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    call MPI_F_SYNC_REG(buf)
    y = buf
  else if (rank == 1) then
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call MPI_SEND(41, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierr)
  else
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  end if
end subroutine sync_mpif

subroutine sync_mpi(rank, x, y)
  use mpi
  implicit none
  integer, intent(in) :: rank
  integer, intent(out) :: x, y
  integer :: buf, req, ierr
  x = -1
  y = -1
  if (rank == 0) then
    buf = 0
    call MPI_IRECV(buf, 1, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, req, ierr)
    x = buf
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    call MPI_F_SYNC_REG(buf)
    y = buf
  else if (rank == 1) then
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
    call MPI_SEND(42, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierr)
  else
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  end if
end subroutine sync_mpi

subroutine sync_f08(rank, x, y, z, w)
  use mpi_f08
  implicit none
  integer, intent(in) :: rank
  integer, intent(out) :: x, y, z, w
  integer :: buf, buf2
  type(MPI_Request) :: req
  x = -1
  y = -1
  z = -1
  w = -1
  if (rank == 0) then
    buf = 0
    call MPI_Irecv(buf, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, req)
    x = buf
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call MPI_F_sync_reg(buf)
    y = buf
    ! the same through PMPI_F_sync_reg
    buf2 = 0
    call MPI_Irecv(buf2, 1, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, req)
    z = buf2
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call PMPI_F_sync_reg(buf2)
    w = buf2
  else if (rank == 1) then
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Send(43, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Send(44, 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD)
  else
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Barrier(MPI_COMM_WORLD)
  end if
end subroutine sync_f08

! what -O2 makes of the same code without MPI_F_sync_reg (not checked)
subroutine unsynced(rank, y)
  use mpi_f08
  implicit none
  integer, intent(in) :: rank
  integer, intent(out) :: y
  integer :: buf, x
  type(MPI_Request) :: req
  y = -1
  if (rank == 0) then
    buf = 0
    call MPI_Irecv(buf, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, req)
    x = buf
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    y = buf + x
  else if (rank == 1) then
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Send(45, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD)
  else
    call MPI_Barrier(MPI_COMM_WORLD)
  end if
end subroutine unsynced

program f_sync_reg
  use mpi_f08
  use ftest
  implicit none
  integer :: x, y, z, w
  tname = 'sync_reg'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  call sync_mpif(myrank, x, y)
  if (myrank == 0) call check(x == 0 .and. y == 41, 'mpif.h: MPI_F_SYNC_REG')
  call sync_mpi(myrank, x, y)
  if (myrank == 0) call check(x == 0 .and. y == 42, 'mpi: MPI_F_SYNC_REG')
  call sync_f08(myrank, x, y, z, w)
  if (myrank == 0) then
    call check(x == 0 .and. y == 43, 'mpi_f08: MPI_F_sync_reg')
    call check(z == 0 .and. w == 44, 'mpi_f08: PMPI_F_sync_reg')
  end if
  call unsynced(myrank, y)
  if (myrank == 0) print '(a,i0,a)', 'sync_reg: without MPI_F_sync_reg, rank 0 read ', y, &
      ' (45 is the message; 0 is a value the compiler kept from before MPI_Wait)'
  call report('')
  call MPI_Finalize()
end program f_sync_reg
