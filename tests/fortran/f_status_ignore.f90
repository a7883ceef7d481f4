! f_status_ignore.f90: the C constants MPI_F_STATUS_IGNORE,
! MPI_F_STATUSES_IGNORE and their F08 forms (fortran.status_ignore, 2
! ranks). The Fortran MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE of mpif.h,
! `mpi` and `mpi_f08`, given to C (f_status_c.c), are the C constants, and a
! real status is neither; the status conversions convert a real status and
! refuse the sentinels with MPI_ERR_ARG through the error handler.
! Prints "status_ignore rank R: ok" or FAILED.
module fstat_c
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function fstat_which(f) bind(C, name='fstat_which')
      import :: c_int
      integer(c_int) :: f(*)
    end function fstat_which
    integer(c_int) function fstat_conversions(f, src, tag) bind(C, name='fstat_conversions')
      import :: c_int
      integer(c_int) :: f(*)
      integer(c_int), value :: src, tag
    end function fstat_conversions
  end interface
end module fstat_c

subroutine stat_mpif(nbad)
  use fstat_c
  implicit none
  include 'mpif.h'
  integer, intent(inout) :: nbad
  integer :: st(MPI_STATUS_SIZE)
  if (fstat_which(MPI_STATUS_IGNORE) /= 1) nbad = nbad + 1
  if (fstat_which(MPI_STATUSES_IGNORE) /= 2) nbad = nbad + 1
  if (fstat_which(st) /= 0) nbad = nbad + 1
end subroutine stat_mpif

subroutine stat_mpi(rank, nbad)
  use mpi
  use fstat_c
  implicit none
  integer, intent(in) :: rank
  integer, intent(inout) :: nbad
  integer :: st(MPI_STATUS_SIZE), v, ierr
  if (fstat_which(MPI_STATUS_IGNORE) /= 1) nbad = nbad + 1
  if (fstat_which(MPI_STATUSES_IGNORE) /= 2) nbad = nbad + 1
  if (rank == 1) call MPI_SEND(rank, 1, MPI_INTEGER, 0, 17, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_RECV(v, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
    if (fstat_which(st) /= 0) nbad = nbad + 1
    nbad = nbad + fstat_conversions(st, 1, 17)
  end if
end subroutine stat_mpi

subroutine stat_f08(nbad)
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  integer, intent(inout) :: nbad
  interface
    integer(c_int) function fstat_which08(f) bind(C, name='fstat_which08')
      import :: c_int, MPI_Status
      type(MPI_Status) :: f
    end function fstat_which08
  end interface
  type(MPI_Status) :: st
  if (fstat_which08(MPI_STATUS_IGNORE) /= 1) nbad = nbad + 1
  if (fstat_which08(MPI_STATUSES_IGNORE(1)) /= 2) nbad = nbad + 1
  if (fstat_which08(st) /= 0) nbad = nbad + 1
end subroutine stat_f08

program f_status_ignore
  use mpi_f08
  use ftest
  implicit none
  integer :: nbad
  tname = 'status_ignore'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  nbad = 0
  call stat_mpif(nbad)
  call check(nbad == 0, 'mpif.h sentinels seen from C')
  nbad = 0
  call stat_mpi(myrank, nbad)
  call check(nbad == 0, 'mpi sentinels and the status conversions')
  nbad = 0
  call stat_f08(nbad)
  call check(nbad == 0, 'mpi_f08 sentinels seen from C')
  call report('')
  call MPI_Finalize()
end program f_status_ignore
