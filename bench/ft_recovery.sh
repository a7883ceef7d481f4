#!/usr/bin/env bash
# ft_recovery.sh [BUILD_DIR] [--reps N] [--np "2 4 8 16"] [--modes "shrink blank rebuild"]
# Detection latency and recovery time of ftmpi, median over N kills per
# point. Detection: kill -9 to the LAST survivor's pending receive returning
# (the worst survivor of each kill). Recovery: the longest recovering
# MPI_Comm_dup of each kill. Replacement (REBUILD): kill to the new process's
# MPI_Init returning. See docs/ft.md.
set -euo pipefail
BUILD=build; REPS=7; NPS="2 4 8 16"; MODES="shrink blank rebuild"
while [ $# -gt 0 ]; do
  case $1 in
    --reps) REPS=$2; shift 2 ;;
    --np) NPS=$2; shift 2 ;;
    --modes) MODES=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) BUILD=$1; shift ;;
  esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$BUILD/bin/mpicc" ] || { echo "ft_recovery.sh: no $BUILD/bin/mpicc (build first)" >&2; exit 2; }
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
"$BUILD/bin/mpicc" -O2 "$ROOT/bench/ft_recovery.c" -o "$TMP/ft_recovery"
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) printf "%.0f", a[(NR+1)/2]; else printf "%.0f", (a[NR/2]+a[NR/2+1])/2}'; }
printf "%-8s %4s %14s %14s %16s\n" mode np "detect_us" "recover_us" "replace_us"
for mode in $MODES; do
  for np in $NPS; do
    : > "$TMP/d"; : > "$TMP/r"; : > "$TMP/p"
    for i in $(seq "$REPS"); do
      out=$(FT_BENCH_FILE="$TMP/kill" timeout 60 "$BUILD/bin/mpirun" --comm-mode="$mode" \
              -x FT_BENCH_FILE -np "$np" "$TMP/ft_recovery" 2>/dev/null || true)
      echo "$out" | awk '/^detect_us/ {if ($2>m) m=$2} END {if (m) print m}' >> "$TMP/d"
      echo "$out" | awk '/^recover_us/ {if ($2>m) m=$2} END {if (m) print m}' >> "$TMP/r"
      echo "$out" | awk '/^replace_us/ {print $2}' >> "$TMP/p"
    done
    printf "%-8s %4s %14s %14s %16s\n" "$mode" "$np" "$(median < "$TMP/d")" \
      "$(median < "$TMP/r")" "$(median < "$TMP/p")"
  done
done
