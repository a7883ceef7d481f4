C     f77_basic.f: the mpif.h binding from fixed-form source.
C     Point-to-point with statuses (MPI_SOURCE/MPI_TAG/Get_count,
C     MPI_STATUS_IGNORE, Waitall with MPI_STATUSES_IGNORE and with
C     an array), collectives with MPI_IN_PLACE, a derived type (a
C     matrix row through Type_vector), Comm_split, and a Fortran error
C     handler, 1-based request indices. Every rank prints "f77_basic rank R: ok" or FAILED.
      PROGRAM F77BASIC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, I, J, NEXT, PREV, CNT, NFAIL
      INTEGER STATUS(MPI_STATUS_SIZE), STATS(MPI_STATUS_SIZE, 2)
      INTEGER REQS(2), SBUF(4), RBUF(4), X(8), ROWT
      DOUBLE PRECISION A(4, 5), ROW(5)
      INTEGER SPLIT, SRANK, SSIZE, EH, CLS
      INTEGER NCALLS, LASTCODE
      INTEGER Q(3), IDX, IDXS(3), NOUT, A1(2), B1(2)
      COMMON /EHSTATE/ NCALLS, LASTCODE
      EXTERNAL MYHANDLER
      NFAIL = 0
      NCALLS = 0
      CALL MPI_INIT(IERR)
      IF (IERR .NE. MPI_SUCCESS) CALL FAILED(NFAIL, 'init')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)
C     ring: send to next, receive from anyone; check the status
      DO I = 1, 4
         SBUF(I) = 100 * RANK + I
      END DO
      CALL MPI_IRECV(RBUF, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG,
     &     MPI_COMM_WORLD, REQS(1), IERR)
      CALL MPI_ISEND(SBUF, 3, MPI_INTEGER, NEXT, 40 + RANK,
     &     MPI_COMM_WORLD, REQS(2), IERR)
      CALL MPI_WAITALL(2, REQS, STATS, IERR)
      IF (STATS(MPI_SOURCE, 1) .NE. PREV) CALL FAILED(NFAIL, 'source')
      IF (STATS(MPI_TAG, 1) .NE. 40 + PREV) CALL FAILED(NFAIL, 'tag')
      CALL MPI_GET_COUNT(STATS(1, 1), MPI_INTEGER, CNT, IERR)
      IF (CNT .NE. 3) CALL FAILED(NFAIL, 'get_count')
      IF (RBUF(3) .NE. 100 * PREV + 3) CALL FAILED(NFAIL, 'ring data')
      IF (REQS(1) .NE. MPI_REQUEST_NULL) CALL FAILED(NFAIL, 'reqnull')
C     blocking, with MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
      CALL MPI_SENDRECV(SBUF, 4, MPI_INTEGER, NEXT, 7, RBUF, 4,
     &     MPI_INTEGER, PREV, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE,
     &     IERR)
      IF (RBUF(4) .NE. 100 * PREV + 4) CALL FAILED(NFAIL, 'sendrecv')
      CALL MPI_IRECV(RBUF, 4, MPI_INTEGER, PREV, 8, MPI_COMM_WORLD,
     &     REQS(1), IERR)
      CALL MPI_ISEND(SBUF, 4, MPI_INTEGER, NEXT, 8, MPI_COMM_WORLD,
     &     REQS(2), IERR)
      CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
      IF (IERR .NE. MPI_SUCCESS) CALL FAILED(NFAIL, 'waitall ign')
