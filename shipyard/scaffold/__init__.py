"""``shipyard ruleset new``: a ruleset package to start from, written from the files beside this module.

The package a homebrew author gets installs (``pip install -e``), passes ``shipyard
rulesets --check``, checks and prints its sample and opens in the editor, so the first
thing they change is already working. Two kinds: ``point-buy`` (a budget of build points,
purchases charged to it and a budget check) and ``record`` (a described ship: figures, a
track, the actions it may take). The files live as they will be written under
``files/common`` and ``files/<kind>`` with the names ``__ID__``, ``__PACKAGE__``,
``__NAME__`` and ``__DIST__`` in them, so reading them is reading the result; a ``.tmpl``
suffix keeps the Python among them out of Shipyard's own linting and tests.

Nothing is written before every file is made, and then all of it or none: the package is
written into a fresh folder beside the target and renamed into place.
"""

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from shipyard.core.errors import InputError

KINDS = ("point-buy", "record")
FILES = Path(__file__).resolve().parent / "files"
ID_PATTERN = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
ID_MAX = 40
ID_ALLOWED = "lowercase letters, digits and single dashes, starting with a letter, at most 40 characters (my-fleet)"


@dataclass(frozen=True)
class Names:
    """The ways the one id is spelt in the package: ``my-fleet``, ``shipyard_my_fleet``, ``My Fleet``."""

    id: str

    @property
    def package(self) -> str:
        return "shipyard_" + self.id.replace("-", "_")

    @property
    def dist(self) -> str:
        return "shipyard-" + self.id

    @property
    def name(self) -> str:
        return " ".join(word.capitalize() for word in self.id.split("-"))

    def fill(self, text: str) -> str:
        for key, value in (("__PACKAGE__", self.package), ("__DIST__", self.dist), ("__NAME__", self.name)):
            text = text.replace(key, value)
        return text.replace("__ID__", self.id)


def check_id(ruleset_id: str, taken: set[str]) -> Names:
    """The id as names, or an InputError saying what an id may be (or whose it is already)."""
    if len(ruleset_id) > ID_MAX or not ID_PATTERN.fullmatch(ruleset_id):
        raise InputError.single(f"not a ruleset id: {ruleset_id!r}", path="ID", allowed=ID_ALLOWED)
    if ruleset_id in taken:
        raise InputError.single(
            f"a ruleset {ruleset_id!r} is installed already: its designs could not be told from yours",
            path="ID",
            allowed="an id no installed ruleset has (see `shipyard rulesets`)",
        )
    return Names(ruleset_id)


def files(kind: str, names: Names) -> dict[Path, str]:
    """Every file of the package, by its path inside it, made in memory."""
    if kind not in KINDS:
        raise InputError.single(f"no scaffold kind {kind!r}", allowed=", ".join(KINDS))
    made: dict[Path, str] = {}
    for root in (FILES / "common", FILES / kind):
        for source in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            relative = Path(names.fill(str(source.relative_to(root)))).with_suffix("")
            if source.suffix != ".tmpl":  # every file carries it; a stray one is a mistake here
                raise AssertionError(f"{source}: a scaffold file must end in .tmpl")
            made[relative] = names.fill(source.read_text(encoding="utf-8"))
    return made


def write(ruleset_id: str, kind: str, target: Path, taken: set[str]) -> list[Path]:
    """Write the package of ``kind`` for ``ruleset_id`` as the folder ``target``; the files written."""
    names = check_id(ruleset_id, taken)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise InputError.single("is not a folder", file=target, allowed="a new folder, or an empty one")
    if target.is_dir() and any(target.iterdir()):
        raise InputError.single(
            "the folder is not empty: nothing was written", file=target, allowed="a new folder, or an empty one"
        )
    made = files(kind, names)
    parent = target.parent
    if not parent.is_dir():
        raise InputError.single("the folder to write into does not exist", file=parent)
    try:
        scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=parent))
    except OSError as exc:
        raise InputError.single(f"cannot write here: {exc.strerror}", file=parent) from None
    try:
        for relative, text in made.items():
            (scratch / relative).parent.mkdir(parents=True, exist_ok=True)
            (scratch / relative).write_text(text, encoding="utf-8")
        scratch.chmod(0o755)  # mkdtemp's folder is the owner's only; a package folder is not
        if target.is_dir():
            target.rmdir()  # empty, as checked: replaced by the finished package in one rename
        scratch.replace(target)
    except OSError as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        raise InputError.single(f"cannot write the package: {exc.strerror}", file=target) from None
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return [target / relative for relative in made]
