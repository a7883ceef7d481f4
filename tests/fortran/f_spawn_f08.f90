! f_spawn_f08.f90: MPI_Comm_spawn and MPI_Comm_spawn_multiple from
! `use mpi_f08`, with the sentinels MPI_ARGV_NULL, MPI_ARGVS_NULL and
! MPI_ERRCODES_IGNORE. Run as
!   mpirun -np 2 --universe 5 f_spawn_f08
! The parents spawn 1 copy of the program (no arguments), then 2 with
! spawn_multiple (two commands); each child checks it got no arguments, its
! MPI_APPNUM and parents, and sends its parents' rank 0 its appnum and
! world size, which the parents check. Every process prints "... : ok".
program f_spawn_f08
  use mpi_f08
  use ftest
  implicit none
  integer :: ierr, rank, np, i, got(2)
  integer :: maxprocs(2)
  type(MPI_Comm) :: parent, inter
  type(MPI_Info) :: infos(2)
  character(len=256) :: self

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  myrank = rank
  call MPI_Comm_get_parent(parent)
  if (parent /= MPI_COMM_NULL) then
    call child()
    call MPI_Finalize()
    stop
  end if
  tname = 'f_spawn_f08 parent'
  call get_command_argument(0, self)

  call MPI_Comm_spawn(trim(self), MPI_ARGV_NULL, 1, MPI_INFO_NULL, 1, MPI_COMM_WORLD, &
                      inter, MPI_ERRCODES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn, root 1')
  call gather(1)

  maxprocs = 1
  infos = MPI_INFO_NULL
  call MPI_Comm_spawn_multiple(2, [character(len=len_trim(self)) :: self, self], &
                               MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                               MPI_ERRCODES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn_multiple')
  call gather(2)
  call report('')
  call MPI_Finalize()

contains
  ! rank 0 receives (appnum, world size) from each of the n children
  subroutine gather(n)
    integer, intent(in) :: n
    integer :: rsize, seen
    type(MPI_Status) :: st
    call MPI_Comm_remote_size(inter, rsize)
    call check(rsize == n, 'remote group size')
    if (rank == 0) then
      seen = 0
      do i = 1, n
        call MPI_Recv(got, 2, MPI_INTEGER, MPI_ANY_SOURCE, 3, inter, st, ierr)
        call check(ierr == MPI_SUCCESS .and. got(2) == n, 'child world size')
        call check(got(1) == merge(st%MPI_SOURCE, 0, n > 1), 'child appnum')
        seen = seen + 1
      end do
      call check(seen == n, 'every child reported')
    end if
    call MPI_Comm_disconnect(inter, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Comm_disconnect')
  end subroutine gather

  subroutine child()
    integer(kind=MPI_ADDRESS_KIND) :: val
    logical :: flag
    integer :: psize
    tname = 'f_spawn_f08 child'
    call check(command_argument_count() == 0, 'MPI_ARGV_NULL: no arguments')
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, val, flag)
    call check(flag, 'MPI_APPNUM is set')
    call MPI_Comm_remote_size(parent, psize)
    call check(psize == 2, 'two parents')
    got = [int(val), np]
    call MPI_Send(got, 2, MPI_INTEGER, 0, 3, parent, ierr)
    call check(ierr == MPI_SUCCESS, 'send to the parents')
    call MPI_Comm_disconnect(parent)
    call report('')
  end subroutine child
end program f_spawn_f08
