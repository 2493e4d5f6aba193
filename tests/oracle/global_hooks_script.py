"""Run by test_global_hooks_oracle.py as `python global_hooks_script.py ember|torch`: global
module hooks (nn.modules.module.register_module_*) next to a module's own hooks, printing the
order the hooks run in and what they see, to compare."""
import importlib
import sys
import warnings

torch = importlib.import_module(sys.argv[1])
nn = torch.nn
gm = importlib.import_module(sys.argv[1] + ".nn.modules.module")


def fmt(v):
    """A short printed form: tensors by their rounded values, containers by their items."""
    if isinstance(v, torch.Tensor):
        return "T" + str([round(x, 4) for x in v.detach().double().flatten().tolist()])
    if isinstance(v, (tuple, list)):
        return type(v).__name__ + "(" + ", ".join(fmt(x) for x in v) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, nn.Module):
        return type(v).__name__
    return repr(v)


def say(*parts):
    print(" ".join(str(p) for p in parts))


class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x, bias=0.0):
        say("  forward", self.k, fmt(x), fmt(bias))
        return x * self.k + bias


class Boom(nn.Module):
    def forward(self, x):
        say("  forward raises")
        raise ValueError("boom")


handles = []


def register(fn, *args, **kwargs):
    handles.append(fn(*args, **kwargs))
    return handles[-1]


def clear():
    for h in handles:
        h.remove()
    handles.clear()


def section(title):
    clear()
    say("==", title)


section("names")
print(sorted(n for n in dir(gm) if n.startswith("register_module_")))
print(sorted(n for n in dir(nn.modules) if n.startswith("register_module_")))
print(sorted(n for n in getattr(gm, "__all__", [])))
h = gm.register_module_forward_pre_hook(lambda m, a: None)
print(type(h).__name__)
h.remove()

section("forward order and replaced values")


def pre(name, ret=None):
    def hook(m, args):
        say(" ", name, type(m).__name__, fmt(args))
        return ret
    return hook


def pre_kw(name, ret=None):
    def hook(m, args, kwargs):
        say(" ", name, type(m).__name__, fmt(args), fmt(kwargs))
        return ret
    return hook


def post(name, ret=None):
    def hook(m, args, out):
        say(" ", name, type(m).__name__, fmt(args), fmt(out))
        return ret
    return hook


def post_kw(name, ret=None):
    def hook(m, args, kwargs, out):
        say(" ", name, type(m).__name__, fmt(args), fmt(kwargs), fmt(out))
        return ret
    return hook


m = Scale(2.0)
x = torch.tensor([1.0, 2.0])
register(m.register_forward_pre_hook, pre("m_pre1"))
register(m.register_forward_pre_hook, pre_kw("m_pre_kw", ((x + 10,), {"bias": 1.0})),
         with_kwargs=True)
register(gm.register_module_forward_pre_hook, pre("g_pre1"))
register(gm.register_module_forward_pre_hook, pre("g_pre2", x + 1))
register(m.register_forward_pre_hook, pre("m_pre_first"), prepend=True)
register(m.register_forward_hook, post("m_post1"))
register(m.register_forward_hook, post_kw("m_post_kw", x * 0 + 7), with_kwargs=True)
register(gm.register_module_forward_hook, post("g_post1", x * 0 - 1))
register(gm.register_module_forward_hook, post_kw("g_post_kw"), with_kwargs=True)
register(m.register_forward_hook, post("m_post_first"), prepend=True)
say("result", fmt(m(x, bias=0.5)))

section("global pre-hook returning a tuple, and a global hook with kwargs")
m = Scale(3.0)
register(gm.register_module_forward_pre_hook, pre("g_pre_tuple", (x * 0 + 2,)))
register(gm.register_module_forward_hook, post_kw("g_post_kw"), with_kwargs=True)
say("result", fmt(m(x, bias=1.0)))

