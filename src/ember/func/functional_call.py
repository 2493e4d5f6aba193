"""functional_call and stack_module_state: run a module with other parameters and buffers, and
stack the state of several models (for ensembling with vmap)."""
import contextlib

from .._tensor import Tensor

__all__ = ["functional_call", "stack_module_state"]

_MISSING = object()


def _merge(parameter_and_buffer_dicts):
    if isinstance(parameter_and_buffer_dicts, dict):
        return dict(parameter_and_buffer_dicts)
    if isinstance(parameter_and_buffer_dicts, (list, tuple)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        seen, repeated = set(), []
        for d in parameter_and_buffer_dicts:
            for k in d:
                if k in seen and k not in repeated:
                    repeated.append(k)
                seen.add(k)
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             f"functional call is ambiguous")
        return {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    raise ValueError(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                     f"dicts, but got {type(parameter_and_buffer_dicts)}")


def _module_names(module):
    names = [n for n, _ in module.named_parameters(remove_duplicate=False)]
    names += [n for n, _ in module.named_buffers(remove_duplicate=False)]
    return names


def _tie(module, values):
    """Give every name tied to a given one (one tensor under several names) the same value."""
    groups = {}
    for store in (module.named_parameters(remove_duplicate=False),
                  module.named_buffers(remove_duplicate=False)):
        for name, t in store:
            groups.setdefault(id(t), []).append(name)
    for names in groups.values():
        given = [n for n in names if n in values]
        if len(names) < 2 or not given:
            continue
        if any(values[n] is not values[given[0]] for n in given[1:]):
            raise ValueError(f"functional_call got multiple values for keys {sorted(given)}, "
                             f"which are tied. Consider using tie_weights=False")
        for n in names:
            values.setdefault(n, values[given[0]])


@contextlib.contextmanager
def _reparametrize(module, values):
    """Parameters and buffers are swapped in their tables; any other name (a parametrized
    tensor's property, a plain attribute) is read and set as an attribute, as torch does, so
    that a parametrization's right_inverse takes the value (torch's error without one), and
    set back the same way afterwards."""
    saved = []
    try:
        for name, value in values.items():
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"{value} is not an instance of torch.Tensor")
            path, _, attr = name.rpartition(".")
            sub = module.get_submodule(path) if path else module
            for store in ("_parameters", "_buffers"):
                table = sub.__dict__.get(store)
                if table is not None and attr in table:
                    saved.append((table, attr, table[attr]))
                    table[attr] = value
                    break
            else:
                old = getattr(sub, attr) if hasattr(sub, attr) else _MISSING
                if old is not _MISSING and not isinstance(old, Tensor):
                    raise TypeError(f"attribute `{attr}`: {old} is not an instance of "
                                    f"torch.Tensor")
                setattr(sub, attr, value)
                saved.append((sub, attr, old))
        yield
    finally:
        for table, attr, old in reversed(saved):
            if isinstance(table, dict):
                table[attr] = old
            elif old is _MISSING:
                delattr(table, attr)
            else:
                setattr(table, attr, old)


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """`module(*args, **kwargs)` with its parameters and buffers replaced, for this call only,
    by the tensors in `parameter_and_buffer_dicts` (keys as in `module.state_dict()`).

        >>> lin = ember.nn.Linear(2, 1)
        >>> functional_call(lin, {"weight": ember.ones(1, 2), "bias": ember.zeros(1)},
        ...                 (ember.tensor([1., 2.]),))
        tensor([3.])
    """
    values = _merge(parameter_and_buffer_dicts)
    if tie_weights:
        _tie(module, values)
    if strict:
        known = _module_names(module)
        unexpected = [k for k in values if k not in known]
        missing = [k for k in known if k not in values]
        if unexpected or missing:
            parts = []
            if unexpected:
                parts.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected)
                             + ".")
            if missing:
                parts.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                               + "\n\t".join(parts))
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize(module, values):
        return module(*args, **(kwargs or {}))


def _stacked_leaf(tensors, name):
    from .._ops.joining import stack
    all_grad = all(t.requires_grad for t in tensors)
    if not all_grad and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    return result.detach().requires_grad_() if all_grad else result


def stack_module_state(models):
    """`(params, buffers)`: each model's parameters and buffers stacked along a new first
    dimension, keyed by name; stacked parameters are new leaves (they require grad when the
    models' do). With `functional_call` and `vmap`, this runs an ensemble."""
    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def replace_all_batch_norm_modules_(root):
    """In place: every batch norm module in `root` stops tracking running statistics (what
    vmap over such modules needs). Returns `root`."""
    from ..nn.modules.batchnorm import _BatchNorm
    for m in root.modules():
        if isinstance(m, _BatchNorm):
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None
            m.track_running_stats = False
    return root


def _is_tensor(x):
    return isinstance(x, Tensor)
