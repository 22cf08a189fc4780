"""The evidence folder: the only place whose files the service ever deletes (rule C-VIDEO-1).

A recording's ``uri`` is a path relative to the folder or a ``file://`` URI inside it. At
registration only the resolved path decides (links that exist then are followed): anything that
resolves outside the folder, or another scheme, is refused; so is a folder or another file that
is not a regular one (a file that does not exist yet is fine: the camera may write it later).
The resolved path, relative to the folder, is what the registration records and what the
deletion job deletes.

The job re-checks at deletion time and follows no link: it walks from the folder down, opening
each directory with ``O_NOFOLLOW``, and unlinks the last name relative to the directory it
opened. A name that is a symbolic link by then (a file swapped for a link after registration,
or a directory swapped for one) is refused: neither the link's target nor the link is deleted,
since deleting only the link would record a deletion while the recording may live on wherever
the link points. So is a name that is a folder or another non-regular file by then (retrying
would fail every hour for ever), and a path through a name that is no longer a folder. The job
then records why and leaves the file to a person. Should a file be
swapped for a link in the instant between the check and the unlink, the unlink removes that
link, which lies inside the folder: never its target. (A hard link inside the folder to a file
elsewhere loses only its own name; the file stays.)
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from domain.errors import InvalidInputError
from service.storage.startup import StartRefusedError

_LOCAL_HOSTS = frozenset({"", "localhost"})
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(//)?")
"""A URI's scheme (RFC 3986), and the ``//`` of an authority after it: only ``file:`` or a
scheme followed by ``//`` makes a URI; ``game1:2.mp4`` is a file name."""
_WHERE = (
    "a recording must be a file in the evidence folder (BGTD_EVIDENCE_DIR): a path relative to "
    "it, or a file:// URI inside it"
)


class EvidenceFolderError(StartRefusedError):
    """The configured evidence folder holds the service's own files: the deletion job could
    reach them, so the service refuses to start."""


@dataclass(frozen=True, slots=True)
class Deleted:
    """The file is gone (also when it was gone already)."""


@dataclass(frozen=True, slots=True)
class Failed:
    """The deletion failed for a reason that may pass (busy, a directory, permissions)."""

    error: str


@dataclass(frozen=True, slots=True)
class Refused:
    """The job will not delete this file, ever: it says why."""

    reason: str


Outcome = Deleted | Failed | Refused


