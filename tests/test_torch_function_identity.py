"""`__torch_function__`: what `func` is (the public function, equal to it whenever either was
taken: NOTE [ Wrappers stand for their functions ]), tensor-likes given to nn.functional, nn
modules and linalg (NOTE [ Tensor-likes ]), and torch.overrides' helpers."""
import copy
import gc
import pickle

import pytest

import ember as torch

F = torch.nn.functional


class Recorder:
    """A tensor-like: answers every call with (func, args, kwargs)."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func, args, kwargs or {}


def test_wrappers_compare_and_hash_as_the_functions_they_stand_for():
    relu, add = torch.relu, torch.add
    table = {torch.add: "add"}

    class Sub(torch.Tensor):
        pass
    assert torch.relu is not relu          # the wrappers are installed
    assert torch.relu == relu and relu == torch.relu and hash(torch.relu) == hash(relu)
    assert torch.relu != torch.sigmoid and {relu: 1}.get(torch.relu) == 1
    assert table.get(torch.add) == "add" and {torch.add: 2}.get(add) == 2
    assert copy.deepcopy(torch.relu) is torch.relu
    assert pickle.loads(pickle.dumps(F.relu)) is F.relu
    assert torch.relu.__code__ is relu.__code__ and torch.relu.__name__ == "relu"
    del Sub


def test_func_is_the_public_function_and_found_in_tables_built_before_or_after():
    before = {torch.add: "add", F.relu: "relu"}

    class Sub(torch.Tensor):
        seen = []

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            cls.seen.append((func is torch.add, before.get(func), after.get(func)))
            return super().__torch_function__(func, types, args, kwargs)
    after = {torch.add: "add", F.relu: "relu"}
    t = torch.tensor([-1.0, 2.0]).as_subclass(Sub)
    out = F.relu(torch.add(t, 1))
    assert Sub.seen == [(True, "add", "add"), (False, "relu", "relu")]
    assert type(out) is Sub and out.tolist() == [0.0, 3.0]


def test_traced_targets_equal_the_functions_while_a_subclass_lives():
    class Sub(torch.Tensor):
        pass
    gm = torch.fx.symbolic_trace(lambda x: torch.relu(x) + 1)
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]
    assert calls[0].target == torch.relu
    assert gm.graph.find_nodes(op="call_function", target=torch.relu) == calls[:1]
    del Sub


def test_tensor_likes_reach_nn_functional_modules_and_linalg():
    w = torch.ones(2, 3)
    func, args, kwargs = F.linear(Recorder(), w)
    assert func is F.linear and args[1] is w and kwargs == {}
    linear = torch.nn.Linear(3, 2)
    func, args, _ = linear(Recorder())
    assert func is F.linear and args[1] is linear.weight and args[2] is linear.bias
    # torch's Python functions pass their parameters with defaults by keyword
    func, args, kwargs = F.layer_norm(Recorder(), (3,))
    assert func is F.layer_norm and args[1:] == ((3,),)
    assert kwargs == {"weight": None, "bias": None, "eps": 1e-05}
    func, args, kwargs = torch.linalg.inv(Recorder())
    assert func is torch.linalg.inv and kwargs == {}


def test_only_the_outermost_refusal_dispatches():
    func, _, kwargs = F.relu6(Recorder())       # (ember's relu6 calls hardtanh)
    assert func is F.relu6 and kwargs == {"inplace": False}
    func, _, _ = F.relu_(Recorder())            # (... and relu_ calls relu)
    assert func is F.relu_


def test_a_call_that_does_not_bind_raises_its_error():
    gc.collect()        # (the earlier tests' subclasses, whose wrappers dispatch at once)
    assert torch.linalg.inv is torch._patch_ops.original(torch.linalg.inv)
    with pytest.raises(TypeError, match="takes 1 positional argument but 4 were given"):
        torch.linalg.inv(Recorder(), 1, 2, 3)


def test_overrides_helpers():
    o = torch.overrides
    assert o.has_torch_function([Recorder()]) and not o.has_torch_function(([Recorder()],))
    assert o.resolve_name(F.linear) == "torch.nn.functional.linear"
    assert o.resolve_name(torch.Tensor.shape.__get__) == "torch.Tensor.shape.__get__"
    assert o.resolve_name(len) is None
    assert torch.add in o.get_overridable_functions()[torch]
    assert torch.is_tensor in o.get_ignored_functions()

    @o.wrap_torch_function(lambda x, y=None: (x, y))
    def mine(x, y=None):
        return "plain"
    assert mine(1) == "plain" and mine(1, y=Recorder())[0] is mine
