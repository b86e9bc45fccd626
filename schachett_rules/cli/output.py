"""Where the commands write: every output path checked before the work starts, every file written whole.

Every command that writes a file asks here first (:func:`check_file`, :func:`check_folder`,
:func:`check_site`), before it plays a game or a run, so that a bad path costs nothing; and
then writes through :func:`write_file`, which writes a temporary file beside the target and
renames it, so that a full disk or a failing device leaves no half file behind.

The rules, the same for every command:

* an existing file is never replaced unless the user gives ``--force``;
* nothing is ever written into the package, ``variants/`` or ``manual/``, nor into ``docs/``,
  whose pages are the site's sources (not even with ``--force``);
* a site is built only into a new or empty folder, or one that holds an earlier site build
  (it carries :data:`SITE_MARKER`); nothing else is ever deleted.

A path that cannot be used is bad usage (:class:`~schachett_rules.errors.UsageError`, exit 2); a
write that fails on the way (no space, an I/O error) is an error of its own (exit 1). Both are one
paragraph naming the path.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path

from .. import paths
from ..errors import SchachettError, UsageError

SITE_MARKER = ".schachett-site"
"""The file every site build carries, so that a later build knows the folder is its own to replace."""

_TEMP_PREFIX = ".schachett-"   # short, so that a target name near the length limit still has a temporary name


def _show(path: Path) -> str:
    return str(path)


def protected_folders() -> dict[str, Path]:
    """The folders no command writes into, by what they hold.

    >>> sorted(protected_folders())
    ['the manual (manual/)', 'the package', 'the rule files (variants/)', 'the site sources (docs/)']
    """
    return {"the package": Path(__file__).resolve().parent.parent,
            "the rule files (variants/)": paths.variants_dir().resolve(),
            "the manual (manual/)": paths.manual_dir().resolve(),
            "the site sources (docs/)": (paths.home() / "docs").resolve()}


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _refuse_protected(path: Path, flag: str, containing: bool = False) -> None:
    """A path inside a protected folder (or, for a folder that is replaced or filled, holding one) is refused."""
    real = path.resolve()
    for what, folder in protected_folders().items():
        if _inside(real, folder) or (containing and _inside(folder, real)):
            raise UsageError(f"{flag} {_show(path)}: that is {'in' if _inside(real, folder) else 'a folder holding'} "
                             f"{what}, which this command never writes into, even with --force; choose a path "
                             f"elsewhere")


def _oserror(flag: str, path: Path, err: OSError, doing: str) -> UsageError:
    why = "the name is too long" if err.errno == errno.ENAMETOOLONG else (err.strerror or str(err)).lower()
    return UsageError(f"{flag} {_show(path)}: cannot {doing} ({why})")


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _check_writable_folder(folder: Path, flag: str, path: Path) -> None:
    if not folder.exists():
        raise UsageError(f"{flag} {_show(path)}: there is no folder {_show(folder)} to write into; create it first")
    if not folder.is_dir():
        raise UsageError(f"{flag} {_show(path)}: {_show(folder)} is a file, not a folder")
    try:   # the only sure test of writability (permissions, a read-only disk) is to write
        fd, probe = tempfile.mkstemp(dir=folder, prefix=_TEMP_PREFIX, suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        if err.errno == errno.ENOENT and folder.is_dir():
            # the folder is there but refuses a new file as if it were not: a file system the system keeps
            # (/proc, /sys), whose files are the kernel's and whose folders take none of ours
            raise UsageError(f"{flag} {_show(path)}: cannot write into the folder {_show(folder)}: it belongs to a "
                             f"file system the operating system keeps for itself (as /proc and /sys are), which "
                             f"takes no new files; choose a path elsewhere") from None
        raise _oserror(flag, path, err, f"write into the folder {_show(folder)}") from None


def check_file(path: Path, flag: str, force: bool) -> Path:
    """Check a file a command will write, before the command does its work; return the path.

    Refused: a folder where a file is wanted, a missing or unwritable folder, a name too long for
    the file system, a path in a protected folder, and an existing file unless ``force``. A device
    or a pipe (``/dev/stdout``) is written in place and needs no ``--force``.
    """
    path = Path(path)
    try:
        if len(os.fsencode(path.name)) > _name_max(path.parent if path.parent.exists() else Path(".")):
            raise UsageError(f"{flag} {_show(path)}: the file name is too long for the file system "
                             f"({len(os.fsencode(path.name))} bytes); choose a shorter one")
        _refuse_protected(path, flag)
        if path.is_dir():
            raise UsageError(f"{flag} {_show(path)}: that is a folder; name the file to write")
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):
            return path   # a device or a pipe, written in place: its folder need not be writable
        _check_writable_folder(path.parent, flag, path)
        if path.exists() and stat.S_ISREG(path.stat().st_mode) and not force:
            raise UsageError(f"{flag} {_show(path)}: that file already exists and is left as it is; add --force "
                             f"to replace it, or choose another name")
    except OSError as err:
        raise _oserror(flag, path, err, "use this path") from None
    return path


def write_file(path: Path, data: str | bytes, flag: str) -> None:
    """Write a whole file: into a temporary file beside it, renamed over the target when complete.

    If anything fails (no space left, an I/O error) the temporary file is removed, an existing
    file is left as it was, and the error is one paragraph naming the path.
    """
    path = Path(path)
    _refuse_protected(path, flag)   # checked before the work too; this is the last line of defence
    blob = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):
            with open(path, "wb") as fh:   # a device or a pipe: there is nothing to rename over
                fh.write(blob)
            return
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask()
    except OSError as err:
        raise _failed(flag, path, err) from None
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_TEMP_PREFIX, suffix=".part")
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as err:
        raise _failed(flag, path, err) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _umask() -> int:
    old = os.umask(0o22)
    os.umask(old)
    return old


def _failed(flag: str, path: Path, err: OSError) -> SchachettError:
    why = {errno.ENOSPC: "no space left on the device", errno.EIO: "an input/output error",
           errno.EDQUOT: "the disk quota is used up", errno.EROFS: "the file system is read-only"}.get(
        err.errno, (err.strerror or str(err)).lower())
    return SchachettError(f"{flag} {_show(path)}: could not be written ({why}); nothing was written there, and "
                          f"what was there before is unchanged")


def check_folder(folder: Path, flag: str, names: list[str], force: bool) -> Path:
    """Check a folder a command will write the given files into (created if missing); return it.

    The files that already exist there are refused unless ``force``; other files in the folder
    are never touched.
    """
    folder = Path(folder)
    try:
        _refuse_protected(folder, flag)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{flag} {_show(folder)}: that is a file, not a folder")
        if not folder.exists():
            _check_writable_folder(folder.parent, flag, folder)
            return folder
        _check_writable_folder(folder, flag, folder)
        taken = [n for n in names if (folder / n).exists()]
        if taken and not force:
            raise UsageError(f"{flag} {_show(folder)}: {', '.join(taken)} already "
                             f"{'exists' if len(taken) == 1 else 'exist'} there and "
                             f"{'is' if len(taken) == 1 else 'are'} left as they are; add --force to replace "
                             f"{'it' if len(taken) == 1 else 'them'}, or choose another folder")
    except OSError as err:
        raise _oserror(flag, folder, err, "use this folder") from None
    return folder


def write_drawn(folder: Path, draw, flag: str) -> list[Path]:
    """Let ``draw(scratch_folder)`` write its files aside, then write each into ``folder`` whole; return them."""
    with tempfile.TemporaryDirectory(prefix=_TEMP_PREFIX) as scratch:
        files = {p.name: p.read_bytes() for p in draw(Path(scratch))}
    return write_files(folder, files, flag)


def write_files(folder: Path, files: dict[str, bytes], flag: str) -> list[Path]:
    """Write files into a folder (made if missing), each one whole; return their paths."""
    folder = Path(folder)
    try:
        folder.mkdir(exist_ok=True)
    except OSError as err:
        raise _failed(flag, folder, err) from None
    written = []
    for name, data in files.items():
        write_file(folder / name, data, flag)
        written.append(folder / name)
    return written


# --- the site ----------------------------------------------------------------------------------------

def _is_site_build(folder: Path) -> bool:
    if (folder / SITE_MARKER).is_file():
        return True
    # The project's own site/ folder from before builds carried the marker: an MkDocs build, nothing else.
    return (folder == (paths.home() / "site").resolve() and (folder / "index.html").is_file()
            and (folder / "search" / "search_index.json").is_file())


def check_site(folder: Path, flag: str, force: bool) -> str:
    """Check the folder a site is built into; return how the build is put there.

    ``"new"``: the folder does not exist or is empty; ``"replace"``: it holds an earlier site
    build, which the new one replaces; ``"merge"`` (only with ``force``): it holds other files,
    and the site's files are added beside them, replacing those of the same names and deleting
    nothing.
    """
    folder = Path(folder).resolve()
    try:
        _refuse_protected(folder, flag, containing=True)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{flag} {_show(folder)}: that is a file, not a folder")
        if not folder.exists():
            _check_writable_folder(folder.parent, flag, folder)
            return "new"
        _check_writable_folder(folder.parent, flag, folder)
        if not any(folder.iterdir()):
            return "new"
        if _is_site_build(folder):
            return "replace"
        if not force:
            raise UsageError(f"{flag} {_show(folder)}: that folder is not empty and holds no earlier site build, so "
                             f"nothing is written there and nothing in it is deleted; choose a new or empty folder, "
                             f"or add --force to add the site's files beside what is there (replacing files of the "
                             f"same names, deleting nothing)")
        return "merge"
    except OSError as err:
        raise _oserror(flag, folder, err, "use this folder") from None


def build_site(folder: Path, how: str, build, flag: str) -> bool:
    """Run ``build(staging_folder)`` in a new folder beside the target; put the site in place if it returns true.

    A build that fails (or is interrupted) leaves the target as it was, and no staging folder is left behind.
    """
    folder = Path(folder).resolve()
    staged = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f"{_TEMP_PREFIX}{folder.name[:40]}-"))
    try:
        if not build(staged):
            return False
        _install_site(staged, folder, how, flag)
        return True
    finally:
        shutil.rmtree(staged, ignore_errors=True)


def _install_site(staged: Path, folder: Path, how: str, flag: str) -> None:
    """Put a finished build in place (see :func:`check_site` for ``how``)."""
    folder = Path(folder).resolve()
    try:
        if how == "merge":
            shutil.copytree(staged, folder, dirs_exist_ok=True)
            return
        (staged / SITE_MARKER).write_text("A site built by `schachett site build`; the next build replaces this "
                                          "folder.\n", encoding="utf-8")
        if folder.exists() and not any(folder.iterdir()):
            folder.rmdir()
        if not folder.exists():
            os.replace(staged, folder)
            return
        old = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f"{_TEMP_PREFIX}old-"))
        os.replace(folder, old / "site")   # the earlier build, ours by its marker
        try:
            os.replace(staged, folder)
        except OSError:
            os.replace(old / "site", folder)   # should this fail too, the earlier build stays where it was moved
            old.rmdir()
            raise
        shutil.rmtree(old, ignore_errors=True)
    except OSError as err:
        raise _failed(flag, folder, err) from None
