"""Keep the memory one detect frees for the next (glibc's malloc), instead of handing it back.

A detect makes a few dozen view-sized arrays (an 879×879 BGR view in float32 is 9 MB) and
frees them. glibc maps big blocks fresh and unmaps them on free (over a threshold that
starts at 128 kB), and trims the heap's free top, so the next detect faults every page in
again: ~3 000–4 000 page faults and ~12–15 ms of system CPU per 1920×1080 detect (seeds
1000–1015's 1080p scenes, a process that had detected before), which an instruction count
does not see. With blocks up to
32 MB taken from the heap and a heap that is not trimmed below 512 MB, a process that
detects again (the referee's loop, the web app, a benchmark after its warm-up) reuses its
pages: ~10 faults and ~1 ms. The first detect in a process still pays. The memory kept is
what the process once needed at its peak.
"""

from __future__ import annotations

import ctypes
import sys

# mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
# Blocks up to this size come from the heap (glibc's ceiling for the setting on 64-bit).
MMAP_THRESHOLD_BYTES = 32 << 20
# The heap's free top is returned to the system only beyond this.
TRIM_THRESHOLD_BYTES = 512 << 20

_done = False


def keep_freed_memory() -> bool:
    """Set glibc's malloc to keep freed blocks for reuse (see the module's docstring), once
    per process. True when it took effect; False elsewhere (not Linux, no glibc mallopt)."""
    global _done
    if _done:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt returns 1 on success, 0 on error.
    _done = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))
    return _done
