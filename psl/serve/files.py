"""Safe file access for the playground: packaged static files, and the one program file."""

from __future__ import annotations

import codecs
import hashlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from psl.userfiles import (
    MAX_SOURCE_BYTES,
    UserFileError,
    decode_source,
    encode_text,
    read_bytes,
    write_bytes,
)

STATIC_ROOT = Path(__file__).resolve().parent.parent / "web" / "static"

#: Suffixes the page is made of, and how to serve them (ES modules need a JS type).
CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
    ".json": "application/json", ".txt": "text/plain", ".png": "image/png",
    ".svg": "image/svg+xml", ".frag": "text/plain", ".vert": "text/plain",
}


class UnsafePath(ValueError):
    """A requested path that is not a plain file under the static folder."""


def static_file(relative: str, root: Path = STATIC_ROOT) -> Path:
    """The file `relative` (already percent-decoded) under `root`, or UnsafePath.

    Checked twice: the text must be plain segments (no `..`, `.`, empty parts, backslashes,
    NULs or drive letters), and the resolved path (symlinks followed) must stay under root.
    """
    if not relative or "\\" in relative or "\0" in relative or ":" in relative:
        raise UnsafePath(relative)
    parts = PurePosixPath(relative).parts
    if relative.startswith("/") or any(p in ("", ".", "..") for p in parts) \
            or len(parts) != len(relative.split("/")):
        raise UnsafePath(relative)
    try:
        base = root.resolve()
        path = (base / relative).resolve()
        if not path.is_relative_to(base) or not path.is_file():
            raise UnsafePath(relative)
    except (OSError, ValueError):  # a name too long for the system, a loop of links
        raise UnsafePath(relative) from None
    if path.suffix not in CONTENT_TYPES:
        raise UnsafePath(relative)
    return path


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix, "application/octet-stream")


def version_of(data: bytes) -> str:
    """What the page and the server compare to notice changes: a hash of the bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class Snapshot:
    source: str
    version: str


@dataclass(frozen=True)
class SaveResult:
    saved: bool
    version: str  # the file's version after the call (new on success, the disk's on conflict)
    disk_source: str = ""  # on conflict: what is on disk now


class ProgramFile:
    """The program given to `psl serve FILE`: read, watched by its stat, saved on request.
    Read and written through psl.userfiles (bounded, links and modes kept); reading or
    writing fails with UserFileError."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stat: tuple[int, int] | None = None
        #: why the file on disk must not be saved over (bytes that are not UTF-8 show as
        #: U+FFFD on the page: saving would write those over them), or None
        self.problem: str | None = None
        self._bom = False
        self._last = self.read()

    @property
    def name(self) -> str:
        return self.path.name

    def read(self) -> Snapshot:
        data = read_bytes(self.path, MAX_SOURCE_BYTES, "PSL file")
        self._stat = self._stat_key()
        self._bom = data.startswith(codecs.BOM_UTF8)
        try:
            decode_source(data, self.name, strict=True)
            self.problem = None
        except UserFileError as exc:
            self.problem = str(exc)
        # Like `psl check`: undecodable bytes become U+FFFD for the lexer to point at.
        return Snapshot(data.decode("utf-8-sig", errors="replace"), version_of(data))

    def _stat_key(self) -> tuple[int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    def poll(self) -> Snapshot | None:
        """The new contents when the file changed on disk since the last look, else None.
        A stat first, so an unchanged file costs no read; a hash, so a touch is no change."""
        key = self._stat_key()
        if key is None or key == self._stat:
            return None
        try:
            snap = self.read()
        except (OSError, UserFileError):
            return None  # half-written or gone for a moment: look again next time
        if snap.version == self._last.version:
            return None
        self._last = snap
        return snap

    def save(self, source: str, base_version: str, overwrite: bool = False) -> SaveResult:
        """Write `source` if the file is still the version the page loaded (`base_version`),
        or when the user chose to overwrite; otherwise report the conflict."""
        if self.path.exists() or self.path.is_symlink():
            current = self.read()
        else:
            current, self.problem = Snapshot("", ""), None
        if current.version != base_version and not overwrite:
            return SaveResult(False, current.version, current.source)
        if self.problem is not None:
            raise UserFileError(f"{self.problem}; not saving over it (the page shows those "
                                "bytes as U+FFFD)")
        data = (codecs.BOM_UTF8 if self._bom else b"") + encode_text(source, self.name)
        write_bytes(self.path, data)
        self._last = Snapshot(source, version_of(data))
        self._stat = self._stat_key()
        return SaveResult(True, self._last.version)
