#!/usr/bin/env bash
# ci/tests.d/install.sh [BUILD] - `make install` of the built tree into a
# staging root (DESTDIR), then what a user does with the installed tree
# alone: only the public headers are there and compile by themselves, the
# shared library has its soname and exports the public functions and
# nothing else, the static one carries the oracles, pkg-config finds it
# all; the Check example (examples/check_test) built against
# libparcheck.so and against libparcheck.a, and run; the plugin example
# spmm_omp_ok built with the installed header and run by the installed
# parcheck; the man page. Then `make uninstall` leaves nothing behind.
# The tree is installed at the PREFIX it was built for (a different one
# would rebuild it: the binary records its install directory).
# Prints the SUMMARY line of ci/run-tests.sh.
set -u
BUILD=${1:-build}
CC=${CC:-cc}
CXX=${CXX:-c++}
# An instrumented build (ci/sanitize.sh, ci/coverage.sh) installs
# instrumented libraries: its link flags are a user's to add too.
user_ld=${EXTRA_LDFLAGS:-}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dest=$stage/root
passed=0 failed=0 skipped=0
log=$stage/step.log

# step NAME COMMAND...: one test; its output is shown only when it fails.
step() {
  local name=$1; shift
  if "$@" >"$log" 2>&1; then
    echo "ok   $name"; passed=$((passed + 1))
  else
    echo "FAIL $name"; sed 's/^/     /' "$log" | head -n 25; failed=$((failed + 1))
  fi
}

step "make install DESTDIR=..." make -s --no-print-directory install BUILD="$BUILD" DESTDIR="$dest"
prefix=$(sed -n 's/^prefix=//p' "$BUILD/lib/pkgconfig/parcheck.pc")
root=$dest$prefix
version=$(sed -n 's/^Version: //p' "$BUILD/lib/pkgconfig/parcheck.pc")
if [ ! -x "$root/bin/parcheck" ]; then
  echo "SUMMARY passed=$passed failed=$((failed + 1)) skipped=$skipped"
  exit 1
fi
export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
pc() { pkg-config "$@" parcheck; }

