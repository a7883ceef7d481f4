! f90_rma.f90: one-sided communication through the `mpi` module:
! MPI_Win_allocate (TYPE(C_PTR) base turned into a Fortran array), fence
! with Put and Get, Accumulate under lock/unlock, Fetch_and_op, the
! integer window attributes (values), MPI_Win_free. Prints "f90_rma rank R: ok".
program f90_rma
  use mpi
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: n = 8
  integer :: ierr, rank, size, win, right, left, i, nfail
  integer(kind=MPI_ADDRESS_KIND) :: bytes, disp, baseaddr, attrval
  integer(kind=8), pointer :: mem(:)
  integer(kind=8) :: v(n), got(n), one, old
  logical :: flag
  type(c_ptr) :: cp

  nfail = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  bytes = n * 8
  call MPI_Win_allocate(bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, baseaddr, win, ierr)
  if (ierr /= MPI_SUCCESS) nfail = nfail + 1
  cp = transfer(baseaddr, cp)
  call c_f_pointer(cp, mem, [n])
  mem = 0
  ! The integer attributes come back as their values (MPI-3.1 11.2.6)
  call expect(MPI_WIN_SIZE, bytes, 'MPI_WIN_SIZE')
  call expect(MPI_WIN_DISP_UNIT, 8_MPI_ADDRESS_KIND, 'MPI_WIN_DISP_UNIT')
  call expect(MPI_WIN_CREATE_FLAVOR, int(MPI_WIN_FLAVOR_ALLOCATE, MPI_ADDRESS_KIND), &
              'MPI_WIN_CREATE_FLAVOR')
  call expect(MPI_WIN_MODEL, int(MPI_WIN_UNIFIED, MPI_ADDRESS_KIND), 'MPI_WIN_MODEL')
  call expect(MPI_WIN_BASE, baseaddr, 'MPI_WIN_BASE')

  do i = 1, n
    v(i) = 100 * rank + i
  end do
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(v, n, MPI_INTEGER8, right, disp, n, MPI_INTEGER8, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Get(got, n, MPI_INTEGER8, left, disp, n, MPI_INTEGER8, win, ierr)
  call MPI_Win_fence(MPI_MODE_NOSUCCEED, win, ierr)
  do i = 1, n
    if (mem(i) /= 100 * left + i) nfail = nfail + 1
    if (got(i) /= 100 * mod(left + size - 1, size) + i) nfail = nfail + 1
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  one = 1
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
  call MPI_Accumulate(one, 1, MPI_INTEGER8, 0, disp, 1, MPI_INTEGER8, MPI_SUM, win, ierr)
  call MPI_Win_unlock(0, win, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
  call MPI_Fetch_and_op(one, old, MPI_INTEGER8, 0, disp, MPI_SUM, win, ierr)
  call MPI_Win_unlock(0, win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (mem(1) /= 100 * left + 1 + 2 * size) then
      nfail = nfail + 1
      print *, 'f90_rma: check failed: accumulate total', mem(1)
    end if
  end if
  call MPI_Win_free(win, ierr)
  if (win /= MPI_WIN_NULL) nfail = nfail + 1
  if (nfail == 0) then
    write (*, '(a,i0,a)') 'f90_rma rank ', rank, ': ok'
  else
    write (*, '(a,i0,a,i0)') 'f90_rma rank ', rank, ': FAILED ', nfail
  end if
  call MPI_Finalize(ierr)

contains

  subroutine expect(key, want, what)
    integer, intent(in) :: key
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: want
    character(len=*), intent(in) :: what
    call MPI_Win_get_attr(win, key, attrval, flag, ierr)
    if (.not. flag .or. ierr /= MPI_SUCCESS .or. attrval /= want) then
      nfail = nfail + 1
      print *, 'f90_rma: check failed: ', what, attrval
    end if
  end subroutine expect
end program f90_rma
