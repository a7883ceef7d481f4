#!/usr/bin/env python3
"""Count the registered CTest tests by the directory whose CMakeLists.txt
registered them (the `tests` column of docs/testing.md).

usage: python3 tests/count_tests.py BUILD_DIR
"""
import collections
import json
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: count_tests.py BUILD_DIR (a configured build directory)")
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=sys.argv[1],
                         capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    files = d["backtraceGraph"]["files"]
    nodes = d["backtraceGraph"]["nodes"]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    count = collections.Counter()
    for t in d["tests"]:
        chain, n = [], t.get("backtrace")
        while n is not None:
            chain.append(os.path.relpath(files[nodes[n]["file"]], top))
            n = nodes[n].get("parent")
        # the outermost directory listing (not the top level nor tests/)
        dirs = [f for f in chain if f.endswith("CMakeLists.txt")
                and f not in ("CMakeLists.txt", "tests/CMakeLists.txt")]
        count[os.path.dirname(dirs[-1]) if dirs else chain[0]] += 1
    for k in sorted(count):
        print(f"{count[k]:5d}  {k}/")
    print(f"{sum(count.values()):5d}  in all")


if __name__ == "__main__":
    main()
