! f_ft_rebuild.f90: the FT-MPI idiom from Fortran (`use mpi`), under
! REBUILD. Run as
!   mpirun --comm-mode=rebuild --kill-at f_iter=3@2 -np 4 f_ft_rebuild
! The launcher SIGKILLs rank 2 when it reaches FTMPI_Fault_point('f_iter', 3).
! Survivors see MPI_ERR_OTHER from the iteration's Allreduce, recover with
! the FT_MPI_CHECK_RECOVER preset in MPI_Comm_dup, read FTMPI_NUM_FAILED_PROCS,
! and all ranks (the replacement's MPI_Init returns MPI_INIT_RESTARTED_NODE)
! roll back to the smallest iteration any of them was at. Each iteration's
! result is checked, and at the end the sum of all of them, gathered from
! the ranks that computed each. Every rank prints "... rank R: ok".
program f_ft_rebuild
  use mpi
  use ftest
  implicit none
  integer, parameter :: niters = 6
  integer :: ierr, rc, rank, np, it, val, mine, resume, latest, newcomm
  integer :: recoveries, i
  integer :: res(niters), done(niters)
  integer(kind=MPI_ADDRESS_KIND) :: mode, nfailed
  logical :: flag, restarted

  recoveries = 0
  res = 0
  done = 0
  call MPI_Init(ierr)
  restarted = ierr == MPI_INIT_RESTARTED_NODE
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  tname = 'f_ft_rebuild'
  myrank = rank
  call check(restarted .or. ierr == MPI_SUCCESS, 'MPI_Init')
  call MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, mode, flag, ierr)
  call check(flag .and. mode == FTMPI_COMM_MODE_REBUILD, 'FTMPI_COMM_MODE is REBUILD')

  it = 1
  if (restarted) then
    ! join the survivors' roll-back (the replacement has no iteration)
    mine = niters + 1
    call MPI_Allreduce(mine, resume, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(-1, latest, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    it = resume
    write (*, '(a,i0,a,i0)') 'f_ft_rebuild: replacement rank ', rank, ' resumes at ', it
  else
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end if

  do while (it <= niters)
    call FTMPI_Fault_point('f_iter', it, ierr)
    val = (rank + 1) * it
    call MPI_Allreduce(val, res(it), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, rc)
    if (rc == MPI_SUCCESS) then
      call check(res(it) == it * np * (np + 1) / 2, 'iteration result')
      done(it) = 1
      it = it + 1
      cycle
    end if
    call check(rc == MPI_ERR_OTHER, 'a failure gives MPI_ERR_OTHER')
    newcomm = FT_MPI_CHECK_RECOVER
    call MPI_Comm_dup(MPI_COMM_WORLD, newcomm, ierr)
    call check(ierr == MPI_SUCCESS, 'recovering MPI_Comm_dup')
    recoveries = recoveries + 1
    call MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_NUM_FAILED_PROCS, nfailed, flag, ierr)
    call check(flag .and. nfailed == 1, 'FTMPI_NUM_FAILED_PROCS is 1')
    call MPI_Comm_size(MPI_COMM_WORLD, i, ierr)
    call check(i == np, 'REBUILD keeps the size')
    call MPI_Comm_free(newcomm, ierr)
    call MPI_Allreduce(it, resume, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(it, latest, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    it = resume
  end do

  ! every iteration was computed by someone: the largest value of each
  call MPI_Allreduce(MPI_IN_PLACE, res, niters, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(sum(res) == niters * (niters + 1) / 2 * np * (np + 1) / 2, 'sum of all iterations')
  call check(restarted .or. rank /= 0 .or. recoveries == 1, 'rank 0 recovered once')
  call MPI_Allreduce(MPI_IN_PLACE, nfail, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (restarted) then
    call report(' (replacement)')
  else
    call report('')
  end if
  call MPI_Finalize(ierr)
  if (nfail /= 0) stop 1
end program f_ft_rebuild