class EvidenceFolder:
    """Resolves recordings' URIs inside the folder and deletes them without following links."""

    def __init__(self, root: Path, data_dir: Path) -> None:
        self._configured = root
        self._root = root.resolve()
        self._data_dir = data_dir

    @property
    def root(self) -> Path:
        """The folder, its own links resolved once, at the start (a folder configured as a
        link is fine): the folder the start checked (``check_apart_from``) is the one used,
        also when the link is turned elsewhere afterwards."""
        return self._root

    def create(self) -> None:
        """Make the folder if it is missing, readable by the service's user only."""
        self._configured.mkdir(mode=0o700, parents=True, exist_ok=True)

    def check_apart_from(self, own_files: Iterable[Path]) -> None:
        """Refuse a folder that holds (or is) one of the service's own files or folders."""
        root = self.root
        inside = [path for path in own_files if path.resolve().is_relative_to(root)]
        if inside:
            names = ", ".join(str(path) for path in inside)
            raise EvidenceFolderError(
                f"the evidence folder {root} (BGTD_EVIDENCE_DIR) holds the service's own files "
                f"({names}): recordings there are deleted after their game, so give it a "
                f"folder of its own (default: <data-dir>/evidence)"
            )

    def locate(self, uri: str) -> str:
        """The file ``uri`` names, as a relative path inside the folder; ``InvalidInputError``
        on field ``uri`` for anything that resolves outside it or is not a local file."""
        root = self.root
        try:
            resolved = (root / _local_path(uri)).resolve()
        except (OSError, ValueError, RuntimeError):  # a link loop, a name too long
            raise InvalidInputError("uri", "not a usable file path") from None
        if resolved == root or not resolved.is_relative_to(root):
            # the answer names no server path: a narrow director token learns nothing here
            raise InvalidInputError("uri", f"{_WHERE}: this one leads outside it")
        try:
            found = resolved.stat()
        except FileNotFoundError:
            pass  # not written yet: the job deletes it once it is, or finds it gone
        except OSError:  # a name on the way is a file (ENOTDIR), or cannot be searched
            raise InvalidInputError("uri", f"{_WHERE}: this path cannot lead to one") from None
        else:
            if not stat.S_ISREG(found.st_mode):
                what = "a folder" if stat.S_ISDIR(found.st_mode) else "not a regular file"
                raise InvalidInputError("uri", f"{_WHERE}: this one is {what}")
        return resolved.relative_to(root).as_posix()

    def locate_legacy(self, uri: str) -> str | Refused:
        """A recording registered before the evidence folder: its URI was resolved against the
        data directory. It is deleted only if it lies inside the evidence folder, taken as
        written (no ``..``, no link followed); otherwise the reason it stays."""
        before = f"registered before the evidence folder as {uri!r}"
        try:
            path = _local_path(uri)
        except InvalidInputError:
            return Refused(f"{before}, not a local file: not deleted (delete it at its source)")
        candidate = self._data_dir.resolve() / path
        root = self.root
        if ".." in candidate.parts or not candidate.is_relative_to(root) or candidate == root:
            return Refused(
                f"{before} (relative to the data directory), which lies outside the evidence "
                f"folder: not deleted (delete it by hand if it is a recording)"
            )
        return candidate.relative_to(root).as_posix()

    def delete(self, relative: str) -> Outcome:
        """Delete the file at ``relative`` inside the folder, following no link on the way."""
        parts = PurePosixPath(relative).parts
        if not parts or parts[0] == "/" or any(part in {".", ".."} for part in parts):
            return Refused(f"{relative!r} is not a path inside the evidence folder")
        try:
            opened = [os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)]
        except OSError as error:  # e.g. a folder on a disk that is not mounted: retried
            return Failed(f"the evidence folder: {error.strerror or error}")
        try:
            for depth, name in enumerate(parts[:-1], start=1):
                try:
                    opened.append(os.open(name, _DIRECTORY_NO_LINK, dir_fd=opened[-1]))
                except FileNotFoundError:
                    return Deleted()  # a directory on the way is gone: so is the file
                except OSError as error:
                    if _is_link(opened[-1], name):
                        return _link_refused("/".join(parts[:depth]))
                    if isinstance(error, NotADirectoryError):  # a file where a folder was
                        return _not_a_file_refused("/".join(parts[:depth]), "not a folder")
                    raise
            found = os.stat(parts[-1], dir_fd=opened[-1], follow_symlinks=False)
            if stat.S_ISLNK(found.st_mode):
                return _link_refused(relative)
            if stat.S_ISDIR(found.st_mode):
                return _not_a_file_refused(relative, "a folder")
            if not stat.S_ISREG(found.st_mode):
                return _not_a_file_refused(relative, "not a regular file")
            os.unlink(parts[-1], dir_fd=opened[-1])  # unlinkat: never follows the last name
        except FileNotFoundError:
            return Deleted()  # gone already (another run deleted it first)
        except OSError as error:
            return Failed(f"{type(error).__name__}: {error.strerror or error}")
        finally:
            for descriptor in reversed(opened):
                os.close(descriptor)
        return Deleted()


_DIRECTORY_NO_LINK = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def _link_refused(path: str) -> Refused:
    return Refused(
        f"{path} in the evidence folder is a symbolic link now: the job follows no link and "
        f"deletes no link, so nothing was deleted (delete the recording by hand)"
    )


def _not_a_file_refused(path: str, what: str) -> Refused:
    return Refused(
        f"{path} in the evidence folder is {what} now: nothing was deleted, and the job "
        f"tries no more (delete the recording by hand)"
    )


def _is_link(directory: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=directory, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _local_path(uri: str) -> Path:
    """The path a recording's URI names: a plain path, or a ``file://`` URI on this host (its
    path percent-decoded). Another scheme with ``//`` is refused: the job deletes local files
    only."""
    if "\x00" in uri:
        raise InvalidInputError("uri", "a path holds no NUL character")
    scheme = _SCHEME.match(uri)
    if scheme is None or (scheme[1].lower() != "file" and not scheme[2]):
        return Path(uri)  # a file name may hold a colon: game1:2.mp4
    if scheme[1].lower() != "file":
        raise InvalidInputError("uri", f"{_WHERE}, not a {scheme[1]}: URI")
    if "?" in uri or "#" in uri:
        # a URI's query and fragment name no part of the file: dropping them would register
        # another file than the one meant (clip#1.mp4 as clip)
        raise InvalidInputError(
            "uri",
            f"{_WHERE}; a file:// URI holds no query or fragment: write ? as %3F and # as %23 "
            "(or give the path relative to the folder)",
        )
    parts = urlsplit(uri)
    if parts.netloc.lower() not in _LOCAL_HOSTS:
        raise InvalidInputError("uri", f"{_WHERE}, on this host (not {parts.netloc})")
    path = Path(unquote(parts.path))
    if not path.is_absolute():
        raise InvalidInputError("uri", f"{_WHERE}, with an absolute path (file:///...)")
    return path
