# Included by ftmpi/CMakeLists.txt (the generated source must be made in the
# directory of the target that compiles it). gen.py check: mpi.h and mpi.api
# must declare the same functions with the same parameters and the same
# constants; the library does not build until they do. gen.py f2c: the
# MPI_*_c2f/f2c functions, part of libftmpi.
set(FTMPI_BINDINGS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/bindings)
set(FTMPI_GEN ${Python3_EXECUTABLE} ${FTMPI_BINDINGS_DIR}/gen.py)
set(FTMPI_API ${FTMPI_BINDINGS_DIR}/mpi.api)
file(GLOB FTMPI_GEN_SCRIPTS CONFIGURE_DEPENDS ${FTMPI_BINDINGS_DIR}/*.py)
set(_gen ${CMAKE_CURRENT_BINARY_DIR}/generated)
file(MAKE_DIRECTORY ${_gen})
# mpi_count_c.h (the prototypes of the large-count MPI_X_c that mpi.api's @c
# lines derive; mpi.h includes it) is made when CMake configures, so that it
# is there before anything compiles; a change to mpi.api reconfigures.
execute_process(COMMAND ${FTMPI_GEN} cproto ${FTMPI_API} ${FTMPI_INCLUDE_DIR}/mpi_count_c.h
  RESULT_VARIABLE _cproto_rc)
if(NOT _cproto_rc EQUAL 0)
  message(FATAL_ERROR "ftmpi: gen.py cproto failed on ${FTMPI_API}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FTMPI_API} ${FTMPI_GEN_SCRIPTS})
add_custom_command(OUTPUT ${_gen}/mpi_h.i
  COMMAND ${CMAKE_C_COMPILER} -E -P -x c -I${FTMPI_INCLUDE_DIR} ${FTMPI_INCLUDE_DIR}/mpi.h
          -o ${_gen}/mpi_h.i
  DEPENDS ${FTMPI_INCLUDE_DIR}/mpi.h ${FTMPI_INCLUDE_DIR}/ftmpi.h
          ${FTMPI_INCLUDE_DIR}/mpi_count_c.h
  COMMENT "Preprocessing mpi.h for the API check")
add_custom_command(OUTPUT ${_gen}/api_check.stamp
  COMMAND ${FTMPI_GEN} check ${FTMPI_API} ${_gen}/mpi_h.i ${FTMPI_INCLUDE_DIR}/mpi.h
          ${FTMPI_INCLUDE_DIR}/ftmpi.h ${_gen}/api_check.stamp
  DEPENDS ${_gen}/mpi_h.i ${FTMPI_API} ${FTMPI_GEN_SCRIPTS}
  COMMENT "Checking mpi.h against ftmpi/bindings/mpi.api")
add_custom_command(OUTPUT ${_gen}/f2c.c
  COMMAND ${FTMPI_GEN} f2c ${FTMPI_API} ${_gen}/f2c.c
  DEPENDS ${_gen}/api_check.stamp ${FTMPI_API} ${FTMPI_GEN_SCRIPTS}
  COMMENT "Generating the MPI_*_c2f/f2c functions")
set(FTMPI_GENERATED_SOURCES ${_gen}/f2c.c)

# docs/coverage.md's table of every MPI function by chapter comes from
# mpi.api too: `cmake --build build --target coverage_doc` rewrites it;
# the test lint.coverage_doc fails when it is not the one mpi.api gives.
add_custom_target(coverage_doc
  COMMAND ${FTMPI_GEN} coverage ${FTMPI_API} ${PROJECT_SOURCE_DIR}/docs/coverage.md --write
  COMMENT "Rewriting the generated table of docs/coverage.md")
