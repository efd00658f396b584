#!/usr/bin/env python3
"""Touches MB mebibytes of private anonymous memory (at most half of
MemAvailable), advised huge pages, one write a 4 KiB page, and returns it
to the kernel.

    python3 ci/bench.d/warm_memory.py MB

Why: on a virtual machine whose balloon device reports free pages to the
host (virtio-balloon free page reporting: the 2-core machine here, bit 5
of /sys/bus/virtio/devices/*/features on its balloon device), memory left
free for a couple of seconds goes back to the host, and the next program
to touch it waits for the host to back and zero it again. A benchmark
that starts a fresh process per run (mpirun) then times the hypervisor as
much as the program: here 16 MiB of a block repeated at 2 ranks took
1.66-2.53 s (system time 1.25-2.30 s) six seconds after the previous run,
and 1.17-1.26 s (0.24-0.28 s) right after this script had touched 2 GiB.
Run just before the timed program, it leaves recently freed memory that
the guest kernel hands out first, already backed. The guest's own page
zeroing is still paid by the program, as on a machine without a
hypervisor.

Private mappings only: a shared one (mmap.mmap(-1, n) without flags) is
shmem, which gets no huge pages, and did not help.
"""
import mmap
import sys


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: warm_memory.py MB")
    n = int(sys.argv[1]) << 20
    try:  # at most half of what the machine has free
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    n = min(n, int(line.split()[1]) << 9)
    except OSError:
        pass
    n &= ~((1 << 21) - 1)
    if n == 0:
        return
    m = mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(m, "madvise") and hasattr(mmap, "MADV_HUGEPAGE"):
        m.madvise(mmap.MADV_HUGEPAGE)
    page, chunk = 1 << 12, 1 << 26
    for off in range(0, n, chunk):
        size = min(chunk, n - off)
        m[off:off + size:page] = b"\x01" * len(range(0, size, page))
    m.close()


if __name__ == "__main__":
    main()
