#!/usr/bin/env bash
# sanitize.sh: the sanitizer and compiler jobs of CI, run by .ci/run after
# .ci/test.sh (docs/testing.md, "Sanitizers").
#
#   bash .ci/sanitize.sh                 all three jobs
#   bash .ci/sanitize.sh asan clang      only these
#
#   asan   ASan+UBSan build (FTMPI_SANITIZE=address,undefined) in build-asan/,
#          the whole suite at -j2 except the variant tests (ASAN_EXCLUDE)
#   tsan   ThreadSanitizer build (FTMPI_SANITIZE=thread) in build-tsan/, the
#          MPI_THREAD_MULTIPLE tests (TSAN_TESTS)
#   clang  clang build (Debug) with -Werror in build-clang/, then the unit
#          tests and the 2-rank runs of the MPI programs (CLANG_TESTS)
#
# Every job runs even when an earlier one failed; each prints its time.
# A sanitizer report fails its test (the ranks exit non-zero). The ASan,
# LSan and TSan reports are also written under <build>/sanitizer-reports/,
# UBSan's stay in the tests' output (CTest's LastTest.log keeps it for passed
# tests too); a report found in either place fails the job, so that a finding
# in a test that expects a failure (a killed rank, mpirun's non-zero exit)
# is not lost.
# Suppressions: tests/sanitizers/*.supp (one comment per entry).
#
# Environment: JOBS (default 2), CMAKE_BUILD_TYPE (default RelWithDebInfo).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
JOBS=${JOBS:-2}
BT=${CMAKE_BUILD_TYPE:-RelWithDebInfo}
SUPP=$ROOT/tests/sanitizers

