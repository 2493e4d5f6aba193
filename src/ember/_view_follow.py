"""How a view follows its base (NOTE [ Views follow their base ]): the list of views a tensor
that needs no grad keeps, and what it is asked when the tensor comes to require grad (or
stops), or when such a view is written or re-derived. `_tensor.alias` remembers each view it
makes here.
"""
from weakref import ref as _weakref

from .autograd.grad_mode import _state as _grad_mode


# NOTE [ Views follow their base ]
# In torch a view requires grad when it has a node, when it was set to (requires_grad_()), or
# when its base requires grad *now*: after `v = a[:2]; a.requires_grad_()`, v requires grad,
# though it has no grad_fn and no gradient edge (backward gives it nothing). And a view whose
# memory was written in place since it (or its node) was made gets, when its grad_fn is next
# read or it is next used, a node re-derived from its base's current history (NOTE [ In-place
# ops on views ]): `v = b[:2]; b[1:].copy_(x)` gives v an AsStridedBackward0 reaching x.
# ember's ops read `_requires_grad` directly when deciding whether to record, so a view's flag
# is updated when its base's changes rather than asked for each time: a tensor that needs no
# grad remembers, weakly in `_meta.views`, the views made of it (with the version of their
# storage then; `_tensor.alias` calls `note_view`), and when it comes to require grad
# (requires_grad_(), or an in-place op that gives it a node) or stops (requires_grad_(False),
# detach_()), `views_follow` updates those with no node of their own. Such a view is `through_base`: it has no edge until its
# memory is written; then its grad_fn is re-derived from the base. Views made without grad of
# a leaf requiring grad (NOTE [ Views made without grad ]) are not remembered, as making one
# must stay cheap (every no_grad forward pass makes them of the parameters): they keep
# `_requires_grad` set, and `requires_grad`, grad_fn and the in-place checks ask their base
# instead (an op on one whose base was set to requires_grad_(False) still records a node,
# with no edge).
# As torch's views, each remembered view also keeps how it was made (`made`: None in grad
# mode, "no_grad", "inference", or "multi" for an output of unbind or split, and a view of
# one of those as that one): once autograd is involved, torch refuses to write such a view in
# place, or to re-derive it once written through its base. Before its base requires grad
# only the base's list knows (`view_made`); after, the view's own _meta does. Remembering a
# view costs about 0.3 us (0.4 without grad), paid only by views of tensors that need no grad.

class _Views(list):
    """A tensor's remembered views: (weak reference, storage version when made, how it was
    made) triples; dead ones are dropped whenever the list doubles."""
    __slots__ = ("limit", "special")

    def __init__(self):
        super().__init__()
        self.limit = 64
        self.special = False        # (some were made otherwise than in grad mode)

    def prune(self):
        self[:] = [entry for entry in self if entry[0]() is not None]
        self.limit = max(64, 2 * len(self))


def note_view(root, view, version, parent):
    """Remember `view`, made of `parent` (`root` or a view of it) at storage version `version`,
    so that it follows root's requires_grad (NOTE [ Views follow their base ])."""
    meta = root._meta
    views = None if meta is None else meta.views
    if views is None:
        if root._data.dtype.kind not in "fcV":
            return                  # (it can never require grad)
        views = root._autograd_meta().views = _Views()
    made = None if _grad_mode.enabled or internal_views else \
        "inference" if _grad_mode.inference else "no_grad"
    if views.special and parent is not root:
        made = _inherited(view_made(parent), made)
    if made is not None:
        views.special = True
    views.append((_weakref(view), version, made))
    if len(views) > views.limit:
        views.prune()


# Set while an op makes views of its own with grad mode off (indexing's assignment builds the
# view it writes that way): they count as made in grad mode, as the user's call was.
internal_views = False


def _inherited(parent_made, made):
    """How a view of a view made `parent_made` counts as made (torch's creation meta): as its
    parent when made in grad mode; always "inference" after inference mode."""
    return parent_made if made is None or parent_made == "inference" else made


# torch refuses to write an output of unbind or split in place (or to re-derive one written
# through its base) once autograd is involved, even one made of a tensor that needed no grad,
# which has no node to hold that reason: its base's list says so.
MULTI_OUTPUT_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation "
    "by an out-of-place one.")
MULTI_OUTPUT_MODIFIED = MULTI_OUTPUT_INPLACE.replace(
    "is being modified inplace", "its base or another view of its base has been modified "
                                 "inplace")


def note_multi_output(views):
    """`views`, just made (and remembered) in grad mode by unbind or split of a tensor needing
    no grad, count as made "multi"."""
    remembered = views[0]._base._meta.views
    remembered.special = True
    start = len(remembered) - len(views)     # (they were remembered last, in order)
    for k, view in enumerate(views, start):
        ref, version, made = remembered[k]
        if ref() is view:
            remembered[k] = (ref, version, _inherited(made, "multi"))


def view_made(view):
    """How `view`, which has no node, was made (NOTE [ Views follow their base ]): its _meta
    says, or else its base's list (a scan, for the rare paths)."""
    meta = view._meta
    if meta is not None:
        if meta.multi_output:
            return "multi"
        if meta.no_grad_view:
            return "inference" if meta.no_grad_view == "inference" else "no_grad"
    root_meta = view._base._meta
    views = None if root_meta is None else root_meta.views
    if views is not None and views.special:
        for ref, _, made in views:
            if made is not None and ref() is view:
                return made
    return None


def written_view_error(made):
    """torch's refusal to write in place a view made `made` (view_made) with autograd
    involved."""
    from ._tensor import INFERENCE_VIEW_INPLACE, NO_GRAD_VIEW_INPLACE
    return RuntimeError(INFERENCE_VIEW_INPLACE if made == "inference" else
                        NO_GRAD_VIEW_INPLACE if made == "no_grad" else MULTI_OUTPUT_INPLACE)


def views_follow(root):
    """`root`'s requires_grad just changed: its remembered views that have no node of their
    own now require grad through it, or no longer (NOTE [ Views follow their base ])."""
    meta = root._meta
    views = None if meta is None else meta.views
    if not views:
        return
    on = root._requires_grad
    for ref, version, made in views:
        view = ref()
        if view is None or view._grad_fn is not None or view._base is not root:
            continue
        vmeta = view._meta
        if on:
            if not view._requires_grad:
                vmeta = view._autograd_meta()
                vmeta.through_base = True
                vmeta.view_version = version
                view._requires_grad = True
            else:                   # (a flag of its own: re-derived too, once written)
                vmeta = view._autograd_meta()
                if vmeta.view_version is None:
                    vmeta.view_version = version
            # (how it was made, now in its own _meta)
            vmeta.multi_output = made == "multi"
            if made == "no_grad" or made == "inference":
                vmeta.no_grad_view = True if made == "no_grad" else made
        elif vmeta is not None and vmeta.through_base:
            vmeta.through_base = False
            view._requires_grad = False
