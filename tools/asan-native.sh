#!/usr/bin/env bash
# The native search under AddressSanitizer and UndefinedBehaviorSanitizer: build
# texas42_log/engine/_native.c with both, in a copy of the tree (the rest of the
# package as plain Python), and run its equality and fuzz tests against that build.
# Any invalid read or write, leak-free use after free, or undefined behaviour stops
# the run with the sanitizer's report.
#
#   bash tools/asan-native.sh            # the default equality and fuzz tests
#   bash tools/asan-native.sh -k batch   # more pytest arguments pass through
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 -I{} cp --parents {} "$work/"
include=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
    -shared -fPIC -I"$include" texas42_log/engine/_native.c -o "$work/texas42_log/engine/_native$suffix"
cd "$work"
# The sanitizer's runtime must be loaded before the interpreter; Python's own
# allocations are not ours to judge, so leaks are not reported.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONPATH="$work" TEXAS42_SOLVER=native
built=$("$OLDPWD/$python" -c "import texas42_log.engine._native as n; print(n.__file__)")
[ "$built" = "$work/texas42_log/engine/_native$suffix" ] || { echo "the sanitized build is not the one imported: $built"; exit 1; }
echo "sanitized build: $built"
"$OLDPWD/$python" -m pytest -q -p no:cacheprovider -n 0 \
    tests/test_native.py tests/test_native_fuzz.py -k "not commands_say and not environment_cannot" "$@"
