! fkinds.f90: prints the kinds of every intrinsic type the Fortran compiler
! has (one line per type: the type, then its kinds), which gen.py fortran
! reads to write MPI_SIZEOF's specific procedures (gen_fonly.py).
program fkinds
  use, intrinsic :: iso_fortran_env, only: integer_kinds, real_kinds, logical_kinds, &
                                           character_kinds
  implicit none
  print '(a,*(1x,i0))', 'integer', integer_kinds
  print '(a,*(1x,i0))', 'real', real_kinds
  print '(a,*(1x,i0))', 'complex', real_kinds
  print '(a,*(1x,i0))', 'logical', logical_kinds
  print '(a,*(1x,i0))', 'character', character_kinds
end program fkinds
