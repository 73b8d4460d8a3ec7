"""Paper sizes, and the default a user expects from where they live.

Letter in North America and a few other places, A4 elsewhere. Debian keeps the choice in
/etc/papersize; the locale's LC_PAPER (or LANG) names the country otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
LETTER_COUNTRIES = {"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PR", "SV", "NI", "PA", "DO"}


def default_paper(env: dict[str, str] | None = None, papersize_file: Path = Path("/etc/papersize")) -> str:
    env = dict(os.environ) if env is None else env
    explicit = env.get("SHIPYARD_PAPER", "").strip().lower()
    if explicit in PAPERS:
        return explicit
    for var in ("LC_ALL", "LC_PAPER", "LANG"):
        value = env.get(var, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            country = value.split(".")[0].split("_")[-1].upper()
            return "letter" if country in LETTER_COUNTRIES else "a4"
    try:
        text = papersize_file.read_text().strip().lower()
    except OSError:
        return "a4"
    return "letter" if text == "letter" else "a4"
