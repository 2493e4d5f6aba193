"""ember.hub: cache directory rules, hubconf.py loading, downloads of file:// URLs and
load_state_dict_from_url, all inside pytest's temporary directories (never the real cache,
never the network: GitHub calls are replaced by failing or file:// stand-ins)."""
import hashlib
import os
import zipfile
from urllib.error import URLError

import pytest

import ember
from ember import hub

CONF = ("dependencies = ['os']\n"
        "def linear(t, n=2, bias=True):\n"
        "    'A linear layer.'\n"
        "    return t.nn.Linear(n, 3, bias=bias)\n"
        "def _private(): pass\n"
        "value = 3\n")


@pytest.fixture(autouse=True)
def hub_dir(tmp_path, monkeypatch):
    """A fresh hub cache per test; no real network access."""
    monkeypatch.setattr(hub, "_hub_dir", str(tmp_path / "hub"))

    def offline(*args, **kwargs):
        raise URLError("no network in tests")
    monkeypatch.setattr(hub, "urlopen", offline)
    return tmp_path / "hub"


def make_repo(path, text=CONF):
    path.mkdir(parents=True, exist_ok=True)
    (path / "hubconf.py").write_text(text)
    return str(path)


def real_urlopen(monkeypatch):
    import urllib.request
    monkeypatch.setattr(hub, "urlopen", urllib.request.urlopen)


# --- the cache directory -------------------------------------------------------------------

def test_get_dir_follows_torch_home_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setattr(hub, "_hub_dir", None)
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert hub.get_dir() == str(tmp_path / "th" / "hub")
    monkeypatch.delenv("TORCH_HOME")
    assert hub.get_dir() == str(tmp_path / "xdg" / "torch" / "hub")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert hub.get_dir() == os.path.expanduser(os.path.join("~", ".cache", "torch", "hub"))
    monkeypatch.setenv("TORCH_HOME", "~/th")
    assert hub.get_dir() == os.path.expanduser(os.path.join("~", "th", "hub"))


def test_set_dir_wins_and_expands_user(monkeypatch, tmp_path):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    hub.set_dir(tmp_path / "mine")
    assert hub.get_dir() == str(tmp_path / "mine")
    hub.set_dir("~/elsewhere")
    assert hub.get_dir() == os.path.expanduser("~/elsewhere")


def test_torch_hub_variable_is_deprecated(monkeypatch):
    monkeypatch.setenv("TORCH_HUB", "x")
    with pytest.warns(UserWarning, match="TORCH_HUB is deprecated, please use env TORCH_HOME"):
        hub.get_dir()


def test_torch_hub_module_is_reachable():
    import ember.hub
    assert ember.hub is hub and ember.utils.model_zoo.load_url is hub.load_state_dict_from_url
    assert callable(ember.utils.model_zoo.tqdm) and ember.utils.model_zoo.tqdm is hub.tqdm
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        hub.nothing


# --- hubconf.py ----------------------------------------------------------------------------

def test_load_local_calls_the_entrypoint(tmp_path):
    d = make_repo(tmp_path / "r")
    m = hub.load(d, "linear", ember, 5, source="local", bias=False)
    assert isinstance(m, ember.nn.Linear) and m.in_features == 5 and m.bias is None
    assert hub.load(d, "linear", ember, source="LOCAL").in_features == 2
    assert d not in os.sys.path


def test_load_local_imports_sibling_modules(tmp_path):
    d = make_repo(tmp_path / "r", "import sibling_of_hubconf\n"
                                  "def get(): return sibling_of_hubconf.VALUE\n")
    (tmp_path / "r" / "sibling_of_hubconf.py").write_text("VALUE = 42\n")
    assert hub.load(d, "get", source="local") == 42


def test_missing_dependencies_are_named(tmp_path):
    d = make_repo(tmp_path / "r", CONF.replace("['os']", "['os', 'no_such_mod_a', 'no_such_mod_b']"))
    with pytest.raises(RuntimeError, match="^Missing dependencies: no_such_mod_a, no_such_mod_b$"):
        hub.load(d, "linear", ember, source="local")


