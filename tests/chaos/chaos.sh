#!/bin/sh
# chaos.sh - the random-kill campaign (docs/chaos.md); the work is in chaos.py.
# Python 3 from the standard library only: /usr/bin/python3, else python3 in PATH.
here=$(dirname "$0")
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" "$here/chaos.py" "$@"
