! f08_io.f90 DIR: MPI-IO through the `mpi_f08` module: each rank writes its
! block with MPI_File_write_at_all (INTEGER(MPI_OFFSET_KIND) offsets), a
! vector view interleaves ranks, MPI_File_write_ordered and
! MPI_File_read_at read it back; the file is deleted on close. A sequential
! file: MPI_File_write_ordered, then a view at MPI_DISPLACEMENT_CURRENT (an
! INTEGER(KIND=MPI_OFFSET_KIND) constant) starts after the ranks' integers.
! Prints "f08_io rank R: ok".
program f08_io
  use mpi_f08
  implicit none
  integer, parameter :: n = 4
  integer :: ierr, rank, nproc, i, nfail, cnt
  integer :: buf(n), back(64)
  integer(kind=MPI_OFFSET_KIND) :: off, sz
  type(MPI_File) :: fh
  type(MPI_Datatype) :: vec, et, ft
  character(len=MPI_MAX_DATAREP_STRING) :: rep
  type(MPI_Status) :: st
  character(len=4096) :: dir

  nfail = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  call get_command_argument(1, dir)
  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/f08_io.dat', &
                     MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('open')
  do i = 1, n
    buf(i) = rank * 100 + i
  end do
  off = rank * n * 4
  call MPI_File_write_at_all(fh, off, buf, n, MPI_INTEGER, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  if (ierr /= MPI_SUCCESS .or. cnt /= n) call fail('write_at_all')
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  off = mod(rank + 1, nproc) * n * 4
  call MPI_File_read_at(fh, off, back, n, MPI_INTEGER, st)
  do i = 1, n
    if (back(i) /= mod(rank + 1, nproc) * 100 + i) call fail('read_at')
  end do
  ! interleaved: rank r owns integers r, r+nproc, ... after the blocks
  call MPI_Type_vector(n, 1, nproc, MPI_INTEGER, vec)
  call MPI_Type_commit(vec)
  off = nproc * n * 4 + rank * 4
  call MPI_File_set_view(fh, off, MPI_INTEGER, vec, 'native', MPI_INFO_NULL)
  call MPI_File_write_all(fh, buf, n, MPI_INTEGER, MPI_STATUS_IGNORE)
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL)
  call MPI_File_get_size(fh, sz)
  if (sz /= 2 * nproc * n * 4) call fail('size')
  if (rank == 0) then
    off = nproc * n * 4
    call MPI_File_read_at(fh, off, back, nproc * n, MPI_INTEGER, st)
    do i = 0, nproc * n - 1
      if (back(i + 1) /= mod(i, nproc) * 100 + i / nproc + 1) call fail('interleaved')
    end do
  end if
  call MPI_File_close(fh)
  call MPI_Type_free(vec)
  if (kind(MPI_DISPLACEMENT_CURRENT) /= MPI_OFFSET_KIND) call fail('kind of MPI_DISPLACEMENT_CURRENT')
  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/f08_io.seq', &
                     MPI_MODE_CREATE + MPI_MODE_WRONLY + MPI_MODE_SEQUENTIAL + &
                     MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('open sequential')
  call MPI_File_write_ordered(fh, buf, 1, MPI_INTEGER, MPI_STATUS_IGNORE)
  call MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INTEGER, MPI_INTEGER, 'native', &
                         MPI_INFO_NULL, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_view at MPI_DISPLACEMENT_CURRENT')
  call MPI_File_get_view(fh, off, et, ft, rep)
  if (off /= nproc * 4) call fail('MPI_DISPLACEMENT_CURRENT')
  call MPI_File_close(fh)
  if (nfail == 0) print '(a,i0,a)', 'f08_io rank ', rank, ': ok'
  call MPI_Finalize()
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'f08_io rank ', rank, ': check failed: ', what
    nfail = nfail + 1
  end subroutine
end program