def test_entrypoint_errors(tmp_path):
    d = make_repo(tmp_path / "r")
    with pytest.raises(RuntimeError, match="^Cannot find callable missing in hubconf$"):
        hub.load(d, "missing", source="local")
    with pytest.raises(RuntimeError, match="^Cannot find callable value in hubconf$"):
        hub.load(d, "value", source="local")
    with pytest.raises(ValueError, match="model should be a string of function name"):
        hub.load(d, 3, source="local")
    with pytest.raises(ValueError, match='Unknown source: "svn". Allowed values: "github" | "local".'):
        hub.load(d, "linear", source="svn")


# --- GitHub repositories, offline ----------------------------------------------------------

def test_cached_repo_is_listed_helped_and_loaded(hub_dir, capsys):
    make_repo(hub_dir / "someone_proj_v1")
    assert hub.list("someone/proj:v1") == ["linear"]
    assert hub.help("someone/proj:v1", "linear") == "A linear layer."
    assert hub.load("someone/proj:v1", "linear", ember, n=6).in_features == 6
    assert capsys.readouterr().err.count("Using cache found in ") == 3
    hub.list("someone/proj:v1", verbose=False)
    assert capsys.readouterr().err == ""
    # an already downloaded repo counts as trusted: nothing is added to the list
    assert (hub_dir / "trusted_list").read_text() == ""


def test_branch_names_with_slashes(hub_dir):
    make_repo(hub_dir / "someone_proj_feature_x")
    assert hub.list("someone/proj:feature/x", verbose=False) == ["linear"]


