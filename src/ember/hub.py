"""`ember.hub`: load models and checkpoints the way `torch.hub` does.

A hub repository is a directory holding a `hubconf.py`: its public callables are the
entrypoints, and its optional `dependencies` list names the modules they need. `load(dir,
name, source='local')` imports that file and calls the entrypoint; with `source='github'`
(the default) the directory is first fetched into the hub cache from
`https://github.com/OWNER/NAME/zipball/REF`, or found there from an earlier download.

The hub cache is `get_dir()`: the directory given to `set_dir`, else `$TORCH_HOME/hub`, where
`$TORCH_HOME` defaults to `$XDG_CACHE_HOME/torch` and `$XDG_CACHE_HOME` to `~/.cache`.
Checkpoints downloaded by `load_state_dict_from_url` go to `get_dir()/checkpoints`.

Downloads use urllib (any URL it opens, `file://` included) and write to a temporary file next
to the destination that is renamed into place only when complete, so that an interrupted
download never leaves a truncated checkpoint behind.
"""
import contextlib
import errno
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import uuid
import zipfile
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import urlparse
from . import _warn

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load",
           "load_state_dict_from_url", "set_dir"]

# `resnet18-bfd8deac.pth` carries the first hex digits of its SHA-256 after a dash.
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
MODULE_HUBCONF = "hubconf.py"
VAR_DEPENDENCY = "dependencies"
READ_DATA_CHUNK = 128 * 1024
# Repositories of these owners are trusted without asking (torch's list).
_TRUSTED_REPO_OWNERS = ("facebookresearch", "facebookincubator", "pytorch", "fairinternal")

_hub_dir = None     # set by set_dir


# ---------------------------------------------------------------------------------------------
# Pieces imported on first use

class _PlainProgress:
    """tqdm's interface, as much as downloads use, for when tqdm is not installed: like torch,
    it rewrites the percentage done (or the bytes read, when the size is unknown) on stderr."""

    def __init__(self, total=None, disable=False, unit=None, *args, **kwargs):
        self.total, self.disable, self.n = total, disable, 0

    def update(self, n):
        if not self.disable:
            self.n += n
            sys.stderr.write(f"\r{self.n:.1f} bytes" if self.total is None
                             else f"\r{100 * self.n / float(self.total):.1f}%")
            sys.stderr.flush()

    def set_description(self, *args, **kwargs):
        pass

    def write(self, s):
        sys.stderr.write(f"{s}\n")

    def close(self):
        self.disable = True

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if not self.disable:
            sys.stderr.write("\n")


def _tqdm():
    """tqdm's progress bar class (_PlainProgress without tqdm), imported on first use: with
    urllib.request, importing it up front would add a tenth to `import ember`'s time."""
    if "tqdm" not in globals():
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = _PlainProgress
        globals()["tqdm"] = tqdm
    return globals()["tqdm"]


def __getattr__(name):
    if name == "tqdm":      # torchvision takes `tqdm` from here (via utils.model_zoo)
        return _tqdm()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def urlopen(url, *args, **kwargs):
    """urllib.request.urlopen, imported on first use."""
    from urllib.request import urlopen
    return urlopen(url, *args, **kwargs)


# ---------------------------------------------------------------------------------------------
# The cache directory

def _get_torch_home():
    cache = os.getenv("XDG_CACHE_HOME", "~/.cache")
    return os.path.expanduser(os.getenv("TORCH_HOME", os.path.join(cache, "torch")))


def get_dir():
    """The hub cache directory: `set_dir`'s, else `$TORCH_HOME/hub` (see the module's doc)."""
    if os.getenv("TORCH_HUB"):
        _warn.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d):
    """Use directory `d` (a str or path; `~` expanded) as the hub cache from now on."""
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


# ---------------------------------------------------------------------------------------------
# hubconf.py

@contextlib.contextmanager
def _on_sys_path(path):
    """hubconf.py imports its sibling modules: put its directory first on sys.path meanwhile."""
    sys.path.insert(0, path)
    try:
        yield
    finally:
        sys.path.remove(path)


