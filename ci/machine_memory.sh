#!/usr/bin/env bash
# ci/machine_memory.sh - one line on what moves the timings of memory-bound
# runs between machines: the memory size, the transparent huge page mode,
# and whether a virtio balloon reports free pages to a hypervisor (memory
# left free for a few seconds is then backed again by the host at its next
# first touch: docs/README-sa-mpi.md, "Benchmark on a 16-core host").
# Used by ci/report_machine.sh and the host benchmarks' headers.
set -u
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
reporting=no
for d in /sys/bus/virtio/devices/*; do
  # device 5 is a balloon; feature bit 5 is VIRTIO_BALLOON_F_REPORTING
  [ "$(cat "$d/device" 2>/dev/null)" = 0x0005 ] &&
    [ "$(cut -c6 "$d/features" 2>/dev/null)" = 1 ] && reporting=yes
done
echo "$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), transparent huge pages ${thp:-unknown}, free pages reported to the host: $reporting"
