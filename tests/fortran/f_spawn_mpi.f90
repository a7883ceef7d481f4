! f_spawn_mpi.f90: MPI_Comm_spawn and MPI_Comm_spawn_multiple from Fortran
! (`use mpi`), with Fortran argv arrays and array_of_errcodes. One program
! is the parents and the children it spawns (it spawns itself, the path in
! its argument 0). Run as
!   mpirun -np 2 --universe 7 f_spawn_mpi
! The parents (2) spawn 2 children with argv ('child', 'a b', ' '), then
! 2 more with spawn_multiple, one per command, argv rows ('multi', 'x')
! and ('multi', 'yy'), then try a program that does not exist (errcodes
! MPI_ERR_SPAWN, ierror MPI_ERR_SPAWN, MPI_COMM_NULL). A child checks its
! arguments, MPI_APPNUM, its parent intercommunicator, and exchanges over
! it; the parents and the children merge and allreduce. Every process
! prints "<test> rank R: ok".
program f_spawn_mpi
  use mpi
  use ftest
  implicit none
  integer :: ierr, rank, np, parent, inter, merged, i, rsize, v, msize
  integer :: errs(2), errs1(1), maxprocs(2), infos(2)
  character(len=256) :: self
  character(len=8) :: argv(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  myrank = rank
  call MPI_Comm_get_parent(parent, ierr)
  if (parent /= MPI_COMM_NULL) then
    call child(parent)
    call MPI_Finalize(ierr)
    stop
  end if
  tname = 'f_spawn_mpi parent'
  call get_command_argument(0, self)

  ! MPI_Comm_spawn: the argv ends at the blank string; 'a b' keeps its blank
  argv(1) = 'child'
  argv(2) = 'a b'
  argv(3) = ' '
  errs = -1
  call MPI_Comm_spawn(self, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errs, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn')
  call check(all(errs == MPI_SUCCESS), 'spawn errcodes')
  call talk(inter, 0)

  ! MPI_Comm_spawn_multiple: row i of the argv array is command i's argv
  call spawn_multiple(trim(self))

  ! a program that does not exist: every errcode and ierror say so
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  errs1 = -1
  call MPI_Comm_spawn('/nonexistent/f_spawn', MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, &
                      MPI_COMM_WORLD, inter, errs1, ierr)
  call check(ierr == MPI_ERR_SPAWN, 'bad program: ierror MPI_ERR_SPAWN')
  call check(errs1(1) == MPI_ERR_SPAWN, 'bad program: errcode MPI_ERR_SPAWN')
  call check(inter == MPI_COMM_NULL, 'bad program: MPI_COMM_NULL')
  call report('')
  call MPI_Finalize(ierr)

contains
  ! parents (side 0) and children (side 1): rank 0 of each side sends
  ! 100*(side+1)+k to remote rank k; then merge (parents low), allreduce
  subroutine talk(ic, side)
    integer, intent(inout) :: ic
    integer, intent(in) :: side
    integer :: lrank, lsize, got, sum, mrank, k, ierr2
    integer :: st(MPI_STATUS_SIZE)
    call MPI_Comm_rank(ic, lrank, ierr2)
    call MPI_Comm_size(ic, lsize, ierr2)
    call MPI_Comm_remote_size(ic, rsize, ierr2)
    if (lrank == 0) then
      do k = 0, rsize - 1
        v = 100 * (side + 1) + k
        call MPI_Send(v, 1, MPI_INTEGER, k, 5, ic, ierr2)
      end do
    end if
    call MPI_Recv(got, 1, MPI_INTEGER, 0, 5, ic, st, ierr2)
    call check(ierr2 == MPI_SUCCESS .and. got == 100 * (2 - side) + lrank, 'intercomm message')
    call MPI_Intercomm_merge(ic, side == 1, merged, ierr2)
    call check(ierr2 == MPI_SUCCESS, 'MPI_Intercomm_merge')
    call MPI_Comm_size(merged, msize, ierr2)
    call MPI_Comm_rank(merged, mrank, ierr2)
    call check(msize == lsize + rsize, 'merged size')
    call check(mrank == lrank + side * rsize, 'merged rank: parents low')
    call MPI_Allreduce(mrank, sum, 1, MPI_INTEGER, MPI_SUM, merged, ierr2)
    call check(sum == msize * (msize - 1) / 2, 'allreduce on the merged communicator')
    call MPI_Comm_free(merged, ierr2)
    call MPI_Comm_disconnect(ic, ierr2)
    call check(ierr2 == MPI_SUCCESS .and. ic == MPI_COMM_NULL, 'MPI_Comm_disconnect')
  end subroutine talk

  subroutine spawn_multiple(path)
    character(len=*), intent(in) :: path
    character(len=len(path)) :: c(2), a(2, 3)
    c = path
    a = ' '
    a(1, 1) = 'multi'
    a(1, 2) = 'x'
    a(2, 1) = 'multi'
    a(2, 2) = 'yy'
    maxprocs = 1
    infos = MPI_INFO_NULL
    errs = -1
    call MPI_Comm_spawn_multiple(2, c, a, maxprocs, infos, 0, MPI_COMM_WORLD, inter, errs, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn_multiple')
    call check(all(errs == MPI_SUCCESS), 'spawn_multiple errcodes')
    call talk(inter, 0)
  end subroutine spawn_multiple

  subroutine child(p)
    integer, intent(in) :: p
    integer :: n, appnum, psize
    integer(kind=MPI_ADDRESS_KIND) :: val
    logical :: flag
    character(len=16) :: a1, a2
    n = command_argument_count()
    call get_command_argument(1, a1)
    call get_command_argument(2, a2)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, val, flag, ierr)
    appnum = -1
    if (flag) appnum = int(val)
    call MPI_Comm_remote_size(p, psize, ierr)
    call check(psize == 2, 'two parents')
    if (a1 == 'child') then
      tname = 'f_spawn_mpi child'
      call check(n == 2 .and. a2 == 'a b', 'spawn argv (child, a b)')
      call check(np == 2 .and. appnum == 0, 'spawn: 2 children, MPI_APPNUM 0')
    else
      tname = 'f_spawn_mpi multi'
      call check(a1 == 'multi' .and. n == 2, 'spawn_multiple argv')
      call check(np == 2 .and. appnum == rank, 'spawn_multiple: one MPI_COMM_WORLD, appnum')
      if (appnum == 0) call check(a2 == 'x', 'argv row 1')
      if (appnum == 1) call check(a2 == 'yy', 'argv row 2')
    end if
    inter = p
    call talk(inter, 1)
    call report('')
  end subroutine child
end program f_spawn_mpi
