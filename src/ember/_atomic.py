"""Replacing a file atomically, for `ember.save` to a path.

NOTE [ Atomic save ]
torch.save truncates the file at its path and writes into it, so a save that fails or is killed
halfway destroys the previous checkpoint. ember writes a new file in the same folder (same file
system, so a rename can replace the old one), flushes it to disk with fsync, then `os.replace`s
it over the path: a reader sees either the old file or the complete new one. On Linux the new
file is first an unnamed one (`O_TMPFILE`), given a name only once complete, right before the
rename, so even a process killed mid-save (SIGKILL runs no cleanup) leaves no temporary file;
elsewhere a named temporary file is removed on any exception.
"""
import os
import secrets
import stat
import tempfile


def atomic_write(path, write):
    """Call `write(file)` on a new binary file, then put that file at `path` in one step."""
    if os.path.islink(path):
        path = os.path.realpath(path)      # write through a link, as opening the path would
    parent = os.path.dirname(path)
    directory = os.path.abspath(parent or ".")
    if not os.path.isdir(directory):
        raise RuntimeError(f"Parent directory {parent} does not exist.")
    if os.path.isdir(path):
        raise RuntimeError(f"open file failed with strerror: Is a directory: {path}")
    mode = None
    if os.path.exists(path):
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            # NOTE: a device or a pipe (`/dev/null`) is written to, never replaced.
            with open(path, "wb") as file:
                write(file)
            return
        mode = st.st_mode & 0o7777
    file, temp_name = _open_temp(directory, os.path.basename(path))
    try:
        with file:
            if mode is not None:
                os.fchmod(file.fileno(), mode)
            write(file)
            file.flush()
            os.fsync(file.fileno())
            if temp_name is None:
                temp_name = _name_fd(file.fileno(), directory, os.path.basename(path))
        os.replace(temp_name, path)
        temp_name = None
        _fsync_directory(directory)
    finally:
        if temp_name is not None:
            try:
                os.unlink(temp_name)
            except FileNotFoundError:
                pass


def _open_temp(directory, base):
    """An unnamed file in `directory` where the system has them (name None), else a named one."""
    if _can_name_unnamed(directory):
        fd = os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o666)
        return os.fdopen(fd, "wb"), None
    fd, name = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=directory)
    mask = os.umask(0)
    os.umask(mask)
    os.fchmod(fd, 0o666 & ~mask)            # mkstemp's 0o600 is not what open() would give
    return os.fdopen(fd, "wb"), name


_linkable = {}      # file system (st_dev) -> whether an unnamed file can be given a name there


def _can_name_unnamed(directory):
    dev = os.stat(directory).st_dev
    if dev not in _linkable:
        ok = False
        if hasattr(os, "O_TMPFILE"):
            try:
                fd = os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o600)
            except OSError:
                fd = None                   # a file system without unnamed files
            if fd is not None:
                try:
                    os.unlink(_name_fd(fd, directory, "probe"))
                    ok = True
                except OSError:
                    pass
                finally:
                    os.close(fd)
        _linkable[dev] = ok
    return _linkable[dev]


def _name_fd(fd, directory, base):
    """Give the unnamed file `fd` a new hidden name in `directory`; returns that name."""
    name = os.path.join(directory, f".{base}.{secrets.token_hex(6)}.tmp")
    try:
        os.link(f"/proc/self/fd/{fd}", name, follow_symlinks=True)
    except OSError:
        # NOTE: some kernels refuse the /proc link (EXDEV); linkat(AT_EMPTY_PATH) names the
        # file from its descriptor instead (it needs CAP_DAC_READ_SEARCH).
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        at_fdcwd, at_empty_path = -100, 0x1000
        if libc.linkat(fd, b"", at_fdcwd, os.fsencode(name), at_empty_path) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, os.strerror(errno), name) from None
    return name


def _fsync_directory(directory):
    # NOTE: makes the rename itself durable; not possible (nor needed) everywhere.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
