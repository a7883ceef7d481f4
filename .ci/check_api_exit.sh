#!/usr/bin/env bash
# check_api_exit.sh: every API function leaves through its common exit.
#
# In ftmpi/api/*.c, a function that opens with API_BEGIN(...) must leave
# only through API_END() / API_END_CLEANUP(...) (ftmpi/api/api.h): that is
# where errors reach the error handler, AUTO recovery starts and the library
# lock is released. Fails on a `return` between API_BEGIN and API_END, and on
# a function body that closes without API_END.
#
#   bash .ci/check_api_exit.sh [SOURCE_ROOT]     exit 0: clean, 1: violations
set -euo pipefail

root=${1:-"$(dirname "${BASH_SOURCE[0]}")/.."}
cd "$root"

status=0
for f in ftmpi/api/*.c; do
    awk -v file="$f" '
        { code = $0; gsub(/\/\*.*\*\//, "", code); sub(/\/\/.*/, "", code) }  # drop comments
        code ~ /API_BEGIN(_ANYTIME)?\(/ && code !~ /#define/ { inside = 1; begin = FNR; next }
        inside && code ~ /API_END(_ANYTIME)?(_CLEANUP)?\(/ { inside = 0; next }
        inside && code ~ /(^|[^A-Za-z0-9_])return([^A-Za-z0-9_]|$)/ {
            printf "%s:%d: return between API_BEGIN (line %d) and API_END\n", file, FNR, begin
            bad = 1
        }
        inside && /^}/ {
            printf "%s:%d: function opened with API_BEGIN (line %d) ends without API_END\n", file, FNR, begin
            bad = 1; inside = 0
        }
        END { exit bad }
    ' "$f" || status=1
done
if [ "$status" = 0 ]; then
    echo "check_api_exit: every API_BEGIN leaves through API_END"
fi
exit "$status"
