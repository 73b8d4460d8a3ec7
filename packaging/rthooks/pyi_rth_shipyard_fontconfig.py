"""Runtime hook of the Shipyard bundle: let fontconfig find the fonts the sheets ask for.

The bundle carries its own libfontconfig (through the WeasyPrint hook) and the DejaVu
Condensed fonts the sheet templates name first. Its ``fontconfig/fonts.conf`` includes the
host's ``/etc/fonts/fonts.conf`` when there is one (the host's fonts, aliases and cache) and
adds the bundled fonts, so a sheet prints the same on a machine with no fonts installed.
A user's own FONTCONFIG_FILE or FONTCONFIG_PATH wins.
"""

import os
import sys
from pathlib import Path

if not os.environ.get("FONTCONFIG_FILE") and not os.environ.get("FONTCONFIG_PATH"):
    _conf = Path(sys._MEIPASS) / "fontconfig" / "fonts.conf"  # type: ignore[attr-defined]
    if _conf.is_file():
        os.environ["FONTCONFIG_FILE"] = str(_conf)
