#!/bin/sh
# bench/ulfm_lat.sh BUILD_DIR [--reps R] [--runs K] [--np "2 4 8 16"]
# MPIX_Comm_agree and MPIX_Comm_shrink latency (docs/ulfm.md, "Measured"),
# with no failure and with one failed process, K runs per point (median of
# the runs' values; each run's value is the largest per-rank median of R
# calls). Prints one table line per np. No other MPI is compared: Debian
# bookworm has Open MPI 4.1, which has no ULFM.
set -e
build=${1:?usage: ulfm_lat.sh BUILD_DIR [--reps R] [--runs K] [--np LIST]}
shift
reps=200; runs=5; nps="2 4 8 16"
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    *) echo "ulfm_lat.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
prog=$build/bin/bench_ulfm_lat
[ -x "$prog" ] || { echo "ulfm_lat.sh: $prog not built" >&2; exit 2; }
med() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.1f\n", (v[NR/2]+v[NR/2+1])/2}'; }
printf '%4s %16s %17s %17s %18s\n' np agree_us_nofail shrink_us_nofail agree_us_1failed shrink_us_1failed
for np in $nps; do
  for mode in none fail; do
    : > /tmp/ulfm_lat.$$.$mode
    i=0
    while [ $i -lt "$runs" ]; do
      flag=; [ $mode = fail ] && flag=--fail
      "$build/bin/mpirun" --timeout 120 --with-ft ulfm -np "$np" "$prog" --reps "$reps" $flag \
        | grep '^np ' >> /tmp/ulfm_lat.$$.$mode
      i=$((i + 1))
    done
  done
  a0=$(awk '{print $5}' /tmp/ulfm_lat.$$.none | med); s0=$(awk '{print $7}' /tmp/ulfm_lat.$$.none | med)
  a1=$(awk '{print $5}' /tmp/ulfm_lat.$$.fail | med); s1=$(awk '{print $7}' /tmp/ulfm_lat.$$.fail | med)
  printf '%4s %16s %17s %17s %18s\n' "$np" "$a0" "$s0" "$a1" "$s1"
  rm -f /tmp/ulfm_lat.$$.none /tmp/ulfm_lat.$$.fail
done
