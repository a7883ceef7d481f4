! ftest.f90: the checks of the Fortran test programs (no MPI in here, so
! the programs of every binding style share it). A failed check prints
! "<test>: rank R: check failed: <what>"; report prints the last line that
! ctest and tests/ft/run_ft.sh read: "<test> rank R<extra>: ok" or FAILED.
module ftest
  implicit none
  integer :: nfail = 0, myrank = -1
  character(len=32) :: tname = 'ftest'
contains
  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      nfail = nfail + 1
      write (*, '(a,a,i0,a,a)') trim(tname), ': rank ', myrank, ': check failed: ', what
    end if
  end subroutine check

  subroutine report(extra)
    character(len=*), intent(in) :: extra
    if (nfail == 0) then
      write (*, '(a,a,i0,a,a)') trim(tname), ' rank ', myrank, extra, ': ok'
    else
      write (*, '(a,a,i0,a,a)') trim(tname), ' rank ', myrank, extra, ': FAILED'
    end if
  end subroutine report
end module ftest
