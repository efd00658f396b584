#!/usr/bin/env bash
# ci/report_machine.sh PARCHECK - what the report's header says about where
# it ran, one "key<TAB>value" line each: date, host, cpu, threads, memory,
# gpu, opencl, compiler, flags, commit, version (memory: ci/machine_memory.sh). The compiler and flags are the
# build's, as make computes them (make report-env).
set -u
P=${1:?parcheck binary}
kv() { printf '%s\t%s\n' "$1" "$2"; }
kv date "$(date -u '+%Y-%m-%d %H:%M UTC')"
kv host "$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)"
kv cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
kv threads "$(nproc)"
kv memory "$(bash "$(dirname "$0")/machine_memory.sh")"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
      sed -E 's/^ *([0-9]+) (.*)/\1 x \2/' | paste -sd ';' | sed 's/;/; /g')
kv gpu "${gpu:-none}"
ocl=$("$P" list 2>/dev/null | sed -n 's/^  opencl [0-9.]*: //p' | paste -sd ';' | sed 's/;/; /g')
kv opencl "${ocl:-none}"
env=$(make -s --no-print-directory BUILD="${BUILD:-build}" report-env 2>/dev/null)
kv compiler "$(sed -n 1p <<<"$env")"
kv flags "$(sed -n 2p <<<"$env")"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit (with local changes)"
kv commit "$commit"
kv version "$("$P" --version 2>/dev/null | sed 's/^parcheck //')"
