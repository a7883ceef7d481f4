! f_spawn_f77.f: MPI_Comm_spawn through mpif.h (fixed form): the parents
! spawn one copy of the program with argv ('f77child', ' ') and an errcodes
! array; the child checks its argument and answers its parents' rank 0
! over the intercommunicator. Run as
!   mpirun -np 2 --universe 3 f_spawn_f77
      PROGRAM FSPAWN
      USE FTEST
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, PARENT, INTER, ERRS(1), V, ST(MPI_STATUS_SIZE)
      CHARACTER*256 SELF
      CHARACTER*16 ARGV(2), A1
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      MYRANK = RANK
      CALL MPI_COMM_GET_PARENT(PARENT, IERR)
      IF (PARENT .NE. MPI_COMM_NULL) THEN
        TNAME = 'f_spawn_f77 child'
        CALL GET_COMMAND_ARGUMENT(1, A1)
        CALL CHECK(COMMAND_ARGUMENT_COUNT() .EQ. 1, 'one argument')
        CALL CHECK(A1 .EQ. 'f77child', 'argv(1)')
        CALL MPI_RECV(V, 1, MPI_INTEGER, 0, 9, PARENT, ST, IERR)
        CALL CHECK(IERR .EQ. MPI_SUCCESS .AND. V .EQ. 77, 'recv')
        V = V + 1
        CALL MPI_SEND(V, 1, MPI_INTEGER, 0, 9, PARENT, IERR)
        CALL MPI_COMM_DISCONNECT(PARENT, IERR)
      ELSE
        TNAME = 'f_spawn_f77 parent'
        CALL GET_COMMAND_ARGUMENT(0, SELF)
        ARGV(1) = 'f77child'
        ARGV(2) = ' '
        ERRS(1) = -1
        CALL MPI_COMM_SPAWN(SELF, ARGV, 1, MPI_INFO_NULL, 0,
     &                      MPI_COMM_WORLD, INTER, ERRS, IERR)
        CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_COMM_SPAWN')
        CALL CHECK(ERRS(1) .EQ. MPI_SUCCESS, 'errcodes')
        IF (RANK .EQ. 0) THEN
          V = 77
          CALL MPI_SEND(V, 1, MPI_INTEGER, 0, 9, INTER, IERR)
          CALL MPI_RECV(V, 1, MPI_INTEGER, 0, 9, INTER, ST, IERR)
          CALL CHECK(V .EQ. 78, 'answer')
        END IF
        CALL MPI_COMM_DISCONNECT(INTER, IERR)
      END IF
      CALL REPORT('')
      CALL MPI_FINALIZE(IERR)
      END
