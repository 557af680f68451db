"""Writing a file so that it is either the old one or the whole new one, never half of each.

Every file the package writes (replays, studies, offline pages, autosaves, the CLI's rows,
reports and plots) goes through :func:`write_atomic`: the bytes go to a temporary file in the
same folder, are flushed and synced to the disk, and only then take the target's name (one
rename, which a crash or a full disk cannot leave half done). On failure the temporary file is
removed, the old file is untouched, and :class:`WriteError` says which path and why.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "game.json", '{"a": 1}\\n').read_text()
'{"a": 1}\\n'
>>> write_atomic(folder / "missing" / "x.txt", "x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
leyline_widget.core.files.WriteError: cannot write ...x.txt: the folder ...missing does not exist
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["WriteError", "atomic_file", "reason", "write_atomic"]


class WriteError(OSError):
    """A file could not be written; the message names the path and the reason. The file that
    was there before (if any) is unchanged."""

    def __str__(self) -> str:  # the sentence alone, without OSError's "[Errno n]"
        return str(self.strerror) if self.strerror else super().__str__()


_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EFBIG: "the file is larger than this system allows",
    errno.EACCES: "no permission to write there",
    errno.EPERM: "no permission to write there",
    errno.EROFS: "the file system is read-only",
    errno.ENOENT: "the folder does not exist",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "the path is a folder",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EXDEV: "the folder is on another device",
}


def reason(err: BaseException) -> str:
    """A short reason for an error of writing, in words ("the disk is full")."""
    if isinstance(err, OSError) and err.errno in _REASONS:
        return _REASONS[err.errno]
    text = getattr(err, "strerror", None) or str(err) or type(err).__name__
    return str(text)[:120]


def _fail(path: Path, err: BaseException) -> WriteError:
    code = err.errno if isinstance(err, OSError) else None
    why = reason(err)
    if code == errno.ENOENT and not path.parent.is_dir():
        why = f"the folder {path.parent} does not exist"
    return WriteError(code or errno.EIO, f"cannot write {path}: {why}")


def _sync_folder(folder: Path) -> None:
    """Sync the folder's entry for the renamed file, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open a folder; nothing to sync there
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], mode: str = "w", *,
                encoding: str | None = "utf-8", newline: str | None = None) -> Iterator[IO[Any]]:
    """A file object for ``path`` that takes the name only when the block ends without error.

    For writers that stream (the CLI's rows, a plot): what is written goes to a temporary file
    beside ``path``; at the end of the block it is flushed, synced and renamed over ``path``.
    An error in the block, or in writing, removes the temporary file and leaves ``path`` as it
    was; an ``OSError`` comes out as :class:`WriteError` naming the path and the reason.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_file writes whole files: mode 'w' or 'wb', got {mode[:8]!r}")
    target = Path(os.fspath(path))
    if target.is_dir():
        raise WriteError(errno.EISDIR, f"cannot write {target}: the path is a folder")
    folder = target.parent
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name[:100]}.", suffix=".tmp",
                                    dir=folder)
    except OSError as err:
        raise _fail(target, err) from None
    try:
        try:
            if "b" in mode:
                f: IO[Any] = os.fdopen(fd, "wb")
            else:
                f = os.fdopen(fd, "w", encoding=encoding, newline=newline)
        except BaseException:
            os.close(fd)
            raise
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file readable by its owner only; a saved file gets the usual
        # permissions (those of a file opened with "w": 0o666 less the umask).
        umask = os.umask(0)
        os.umask(umask)
        with contextlib.suppress(OSError):
            os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(err, OSError) and not isinstance(err, WriteError):
            raise _fail(target, err) from None
        raise
    _sync_folder(folder)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *,
                 encoding: str = "utf-8") -> Path:
    """Write ``data`` (text, encoded as ``encoding``, or bytes) to ``path`` atomically, and
    return the path. On failure (a full disk, a missing folder, no permission) the file that
    was there is unchanged and :class:`WriteError` (an ``OSError``) names the path and the
    reason; nothing is left behind.
    """
    if not isinstance(data, (str, bytes, bytearray, memoryview)):
        raise ValueError(f"write_atomic writes text or bytes, got {type(data).__name__}")
    target = Path(os.fspath(path))
    if isinstance(data, str):
        with atomic_file(target, "w", encoding=encoding, newline="") as f:
            f.write(data)
    else:
        with atomic_file(target, "wb") as f:
            f.write(data)
    return target