section("every module of a model")
model = nn.Sequential(Scale(2.0), nn.Sequential(Scale(3.0)))
register(gm.register_module_forward_pre_hook, pre("g_pre"))
register(gm.register_module_forward_hook, post("g_post"))
register(model[1].register_forward_hook, post("inner_seq_post"))
say("result", fmt(model(x)))
clear()
say("after remove", fmt(model(x)))

section("always_call")
b = Boom()
register(gm.register_module_forward_hook, post("g_plain"))
register(gm.register_module_forward_hook, post("g_always", 5), always_call=True)
register(gm.register_module_forward_hook, post_kw("g_always_kw"), with_kwargs=True,
         always_call=True)
register(b.register_forward_hook, post("m_always"), always_call=True)
register(b.register_forward_hook, post_kw("m_always_kw"), with_kwargs=True, always_call=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        b(x)
    except ValueError as e:
        say("raised", repr(e))
for w in caught:
    say("warning", w.category.__name__, str(w.message))

section("always_call when a pre-hook raises")
m = Scale(2.0)


def raising_pre(mod, args):
    say("  raising pre-hook")
    raise KeyError("pre")


register(gm.register_module_forward_pre_hook, raising_pre)
register(gm.register_module_forward_hook, post("g_always"), always_call=True)
register(m.register_forward_hook, post("m_always"), always_call=True)
try:
    m(x)
except KeyError as e:
    say("raised", repr(e))

section("always_call when a later forward hook raises")
m = Scale(2.0)


def raising_post(mod, args, out):
    say("  raising post-hook")
    raise KeyError("post")


register(gm.register_module_forward_hook, post("g_always", x * 0 + 9), always_call=True)
register(m.register_forward_hook, raising_post)
register(m.register_forward_hook, post("m_always"), always_call=True)
try:
    m(x)
except KeyError as e:
    say("raised", repr(e))

section("full backward hooks")


def bpre(name, scale=None):
    def hook(mod, grad_output):
        say(" ", name, type(mod).__name__, fmt(grad_output))
        if scale is not None:
            return tuple(g * scale for g in grad_output)
    return hook


def bhook(name, scale=None):
    def hook(mod, grad_input, grad_output):
        say(" ", name, type(mod).__name__, fmt(grad_input), fmt(grad_output))
        if scale is not None:
            return tuple(None if g is None else g * scale for g in grad_input)
    return hook


m = Scale(2.0)
register(m.register_full_backward_pre_hook, bpre("m_bpre"))
register(gm.register_module_full_backward_pre_hook, bpre("g_bpre", 10.0))
register(m.register_full_backward_hook, bhook("m_bhook"))
register(gm.register_module_full_backward_hook, bhook("g_bhook", 0.5))
register(gm.register_module_forward_hook, post("g_post"))
xg = torch.tensor([1.0, -1.0], requires_grad=True)
out = m(xg)
say("grad_fn", type(out.grad_fn).__name__)
out.sum().backward()
say("x.grad", fmt(xg.grad))

section("global backward hooks on a model")
model = nn.Sequential(Scale(2.0), Scale(3.0))
register(gm.register_module_full_backward_pre_hook, bpre("g_bpre"))
register(gm.register_module_full_backward_hook, bhook("g_bhook"))
xg = torch.tensor([1.0, 2.0], requires_grad=True)
model(xg).sum().backward()
say("x.grad", fmt(xg.grad))

section("global backward hook when inputs need no grad")
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0]]))
    lin.bias.fill_(0.0)
register(gm.register_module_full_backward_hook, bhook("g_bhook"))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    lin(x).sum().backward()
say("weight.grad", fmt(lin.weight.grad))
for w in caught:
    say("warning", w.category.__name__, str(w.message))

section("a forward hook's replacement output is what backward hooks see")
m = Scale(2.0)
register(gm.register_module_full_backward_pre_hook, bpre("g_bpre"))
register(gm.register_module_forward_hook, post("g_post", None))
register(m.register_forward_hook, lambda mod, a, o: o * 3)
xg = torch.tensor([1.0, 2.0], requires_grad=True)
m(xg).sum().backward()
say("x.grad", fmt(xg.grad))

