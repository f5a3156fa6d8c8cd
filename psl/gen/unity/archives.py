"""Byte-reproducible archive writers: the .unitypackage (gzip of a ustar tar) and the VPM zip.

Both take a `PackageTree`: the package's files and folders by path relative to the package
root ('/' separators), each with its GUID and .meta text.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from dataclasses import dataclass, field

#: Fixed timestamp for every archive member (zip cannot store dates before 1980).
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

#: zlib's default: level 9 takes ten times longer on the grid meshes' hex and comes out larger
COMPRESS_LEVEL = 6


@dataclass(frozen=True)
class Entry:
    path: str  # relative to the package root, '/' separators, no trailing '/'
    guid: str
    meta: str
    data: bytes | None = None  # None for a folder

    @property
    def is_folder(self) -> bool:
        return self.data is None

    @property
    def hidden(self) -> bool:
        """Under a folder Unity never imports (name ending in '~', e.g. Samples~)."""
        return any(part.endswith("~") for part in self.path.split("/"))


@dataclass
class PackageTree:
    name: str
    entries: dict[str, Entry] = field(default_factory=dict)

    def add(self, entry: Entry) -> None:
        if entry.path in self.entries:
            raise ValueError(f"duplicate package path {entry.path!r}")
        self.entries[entry.path] = entry

    def sorted(self) -> list[Entry]:
        return [self.entries[p] for p in sorted(self.entries)]


def _tar_member(tar: tarfile.TarFile, name: str, data: bytes | None) -> None:
    info = tarfile.TarInfo(name)
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    if data is None:
        info.type = tarfile.DIRTYPE
        info.mode = 0o755
        tar.addfile(info)
    else:
        info.mode = 0o644
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))


def unitypackage_bytes(tree: PackageTree, root: str) -> bytes:
    """A .unitypackage: one `<guid>/` folder per asset with asset, asset.meta, pathname.

    `root` is the project folder the assets land in, e.g. "Packages/com.psl.shaderception".
    Hidden entries (Samples~) are left out: Unity would not import them from a project folder.
    """
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for entry in sorted(tree.entries.values(), key=lambda e: e.guid):
            if entry.hidden:
                continue
            pathname = f"{root}/{entry.path}" if entry.path else root
            if "\n" in pathname or "\r" in pathname:
                raise ValueError(f"path {pathname!r} contains a line break")
            _tar_member(tar, entry.guid, None)
            if entry.data is not None:
                _tar_member(tar, f"{entry.guid}/asset", entry.data)
            _tar_member(tar, f"{entry.guid}/asset.meta", entry.meta.encode())
            _tar_member(tar, f"{entry.guid}/pathname", pathname.encode())
    out = io.BytesIO()
    # Unity names the inner file archtemp.tar; mtime 0 keeps the gzip header reproducible.
    with gzip.GzipFile(filename="archtemp.tar", mode="wb", fileobj=out, mtime=0,
                       compresslevel=COMPRESS_LEVEL) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def vpm_zip_bytes(tree: PackageTree, manifest: bytes) -> bytes:
    """The VPM zip: package.json at the root, then every file with its .meta beside it.

    Hidden folders (ending in '~', like Samples~) are not imported by Unity, so the tree holds
    no entry (and no .meta) for Samples~ itself; its contents keep their .meta files for when
    the Package Manager copies a sample into Assets.
    """
    members: dict[str, bytes | None] = {"package.json": manifest}
    for entry in tree.sorted():
        if entry.path == "package.json":
            members["package.json.meta"] = entry.meta.encode()
            continue
        if entry.is_folder:
            members[entry.path + "/"] = None
        else:
            assert entry.data is not None
            members[entry.path] = entry.data
        members[entry.path + ".meta"] = entry.meta.encode()
    for name in list(members):
        parts = name.rstrip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            members.setdefault("/".join(parts[:i]) + "/", None)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED,
                         compresslevel=COMPRESS_LEVEL) as zf:
        for name in sorted(members):
            data = members[name]
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.create_system = 3  # unix, so the permission bits below are honoured
            if data is None:
                info.external_attr = (0o40755 << 16) | 0x10
                zf.writestr(info, b"")
            else:
                info.external_attr = 0o100644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, data)
    return out.getvalue()
