# check.sh - sourced by the firmware's test scripts: a scratch directory $T (removed on exit), and
# check NAME CONDITION..., which prints "ok" or "FAIL" for NAME and counts the failures in $fails.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() { # check NAME CONDITION...
    name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
