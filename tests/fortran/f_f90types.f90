! f_f90types.f90 (`use mpi_f08`): MPI_Type_create_f90_real, _complex and
! _integer give the datatypes of the kinds SELECTED_REAL_KIND and
! SELECTED_INT_KIND select (their size is the kind's storage size, and a
! message of REAL(10) / COMPLEX(8) / INTEGER(1) values sent with them
! arrives exactly), the same (p, r) gives the same handle, and
! MPI_Buffer_detach returns the attached buffer's address as TYPE(C_PTR).
! Run on 1 or more ranks; each prints "f_f90types rank R: ok".
program f_f90types
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_intptr_t
  use ftest
  implicit none
  integer, parameter :: xp = selected_real_kind(18, 4931), dp = selected_real_kind(15, 307)
  integer, parameter :: i1 = selected_int_kind(2)
  integer :: ierr, rank, sz, i
  type(MPI_Datatype) :: tx, tx2, tc, ti
  real(kind=xp) :: xs(3), xr(3)
  complex(kind=dp) :: cs(2), cr(2)
  integer(kind=i1) :: is(4), ir(4)
  character, target :: bbuf(4096)
  type(c_ptr) :: addr
  integer :: bsize

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  myrank = rank
  tname = 'f_f90types'

  call MPI_Type_create_f90_real(18, 4931, tx, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Type_create_f90_real(18, 4931)')
  call MPI_Type_size(tx, sz)
  call check(sz == storage_size(xs(1)) / 8, 'REAL(18,4931) size')
  call MPI_Type_create_f90_real(18, 4931, tx2, ierr)
  call check(tx == tx2, 'same (p, r), same handle')
  call MPI_Type_create_f90_complex(15, 307, tc, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Type_create_f90_complex(15, 307)')
  call MPI_Type_size(tc, sz)
  call check(sz == storage_size(cs(1)) / 8, 'COMPLEX(15,307) size')
  call MPI_Type_create_f90_integer(2, ti, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Type_create_f90_integer(2)')
  call MPI_Type_size(ti, sz)
  call check(sz == storage_size(is(1)) / 8, 'INTEGER(2) size')

  ! to oneself: the values arrive exactly
  xs = [(1.0_xp / real(i + 2, xp), i = 1, 3)]
  cs = [(cmplx(i, -i, kind=dp) / 3.0_dp, i = 1, 2)]
  is = [(int(i * 31 - 60, i1), i = 1, 4)]
  call MPI_Sendrecv(xs, 3, tx, rank, 1, xr, 3, tx, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Sendrecv(cs, 2, tc, rank, 2, cr, 2, tc, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Sendrecv(is, 4, ti, rank, 3, ir, 4, ti, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(all(xr == xs), 'REAL(kind 10) values')
  call check(all(cr == cs), 'COMPLEX(kind 8) values')
  call check(all(ir == is), 'INTEGER(kind 1) values')

  ! MPI_Buffer_detach gives the buffer's address back (mpi_f08: TYPE(C_PTR))
  call MPI_Buffer_attach(bbuf, size(bbuf), ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Buffer_attach')
  call MPI_Buffer_detach(addr, bsize, ierr)
  call check(ierr == MPI_SUCCESS .and. bsize == size(bbuf), 'MPI_Buffer_detach size')
  ! compared as integers: gfortran 12 -O2 folds C_ASSOCIATED(addr, C_LOC(bbuf))
  ! to .FALSE. here (it assumes addr cannot point to bbuf)
  call check(transfer(addr, 0_c_intptr_t) == transfer(c_loc(bbuf), 0_c_intptr_t), &
             'MPI_Buffer_detach address')

  call report('')
  call MPI_Finalize()
end program f_f90types
