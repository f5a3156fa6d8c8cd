"""The one way psl reads and writes a user's files (CLI, playground server, language server).

Reading is bounded (the size is checked while reading, so a 200 MB file or /dev/zero costs
no more than the limit) and takes regular files only. Writing never loses what the user
had: symlinks are followed (the link stays, its target changes), hard links are kept (the
shared file is rewritten in place), the mode and owner stay, a read-only file or a file
that is also an input is refused, and a failed write (full disk) leaves the old file whole.
Every failure is a `UserFileError` whose message names the path and says why.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from psl.registry import LIMITS

#: The most bytes a program's file can take: 4 UTF-8 bytes per character, and a BOM.
MAX_SOURCE_BYTES = 4 * LIMITS.source_chars + 3


class UserFileError(Exception):
    """A file psl cannot read or write; str() is the whole message, path included."""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def read_bytes(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes."""
    name = os.fspath(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer (regular files ignore it)
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.EISDIR:
            raise UserFileError(f"{name} is a folder, not a {what}") from None
        raise UserFileError(f"cannot read {name}: {_why(exc)}") from None
    except ValueError as exc:  # a NUL in the name
        raise UserFileError(f"cannot read {name!r}: {exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UserFileError(f"{name} is a folder, not a {what}")
        if not stat.S_ISREG(mode):
            raise UserFileError(f"{name} is not a regular file (a device, pipe or socket); "
                                f"psl reads a {what} from a regular file or stdin (-)")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as fh:
        return _bounded(fh, limit, name, what)


def read_stream(fh: BinaryIO | None, limit: int, name: str = "<stdin>",
                what: str = "file") -> bytes:
    """At most `limit` bytes of an open stream (stdin); a closed stream is an error."""
    if fh is None:
        raise UserFileError(f"cannot read {name}: it is closed")
    try:
        return _bounded(fh, limit, name, what)
    except (OSError, ValueError) as exc:
        why = _why(exc) if isinstance(exc, OSError) else str(exc)
        raise UserFileError(f"cannot read {name}: {why}") from None


def _bounded(fh: BinaryIO, limit: int, name: str, what: str) -> bytes:
    try:
        data = fh.read(limit + 1)
    except OSError as exc:
        raise UserFileError(f"cannot read {name}: {_why(exc)}") from None
    if data is None:
        data = b""
    if len(data) > limit:
        raise UserFileError(f"{name} is too large: more than {limit:,} bytes "
                            f"(a {what} is at most {limit:,})")
    return data


_UTF16_32 = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
             (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


def decode_source(data: bytes, name: str, strict: bool = False) -> str:
    """A program's text. UTF-16/UTF-32 files are refused with a word about the encoding.
    Lenient (check, compile): a byte that is not UTF-8 becomes U+FFFD, for the lexer to
    point at. Strict (anything that writes the text back): such a byte is an error with
    its line and column, so it is never written back as U+FFFD."""
    for bom, enc in _UTF16_32:
        if data.startswith(bom):
            raise UserFileError(f"{name}: the file is {enc} (it starts with a {enc} byte-order "
                                "mark); psl reads UTF-8: save it as UTF-8")
    head = data[:64]
    if len(head) >= 4 and head.count(0) * 3 >= len(head):
        raise UserFileError(f"{name}: the file looks like UTF-16 or UTF-32 (NUL bytes between "
                            "the characters); psl reads UTF-8: save it as UTF-8")
    if not strict:
        return data.decode("utf-8-sig", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _line_column(data[:exc.start].decode("utf-8"))
        raise UserFileError(f"{name}:{line}:{column}: error: not UTF-8 (byte "
                            f"0x{data[exc.start]:02x}); save the file as UTF-8") from None


def read_source(path: str | os.PathLike[str], strict: bool = False) -> str:
    """A program file's text, bounded by MAX_SOURCE_BYTES (see decode_source)."""
    return decode_source(read_bytes(path, MAX_SOURCE_BYTES, "PSL file"), os.fspath(path),
                         strict)


def _line_column(before: str) -> tuple[int, int]:
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def encode_text(text: str, name: str) -> bytes:
    """UTF-8 bytes of `text`; a lone surrogate (not text) is an error with its position."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line, column = _line_column(text[:exc.start])
        raise UserFileError(f"{name}:{line}:{column}: error: lone surrogate "
                            f"U+{ord(text[exc.start]):04X} is not text; nothing "
                            "written") from None


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file (symlinks, hard links, other spellings)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _write_all(fh: BinaryIO, data: bytes) -> None:
    """The one place bytes reach a file (tests replace it to fake a full disk)."""
    fh.write(data)
    fh.flush()
    try:
        os.fsync(fh.fileno())
    except OSError as exc:  # devices and pipes cannot sync; a full disk can say so here
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EROFS):
            raise


def write_text(path: str | os.PathLike[str], text: str,
               sources: Iterable[str | os.PathLike[str]] = ()) -> None:
    write_bytes(path, encode_text(text, os.fspath(path)), sources)


def write_bytes(path: str | os.PathLike[str], data: bytes,
                sources: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Write `data` to the file `path` names, keeping what the user has (see the module
    docstring). `sources`: the inputs of the command; writing over one is refused."""
    name = os.fspath(path)
    if "\0" in name:
        raise UserFileError(f"cannot write {name!r}: the name holds a NUL character")
    target = os.path.realpath(name)  # through symlinks: the link stays a link
    for src in sources:
        if os.fspath(src) != "-" and same_file(target, src):
            raise UserFileError(f"cannot write {name}: it is the input {os.fspath(src)}; "
                                "refusing to overwrite it")
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise UserFileError(f"cannot write {name}: the folder {folder} does not exist")
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UserFileError(f"cannot write {name}: {_why(exc)}") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise UserFileError(f"cannot write {name}: it is a folder")
        if not stat.S_ISREG(st.st_mode):  # /dev/null, a terminal, a pipe: write straight in
            _write_in_place(name, target, data)
            return
        if st.st_mode & 0o222 == 0 or not os.access(target, os.W_OK):
            raise UserFileError(f"cannot write {name}: it is read-only; not overwriting it")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
    except OSError as exc:
        if st is not None and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            _write_in_place(name, target, data)  # the folder is closed, the file is not
            return
        raise UserFileError(f"cannot write {name}: {_why(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_all(fh, data)
        if st is None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, target)
            return
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        keeps_owner = True
        if hasattr(os, "chown"):
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                keeps_owner = (os.stat(tmp).st_uid, os.stat(tmp).st_gid) == \
                    (st.st_uid, st.st_gid)
        if st.st_nlink > 1 or not keeps_owner:
            # a rename would split the hard link or change the owner: copy the new bytes
            # into the file itself (the full new text is already safe in tmp)
            _write_in_place(name, target, data, backup=tmp)
            os.unlink(tmp)
        else:
            os.replace(tmp, target)
    except UserFileError:
        raise
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UserFileError(f"cannot write {name}: {_why(exc)}; the file is unchanged") \
            from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_in_place(name: str, target: str, data: bytes, backup: str | None = None) -> None:
    try:
        with open(target, "r+b" if backup else "wb") as fh:
            if backup:
                fh.truncate(0)
            _write_all(fh, data)
    except OSError as exc:
        saved = f"; the full new text is in {backup}" if backup else ""
        raise UserFileError(f"cannot write {name}: {_why(exc)}{saved}") from None
