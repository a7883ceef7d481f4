! f_sizeof.f90: MPI_SIZEOF (fortran.sizeof). For every intrinsic type and
! kind gfortran has here (INTEGER 1, 2, 4, 8, 16; REAL 4, 8, 10, 16 and their
! COMPLEX; LOGICAL 1, 2, 4, 8, 16; CHARACTER kinds 1 and 4), a scalar and
! arrays of rank 1 to 3 give the size in bytes of one element, the size
! gfortran's SIZEOF gives for a scalar of that type, in the `mpi` module
! (ierror required) and in `mpi_f08` (ierror optional); PMPI_SIZEOF gives
! the same; a size from MPI_SIZEOF finds the MPI type of that size
! (MPI_Type_match_size). Prints "sizeof rank 0: ok" or FAILED.
module sizeof_kinds
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64, real128
  use, intrinsic :: iso_c_binding, only: c_long_double
  implicit none
  integer, parameter :: i16 = selected_int_kind(38), r10 = c_long_double
  integer, parameter :: ucs4 = selected_char_kind('ISO_10646')
end module sizeof_kinds

subroutine sizeof_mpi()
  use mpi
  use ftest
  use sizeof_kinds
  implicit none
  integer :: sz, ierr
  integer(int8) :: i1, i1a(3)
  integer(int16) :: i2a(2, 2)
  integer(int32) :: i4, i4a(2, 3, 4)
  integer(int64) :: i8
  integer(i16) :: i16s(5)
  real(real32) :: r4a(7)
  real(real64) :: r8
  real(r10) :: r10a(2, 2)
  real(real128) :: r16
  complex(real32) :: c4
  complex(real64) :: c8a(3)
  complex(r10) :: c10
  complex(real128) :: c16a(1, 1, 1)
  logical(int8) :: l1
  logical :: l4a(4)
  logical(int64) :: l8
  character(len=7) :: s7
  character(kind=ucs4, len=3) :: u3(2)
  ierr = -1
  call MPI_SIZEOF(i1, sz, ierr)
  call check(sz == 1 .and. ierr == MPI_SUCCESS, 'mpi: INTEGER(1)')
  call MPI_SIZEOF(i1a, sz, ierr)
  call check(sz == 1, 'mpi: INTEGER(1) array')
  call MPI_SIZEOF(i2a, sz, ierr)
  call check(sz == 2, 'mpi: INTEGER(2) rank 2')
  call MPI_SIZEOF(i4, sz, ierr)
  call check(sz == 4, 'mpi: INTEGER')
  call MPI_SIZEOF(i4a, sz, ierr)
  call check(sz == 4, 'mpi: INTEGER rank 3')
  call MPI_SIZEOF(i8, sz, ierr)
  call check(sz == 8, 'mpi: INTEGER(8)')
  call MPI_SIZEOF(i16s, sz, ierr)
  call check(sz == 16, 'mpi: INTEGER(16)')
  call MPI_SIZEOF(r4a, sz, ierr)
  call check(sz == 4, 'mpi: REAL array')
  call MPI_SIZEOF(r8, sz, ierr)
  call check(sz == 8, 'mpi: REAL(8)')
  call MPI_SIZEOF(r10a, sz, ierr)
  call check(sz == sizeof(r10a(1, 1)), 'mpi: REAL(10) rank 2')
  call MPI_SIZEOF(r16, sz, ierr)
  call check(sz == 16, 'mpi: REAL(16)')
  call MPI_SIZEOF(c4, sz, ierr)
  call check(sz == 8, 'mpi: COMPLEX')
  call MPI_SIZEOF(c8a, sz, ierr)
  call check(sz == 16, 'mpi: COMPLEX(8) array')
  call MPI_SIZEOF(c10, sz, ierr)
  call check(sz == sizeof(c10), 'mpi: COMPLEX(10)')
  call MPI_SIZEOF(c16a, sz, ierr)
  call check(sz == 32, 'mpi: COMPLEX(16) rank 3')
  call MPI_SIZEOF(l1, sz, ierr)
  call check(sz == 1, 'mpi: LOGICAL(1)')
  call MPI_SIZEOF(l4a, sz, ierr)
  call check(sz == 4, 'mpi: LOGICAL array')
  call MPI_SIZEOF(l8, sz, ierr)
  call check(sz == 8, 'mpi: LOGICAL(8)')
  call MPI_SIZEOF(s7, sz, ierr)
  call check(sz == 7, 'mpi: CHARACTER(LEN=7)')
  call MPI_SIZEOF(u3, sz, ierr)
  call check(sz == 12, 'mpi: CHARACTER(KIND=4, LEN=3) array')
  call PMPI_SIZEOF(c8a, sz, ierr)
  call check(sz == 16 .and. ierr == MPI_SUCCESS, 'mpi: PMPI_SIZEOF')
