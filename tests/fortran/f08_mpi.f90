! f08_mpi.f90: the `use mpi_f08` binding: TYPE(MPI_Comm) and the other
! handle types with == and /=, TYPE(MPI_Status) with its fields, ierror
! left out (optional), MPI_IN_PLACE in Allgather, Isend/Irecv/Waitall with
! an array of TYPE(MPI_Status), a subarray datatype, Comm_split_type and
! Comm_create_group, a user reduction (the f08 callback with TYPE(C_PTR)
! vectors), an error handler with the f08 procedure type, info strings, and
! the status conversion between the f08 and the INTEGER forms, and 1-based
! request indices from Waitany/Waitsome/Testany, MPI_Info_create_env.
! Every rank prints "f08_mpi rank R: ok" or FAILED.
module f08_state
  use mpi_f08
  implicit none
  integer :: nhandler = 0, lastcode = MPI_SUCCESS
contains
  subroutine handler(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    nhandler = nhandler + 1
    lastcode = error_code
  end subroutine handler

  ! inoutvec(i) = max(invec(i), inoutvec(i)) * 1, on INTEGERs: a user op
  subroutine absmax(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, (/ len /))
    call c_f_pointer(inoutvec, b, (/ len /))
    b = max(abs(a), abs(b))
  end subroutine absmax
end module f08_state

program f08_mpi
  use mpi_f08
  use f08_state
  use ftest
  implicit none
  integer :: ierr, rank, np, i, cnt, vlen, srank, ssize
  type(MPI_Comm) :: node, evens, dup
  type(MPI_Group) :: wgroup, egroup
  type(MPI_Request) :: reqs(4)
  type(MPI_Status) :: stats(4), st
  type(MPI_Datatype) :: sub
  type(MPI_Op) :: op
  type(MPI_Errhandler) :: eh
  type(MPI_Info) :: info
  integer :: fstatus(MPI_STATUS_SIZE)
  integer, allocatable :: g(:), ranks(:)
  integer :: grid(6, 5), part(3, 2), vals(3), out(3), sbuf(2), rbuf(2, 2)
  character(len=20) :: value
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  tname = 'f08_mpi'
  myrank = rank
  call check(ierr == MPI_SUCCESS, 'size ierror')
  call check(MPI_COMM_WORLD /= MPI_COMM_SELF .and. MPI_COMM_NULL == MPI_COMM_NULL, 'handle ==')

  ! Allgather in place
  allocate(g(np))
  g = -1
  g(rank + 1) = rank * rank
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 1, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 1, np
    call check(g(i) == (i - 1) ** 2, 'allgather in place')
  end do
  deallocate(g)

  ! a 3x2 block of a 6x5 grid as a subarray type, to both neighbours
  grid = reshape((/ (i, i = 1, 30) /), (/ 6, 5 /)) + 100 * rank
  call MPI_Type_create_subarray(2, (/ 6, 5 /), (/ 3, 2 /), (/ 2, 1 /), MPI_ORDER_FORTRAN, &
       MPI_INTEGER, sub)
  call MPI_Type_commit(sub)
  sbuf = (/ rank, -rank /)
  call MPI_Irecv(part, 6, MPI_INTEGER, mod(rank + np - 1, np), 5, MPI_COMM_WORLD, reqs(1))
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, mod(rank + 1, np), 6, MPI_COMM_WORLD, reqs(2))
  call MPI_Isend(grid, 1, sub, mod(rank + 1, np), 5, MPI_COMM_WORLD, reqs(3))
  call MPI_Isend(sbuf, 2, MPI_INTEGER, mod(rank + np - 1, np), 6, MPI_COMM_WORLD, reqs(4))
  call MPI_Waitall(4, reqs, stats)
  i = mod(rank + np - 1, np)
  call check(stats(1)%MPI_SOURCE == i .and. stats(1)%MPI_TAG == 5, 'status fields')
  call check(all(part == grid(3:5, 2:3) - 100 * rank + 100 * i), 'subarray data')
  call MPI_Get_count(stats(2), MPI_INTEGER, cnt)
  call check(cnt == 2 .and. rbuf(1, 1) == mod(rank + 1, np), 'isend/irecv')
  call check(all(reqs == MPI_REQUEST_NULL), 'requests freed')
  call MPI_Type_free(sub)
  call check(sub == MPI_DATATYPE_NULL, 'type_free')

  ! the f08 status and the INTEGER status are the same integers
  call MPI_Status_f082f(stats(1), fstatus)
  call check(fstatus(MPI_SOURCE) == i .and. fstatus(MPI_TAG) == 5, 'status_f082f')
  call MPI_Status_f2f08(fstatus, st)
  call check(st%MPI_SOURCE == i .and. st%MPI_TAG == 5, 'status_f2f08')

  ! communicators: one per node, and the even ranks through a group
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, node)
  call MPI_Comm_size(node, ssize)
  call check(ssize == np, 'split_type (one host)')
  call MPI_Comm_free(node)
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup)
  allocate(ranks((np + 1) / 2))
  ranks = (/ (2 * i, i = 0, (np + 1) / 2 - 1) /)
  call MPI_Group_incl(wgroup, size(ranks), ranks, egroup)
  deallocate(ranks)
  if (mod(rank, 2) == 0) then
    call MPI_Comm_create_group(MPI_COMM_WORLD, egroup, 9, evens)
    call MPI_Comm_rank(evens, srank)
    call check(srank == rank / 2, 'create_group rank')
    call MPI_Comm_free(evens)
  end if
  call MPI_Group_free(egroup)
  call MPI_Group_free(wgroup)

  ! request indices are 1-based (Waitany, Waitsome, Testany; MPI_UNDEFINED stays)
  block
    type(MPI_Request) :: q(3)
    type(MPI_Status) :: qs(3)
    integer :: qi(3), qn, a1(2), b1(2)
    logical :: qf
    a1 = 7
    call MPI_Irecv(b1, 2, MPI_INTEGER, 0, 21, MPI_COMM_SELF, q(1))
    q(2) = MPI_REQUEST_NULL
    call MPI_Isend(a1, 2, MPI_INTEGER, 0, 21, MPI_COMM_SELF, q(3))
    call MPI_Waitany(3, q, qi(1), MPI_STATUS_IGNORE)
    call check(qi(1) == 1 .or. qi(1) == 3, 'waitany index is 1-based')
    qn = qi(1)
    call MPI_Waitsome(3, q, qn, qi, qs)
    call check(qn == 1 .and. (qi(1) == 1 .or. qi(1) == 3), 'waitsome indices are 1-based')
    call MPI_Testany(3, q, qi(1), qf, MPI_STATUS_IGNORE)
    call check(qf .and. qi(1) == MPI_UNDEFINED, 'testany of null requests')
    call check(all(b1 == 7), 'send to self')
  end block

  ! a user reduction: the largest absolute value
  vals = (/ rank, -2 * rank, 3 /)
  call MPI_Op_create(absmax, .true., op)
  call MPI_Allreduce(vals, out, 3, MPI_INTEGER, op, MPI_COMM_WORLD)
  call check(out(1) == np - 1 .and. out(2) == 2 * (np - 1) .and. out(3) == 3, 'user op')
  call MPI_Op_free(op)

  ! an error handler written in Fortran (procedure(MPI_Comm_errhandler_function))
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_create_errhandler(handler, eh)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Recv(vals, 1, MPI_INTEGER, np + 3, 0, dup, MPI_STATUS_IGNORE, ierr)
  call check(nhandler == 1 .and. ierr == lastcode .and. ierr /= MPI_SUCCESS, 'f08 handler')
  call MPI_Error_class(lastcode, i)
  call check(i == MPI_ERR_RANK, 'handler code class')
  call MPI_Errhandler_free(eh)
  call MPI_Comm_free(dup)

  ! info: strings both ways
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'ftmpi_key', 'a value')
  call MPI_Info_get(info, 'ftmpi_key', len(value), value, flag)
  call check(flag .and. value == 'a value', 'info_get')
  call MPI_Info_get_valuelen(info, 'ftmpi_key', vlen, flag)
  call check(flag .and. vlen == 7, 'info_get_valuelen')
  call MPI_Info_free(info)
  call check(info == MPI_INFO_NULL, 'info_free')
  ! MPI_Info_get_string: buflen counts characters (no terminating null); a length
  ! query (buflen 0) or a missing key leaves value alone
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'k', 'abc')
  vlen = 0
  value = 'unchanged'
  call MPI_Info_get_string(info, 'k', vlen, value, flag)
  call check(flag .and. vlen == 3 .and. value == 'unchanged', 'get_string length query')
  vlen = len(value)
  call MPI_Info_get_string(info, 'k', vlen, value, flag)
  call check(flag .and. vlen == 3 .and. value == 'abc', 'get_string value')
  vlen = 2
  call MPI_Info_get_string(info, 'k', vlen, value, flag)
  call check(flag .and. vlen == 3 .and. value == 'ab', 'get_string truncated')
  vlen = len(value)
  call MPI_Info_get_string(info, 'nokey', vlen, value, flag)
  call check(.not. flag .and. value == 'ab', 'get_string of a missing key')
  call MPI_Info_free(info)
  ! MPI_Info_create_env has no argc/argv in Fortran; "maxprocs" is the job size
  call MPI_Info_create_env(info, ierr)
  call check(ierr == MPI_SUCCESS .and. info /= MPI_INFO_NULL, 'info_create_env')
  call MPI_Info_get(info, 'maxprocs', len(value), value, flag)
  read (value, *) i
  call check(flag .and. i == np, 'info_create_env maxprocs')
  call MPI_Info_free(info)

  call MPI_Allreduce(MPI_IN_PLACE, nfail, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call report('')
  call MPI_Finalize()
  if (nfail /= 0) stop 1
end program f08_mpi
