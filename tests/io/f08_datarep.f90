! f08_datarep.f90 DIR: MPI_Register_datarep through the `mpi_f08` module.
! The representation "f08wide" stores each INTEGER as an 8-byte integer:
! its conversion procedures (TYPE(C_PTR) buffers) and its extent procedure
! are Fortran. Each rank writes 3 integers through a view in it, reads
! them back, and reads the stored 8-byte form with a native view; a
! representation whose read conversion is MPI_CONVERSION_FN_NULL is
! registered too, and a view takes it;
! registering a name twice gives MPI_ERR_DUP_DATAREP. The extra_state
! (42) reaches every call, which a module counter counts. Prints "f08_datarep rank R: ok".
module wide_conv
  use, intrinsic :: iso_c_binding
  use mpi_f08
  implicit none
  integer :: calls = 0, bad_extra = 0
contains
  ! both directions: INTEGER <-> INTEGER(8) times 1000, 8 bytes in the file
  subroutine wide_copy(to_file, userbuf, datatype, count, filebuf, position, extra_state, ierror)
    logical, intent(in) :: to_file
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:)
    integer(kind=8), pointer :: f(:)
    ierror = MPI_ERR_TYPE
    if (datatype /= MPI_INTEGER) return
    call c_f_pointer(userbuf, u, [count])
    call c_f_pointer(filebuf, f, [count])
    if (to_file) then
      f = int(u, 8) * 1000_8
      calls = calls + 100
    else
      u = int(f / 1000_8)
      calls = calls + 1
    end if
    if (extra_state /= 42 .or. position /= 0) bad_extra = bad_extra + 1
    ierror = MPI_SUCCESS
  end subroutine wide_copy

  subroutine wide_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    call wide_copy(.false., userbuf, datatype, count, filebuf, position, extra_state, ierror)
  end subroutine wide_read

  subroutine wide_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    call wide_copy(.true., userbuf, datatype, count, filebuf, position, extra_state, ierror)
  end subroutine wide_write

  subroutine wide_extent(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror
    extent = 8
    ierror = MPI_SUCCESS
    if (extra_state /= 42) bad_extra = bad_extra + 1
    if (datatype /= MPI_INTEGER) ierror = MPI_ERR_TYPE
  end subroutine wide_extent
end module wide_conv

program f08_datarep
  use mpi_f08
  use wide_conv
  implicit none
  integer :: ierr, rank, nfail, v(3), w(3)
  integer(kind=8) :: raw(3)
  integer(kind=MPI_ADDRESS_KIND) :: extra, ext
  integer(kind=MPI_OFFSET_KIND) :: off
  type(MPI_File) :: fh
  character(len=4096) :: dir

  nfail = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, dir)
  extra = 42
  call MPI_Register_datarep('f08wide', wide_read, wide_write, wide_extent, extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('register')
  call MPI_Register_datarep('f08wide', wide_read, wide_write, wide_extent, extra, ierr)
  call MPI_Error_class(ierr, ierr)
  if (ierr /= MPI_ERR_DUP_DATAREP) call fail('a second registration')
  call MPI_Register_datarep('f08wo', MPI_CONVERSION_FN_NULL, wide_write, wide_extent, extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('register with MPI_CONVERSION_FN_NULL')

  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/f08_datarep.dat', &
                     MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('open')
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'f08wide', &
                         MPI_INFO_NULL, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_view f08wide')
  call MPI_File_get_type_extent(fh, MPI_INTEGER, ext, ierr)
  if (ext /= 8) call fail('file extent of MPI_INTEGER')
  v = [rank, -rank - 1, 12345]
  off = 3 * rank
  call MPI_File_write_at_all(fh, off, v, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) call fail('write')
  w = 0
  call MPI_File_read_at_all(fh, off, w, 3, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. any(w /= v)) call fail('read back')
  if (calls /= 101) call fail('one write and one read conversion')
  if (bad_extra /= 0) call fail('the extra_state or position given to the procedures')
  ! the stored form: 8-byte integers, 1000 times the values
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL, ierr)
  call MPI_File_read_at_all(fh, 24_MPI_OFFSET_KIND * rank, raw, 24, MPI_BYTE, &
                            MPI_STATUS_IGNORE, ierr)
  if (any(raw /= int(v, 8) * 1000_8)) call fail('stored form')
  ! MPI_CONVERSION_FN_NULL on the read side
  call MPI_File_set_view(fh, 1024_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'f08wo', &
                         MPI_INFO_NULL, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_view f08wo')
  call MPI_File_close(fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('close')
  if (nfail == 0) print '(a,i0,a)', 'f08_datarep rank ', rank, ': ok'
  call MPI_Finalize(ierr)
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': check failed: ', what
    nfail = nfail + 1
  end subroutine fail
end program f08_datarep
