! f90_mpi.f90: the `use mpi` binding (explicit interfaces, INTEGER handles).
! Attributes (a predefined one, and a keyval with Fortran copy and delete
! callbacks that Comm_dup and Comm_free run), a Cartesian topology
! (LOGICAL periods), a struct datatype, Scatter/Gather with MPI_IN_PLACE at
! the root, Reduce with MAXLOC, Probe/Iprobe, Testall, strings (names, error
! strings), Wtime. Every rank prints "f90_mpi rank R: ok" or FAILED.
module f90_state
  implicit none
  integer :: ncopy = 0, ndelete = 0
end module f90_state

subroutine copy_fn(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
  use mpi
  use f90_state
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
  logical :: flag
  ncopy = ncopy + 1
  val_out = val_in + extra      ! the copy is changed, so it can be seen
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine copy_fn

subroutine delete_fn(comm, keyval, val, extra, ierr)
  use mpi
  use f90_state
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  ndelete = ndelete + 1
  ierr = MPI_SUCCESS
end subroutine delete_fn

program f90_mpi
  use mpi
  use f90_state
  use ftest
  implicit none
  external :: copy_fn, delete_fn
  integer :: ierr, rank, np, key, dup, cart, i, cnt, len, stype
  integer :: dims(2), coords(2), src, dst, cls
  logical :: periods(2), flag
  integer(kind=MPI_ADDRESS_KIND) :: val, tagub, disp(2), base
  integer :: status(MPI_STATUS_SIZE), reqs(2), stats(MPI_STATUS_SIZE, 2)
  integer :: pair(2), best(2), blens(2), types(2)
  integer, allocatable :: all(:)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: errstr
  double precision :: t0
  type rec
    sequence
    integer :: id
    double precision :: v
  end type rec
  type(rec) :: r(2), rr(2)

  call MPI_Init(ierr)
  if (ierr /= MPI_SUCCESS) stop 2
  t0 = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  tname = 'f90_mpi'
  myrank = rank

  ! predefined attribute: the C value is a pointer, Fortran sees the int
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  call check(flag .and. tagub >= 32767, 'MPI_TAG_UB')
  ! a keyval with Fortran callbacks
  call MPI_Comm_create_keyval(copy_fn, delete_fn, key, 1000_MPI_ADDRESS_KIND, ierr)
  call check(ierr == MPI_SUCCESS, 'create_keyval')
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, 42_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call check(ncopy == 1, 'copy callback')
  call MPI_Comm_get_attr(dup, key, val, flag, ierr)
  call check(flag .and. val == 1042, 'copied attribute')
  call MPI_Comm_set_name(dup, 'fortran dup   ', ierr)
  call MPI_Comm_get_name(dup, name, len, ierr)
  call check(name == 'fortran dup' .and. len == 11, 'comm name')
  call MPI_Comm_free(dup, ierr)
  call check(ndelete == 1 .and. dup == MPI_COMM_NULL, 'delete callback')
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  call check(ndelete == 2, 'delete_attr')
  call MPI_Comm_free_keyval(key, ierr)
  call check(key == MPI_KEYVAL_INVALID, 'free_keyval')

  ! Cartesian topology with LOGICAL periods
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(dst == mod(coords(1) + 1, dims(1)) * dims(2) + coords(2), 'cart_shift')
  periods = .false.
  call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
  call check(periods(1) .and. .not. periods(2), 'cart_get periods')
  call MPI_Comm_free(cart, ierr)

  ! a struct datatype (integer, double precision), exchanged in a ring
  call MPI_Get_address(r(1)%id, base, ierr)
  call MPI_Get_address(r(1)%v, disp(2), ierr)
  disp(1) = 0
  disp(2) = disp(2) - base
  blens = 1
  types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  call MPI_Type_create_struct(2, blens, disp, types, stype, ierr)
  call MPI_Type_get_extent(stype, base, val, ierr)
  call MPI_Type_create_resized(stype, 0_MPI_ADDRESS_KIND, int(storage_size(r(1)) / 8, &
       MPI_ADDRESS_KIND), i, ierr)
  call MPI_Type_free(stype, ierr)
  stype = i
  call MPI_Type_commit(stype, ierr)
  r(1) = rec(rank, 0.5d0 * rank)
  r(2) = rec(rank + 100, 1.5d0 * rank)
  call MPI_Sendrecv(r, 2, stype, mod(rank + 1, np), 3, rr, 2, stype, &
       mod(rank + np - 1, np), 3, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, stype, cnt, ierr)
  call check(cnt == 2, 'struct count')
  i = mod(rank + np - 1, np)
  call check(rr(1)%id == i .and. rr(2)%id == i + 100 .and. rr(2)%v == 1.5d0 * i, 'struct data')
  call MPI_Type_free(stype, ierr)

  ! Gather with MPI_IN_PLACE at the root, Scatter back
  allocate(all(np))
  all = -1
  all(rank + 1) = 7 * rank
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(all(np) == 7 * (np - 1), 'gather in place')
    all = all + 1
  else
    call MPI_Gather(all(rank + 1), 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Scatter(all, 1, MPI_INTEGER, i, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(i == 7 * rank + 1, 'scatter')
  deallocate(all)

  ! MAXLOC over (value, rank) pairs
  pair = (/ mod(rank * 5, 3) + 10 * rank, rank /)
  call MPI_Allreduce(pair, best, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call check(best(2) == np - 1, 'maxloc')

  ! Probe and Iprobe, Testall until done
  call MPI_Isend(rank, 1, MPI_INTEGER, mod(rank + 1, np), 11, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, status, ierr)
  call check(status(MPI_SOURCE) == mod(rank + np - 1, np), 'probe source')
  call MPI_Iprobe(status(MPI_SOURCE), 11, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
  call check(flag, 'iprobe')
  call MPI_Irecv(i, 1, MPI_INTEGER, status(MPI_SOURCE), 11, MPI_COMM_WORLD, reqs(2), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Testall(2, reqs, flag, stats, ierr)
  end do
  call check(i == mod(rank + np - 1, np) .and. stats(MPI_TAG, 2) == 11, 'testall')

  ! errors: a returned code, its class and its string
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(i, 1, MPI_INTEGER, 0, -5, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, i)
  call check(cls == MPI_ERR_TAG, 'error class of a bad tag')
  call MPI_Error_string(ierr, errstr, len, i)
  call check(len > 0 .and. len_trim(errstr) == len, 'error string')
  call check(MPI_Wtime() >= t0 .and. MPI_Wtick() > 0d0, 'wtime')

  call MPI_Allreduce(MPI_IN_PLACE, nfail, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call report('')
  call MPI_Finalize(ierr)
  if (nfail /= 0) stop 1
end program f90_mpi