C     collectives: in-place allreduce, bcast, gather
      DO I = 1, 8
         X(I) = RANK + I
      END DO
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, X, 8, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      DO I = 1, 8
         IF (X(I) .NE. NP * (NP - 1) / 2 + NP * I)
     &        CALL FAILED(NFAIL, 'allreduce in place')
      END DO
      CNT = 0
      IF (RANK .EQ. 0) CNT = 4242
      CALL MPI_BCAST(CNT, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (CNT .NE. 4242) CALL FAILED(NFAIL, 'bcast')
C     derived type: row 2 of a 4x5 column-major matrix (stride 4)
      DO J = 1, 5
         DO I = 1, 4
            A(I, J) = 10.0D0 * I + J + 1000.0D0 * RANK
         END DO
      END DO
      CALL MPI_TYPE_VECTOR(5, 1, 4, MPI_DOUBLE_PRECISION, ROWT, IERR)
      CALL MPI_TYPE_COMMIT(ROWT, IERR)
      CALL MPI_SENDRECV(A(2, 1), 1, ROWT, NEXT, 9, ROW, 5,
     &     MPI_DOUBLE_PRECISION, PREV, 9, MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_GET_COUNT(STATUS, MPI_DOUBLE_PRECISION, CNT, IERR)
      IF (CNT .NE. 5) CALL FAILED(NFAIL, 'vector count')
      DO J = 1, 5
         IF (ROW(J) .NE. 20.0D0 + J + 1000.0D0 * PREV)
     &        CALL FAILED(NFAIL, 'vector data')
      END DO
      CALL MPI_TYPE_FREE(ROWT, IERR)
      IF (ROWT .NE. MPI_DATATYPE_NULL) CALL FAILED(NFAIL, 'type_free')
C     communicators: split into even and odd ranks
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(RANK, 2), -RANK, SPLIT,
     &     IERR)
      CALL MPI_COMM_RANK(SPLIT, SRANK, IERR)
      CALL MPI_COMM_SIZE(SPLIT, SSIZE, IERR)
      IF (SSIZE .NE. (NP + 1 - MOD(RANK, 2)) / 2)
     &     CALL FAILED(NFAIL, 'split size')
      IF (SRANK .NE. SSIZE - 1 - RANK / 2) CALL FAILED(NFAIL, 'key')
C     a Fortran error handler, called on an error in SPLIT
      CALL MPI_COMM_CREATE_ERRHANDLER(MYHANDLER, EH, IERR)
      CALL MPI_COMM_SET_ERRHANDLER(SPLIT, EH, IERR)
      CALL MPI_SEND(SBUF, 1, MPI_INTEGER, SSIZE + 5, 0, SPLIT, IERR)
      IF (NCALLS .NE. 1) CALL FAILED(NFAIL, 'handler not called')
      CALL MPI_ERROR_CLASS(LASTCODE, CLS, IERR)
      IF (CLS .NE. MPI_ERR_RANK) CALL FAILED(NFAIL, 'handler code')
      IF (IERR .NE. MPI_SUCCESS) CALL FAILED(NFAIL, 'error_class')
      CALL MPI_ERRHANDLER_FREE(EH, IERR)
      CALL MPI_COMM_FREE(SPLIT, IERR)
      IF (SPLIT .NE. MPI_COMM_NULL) CALL FAILED(NFAIL, 'comm_free')
C     request indices are 1-based (Waitany, Waitsome)
      A1(1) = 7
      A1(2) = 8
      CALL MPI_IRECV(B1, 2, MPI_INTEGER, 0, 21, MPI_COMM_SELF, Q(1),
     &               IERR)
      Q(2) = MPI_REQUEST_NULL
      CALL MPI_ISEND(A1, 2, MPI_INTEGER, 0, 21, MPI_COMM_SELF, Q(3),
     &               IERR)
      CALL MPI_WAITANY(3, Q, IDX, MPI_STATUS_IGNORE, IERR)
      IF (IDX .NE. 1 .AND. IDX .NE. 3) CALL FAILED(NFAIL, 'waitany')
      CALL MPI_WAITSOME(3, Q, NOUT, IDXS, MPI_STATUSES_IGNORE, IERR)
      IF (NOUT .NE. 1 .OR. IDXS(1) .EQ. IDX .OR.
     &    (IDXS(1) .NE. 1 .AND. IDXS(1) .NE. 3))
     &   CALL FAILED(NFAIL, 'waitsome')
      IF (B1(1) .NE. 7 .OR. B1(2) .NE. 8) CALL FAILED(NFAIL, 'self')
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, NFAIL, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (NFAIL .EQ. 0) THEN
         WRITE (*, '(A,I0,A)') 'f77_basic rank ', RANK, ': ok'
      ELSE
         WRITE (*, '(A,I0,A)') 'f77_basic rank ', RANK, ': FAILED'
      END IF
      CALL MPI_FINALIZE(IERR)
      IF (NFAIL .NE. 0) STOP 1
      END

      SUBROUTINE MYHANDLER(COMM, CODE)
      INTEGER COMM, CODE
      INTEGER NCALLS, LASTCODE
      COMMON /EHSTATE/ NCALLS, LASTCODE
      NCALLS = NCALLS + 1
      LASTCODE = CODE
      END

      SUBROUTINE FAILED(NFAIL, WHAT)
      INTEGER NFAIL
      CHARACTER*(*) WHAT
      NFAIL = NFAIL + 1
      WRITE (*, '(A,A)') 'f77_basic: check failed: ', WHAT
      END