# Left out under ASan because they repeat what the job runs anyway (ASan
# makes the suite about 2.5 times slower, the checkpoint tests 7 times):
# - the .nocma/.rndv variants of tests/mpi: the same p2p programs over the
#   two other transport paths (the FT tests' variants stay: they are the
#   only runs of the recovery code over those paths);
# - coll_algs at 6, 7 and 9 ranks: 5 and 8 already take the non-power-of-two
#   and power-of-two paths of every algorithm;
# - four ckpt_ft CG runs that repeat a single restore already run by
#   rs_kill_data, xor_kill_rank0 and rs_two_kills (a checksum rank, the same
#   rank twice, a timed kill, a kill at the checkpoint's entry).
# The random-kill campaign (chaos_short) and its self-test run in the plain
# build only: its trials are about timing, which ASan's slowdown changes (the
# self-test's planted leftover process once started too late to be seen). fortran.install
# builds a CMake project against the installed tree with FindMPI, whose
# plain try-compile cannot link a sanitized libftmpi (packaging, not memory).
# And one test that cannot run under ASan at all: bug_handle_nomem replaces
# realloc itself to make allocations fail on demand, which conflicts with
# ASan's own allocator (glibc's realloc gets ASan's pointers).
# Flat alternatives only: CTest's regular expressions allow 10 groups.
# Since the network, reliability, namespace, tools, RMA and dense-app tests
# came (issue 13-20 work, twice the suite's time), the ASan job also leaves
# out what repeats code it runs elsewhere: of the TCP variants it keeps the
# kill1 FT idioms (SHRINK/REBUILD/BLANK under RESET), ulfm_basic, the p2p and
# collective programs and the checkpoint runs; of the injected-fault runs,
# net_corrupt and the p2p ones (the reliability layer's paths; coll_algs and
# the checkpoint run left out in session 8, below); of the namespace tests, the harness self-test and rel_netem; of
# the dense apps, one kill per app and FT kind, the incremental checkpoints
# and the unrecoverable case; of the master-worker tests, the per-mode
# one-at-a-time and payload runs over the same library code; of the RMA
# kills, fence and lock in each mode and window kind (the other
# synchronizations meet the dead target through the same wait); the
# checkpoint input checks; the TCP variants of the p2p, communicator and
# datatype programs but p2p_modes and p2p_hosts; the .tcp variants of the
# ft_atomic tests (their default forms stay). The plain build
# (.ci/test.sh) runs all of them. Also left out: tools.netns_clock (its ranks
# run under the trace library's LD_PRELOAD, which ASan refuses ahead of its
# own runtime; tools.trace runs the trace library under ASan with
# FTMPI_SANITIZE_PRELOAD), and netns.rel_netem (the injected-fault runs
# of the netfaults tests again across namespaces: under ASan its rendezvous
# run once ran past its 100 s bound; the plain job runs it), and
# netns.routes_faults (injected faults on one of two routes, 30 s plain: the
# same reliability paths as the netfaults tests, which ASan runs), and
# netns.routes (a route cut and restored, 10-30 s plain, paced by the wire
# and the route timers, not by the CPU: it would take as long under ASan;
# left out for CI's time only, the plain job runs it). Also
# (session 6, to keep CI well under 30 minutes): the two browser tests
# (tools.monitor_browser, tools.monitor_views: most of their time is
# Chromium's; tools.monitor_ctl and tools.netns_monitor keep the monitor
# under ASan) and the lints (lint.*, fortran.api_check: they read files and
# headers, no library code runs).
ASAN_SLOW='|ft_idiom_[a-z]+_cont_kill1\.tcp|ft_idiom_[a-z]+_reset_kill1_2\.tcp|ft_idiom_[a-z]+_cont_kill1_2\.tcp|ft_idiom_[a-z]+_atomic_kill1_2\.tcp|ft_atomic_[a-z_0-9]+\.tcp|ft_idiom_[a-z]+_kill_during_recovery\.tcp|ft_idiom_[a-z]+_ten_failures_in_a_row\.tcp|ft_idiom_[a-z]+_np8_kill3\.tcp|ft_auto[a-z_]*\.tcp|ft_stale[a-z_]*\.tcp|ft_blank[a-z_]*\.tcp|ft_cont[a-z_]*\.tcp|ft_none[a-z_]*\.tcp|ft_replacement[a-z_]*\.tcp|ft_sendrecv[a-z_]*\.tcp|ulfm_failure[a-z_]*\.tcp|ulfm_agree[a-z_]*\.tcp|ulfm_shrink[a-z_]*\.tcp|ulfm_jacobi[a-z_]*\.tcp|ulfm_ring[a-z_]*\.tcp|ulfm_buddy[a-z_]*\.tcp|mw_rebuild_payloads_tcp|mpi\.[a-z_0-9]+\.netfaults\.np[0-9]+|mpi\.[a-z_0-9]+\.netfaults_rndv\.np[0-9]+|datatype\.dt_sendrecv\.netfaults\.np3|netns\.slurm|netns\.cg_host_loss_[a-z0-9_]+|netns\.nodeloss_[a-z_]+|dense_[a-z]+_grid_2x2|dense_[a-z]+_kill_rank0|dense_[a-z]+_two_kills|dense_[a-z]+_kill_checksum|dense_[a-z]+_kill_during_encode|dense_[a-z]+_two_at_once|dense_[a-z]+_abft_kill_rank0|dense_[a-z]+_abft_kill_checksum|dense_[a-z]+_abft_two_kills|dense_[a-z]+_abft_two_at_once|dense_[a-z]+_abft_kill_at_ckpt|dense_[a-z]+_lsq_[0-9x]+|dense_[a-z]+_bad_[a-z]+|dense_[a-z]+_mtx_kill|mw_[a-z]+_kill_one_at_a_time|mw_[a-z]+_kill_all_but_one|mw_[a-z]+_cont_payloads|rma\.ft\.[a-z]+\.pscw\.[a-z]+|rma\.ft\.[a-z]+\.lockall\.[a-z]+|rma\.ft\.[a-z]+\.flush\.[a-z]+|ckpt_ft_cg_input_[a-z]+|ckpt_ft_cg_rs_kill_data_tcp|ckpt_ft_cg_rs_two_kills_tcp|ckpt_ft_cg_option_nan|coll\.coll_algs\.tcp\.np4|coll\.coll_fault\.[a-z]+\.tcp\.np5|comm\.comm_[a-z]+\.tcp\.np[0-9]+|datatype\.dt_[a-z]+\.tcp\.np[0-9]+|mpi\.p2p_order\.tcp\.np[0-9]+|mpi\.p2p_probe\.tcp\.np[0-9]+|mpi\.p2p_cancel\.tcp\.np[0-9]+|mpi\.p2p_status\.tcp\.np[0-9]+|mpi\.p2p_waittest\.tcp\.np[0-9]+|mpi\.p2p_self\.tcp\.np[0-9]+|mpi\.p2p_flood\.tcp\.np[0-9]+|mpi\.p2p_alltoall\.tcp\.np[0-9]+|mpi\.p2p_sendrecv\.tcp\.np[0-9]+|dense_lu_la_grid_2x2|dense_lu_la_two_kills|dense_lu_daly|dense_lu_before_first_ckpt|netns\.routes_faults|netns\.routes|tools\.monitor_browser|tools\.monitor_views|lint\.[a-z_]+|fortran\.api_check'
# MPI-IO (tests/io): the second size of each program (io.views.np2,
# io.shared.np4) and the REBUILD and ULFM kills, whose file paths
# io.ft.shrink runs under ASan (the recovery itself is the ft suites').
ASAN_SLOW+='|io\.views\.np2|io\.shared\.np4|io\.ft\.rebuild|io\.ft\.ulfm'
# Session 8's FT tests, to keep CI well under 30 minutes: of the ATOMIC
# views tests the BLANK ones (the gap rule they were written for), of the
# two-host ATOMIC tests the failure-free count, of the RMA kills between a
# queued put and its flush the SHRINK ones (the other modes meet the dead
# target through the same queue and wait).
ASAN_SLOW+='|ft_atomic_views_shrink_[a-z_]+|ft_atomic_views_rebuild_[a-z_]+|ft_atomic_hosts_shrink[a-z_]*|ft_atomic_hosts_blank[a-z_]*|ft_atomic_hosts_rebuild[a-z_]*|rma\.ft\.rebuild\.q[a-z]+\.[a-z_]+|rma\.ft\.blank\.q[a-z]+\.[a-z_]+'
# Session 8, CI time (the whole of .ci/run reached 25 minutes in the
# rehearsal, without the package installs): the ASan job keeps one run per
# code path and leaves out the repeats: the .rndv variants of the FT tests
# (.nocma keeps the recovery code over a non-default path), the checkpoint
# and coll_algs runs under injected network faults (net_corrupt and the
# p2p ones keep the reliability layer), tools.netns_monitor (monitor_ctl
# keeps the monitor), of the dense apps the kills at a checkpoint, the
# unrecoverable cases and lu's look-ahead and prefault kills, of pstswm
# the option checks and the repeated kill points, of master-worker the
# BLANK kills (BLANK payloads stay) and the kills at fault points, and six
# CG checkpoint runs that repeat a restore already run.
ASAN_SLOW+='|ft_[a-z0-9_]+\.rndv|ckpt_ft_cg_rs_kill_data_netfaults|coll\.coll_algs\.netfaults\.np4|tools\.netns_monitor|dense_[a-z]+_kill_at_ckpt|dense_[a-z]+_abft_kill_at_ckpt|dense_[a-z]+_unrecoverable|dense_[a-z]+_abft_unrecoverable|dense_lu_la_kill_[a-z_]+|dense_lu_kill_at_prefault|pstswm_bad_[a-z_]+|pstswm_kill_two_at_once|pstswm_kill_checksum_during_encode|pstswm_kill_at_done|pstswm_kill_at_ckpt_entry|pstswm_np1_np4_same|mw_blank_kill_[a-z_]+|mw_blank_cont_kill_two|mw_shrink_kill_at_[a-z]+|mw_rebuild_kill_at_[a-z]+|ckpt_ft_cg_kill_checksum_at_done|ckpt_ft_cg_kill_checksum_during_encode|ckpt_ft_cg_first_ckpt_two_groups_g0|ckpt_ft_cg_replacement_killed_before_restore|ckpt_ft_cg_rs_two_in_one_ckpt'
# Session 9 (tcp3): the push over TCP keeps p2p_hosts.tcp_push and two of
# the four tcp_push_kill runs (one per mode, one per victim) under ASan; the
# eight p2p programs' .tcp_push repeats and the other two kills stay out.
ASAN_SLOW+='|mpi\.p2p_(modes|order|probe|cancel|status|unexpected|flood|sendrecv)\.tcp_push\.np[0-9]+|mpi\.tcp_push_kill\.(shrink_receiver|rebuild_sender)'
# Session 9, CI time (the rehearsal's whole .ci/run: 1466 s without the
# package installs): of the overlapped-checkpoint dense tests lu's kill with
# sends pending and its kill in the checksum rank's encode stay (the other
# apps and kills go through the same dckpt_overlap.c); of the .nocma FT
# variants, SHRINK's single kills, ulfm_basic/failure/inter/ring/buddy/
# jacobi and the *_kill_two agreements stay (REBUILD and BLANK recover over
# the same transport path).
ASAN_SLOW+='|dense_matmul_overlap_[a-z_]+|dense_qr_overlap_[a-z_]+|dense_lu_overlap_no_failure|dense_lu_overlap_kill_sending|dense_lu_overlap_two_kills|dense_lu_overlap_rs2|ft_idiom_rebuild_reset_kill1\.nocma|ft_idiom_rebuild_reset_kill1_2\.nocma|ft_idiom_rebuild_cont_kill1\.nocma|ft_idiom_rebuild_cont_kill1_2\.nocma|ft_idiom_rebuild_atomic_kill1_2\.nocma|ft_idiom_blank_reset_kill1\.nocma|ft_idiom_blank_reset_kill1_2\.nocma|ft_idiom_blank_cont_kill1\.nocma|ft_idiom_blank_cont_kill1_2\.nocma|ft_idiom_blank_atomic_kill1_2\.nocma|ft_idiom_shrink_reset_kill1_2\.nocma|ft_idiom_shrink_cont_kill1_2\.nocma|ft_auto_rebuild_reset\.nocma|ft_auto_rebuild_cont\.nocma|ulfm_agree_kill_root_after_down\.nocma|ulfm_agree_kill_inner_before_up\.nocma|ulfm_shrink_kill_root_after_down\.nocma|ulfm_shrink_kill_inner_before_up\.nocma'
ASAN_EXCLUDE='^(chaos_short|chaos_selftest|fortran\.install|mpi\..*\.(nocma|rndv)\.np[0-9]+|coll\.coll_algs\.np[679]|ckpt_ft_cg_(rs_kill_checksum|rs_same_rank_twice|rs_timed_kill|kill_at_ckpt_entry)|mpi\.bug_handle_nomem\.np1|tools\.netns_clock|netns\.rel_netem'"$ASAN_SLOW"')$'
# Everything that runs with MPI_THREAD_MULTIPLE or threads of its own
# (the regression tests of threading bugs are named bug_*mt*).
TSAN_TESTS='^(mpi\.p2p_threads\.|mpi\.p2p_grequest\.mt\.|mpi\.bug_[a-z_]*mt[a-z_]*\.|comm\.comm_threads\.|unit\.shm$)'
# The clang build is there for its warnings; running a little of it checks
# that what clang compiled also works.
CLANG_TESTS='^(unit\.|mpi\.[a-z_0-9]+\.np2$)'