end subroutine sizeof_mpi

subroutine sizeof_f08()
  use mpi_f08
  use ftest
  use sizeof_kinds
  implicit none
  integer :: sz, ierr
  integer(int16) :: i2
  integer(int64) :: i8a(2, 2, 2)
  integer(i16) :: i16v
  real(real32) :: r4
  real(real64) :: r8a(10)
  real(r10) :: r10v
  real(real128) :: r16a(2)
  complex(real32) :: c4a(2, 2)
  complex(real64) :: c8
  complex(r10) :: c10a(3)
  complex(real128) :: c16
  logical(int16) :: l2
  logical(i16) :: l16a(2)
  character(len=1) :: s1(3, 3)
  character(kind=ucs4, len=2) :: u2
  call MPI_Sizeof(i2, sz)                       ! no ierror
  call check(sz == 2, 'f08: INTEGER(2)')
  ierr = -1
  call MPI_Sizeof(i8a, sz, ierr)
  call check(sz == 8 .and. ierr == MPI_SUCCESS, 'f08: INTEGER(8) rank 3')
  call MPI_Sizeof(i16v, sz)
  call check(sz == 16, 'f08: INTEGER(16)')
  call MPI_Sizeof(r4, sz)
  call check(sz == 4, 'f08: REAL')
  call MPI_Sizeof(r8a, sz)
  call check(sz == 8, 'f08: REAL(8) array')
  call MPI_Sizeof(r10v, sz)
  call check(sz == sizeof(r10v), 'f08: REAL(10)')
  call MPI_Sizeof(r16a, sz)
  call check(sz == 16, 'f08: REAL(16) array')
  call MPI_Sizeof(c4a, sz)
  call check(sz == 8, 'f08: COMPLEX rank 2')
  call MPI_Sizeof(c8, sz)
  call check(sz == 16, 'f08: COMPLEX(8)')
  call MPI_Sizeof(c10a, sz)
  call check(sz == sizeof(c10a(1)), 'f08: COMPLEX(10) array')
  call MPI_Sizeof(c16, sz)
  call check(sz == 32, 'f08: COMPLEX(16)')
  call MPI_Sizeof(l2, sz)
  call check(sz == 2, 'f08: LOGICAL(2)')
  call MPI_Sizeof(l16a, sz)
  call check(sz == 16, 'f08: LOGICAL(16) array')
  call MPI_Sizeof(s1, sz)
  call check(sz == 1, 'f08: CHARACTER rank 2')
  call MPI_Sizeof(u2, sz)
  call check(sz == 8, 'f08: CHARACTER(KIND=4, LEN=2)')
  call PMPI_Sizeof(r4, sz)
  call check(sz == 4, 'f08: PMPI_Sizeof')
  ! the standard's use: find the MPI type of a Fortran variable's size
  call MPI_Sizeof(r8a, sz)
  call match(MPI_TYPECLASS_REAL, sz, 8)
  call MPI_Sizeof(i2, sz)
  call match(MPI_TYPECLASS_INTEGER, sz, 2)
contains
  subroutine match(typeclass, sz, expect)
    integer, intent(in) :: typeclass, sz, expect
    type(MPI_Datatype) :: t
    integer :: tsz
    call MPI_Type_match_size(typeclass, sz, t)
    call MPI_Type_size(t, tsz)
    call check(tsz == expect, 'f08: MPI_Type_match_size of MPI_Sizeof''s size')
  end subroutine match
end subroutine sizeof_f08

program f_sizeof
  use mpi_f08
  use ftest
  implicit none
  tname = 'sizeof'
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, myrank)
  call sizeof_mpi()
  call sizeof_f08()
  call report('')
  call MPI_Finalize()
end program f_sizeof
