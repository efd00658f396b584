#!/usr/bin/env bash
# ci/man_include.sh PARCHECK - the help2man include file of parcheck's man
# page: a COMMANDS section made of each command's own --help (without the
# implementation lists, which describe the machine that built the page, not
# the one that reads it), and SEE ALSO.
set -u
P=${1:?parcheck binary}
esc() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'; }
echo '[COMMANDS]'
for c in list spmm sa pets "spmm check" "sa check" "pets check" "gen matrix" "gen x" "gen text" \
         "gen dag" "dag import" bench; do
  echo '.SS "parcheck '"$c"'"'
  echo '.nf'
  # shellcheck disable=SC2086
  "$P" $c --help | sed -e '/^implementations:/,$d' | esc
  echo '.fi'
done
cat <<'TXT'
[SEE ALSO]
The project's README.md, docs/ARCHITECTURE.md (the contracts: command line,
JSON results, oracle rules) and docs/README-*.md (each domain, plugins, the
C interface). `parcheck list` tells what can run on this machine.
TXT