bash .ci/deps.sh || exit 1

# run_ctest BUILD REGEX_INCLUDE REGEX_EXCLUDE: ctest in BUILD, then the
# reports left in BUILD/sanitizer-reports. Status 0 only if both are clean.
run_ctest() {
    local build=$1 inc=$2 exc=$3 rc=0
    local args=(--output-on-failure -j "$JOBS" --timeout 600 --no-tests=error)
    [ -n "$inc" ] && args+=(-R "$inc")
    [ -n "$exc" ] && args+=(-E "$exc")
    (cd "$build" && ctest "${args[@]}") || rc=1
    # UBSan inside the ASan runtime ignores log_path and writes to stderr:
    # look for its reports in the output of every test, passed ones too.
    local log=$build/Testing/Temporary/LastTest.log
    if grep -q 'runtime error:' "$log" 2>/dev/null; then
        echo "sanitize: UBSan reports in the tests' output ($log):" >&2
        grep -B3 -A12 'runtime error:' "$log" | head -200 >&2
        rc=1
    fi
    local reports=("$build"/sanitizer-reports/*)
    if [ -e "${reports[0]}" ]; then
        echo "sanitize: ${#reports[@]} sanitizer report(s) in $build/sanitizer-reports:" >&2
        for f in "${reports[@]}"; do
            echo "==== $f" >&2
            cat "$f" >&2
        done
        rc=1
    fi
    return $rc
}

# configure_build BUILD [--target T...] [-- CMAKE_ARGS...]: configure and
# build (everything, or only the targets given).
configure_build() {
    local build=$1 targets=()
    shift
    if [ "${1:-}" = --target ]; then
        shift
        while [ $# -gt 0 ] && [ "$1" != -- ]; do targets+=(--target "$1"); shift; done
    fi
    [ "${1:-}" = -- ] && shift
    rm -rf "$build/sanitizer-reports"
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="$BT" "$@" >/dev/null &&
        cmake --build "$build" -j "$JOBS" "${targets[@]}" >/dev/null || {
        # show the errors: the quiet build printed nothing
        cmake --build "$build" -j 1 "${targets[@]}" 2>&1 | grep -E -B2 -A8 'error|warning' | head -80
        return 1
    }
    mkdir -p "$build/sanitizer-reports"
}

job_asan() {
    local b=$ROOT/build-asan
    configure_build "$b" -- -DFTMPI_SANITIZE=address,undefined || return 1
    # detect_leaks: see tests/sanitizers/lsan.supp. Ranks killed by SIGKILL
    # in the FT tests never reach the leak check, which is expected.
    ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:log_path=$b/sanitizer-reports/asan" \
    LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
        run_ctest "$b" "" "$ASAN_EXCLUDE"
}

# tsan_targets BUILD: the targets of the tests TSAN_TESTS selects (test
# mpi.P.* is target mpit_P, comm.P.* commt_P, unit.N unit_N), and the
# launcher and daemon.
tsan_targets() {
    echo ftmpirun ftmpid
    (cd "$1" && ctest -N -R "$TSAN_TESTS") |
        sed -n 's/^ *Test *#[0-9]*: *\(mpi\|comm\|unit\)\.\([a-z0-9_]*\).*/\1 \2/p' |
        sed 's/^mpi /mpit_/; s/^comm /commt_/; s/^unit /unit_/' | sort -u
}

job_tsan() {
    local b=$ROOT/build-tsan
    cmake -S . -B "$b" -DCMAKE_BUILD_TYPE="$BT" -DFTMPI_SANITIZE=thread >/dev/null || return 1
    # only what TSAN_TESTS run
    # shellcheck disable=SC2046 # one word per target
    configure_build "$b" --target $(tsan_targets "$b") -- -DFTMPI_SANITIZE=thread || return 1
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$SUPP/tsan.supp:log_path=$b/sanitizer-reports/tsan" \
        run_ctest "$b" "$TSAN_TESTS" ""
}

job_clang() {
    local b=$ROOT/build-clang
    # -O0 without -g: clang's warnings come from its front end, the same at
    # any -O, -O2 takes minutes on tests/coll/coll_ops.c alone, and nobody
    # debugs this build (session 9: debug information dropped for CI's time;
    # a build type with no flags of its own, since CMakeLists.txt turns an
    # empty one into RelWithDebInfo)
    configure_build "$b" -- -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        "-DCMAKE_C_FLAGS=-O0 -Werror" "-DCMAKE_CXX_FLAGS=-O0 -Werror" \
        -DCMAKE_BUILD_TYPE=NoDebugInfo || return 1
    run_ctest "$b" "$CLANG_TESTS" ""
}

jobs=("$@")
[ ${#jobs[@]} -eq 0 ] && jobs=(asan tsan clang)
failed=()
summary=()
for j in "${jobs[@]}"; do
    case "$j" in
        asan|tsan|clang) ;;
        *) echo "usage: bash .ci/sanitize.sh [asan|tsan|clang]..." >&2; exit 2 ;;
    esac
    echo "sanitize: job $j"
    t0=$(date +%s)
    if "job_$j"; then st=passed; else st=FAILED; failed+=("$j"); fi
    summary+=("$j $st in $(( $(date +%s) - t0 )) s")
    echo "sanitize: job ${summary[-1]}"
done
printf 'sanitize: %s\n' "${summary[@]}"
[ ${#failed[@]} -eq 0 ] || { echo "sanitize: failed: ${failed[*]}" >&2; exit 1; }
