#!/usr/bin/env bash
# test.sh: the project's test command (README: `bash .ci/test.sh`).
# Installs missing packages, checks the sources (.ci/check_layers.sh,
# .ci/check_api_exit.sh), configures and builds into build/ (or $BUILD_DIR),
# and runs the whole test suite with ctest. Exit status: ctest's (0 = all passed).
#
# Environment: BUILD_DIR (default build), JOBS (default 2),
#              CMAKE_BUILD_TYPE (default RelWithDebInfo), CTEST_ARGS (extra ctest args)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}

bash .ci/deps.sh

# Source checks first: they need no build and fail fast.
echo "test: checking the layering and the API exits"
bash .ci/check_layers.sh
bash .ci/check_api_exit.sh

echo "test: configuring into $BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}"
echo "test: building with $JOBS jobs"
cmake --build "$BUILD_DIR" -j "$JOBS"

echo "test: running the tests"
cd "$BUILD_DIR"
# --timeout: a default limit for any test that sets none of its own.
# --no-tests=error: an empty test list is a failure, not a pass.
# shellcheck disable=SC2086 # CTEST_ARGS is a list of words
exec ctest --output-on-failure -j "$JOBS" --timeout 600 --no-tests=error ${CTEST_ARGS:-}