def _import_hubconf(repo_dir):
    """Run `repo_dir/hubconf.py` as a fresh module (not entered in sys.modules)."""
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    spec = importlib.util.spec_from_file_location(MODULE_HUBCONF, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entrypoint(module, model):
    """The callable `model` of a hubconf module, after checking its `dependencies`."""
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    missing = [name for name in getattr(module, VAR_DEPENDENCY, None) or ()
               if importlib.util.find_spec(name) is None]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    func = getattr(module, model, None) if model in dir(module) else None
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def _load_local(hubconf_dir, model, *args, **kwargs):
    with _on_sys_path(hubconf_dir):
        entry = _entrypoint(_import_hubconf(hubconf_dir), model)
        return entry(*args, **kwargs)


# ---------------------------------------------------------------------------------------------
# GitHub repositories in the cache

def _parse_repo_info(github):
    """'owner/name[:ref]' -> (owner, name, ref). Without a ref, the default branch is `main`
    if GitHub has one, else `master`; offline, whichever of the two the cache holds."""
    repo_info, ref = github.split(":") if ":" in github else (github, None)
    owner, name = repo_info.split("/")
    if ref is None:
        try:
            with urlopen(f"https://github.com/{owner}/{name}/tree/main/"):
                ref = "main"
        except HTTPError as err:
            if err.code != 404:
                raise
            ref = "master"
        except URLError as err:
            cached = [r for r in ("main", "master")
                      if os.path.exists(f"{get_dir()}/{owner}_{name}_{r}")]
            if not cached:
                raise RuntimeError("It looks like there is no internet connection and the repo "
                                   f"could not be found in the cache ({get_dir()})") from err
            ref = cached[0]
    return owner, name, ref


def _git_archive_link(owner, name, ref):
    return f"https://github.com/{owner}/{name}/zipball/{ref}"


def _read_json(request):
    with urlopen(request) as r:
        return json.loads(r.read().decode(r.headers.get_content_charset("utf-8")))


def _validate_not_a_forked_repo(owner, name, ref):
    """`ref` must be a branch, tag or commit of owner/name itself: GitHub also serves commits
    of forks under the parent's name, which would run code its owner never published."""
    headers = {"Accept": "application/vnd.github.v3+json"}
    token = os.environ.get("GITHUB_TOKEN")
    if token is not None:
        headers["Authorization"] = f"token {token}"
    from urllib.request import Request
    for kind in ("branches", "tags"):
        page = 1
        while True:
            url = f"https://api.github.com/repos/{owner}/{name}/{kind}?per_page=100&page={page}"
            try:
                entries = _read_json(Request(url, headers=headers))
            except HTTPError:   # the token may lack permissions: retry without it
                headers.pop("Authorization", None)
                entries = _read_json(Request(url, headers=headers))
            if not entries:
                break
            if any(e["name"] == ref or e["commit"]["sha"].startswith(ref) for e in entries):
                return
            page += 1
    raise ValueError(f"Cannot find {ref} in https://github.com/{owner}/{name}. If it's a commit "
                     "from a forked repo, please call hub.load() with forked repo directly.")


def _check_repo_is_trusted(owner, name, owner_name_branch, trust_repo):
    """torch's trust rule: a repo is trusted when listed in `get_dir()/trusted_list`, already
    downloaded, or owned by one of _TRUSTED_REPO_OWNERS. trust_repo=False always asks,
    'check' asks for an untrusted repo, True (or None) trusts it. A trusted repo is recorded."""
    hub_dir = get_dir()
    filepath = os.path.join(hub_dir, "trusted_list")
    Path(filepath).touch()
    with open(filepath) as f:
        listed = {line.strip() for line in f}
    owner_name = f"{owner}_{name}"
    downloaded = next(os.walk(hub_dir))[1]
    is_trusted = (owner_name in listed or owner_name_branch in downloaded
                  or owner in _TRUSTED_REPO_OWNERS)
    if trust_repo is False or (trust_repo == "check" and not is_trusted):
        response = input(
            f"The repository {owner_name} does not belong to the list of trusted repositories "
            "and as such cannot be downloaded. Do you trust this repository and wish to add it "
            "to the trusted list of repositories (y/N)?")
        if response.lower() in ("y", "yes"):
            if is_trusted:
                print("The repository is already trusted.")
        elif response.lower() in ("n", "no", ""):
            raise Exception("Untrusted repository.")
        else:
            raise ValueError(f"Unrecognized response {response}.")
    if not is_trusted:
        with open(filepath, "a") as f:
            f.write(owner_name + "\n")


def _remove_if_exists(path):
    if os.path.isfile(path):
        os.remove(path)
    elif os.path.exists(path):
        shutil.rmtree(path)


def _safe_extract_zip(archive, extract_to):
    """Extract every member of `archive` under `extract_to`, refusing members whose names
    would land outside it (absolute paths, drive letters, '..')."""
    root = Path(extract_to).resolve(strict=False)
    for member in archive.infolist():
        name = os.path.normpath(member.filename)
        if name.startswith(("/", "\\")) or (len(name) >= 2 and name[1] == ":"
                                            and name[0].isalpha()):
            raise ValueError(f"Archive entry has absolute path: {member.filename}")
        if ".." in re.split(r"[/\\]", name):
            raise ValueError(f"Archive entry contains directory traversal: {member.filename}")
        if not (root / name).resolve(strict=False).is_relative_to(root):
            raise ValueError(f"Archive entry escapes target directory: {member.filename}")
        archive.extract(member, root)


def _get_cache_or_reload(github, force_reload, trust_repo, verbose=True, skip_validation=False):
    """The directory of repo 'owner/name[:ref]' in the hub cache, downloading it if needed."""
    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    owner, name, ref = _parse_repo_info(github)
    branch = ref.replace("/", "_")      # branch names may hold '/', not path-friendly
    owner_name_branch = f"{owner}_{name}_{branch}"
    repo_dir = os.path.join(hub_dir, owner_name_branch)
    _check_repo_is_trusted(owner, name, owner_name_branch, trust_repo)

    if not force_reload and os.path.exists(repo_dir):
        if verbose:
            sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir

    if not skip_validation:
        _validate_not_a_forked_repo(owner, name, ref)
    cached_zip = os.path.join(hub_dir, branch + ".zip")
    _remove_if_exists(cached_zip)
    url = _git_archive_link(owner, name, ref)
    sys.stdout.write(f'Downloading: "{url}" to {cached_zip}\n')
    try:
        download_url_to_file(url, cached_zip, progress=False)
    except HTTPError as err:
        if err.code != 300:
            raise
        # 300 Multiple Choices: `ref` is both a tag and a branch. Like git, take the branch.
        _warn.warn(
            f"The ref {ref} is ambiguous. Perhaps it is both a tag and a branch in the repo? "
            "Torchhub will now assume that it's a branch. You can disambiguate tags and "
            "branches by explicitly passing refs/heads/branch_name or refs/tags/tag_name as "
            "the ref. That might require using skip_validation=True.", stacklevel=2)
        download_url_to_file(_git_archive_link(owner, name, f"refs/heads/{ref}"), cached_zip,
                             progress=False)
    with zipfile.ZipFile(cached_zip) as archive:
        # GitHub's archive holds one top folder named after the commit: rename it.
        extracted = os.path.join(hub_dir, archive.infolist()[0].filename)
        _remove_if_exists(extracted)
        _safe_extract_zip(archive, hub_dir)
    _remove_if_exists(cached_zip)
    _remove_if_exists(repo_dir)
    shutil.move(extracted, repo_dir)
    return repo_dir


# ---------------------------------------------------------------------------------------------
# The public entry points

def list(github, force_reload=False, skip_validation=False, trust_repo="check", verbose=True):
    """The names of the entrypoints (public callables of hubconf.py) of repo 'owner/name[:ref]'."""
    repo_dir = _get_cache_or_reload(github, force_reload, trust_repo, verbose=verbose,
                                    skip_validation=skip_validation)
    with _on_sys_path(repo_dir):
        module = _import_hubconf(repo_dir)
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check"):
    """The docstring of entrypoint `model` of repo 'owner/name[:ref]'."""
    repo_dir = _get_cache_or_reload(github, force_reload, trust_repo, verbose=True,
                                    skip_validation=skip_validation)
    with _on_sys_path(repo_dir):
        module = _import_hubconf(repo_dir)
    return _entrypoint(module, model).__doc__


def load(repo_or_dir, model, *args, source="github", trust_repo="check", force_reload=False,
         verbose=True, skip_validation=False, **kwargs):
    """Call entrypoint `model` of a hub repository with `*args, **kwargs` and return its result.

    `source='github'`: `repo_or_dir` is 'owner/name[:ref]', fetched into the cache if needed;
    `source='local'`: it is a directory holding hubconf.py (force_reload, verbose,
    skip_validation and trust_repo then have no effect).
    """
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        repo_or_dir = _get_cache_or_reload(repo_or_dir, force_reload, trust_repo,
                                           verbose=verbose, skip_validation=skip_validation)
    return _load_local(repo_or_dir, model, *args, **kwargs)


def _open_partial_file(dst):
    """A new file beside `dst` to download into (not NamedTemporaryFile: its restrictive
    permissions would stay on the checkpoint)."""
    for _ in range(tempfile.TMP_MAX):
        try:
            return open(f"{dst}.{uuid.uuid4().hex}.partial", "x+b")
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "No usable temporary file name found")


