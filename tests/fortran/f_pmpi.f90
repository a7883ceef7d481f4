! f_pmpi.f90: the Fortran profiling interface (fortran.pmpi). A tool
! (f_pmpi_tool.c, f_pmpi_tool_f08.f90) defines MPI_SEND, MPI_RECV and
! MPI_BARRIER of every binding style and their C forms, counts the calls and
! forwards them to PMPI_. This program makes a known number of calls in each
! style (mpif.h, `mpi`, `mpi_f08`; a ring: send to the next rank, receive
! from the previous one) plus one PMPI_BARRIER in `mpi` and one PMPI_Barrier
! in `mpi_f08` (which no tool sees at the Fortran level), then checks the
! tool's counts: mpif.h and `mpi` share the names mpi_send_, ...; mpi_f08
! has its own (mpi_send_f08_, ...); and every Fortran call reaches the C
! MPI_ function (the Fortran bindings are layered on the C ones), PMPI_
! calls included. The messages' values are checked as well.
! Every rank prints "pmpi rank R: ok" or FAILED.
subroutine style_mpif(rank, np, nbad)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: rank, np
  integer, intent(inout) :: nbad
  integer :: v, ierr
  call MPI_SEND(rank, 1, MPI_INTEGER, mod(rank + 1, np), 1, MPI_COMM_WORLD, ierr)
  call MPI_RECV(v, 1, MPI_INTEGER, mod(rank + np - 1, np), 1, MPI_COMM_WORLD, &
                MPI_STATUS_IGNORE, ierr)
  if (v /= mod(rank + np - 1, np)) nbad = nbad + 1
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
end subroutine style_mpif

subroutine style_mpi(rank, np, nbad)
  use mpi
  implicit none
  integer, intent(in) :: rank, np
  integer, intent(inout) :: nbad
  integer :: i, ierr, st(MPI_STATUS_SIZE)
  double precision :: x
  do i = 1, 2
    call MPI_SEND(dble(rank * 10 + i), 1, MPI_DOUBLE_PRECISION, mod(rank + 1, np), 2, &
                  MPI_COMM_WORLD, ierr)
    call MPI_RECV(x, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, st, ierr)
    if (x /= dble(mod(rank + np - 1, np) * 10 + i) .or. &
        st(MPI_SOURCE) /= mod(rank + np - 1, np)) nbad = nbad + 1
  end do
  do i = 1, 3
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  end do
  call PMPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) nbad = nbad + 1
end subroutine style_mpi

subroutine style_f08(rank, np, nbad)
  use mpi_f08
  implicit none
  integer, intent(in) :: rank, np
  integer, intent(inout) :: nbad
  integer :: i, v(2)
  type(MPI_Status) :: st
  do i = 1, 3
    call MPI_Send([rank, i], 2, MPI_INTEGER, mod(rank + 1, np), 3, MPI_COMM_WORLD)
    call MPI_Recv(v, 2, MPI_INTEGER, mod(rank + np - 1, np), 3, MPI_COMM_WORLD, st)
    if (v(1) /= mod(rank + np - 1, np) .or. v(2) /= i .or. st%MPI_TAG /= 3) nbad = nbad + 1
  end do
  do i = 1, 4
    call MPI_Barrier(MPI_COMM_WORLD)
  end do
  call PMPI_Barrier(MPI_COMM_WORLD)
end subroutine style_f08

program f_pmpi
  use mpi_f08
  use ftest
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    subroutine ftool_counts(c) bind(C, name='ftool_counts')
      import :: c_int
      integer(c_int) :: c(9)
    end subroutine ftool_counts
  end interface
  integer :: rank, np, nbad, i
  integer(c_int) :: c0(9), c1(9)
  ! send, recv, barrier by mpif.h + `mpi`, by mpi_f08, by C (all of them)
  integer, parameter :: expect(9) = [1 + 2, 1 + 2, 2 + 3, 3, 3, 4, 6, 6, 11]
  character(len=24), parameter :: what(9) = [character(len=24) :: &
    'mpif.h+mpi MPI_SEND', 'mpif.h+mpi MPI_RECV', 'mpif.h+mpi MPI_BARRIER', &
    'mpi_f08 MPI_Send', 'mpi_f08 MPI_Recv', 'mpi_f08 MPI_Barrier', &
    'C MPI_Send', 'C MPI_Recv', 'C MPI_Barrier']
  tname = 'pmpi'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  myrank = rank
  nbad = 0
  call ftool_counts(c0)
  call style_mpif(rank, np, nbad)
  call style_mpi(rank, np, nbad)
  call style_f08(rank, np, nbad)
  call ftool_counts(c1)
  call check(nbad == 0, 'the values received')
  do i = 1, 9
    if (c1(i) - c0(i) /= expect(i)) then
      write (*, '(a,i0,a,a,a,i0,a,i0)') 'pmpi: rank ', rank, ': ', trim(what(i)), &
        ' counted ', c1(i) - c0(i), ', expected ', expect(i)
    end if
    call check(c1(i) - c0(i) == expect(i), 'the calls the tool counted')
  end do
  call report('')
  call MPI_Finalize()
end program f_pmpi