def test_trust_prompt(hub_dir, monkeypatch):
    make_repo(hub_dir / "someone_proj_v1")
    answers = iter(["no", "maybe", "y"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    with pytest.raises(Exception, match="^Untrusted repository.$"):
        hub.list("someone/proj:v1", trust_repo=False, verbose=False)
    with pytest.raises(ValueError, match="^Unrecognized response maybe.$"):
        hub.list("someone/proj:v1", trust_repo=False, verbose=False)
    assert hub.list("someone/proj:v1", trust_repo=False, verbose=False) == ["linear"]


def test_no_ref_and_no_network_says_so(hub_dir):
    with pytest.raises(RuntimeError, match="no internet connection and the repo could not be "
                                           r"found in the cache \("):
        hub.list("someone/proj")
    make_repo(hub_dir / "someone_proj_master")   # offline, a cached default branch is used
    assert hub.list("someone/proj", verbose=False) == ["linear"]


def test_uncached_repo_needs_the_network(hub_dir):
    with pytest.raises(URLError):
        hub.load("someone/proj:v2", "linear", trust_repo=True)
    # trust_repo=True records the repository as trusted
    assert (hub_dir / "trusted_list").read_text() == "someone_proj\n"


def test_malformed_repo_spec():
    with pytest.raises(ValueError, match="not enough values to unpack"):
        hub.list("no-slash:v1")


def test_github_archive_is_downloaded_and_unpacked(hub_dir, tmp_path, monkeypatch, capsys):
    archive = tmp_path / "archive.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("proj-0123abc/", "")     # GitHub's archives start with their top folder
        z.writestr("proj-0123abc/hubconf.py", CONF)
    real_urlopen(monkeypatch)
    links = []
    monkeypatch.setattr(hub, "_git_archive_link",
                        lambda o, n, r: links.append((o, n, r)) or archive.as_uri())
    m = hub.load("someone/proj:v3", "linear", ember, trust_repo=True, skip_validation=True)
    assert m.in_features == 2 and links == [("someone", "proj", "v3")]
    assert sorted(os.listdir(hub_dir)) == ["someone_proj_v3", "trusted_list"]
    assert 'Downloading: "' in capsys.readouterr().out


def test_zip_members_may_not_escape(tmp_path):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("../evil.py", "x")
    with zipfile.ZipFile(archive) as z, pytest.raises(ValueError, match="directory traversal"):
        hub._safe_extract_zip(z, tmp_path / "out")


# --- downloads -----------------------------------------------------------------------------

def test_download_url_to_file(tmp_path, monkeypatch, capsys):
    real_urlopen(monkeypatch)
    src = tmp_path / "blob.bin"
    src.write_bytes(b"hello hub" * 20000)     # more than one read chunk
    dst = tmp_path / "out.bin"
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    hub.download_url_to_file(src.as_uri(), str(dst), hash_prefix=digest[:12], progress=False)
    assert dst.read_bytes() == src.read_bytes()
    assert capsys.readouterr().err == ""
    assert sorted(os.listdir(tmp_path)) == ["blob.bin", "out.bin"]    # no .partial left


def test_download_hash_mismatch_leaves_nothing(tmp_path, monkeypatch):
    real_urlopen(monkeypatch)
    src = tmp_path / "blob.bin"
    src.write_bytes(b"abc")
    digest = hashlib.sha256(b"abc").hexdigest()
    with pytest.raises(RuntimeError, match=f'^invalid hash value \\(expected "0000", got "{digest}"\\)$'):
        hub.download_url_to_file(src.as_uri(), str(tmp_path / "out.bin"), hash_prefix="0000",
                                 progress=False)
    assert os.listdir(tmp_path) == ["blob.bin"]


def test_download_progress_goes_to_stderr(tmp_path, monkeypatch, capsys):
    real_urlopen(monkeypatch)
    src = tmp_path / "blob.bin"
    src.write_bytes(b"xy" * 100)
    hub.download_url_to_file(src.as_uri(), str(tmp_path / "out.bin"))
    assert "100" in capsys.readouterr().err


def test_plain_progress_without_tqdm(capsys):
    with hub._PlainProgress(total=200) as bar:
        bar.update(50)
        bar.update(150)
    assert capsys.readouterr().err == "\r25.0%\r100.0%\n"
    with hub._PlainProgress(total=None, disable=True) as bar:
        bar.update(5)
    assert capsys.readouterr().err == ""


def test_load_state_dict_from_url_caches(hub_dir, tmp_path, monkeypatch, capsys):
    real_urlopen(monkeypatch)
    p = tmp_path / "weights.pt"
    ember.save({"w": ember.arange(3.)}, p)
    sd = hub.load_state_dict_from_url(p.as_uri(), progress=False)
    assert sd["w"].tolist() == [0., 1., 2.]
    assert os.listdir(hub_dir / "checkpoints") == ["weights.pt"]
    assert capsys.readouterr().out.startswith('Downloading: "file://')
    p.unlink()          # the cached copy is used from now on
    assert hub.load_state_dict_from_url(p.as_uri(), progress=False)["w"].tolist() == [0., 1., 2.]
    assert capsys.readouterr().out == ""


def test_load_state_dict_from_url_names_and_hashes(tmp_path, monkeypatch):
    real_urlopen(monkeypatch)
    p = tmp_path / "weights.pt"
    ember.save({"a": 1}, p)
    digest = hashlib.sha256(p.read_bytes()).hexdigest()
    good = tmp_path / f"net-{digest[:8]}.pt"
    good.write_bytes(p.read_bytes())
    assert hub.load_state_dict_from_url(good.as_uri(), check_hash=True, progress=False) == {"a": 1}
    md = tmp_path / "md"
    got = hub.load_state_dict_from_url(p.as_uri(), model_dir=str(md), file_name="renamed.pth",
                                       progress=False, weights_only=True)
    assert got == {"a": 1} and os.listdir(md) == ["renamed.pth"]
    bad = tmp_path / "net-deadbeef.pt"
    bad.write_bytes(p.read_bytes())
    with pytest.raises(RuntimeError, match='invalid hash value \\(expected "deadbeef"'):
        hub.load_state_dict_from_url(bad.as_uri(), check_hash=True, model_dir=str(md),
                                     progress=False)
    assert os.listdir(md) == ["renamed.pth"]


def test_legacy_single_file_zip_is_extracted(tmp_path, monkeypatch):
    real_urlopen(monkeypatch)
    p = tmp_path / "inner.pt"
    ember.save({"z": ember.zeros(2)}, p)
    zp = tmp_path / "old.zip"
    with zipfile.ZipFile(zp, "w") as z:
        z.write(p, "inner.pt")
    md = tmp_path / "md"
    with pytest.warns(FutureWarning, match="Falling back to the old format < 1.6"):
        sd = hub.load_state_dict_from_url(zp.as_uri(), model_dir=str(md), progress=False)
    assert sd["z"].tolist() == [0., 0.] and sorted(os.listdir(md)) == ["inner.pt", "old.zip"]
