! f08_rma.f90: windows through the `mpi_f08` module: MPI_Win_allocate
! (TYPE(C_PTR) base), the integer window attributes as values
! (MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL;
! MPI-3.1 11.2.6), MPI_Win_create's flavor, a Put under fence read back.
! Prints "f08_rma rank R: ok".
program f08_rma
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: n = 4
  integer :: ierr, rank, nproc, right, nfail
  integer(kind=MPI_ADDRESS_KIND) :: bytes, attrval, disp
  integer(kind=8), pointer :: mem(:)
  integer(kind=8), target :: own(n)
  integer(kind=8) :: v
  logical :: flag
  type(c_ptr) :: cp
  type(MPI_Win) :: win, win2

  nfail = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  right = mod(rank + 1, nproc)
  bytes = n * 8
  call MPI_Win_allocate(bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, cp, win)
  call c_f_pointer(cp, mem, [n])
  mem = 0
  call expect(win, MPI_WIN_SIZE, bytes, 'MPI_WIN_SIZE')
  call expect(win, MPI_WIN_DISP_UNIT, 8_MPI_ADDRESS_KIND, 'MPI_WIN_DISP_UNIT')
  call expect(win, MPI_WIN_CREATE_FLAVOR, int(MPI_WIN_FLAVOR_ALLOCATE, MPI_ADDRESS_KIND), &
              'MPI_WIN_CREATE_FLAVOR')
  call expect(win, MPI_WIN_MODEL, int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND), 'MPI_WIN_MODEL')

  call MPI_Win_fence(0, win)
  v = 1000 + rank
  disp = 2
  call MPI_Put(v, 1, MPI_INTEGER8, right, disp, 1, MPI_INTEGER8, win)
  call MPI_Win_fence(0, win)
  if (mem(3) /= 1000 + mod(rank + nproc - 1, nproc)) then
    nfail = nfail + 1
    print *, 'f08_rma: check failed: put value', mem(3)
  end if
  call MPI_Win_free(win)

  call MPI_Win_create(own, 2 * bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win2)
  call expect(win2, MPI_WIN_SIZE, 2 * bytes, 'MPI_WIN_SIZE of create')
  call expect(win2, MPI_WIN_DISP_UNIT, 4_MPI_ADDRESS_KIND, 'MPI_WIN_DISP_UNIT of create')
  call expect(win2, MPI_WIN_CREATE_FLAVOR, int(MPI_WIN_FLAVOR_CREATE, MPI_ADDRESS_KIND), &
              'MPI_WIN_CREATE_FLAVOR of create')
  call MPI_Win_free(win2)

  if (nfail == 0) print '(a,i0,a)', 'f08_rma rank ', rank, ': ok'
  call MPI_Finalize()
  if (nfail /= 0) stop 1

contains

  subroutine expect(w, key, want, what)
    type(MPI_Win), intent(in) :: w
    integer, intent(in) :: key
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: want
    character(len=*), intent(in) :: what
    call MPI_Win_get_attr(w, key, attrval, flag, ierr)
    if (.not. flag .or. ierr /= MPI_SUCCESS .or. attrval /= want) then
      nfail = nfail + 1
      print *, 'f08_rma: check failed: ', what, attrval, want
    end if
  end subroutine expect
end program f08_rma