section("non-tensor output with a backward hook")
m = Scale(2.0)
register(gm.register_module_full_backward_hook, bhook("g_bhook"))
register(m.register_forward_hook, lambda mod, a, o: [o])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    res = m(torch.tensor([1.0], requires_grad=True))
say("result", fmt(res))
for w in caught:
    say("warning", w.category.__name__, str(w.message))

section("mixing full and non-full global backward hooks")
try:
    gm.register_module_backward_hook(bhook("old"))
except RuntimeError as e:
    say("RuntimeError", e)

section("registration hooks")


def reg(kind, ret=None):
    def hook(mod, name, value):
        say(" ", kind, type(mod).__name__, name, type(value).__name__,
            None if value is None or isinstance(value, nn.Module) else tuple(value.shape))
        return ret
    return hook


register(gm.register_module_parameter_registration_hook, reg("param"))
register(gm.register_module_buffer_registration_hook, reg("buffer"))
register(gm.register_module_module_registration_hook, reg("module"))
say("Linear(2, 1)")
lin = nn.Linear(2, 1)
say("Sequential")
seq = nn.Sequential(Scale(1.0))
holder = nn.Module()
say("setattr parameter")
holder.w = nn.Parameter(torch.ones(1))
say("setattr None over a parameter")
holder.w = None
say("register_parameter None")
holder.register_parameter("p", None)
say("register_buffer")
holder.register_buffer("b", torch.zeros(2), persistent=False)
say("setattr over a buffer")
holder.b = torch.ones(1)
say("setattr Buffer")
holder.b2 = nn.Buffer(torch.ones(1))
say("register_buffer None")
holder.register_buffer("b3", None)
say("setattr module")
holder.child = Scale(2.0)
say("setattr None over a module")
holder.child = None
say("add_module None")
holder.add_module("c2", None)
say("register_module")
holder.register_module("c3", Scale(1.0))
say("ModuleList.append")
nn.ModuleList().append(Scale(1.0))

section("registration hooks returning replacements")
register(gm.register_module_parameter_registration_hook,
         lambda mod, name, p: nn.Parameter(p.detach() * 5))
register(gm.register_module_parameter_registration_hook, reg("param after"))
register(gm.register_module_buffer_registration_hook, lambda mod, name, b: torch.full((1,), 4.0))
register(gm.register_module_module_registration_hook, lambda mod, name, sub: Scale(9.0))
holder = nn.Module()
holder.w = nn.Parameter(torch.ones(2))
holder.register_buffer("b", torch.zeros(3))
holder.sub = nn.Identity()
holder.add_module("sub2", nn.Identity())
say(fmt(holder.w), type(holder.w).__name__, fmt(holder.b), type(holder.sub).__name__,
    holder.sub.k, type(holder.sub2).__name__)
say(sorted(holder._parameters), sorted(holder._buffers), sorted(holder._modules))

section("deprecated non-full global backward hooks")
gm._global_is_full_backward_hook = None     # torch keeps the first kind for the process


def old(name, scale=None):
    def hook(mod, grad_input, grad_output):
        say(" ", name, type(mod).__name__, fmt(grad_input), fmt(grad_output))
        if scale is not None:
            return tuple(g * scale for g in grad_input)
    return hook


register(gm.register_module_backward_hook, old("old1", 2.0))
register(gm.register_module_backward_hook, old("old2"))
tanh = nn.Tanh()
for title, make in (("leaf input", lambda: torch.tensor([0.5, -1.0], requires_grad=True)),
                    ("computed input", lambda: torch.tensor([0.5, -1.0], requires_grad=True) * 1)):
    say(title)
    xg = make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = tanh(xg)
    for w in caught:
        say("warning", w.category.__name__, str(w.message))
    say("grad_fn", type(out.grad_fn).__name__)
    out.sum().backward()
    say("x.grad", fmt(xg.grad if xg.is_leaf else None))
say("no grad")
with torch.no_grad():
    say(fmt(tanh(x)))
try:
    gm.register_module_full_backward_hook(bhook("full"))
except RuntimeError as e:
    say("RuntimeError", e)
clear()
say("done")
