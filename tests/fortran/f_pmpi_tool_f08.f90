! f_pmpi_tool_f08.f90: the mpi_f08 half of the profiling tool of
! fortran.pmpi (f_pmpi_tool.c is the other), written as the standard's
! profiling chapter shows for Fortran: the tool defines the specific
! procedures MPI_Send_f08, MPI_Recv_f08 and MPI_Barrier_f08 (which take the
! place of the library's weak ones), counts, and calls the generic PMPI_Send,
! PMPI_Recv, PMPI_Barrier of mpi_f08 (specifics PMPI_*_f08).
module ftool_f08
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    subroutine ftool_bump(what) bind(C, name='ftool_bump')
      import :: c_int
      integer(c_int), value :: what
    end subroutine ftool_bump
  end interface
end module ftool_f08

subroutine MPI_Send_f08(buf, count, datatype, dest, tag, comm, ierror)
  use mpi_f08, only: MPI_Datatype, MPI_Comm, PMPI_Send
  use ftool_f08
  implicit none
  !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
  type(*), dimension(*) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  call ftool_bump(3)
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_Send_f08

subroutine MPI_Recv_f08(buf, count, datatype, source, tag, comm, status, ierror)
  use mpi_f08, only: MPI_Datatype, MPI_Comm, MPI_Status, PMPI_Recv
  use ftool_f08
  implicit none
  !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
  type(*), dimension(*) :: buf
  integer, intent(in) :: count, source, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  type(MPI_Status), intent(out) :: status
  integer, optional, intent(out) :: ierror
  call ftool_bump(4)
  call PMPI_Recv(buf, count, datatype, source, tag, comm, status, ierror)
end subroutine MPI_Recv_f08

subroutine MPI_Barrier_f08(comm, ierror)
  use mpi_f08, only: MPI_Comm, PMPI_Barrier
  use ftool_f08
  implicit none
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  call ftool_bump(5)
  call PMPI_Barrier(comm, ierror)
end subroutine MPI_Barrier_f08
