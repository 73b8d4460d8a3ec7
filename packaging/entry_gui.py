"""The bundle's ``shipyard-gui`` executable: the editor.

``shipyard._qt.app.main`` itself answers ``--render-worker FD``, the way the editor starts
its render workers from a frozen app (``[sys.executable, "--render-worker", FD]``).
"""

from __future__ import annotations

import multiprocessing

from shipyard._qt.app import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    raise SystemExit(main())