def download_url_to_file(url, dst, hash_prefix=None, progress=True):
    """Download `url` to the path `dst`; with `hash_prefix`, the file's SHA-256 hex digest must
    start with it (RuntimeError otherwise, and `dst` is left alone). `progress` shows a bar on
    stderr."""
    from urllib.request import Request
    progress_bar = _tqdm()
    dst = os.path.expanduser(dst)
    f = _open_partial_file(dst)
    try:
        with urlopen(Request(url, headers={"User-Agent": "torch.hub"})) as response:
            lengths = response.info().get_all("Content-Length")
            size = int(lengths[0]) if lengths else None
            sha256 = hashlib.sha256() if hash_prefix is not None else None
            with progress_bar(total=size, disable=not progress, unit="B", unit_scale=True,
                              unit_divisor=1024) as bar:
                while buffer := response.read(READ_DATA_CHUNK):
                    f.write(buffer)
                    if sha256 is not None:
                        sha256.update(buffer)
                    bar.update(len(buffer))
            f.close()
            if sha256 is not None:
                digest = sha256.hexdigest()
                if digest[:len(hash_prefix)] != hash_prefix:
                    raise RuntimeError(
                        f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
        shutil.move(f.name, dst)
    finally:
        f.close()
        if os.path.exists(f.name):
            os.remove(f.name)


def _is_legacy_zip_format(filename):
    """A zip holding a single file: how checkpoints of torch < 1.6 were shipped (the file
    inside is the checkpoint). The current checkpoint format is itself a zip of many entries."""
    if not zipfile.is_zipfile(filename):
        return False
    with zipfile.ZipFile(filename) as archive:
        members = archive.infolist()
    return len(members) == 1 and not members[0].is_dir()


def _legacy_zip_load(filename, model_dir, map_location, weights_only):
    from .serialization import load as ember_load
    _warn.warn("Falling back to the old format < 1.6. This support will be deprecated in "
               "favor of default zipfile format introduced in 1.6. Please redo torch.save() "
               "to save it in the new zipfile format.", FutureWarning, stacklevel=3)
    with zipfile.ZipFile(filename) as archive:
        members = archive.infolist()
        if len(members) != 1:
            raise RuntimeError("Only one file(not dir) is allowed in the zipfile")
        _safe_extract_zip(archive, model_dir)
        extracted = os.path.join(model_dir, members[0].filename)
    return ember_load(extracted, map_location=map_location, weights_only=weights_only)


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True,
                             check_hash=False, file_name=None, weights_only=False):
    """`ember.load` of the checkpoint at `url`, downloaded once into `model_dir` (default
    `get_dir()/checkpoints`) under `file_name` (default: the URL's last path component).

    With `check_hash`, the file name must look like `name-<hex>.ext`, and the downloaded file's
    SHA-256 must start with those hex digits. A zip holding a single file (torch < 1.6's way of
    shipping checkpoints) is extracted into `model_dir` and that file is loaded.
    """
    from .serialization import load as ember_load
    if os.getenv("TORCH_MODEL_ZOO"):
        _warn.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead",
                   stacklevel=2)
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        match = HASH_REGEX.search(filename) if check_hash else None
        download_url_to_file(url, cached_file, match.group(1) if match else None,
                             progress=progress)
    if _is_legacy_zip_format(cached_file):
        return _legacy_zip_load(cached_file, model_dir, map_location, weights_only)
    return ember_load(cached_file, map_location=map_location, weights_only=weights_only)
