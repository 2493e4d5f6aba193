"""`TorchVersion`: the type of `ember.__version__`, a str that compares as a version.

As torch's: `ember.__version__ >= "2.0"`, `< (3, 0)` or `== "2.13.0+ember.0.1.0"` compare by
PEP 440's rules (so "2.10" is after "2.9", "2.0.0a1" before "2.0.0"); other values compare as
strings ("parrot" is not a version), and anything else is a TypeError, as str's. The rules
are implemented here (a small parser of PEP 440's public and local parts) so that ember needs
no `packaging`.

NOTE [ ember's version ]: ember implements PyTorch's API, and code gates features on
`torch.__version__` (`if torch.__version__ >= "2.0": model = torch.compile(model)`), so
`ember.__version__` is the PyTorch version whose behaviour ember follows, with ember's own
release as the local label: "2.13.0+ember.0.1.0" (torch's builds say "2.13.0+cpu").
"""
import re

__all__ = ["TorchVersion"]

_PATTERN = re.compile(r"""
    v?
    (?:(?P<epoch>\d+)!)?
    (?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre_l>alpha|a|beta|b|preview|pre|c|rc)[-_.]?(?P<pre_n>\d+)?)?
    (?:-(?P<post_n1>\d+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>\d+)?)?
    (?:[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>\d+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    """, re.VERBOSE | re.IGNORECASE)

_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_LOW, _HIGH = (-1,), (3,)      # below and above every (kind, number) of a pre-release


class InvalidVersion(ValueError):
    """Not a PEP 440 version."""


def version_key(text):
    """A tuple that sorts versions as PEP 440 orders them."""
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise InvalidVersion(f"Invalid version: '{text}'")
    g = match.groupdict()
    release = [int(part) for part in g["release"].split(".")]
    while len(release) > 1 and release[-1] == 0:       # 2.0.0 == 2.0 == 2
        release.pop()
    has_post = g["post_n1"] is not None or g["post_l"] is not None
    has_dev = g["dev_l"] is not None
    if g["pre_l"]:
        pre = (_PRE[g["pre_l"].lower()], int(g["pre_n"] or 0))
    elif has_dev and not has_post:
        pre = _LOW                  # 1.0.dev1 comes before 1.0a1
    else:
        pre = _HIGH
    post_key = (int(g["post_n1"] or g["post_n2"] or 0),) if has_post else _LOW
    dev_key = (int(g["dev_n"] or 0),) if has_dev else _HIGH
    local = ()
    if g["local"]:
        # numeric parts sort above alphanumeric ones, and numerically
        local = tuple((1, int(p), "") if p.isdigit() else (0, 0, p.lower())
                      for p in re.split(r"[-_.]", g["local"]))
    return (int(g["epoch"] or 0), tuple(release), pre, post_key, dev_key, local)


def _as_version_text(other):
    if isinstance(other, str):
        return other
    if isinstance(other, (tuple, list)):
        return ".".join(str(item) for item in other)
    raise InvalidVersion(other)


class TorchVersion(str):
    """A version string that compares by PEP 440 (see the module's NOTE)."""

    def _compare(self, other, method):
        try:
            mine, theirs = version_key(self), version_key(_as_version_text(other))
        except InvalidVersion:
            return getattr(str, method)(self, other)    # not versions: compare as text
        return getattr(mine, method)(theirs)

    def __lt__(self, other):
        return self._compare(other, "__lt__")

    def __le__(self, other):
        return self._compare(other, "__le__")

    def __gt__(self, other):
        return self._compare(other, "__gt__")

    def __ge__(self, other):
        return self._compare(other, "__ge__")

    def __eq__(self, other):
        return self._compare(other, "__eq__")

    def __ne__(self, other):
        return self._compare(other, "__ne__")

    __hash__ = str.__hash__
