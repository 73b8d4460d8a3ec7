"""When the hangar's index entry of a design is stale: the stamps a scan compares.

An entry is worked out from the design file's bytes, so a scan reads the file again
when its status stamp (:func:`file_stamp`) differs from the one indexed. The stamp is
the whole status a program cannot keep while changing the bytes: not only the
modification time and size (an edit of the same length with the time set back, as
``touch -d`` or ``git checkout`` can leave it, kept both) but the change time, which no
program can set back, and the inode and device (a file replaced by another, under the
same name).
"""

from __future__ import annotations

import os


def file_stamp(st: os.stat_result) -> str:
    """A design file's status as the index keeps it: read again when it differs."""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
