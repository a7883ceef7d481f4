! f_pingpong.f90: ping-pong latency and bandwidth between ranks 0 and 1,
! from Fortran (use mpi_f08), in the output format of bench/compare.sh:
!   latency <bytes> <usec one way>   bandwidth <bytes> <MB/s>
! Each figure is the median of 9 timed batches. --quick: fewer sizes and
! iterations. Run under several MPIs with
!   MPICC_FTMPI=build/bin/mpifort MPICC_OPENMPI=mpifort.openmpi \
!   MPICC_MPICH=mpifort.mpich bench/compare.sh --bench bench/f_pingpong.f90
program f_pingpong
  use mpi_f08
  implicit none
  integer, parameter :: nbatch = 9
  integer :: rank, np, isz, nsizes, iters, b, i, n
  integer :: sizes(5) = (/ 8, 1024, 16384, 262144, 1048576 /)
  character(len=32) :: arg
  logical :: quick
  double precision :: t(nbatch), t0, med
  character, allocatable :: buf(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  if (np < 2) then
    write (0, '(a)') 'f_pingpong: needs 2 ranks'
    call MPI_Abort(MPI_COMM_WORLD, 2)
  end if
  quick = .false.
  do i = 1, command_argument_count()
    call get_command_argument(i, arg)
    if (arg == '--quick') then
      quick = .true.
    else
      write (0, '(a,a)') 'f_pingpong: unknown argument ', trim(arg)
      call MPI_Abort(MPI_COMM_WORLD, 2)
    end if
  end do
  nsizes = merge(3, 5, quick)
  allocate(buf(sizes(nsizes)))
  buf = 'x'
  if (rank == 0) then
    write (*, '(a)') '# f_pingpong: ranks 0 and 1, use mpi_f08, median of 9 batches'
    write (*, '(a)') '# unit latency usec lower'
    write (*, '(a)') '# unit bandwidth MB/s higher'
  end if
  do isz = 1, nsizes
    n = sizes(isz)
    iters = max(10, min(2000, 20000000 / (n + 10000)))
    if (quick) iters = max(5, iters / 10)
    call pingpong(2)                       ! warm-up
    do b = 1, nbatch
      call MPI_Barrier(MPI_COMM_WORLD)
      t0 = MPI_Wtime()
      call pingpong(iters)
      t(b) = MPI_Wtime() - t0
    end do
    call sort(t)
    med = t((nbatch + 1) / 2)
    if (rank == 0) then
      write (*, '(a,i0,1x,f0.3)') 'latency ', n, med / iters / 2 * 1d6
      write (*, '(a,i0,1x,f0.1)') 'bandwidth ', n, 2d0 * n * iters / med / 1d6
    end if
  end do
  call MPI_Finalize()
contains
  subroutine pingpong(k)
    integer, intent(in) :: k
    integer :: j
    do j = 1, k
      if (rank == 0) then
        call MPI_Send(buf, n, MPI_CHARACTER, 1, 1, MPI_COMM_WORLD)
        call MPI_Recv(buf, n, MPI_CHARACTER, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      else if (rank == 1) then
        call MPI_Recv(buf, n, MPI_CHARACTER, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        call MPI_Send(buf, n, MPI_CHARACTER, 0, 1, MPI_COMM_WORLD)
      end if
    end do
  end subroutine pingpong
  subroutine sort(a)
    double precision, intent(inout) :: a(:)
    integer :: p, q
    double precision :: x
    do p = 2, size(a)
      x = a(p)
      q = p - 1
      do while (q >= 1)
        if (a(q) <= x) exit
        a(q + 1) = a(q)
        q = q - 1
      end do
      a(q + 1) = x
    end do
  end subroutine sort
end program f_pingpong
