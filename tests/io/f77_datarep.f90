! f77_datarep.f90 DIR: MPI_Register_datarep through mpif.h (the `mpi`
! module has the same interface). The representation "f77neg" stores each
! INTEGER negated, in 4 bytes: conversion procedures with choice buffers
! (INTEGER arrays here), an extent procedure, an INTEGER(KIND=
! MPI_ADDRESS_KIND) extra_state (7) that every call gets; a common block counts
! the calls. Each rank writes 2 integers
! through it, reads them back, and reads the stored (negated) form with a
! native view. Prints "f77_datarep rank R: ok".
! both directions: the value negated (the same operation either way)
subroutine neg_copy(to, from, datatype, count, position, extra_state, ierror, weight)
  implicit none
  include 'mpif.h'
  integer :: datatype, count, ierror, to(*), from(*), weight
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: calls, bad
  common /negcnt/ calls, bad
  to(1:count) = -from(1:count)
  calls = calls + weight
  if (extra_state /= 7 .or. position /= 0) bad = bad + 1
  ierror = MPI_SUCCESS
  if (datatype /= MPI_INTEGER) ierror = MPI_ERR_TYPE
end subroutine neg_copy

subroutine neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  implicit none
  include 'mpif.h'
  integer :: datatype, count, ierror, userbuf(*), filebuf(*)
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  call neg_copy(userbuf, filebuf, datatype, count, position, extra_state, ierror, 1)
end subroutine neg_read

subroutine neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  implicit none
  include 'mpif.h'
  integer :: datatype, count, ierror, userbuf(*), filebuf(*)
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  call neg_copy(filebuf, userbuf, datatype, count, position, extra_state, ierror, 10)
end subroutine neg_write

subroutine neg_extent(datatype, extent, extra_state, ierror)
  implicit none
  include 'mpif.h'
  integer :: datatype, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
  integer :: calls, bad
  common /negcnt/ calls, bad
  if (extra_state /= 7 .or. datatype /= MPI_INTEGER) bad = bad + 1
  extent = 4
  ierror = MPI_SUCCESS
end subroutine neg_extent

program f77_datarep
  implicit none
  include 'mpif.h'
  external :: neg_read, neg_write, neg_extent
  integer :: ierr, rank, nfail, v(2), w(2), fh, cls
  integer(kind=MPI_ADDRESS_KIND) :: extra
  integer(kind=MPI_OFFSET_KIND) :: off
  character(len=4096) :: dir
  integer :: calls, bad
  common /negcnt/ calls, bad

  nfail = 0
  calls = 0
  bad = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, dir)
  extra = 7
  call MPI_REGISTER_DATAREP('f77neg', neg_read, neg_write, neg_extent, extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('register', rank, nfail)
  call MPI_REGISTER_DATAREP('f77neg', MPI_CONVERSION_FN_NULL, neg_write, neg_extent, &
                            extra, ierr)
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  if (cls /= MPI_ERR_DUP_DATAREP) call fail('a second registration', rank, nfail)
  call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(dir) // '/f77_datarep.dat', &
                     MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('open', rank, nfail)
  off = 0
  call MPI_FILE_SET_VIEW(fh, off, MPI_INTEGER, MPI_INTEGER, 'f77neg', MPI_INFO_NULL, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_view', rank, nfail)
  v(1) = rank + 5
  v(2) = -7
  off = 2 * rank
  call MPI_FILE_WRITE_AT_ALL(fh, off, v, 2, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) call fail('write', rank, nfail)
  w = 0
  call MPI_FILE_READ_AT_ALL(fh, off, w, 2, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. any(w /= v)) call fail('read back', rank, nfail)
  if (calls /= 11) call fail('one write and one read conversion', rank, nfail)
  if (bad /= 0) call fail('the arguments given to the procedures', rank, nfail)
  off = 0
  call MPI_FILE_SET_VIEW(fh, off, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  off = 2 * rank
  call MPI_FILE_READ_AT_ALL(fh, off, w, 2, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (any(w /= -v)) call fail('stored form', rank, nfail)
  call MPI_FILE_CLOSE(fh, ierr)
  if (nfail == 0) print '(a,i0,a)', 'f77_datarep rank ', rank, ': ok'
  call MPI_FINALIZE(ierr)
end program f77_datarep

subroutine fail(what, rank, nfail)
  implicit none
  character(len=*), intent(in) :: what
  integer, intent(in) :: rank
  integer, intent(inout) :: nfail
  print '(a,i0,2a)', 'rank ', rank, ': check failed: ', what
  nfail = nfail + 1
end subroutine fail