only_public_headers() {
  local got want
  got=$(cd "$dest" && find . -name '*.h*' | sort)
  want=$(printf './%s/include/parcheck/%s\n' "${prefix#/}" parcheck.h "${prefix#/}" plugin.h | sort)
  [ "$got" = "$want" ] || { printf 'installed headers:\n%s\nwanted:\n%s\n' "$got" "$want"; return 1; }
  # and they include nothing but the C library's
  ! grep -h '^#include' "$root"/include/parcheck/*.h | grep -v -E '^#include <std(def|int)\.h>$'
}
step "only include/parcheck/{parcheck,plugin}.h installed" only_public_headers

libraries() {
  local lib=$root/lib
  [ -f "$lib/libparcheck.a" ] && [ -f "$lib/libparcheck.so.$version" ] &&
    [ "$(readlink "$lib/libparcheck.so.0")" = "libparcheck.so.$version" ] &&
    [ "$(readlink "$lib/libparcheck.so")" = "libparcheck.so.0" ] || { ls -l "$lib"; return 1; }
  readelf -d "$lib/libparcheck.so.$version" | grep -q 'SONAME.*\[libparcheck\.so\.0\]' ||
    { echo "no soname libparcheck.so.0"; return 1; }
  # exported: exactly the functions parcheck.h declares
  local exported declared
  exported=$(nm -D --defined-only "$lib/libparcheck.so.$version" | awk '$2 == "T" {print $3}' | sort)
  declared=$(grep -o 'PARCHECK_API [^(]*parcheck_[a-z0-9_]*(' "$root/include/parcheck/parcheck.h" |
             sed -E 's/.*[^a-z0-9_](parcheck_[a-z0-9_]*)\($/\1/' | sort)
  [ "$exported" = "$declared" ] || { diff <(echo "$declared") <(echo "$exported"); return 1; }
  nm -D --defined-only "$lib/libparcheck.so.$version" | awk '$2 ~ /[BDGRV]/' | grep . && return 1
  # the archive holds the oracles the checks call
  nm "$lib/libparcheck.a" 2>/dev/null | grep -q ' T spmm_check$' &&
    nm "$lib/libparcheck.a" 2>/dev/null | grep -q ' T parcheck_check_pets$'
}
step "libparcheck.a, libparcheck.so.$version (soname libparcheck.so.0, public symbols only)" libraries

pkgconfig() {
  [ "$(pc --modversion)" = "$version" ] &&
    [ "$(echo $(pc --cflags))" = "-I$root/include" ] &&
    pc --libs | grep -q -- "-L$root/lib -lparcheck" &&
    pc --static --libs | grep -q -- '-fopenmp'
}
step "pkg-config parcheck: version, Cflags, Libs, Libs.private" pkgconfig

header_alone() {
  echo '#include <parcheck/parcheck.h>' | $CC -std=c99 -pedantic -Wall -Wextra -Werror \
    $(pc --cflags) -fsyntax-only -x c - &&
  printf '#include <parcheck/parcheck.h>\n#include <parcheck/plugin.h>\n' |
    $CXX -std=c++11 -pedantic -Wall -Wextra -Werror $(pc --cflags) -fsyntax-only -x c++ -
}
step "installed parcheck.h compiles alone as C99 and C++11" header_alone

example=examples/check_test/test_mykernel.c
if pkg-config --exists check 2>/dev/null; then
  # check's own flags, without the staging root
  check_flags=$(PKG_CONFIG_SYSROOT_DIR= pkg-config --cflags --libs check)
  shared_example() {
    $CC -std=c11 -Wall -Wextra -Werror -o "$stage/tmk_so" "$example" $(pc --cflags --libs) \
      $check_flags $user_ld &&
    LD_LIBRARY_PATH=$root/lib ldd "$stage/tmk_so" | grep -q "libparcheck.so.0 => $root/lib/" &&
    LD_LIBRARY_PATH=$root/lib "$stage/tmk_so"
  }
  step "Check example against libparcheck.so: built and passes" shared_example
  static_example() {
    $CC -std=c11 -Wall -Wextra -Werror -o "$stage/tmk_a" "$example" $(pc --cflags) \
      $(pc --static --libs | sed 's/-lparcheck\b/-l:libparcheck.a/') $check_flags $user_ld &&
    ! ldd "$stage/tmk_a" | grep -q libparcheck &&
    "$stage/tmk_a"
  }
  step "Check example against libparcheck.a: built and passes" static_example
else
  echo "SKIPPED Check example: no pkg-config file for check (apt-get install check)"
  skipped=$((skipped + 2))
fi

plugin_build() {
  $CC -std=c11 -O2 -fPIC -shared -fopenmp -Wall -Wextra -Werror $(pc --cflags) \
    -o "$stage/spmm_omp_ok.so" examples/plugins/spmm_omp_ok/spmm_omp_ok.c
}
step "plugin spmm_omp_ok built against the installed header" plugin_build
plugin_run() {
  "$root/bin/parcheck" gen matrix --rows 300 --cols 200 --nnz 3000 --shape uniform --seed 3 \
    -o "$stage/a.mtx" &&
  "$root/bin/parcheck" spmm "$stage/a.mtx" --k 4 --reps 1 --threads 2 \
    --plugin "$stage/spmm_omp_ok.so" --impl spmm-omp-ok | tee /dev/stderr | grep -q 'spmm-omp-ok \[plugin\] *pass'
}
if "$root/bin/parcheck" spmm --help 2>&1 | grep -q -- '--plugin'; then
  step "plugin spmm_omp_ok run by the installed parcheck: pass" plugin_run
else
  echo "SKIPPED plugin run: this parcheck spmm has no --plugin yet"
  skipped=$((skipped + 1))
fi

# The man page, from the help text: there, a valid page, and it holds the
# options of the help it was made from.
man_page() {
  local page=$root/share/man/man1/parcheck.1
  [ -f "$page" ] || { echo "no $page"; return 1; }
  local text
  text=$(MANWIDTH=100 man -l "$page" 2>/dev/null) || { echo "man -l cannot read $page"; return 1; }
  grep -q '^NAME' <<<"$text" && grep -q 'parcheck - run parallel kernels' <<<"$text" &&
    grep -q -- '--progress' <<<"$text" && grep -q 'parcheck dag import' <<<"$text" ||
    { head -n 20 <<<"$text"; return 1; }
}
if command -v help2man >/dev/null && command -v man >/dev/null; then
  step "man page share/man/man1/parcheck.1 installed, made from the help" man_page
else
  echo "SKIPPED man page: help2man or man not installed (ci/bootstrap installs help2man)"
  skipped=$((skipped + 1))
fi

uninstall() {
  make -s --no-print-directory uninstall BUILD="$BUILD" DESTDIR="$dest" &&
    [ -z "$(find "$dest" -type f -o -type l)" ] || { find "$dest" -type f -o -type l; return 1; }
}
step "make uninstall removes every installed file" uninstall

echo "SUMMARY passed=$passed failed=$failed skipped=$skipped"
[ "$failed" -eq 0 ]
