"""nn.functional layers under random configurations found by a fuzzer, run under real torch and
under ember (`import ember as torch`): what each snippet prints, including an exception's type
and first line, must be identical.

Minimized from the fuzzer's differences: convolutions whose pooled scratch buffer leaked into
their output (a later convolution overwrote an earlier result), transposed convolutions with an
output_padding of at least the stride, an empty batch or an empty output, the strides of
cropped results, unfold's block count, circular padding's check order, instance_norm and
group_norm checks, gradients through clamped norms and p=0 norms, embedding_bag's max kernel
with include_last_offset, nearest interpolation with a scale that disagrees with the sizes,
adaptive pooling to size 0, avg_pool3d's check order, unbatched in-place channel dropout,
lp_pool1d's kernel_size and max_unpool into an empty output. Then configurations the fuzzer
drew that already matched, kept as a net.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

# values rounded to 4 significant digits of the largest (BLAS order changes the last bits)
SHOW = """F = torch.nn.functional
def show(t, name="out"):
    if isinstance(t, (tuple, list)):
        for i, u in enumerate(t): show(u, f"{name}{i}")
        return
    if t is None:
        print(name, None); return
    g = t.grad_fn
    print(name, tuple(t.shape), t.stride(), t.dtype, type(g).__name__ if g is not None else None)
    if not t.dtype.is_floating_point:
        print(t.tolist()); return
    a = t.detach().double().numpy()
    s = float(np.abs(a).max()) if a.size else 0.0
    print(a.tolist() if s == 0 else ("%.4g" % s, (np.round(a * (1e4 / s)) + 0).tolist()))
def backward(out, *xs):
    torch.manual_seed(1)
    (out * torch.randn(out.shape, dtype=out.dtype)).sum().backward()
    for i, x in enumerate(xs): show(x.grad, f"grad{i}")
torch.manual_seed(0)
"""

FIXED = [
    # a (k, 1) kernel's output is the whole product buffer: it must not go back to the pool,
    # or the next convolution writes over it
    "x = torch.randn(1, 1, 4, 3, dtype=torch.float64)\nw = torch.randn(1, 1, 2, 1, dtype=torch.float64)\na = F.conv2d(x, w, dilation=(1, 2))\nkeep = a.clone()\nb = F.conv2d(torch.randn(1, 1, 4, 3, dtype=torch.float64), w, dilation=(1, 2))\nprint(torch.equal(a, keep))\nshow(a)",
    "x = torch.randn([1, 1, 4, 3], dtype=torch.float64, requires_grad=True)\nw = torch.randn([1, 1, 2, 1], dtype=torch.float64, requires_grad=True)\nout = F.conv_transpose2d(x, w, None, stride=1, dilation=[1, 2])\nshow(out)\nbackward(out, x, w)",
    "m = torch.nn.ConvTranspose3d(1, 1, (2, 2, 1), dilation=(2, 2, 2))\nx = torch.randn([1, 1, 1, 4, 4], requires_grad=True)\nout = m(x)\nshow(out)\nbackward(out, x, m.weight)",
    "x = torch.randn(1, 1, 1, 5, 3)\nw = torch.randn(1, 1, 1, 2, 3)\na = F.conv3d(x, w, padding=(0, 0, 1))\nkeep = a.clone()\nF.conv3d(torch.randn(1, 1, 1, 5, 3), w, padding=(0, 0, 1))\nprint(torch.equal(a, keep))",
    # output_padding at least the stride (allowed below the dilation): the input gradient is
    # cropped to the input
    "x = torch.randn([2, 3, 2, 4], requires_grad=True)\nw = torch.randn([2, 2, 3, 2, 2], requires_grad=True)\nb = torch.randn(2, requires_grad=True)\nout = F.conv_transpose3d(x, w, b, stride=1, dilation=2, padding=1, output_padding=(1, 1, 0))\nshow(out)\nbackward(out, x, w, b)",
    "x = torch.randn(1, 2, 3, dtype=torch.float64, requires_grad=True)\nw = torch.randn(2, 1, 2, dtype=torch.float64, requires_grad=True)\nout = F.conv_transpose1d(x, w, stride=1, dilation=3, output_padding=2)\nshow(out)\nbackward(out, x, w)",
    # an empty batch skips the kernels (and their output_padding check); a negative size is
    # view's error, a 1-d convolution viewed as a 2-d one
    "x = torch.randn([0, 1, 2, 3, 3], requires_grad=True)\nw = torch.randn([1, 1, 1, 1, 1], requires_grad=True)\nb = torch.randn(1, requires_grad=True)\nout = F.conv_transpose3d(x, w, b, stride=2, dilation=[1, 2, 2], output_padding=[2, 1, 1])\nprint(out.shape, out.grad_fn.name())\nout.sum().backward()\nprint(x.grad.shape, w.grad, b.grad)",
    "x = torch.randn([0, 4, 3, 3])\nw = torch.randn([4, 1, 4, 4])\nprint(F.conv_transpose2d(x, w, padding=2, stride=1, output_padding=3).shape)",
    "F.conv_transpose3d(torch.randn(0, 4, 3, 3, 3), torch.randn(4, 1, 4, 4, 4), padding=5, stride=2)",
    "F.conv_transpose2d(torch.randn(0, 1, 3, 3), torch.randn(1, 1, 1, 1), padding=(2, 1))",
    "F.conv_transpose2d(torch.randn(0, 1, 3, 3), torch.randn(1, 1, 1, 1), padding=2)",
    "F.conv_transpose1d(torch.randn(0, 2, 1, dtype=torch.float64), torch.randn(2, 2, 1, dtype=torch.float64), stride=3, dilation=2, padding=1)",
    "F.conv_transpose1d(torch.randn(0, 2, 2), torch.randn(2, 1, 1), padding=2)",
    # an empty or negative output: torch's own kernels refuse both, naming the sizes
    # (1-d as 2-d), oneDNN refuses only a negative one
    "F.conv_transpose3d(torch.randn(2, 2, 1, 4, 3, dtype=torch.float64), torch.randn(2, 1, 1, 1, 1, dtype=torch.float64), padding=[2, 0, 1])",
    "F.conv_transpose2d(torch.randn(1, 1, 3, 3), torch.randn(1, 1, 2, 2), padding=2)",
    "F.conv_transpose2d(torch.randn(1, 1, 3, 3), torch.randn(1, 1, 4, 4), padding=5)",
    "F.conv_transpose2d(torch.randn(1, 1, 3, 3), torch.randn(1, 1, 4, 4), padding=6, output_padding=1, dilation=2)",
    "F.conv_transpose1d(torch.randn(1, 4, 3), torch.randn(4, 1, 4), padding=5)",
    "F.conv_transpose1d(torch.randn(2, 4, 3), torch.randn(4, 1, 4), padding=5)",
    "F.conv_transpose1d(torch.randn(2, 1, dtype=torch.float64), torch.randn(2, 2, 2, dtype=torch.float64), torch.randn(4, dtype=torch.float64), stride=2, dilation=2, padding=2, groups=2)",
    "x = torch.randn([2, 4, 1], requires_grad=True)\nw = torch.randn([4, 1, 2], requires_grad=True)\nout = F.conv_transpose1d(x, w, stride=2, padding=1, groups=2)\nshow(out)\nout.sum().backward()\nshow(x.grad)",
    "x = torch.randn([2, 3, 3], requires_grad=True)\nw = torch.randn([2, 2, 2, 2], requires_grad=True)\nout = F.conv_transpose2d(x, w, stride=(3, 1), padding=(2, 2), groups=2)\nshow(out)\nbackward(out, x, w)",
    # torch views a 1-d convolution as a 2-d one of height 1 when it picks oneDNN
    "F.conv1d(torch.randn(1, 4, 10), torch.randn(2, 4, 5, dtype=torch.float64))",
    "F.conv1d(torch.randn(2, 4, 10), torch.randn(2, 4, 5, dtype=torch.float64))",
    # cropped results are new row-major tensors (size-1 dims too)
    "x = torch.randn([2, 4], dtype=torch.float64)\nw = torch.randn([2, 1, 2], dtype=torch.float64)\nshow(F.conv_transpose1d(x, w, padding=2))",
    "x = torch.randn([1, 1, 3, 4], dtype=torch.float64)\nw = torch.randn([1, 1, 1, 1], dtype=torch.float64)\nshow(F.conv_transpose2d(x, w, stride=3, dilation=[2, 1], padding=(1, 0)))",
    "m = torch.nn.Conv1d(1, 1, 2, padding=2)\nx = torch.randn([1, 1, 5], requires_grad=True)\nout = m(x)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([1, 4, 4], dtype=torch.float64, requires_grad=True)\nout = F.max_pool2d(x, (3, 2), ceil_mode=True)\nbackward(out, x)",
    "x = torch.randn([1, 1, 4], dtype=torch.float64, requires_grad=True)\nout = F.avg_pool2d(x, (2, 1), stride=(2, 1), ceil_mode=True, count_include_pad=False)\nshow(out)\nbackward(out, x)",
    # unfold counts blocks rounding down; a 1x1 kernel's columns are contiguous
    "F.unfold(torch.randn(1, 2, 2, 2), (3, 2), stride=(2, 2))",
    "F.unfold(torch.randn(2, 2, 2, 1), (3, 2), padding=(1, 0), stride=[1, 2])",
    "F.fold(torch.randn(1, 4, 1), [2, 1], (1, 2), stride=(1, 2), padding=[1, 0])",
    "F.fold(torch.randn(1, 18, 1), [4, 2], (3, 3), stride=(2, 2))",
    "x = torch.randn([2, 2, 2, 3], requires_grad=True)\nout = F.unfold(x, 1, stride=(2, 1))\nshow(out)\nbackward(out, x)",
    "x = torch.randn([1, 2, 5, 4])\nout = F.unfold(x, (1, 1), dilation=2, stride=(1, 2))\nshow(out)\nout[0, 0, 0] = 7\nprint(x[0, 0, 0, 0] == 7)",
    "x = torch.randn([2, 2, 3], requires_grad=True)\nout = F.unfold(x, (2, 1), dilation=(2, 1), padding=(1, 1), stride=2)\nshow(out)\nbackward(out, x)",
    "for k in [(1, 1), (2, 1), (1, 2)]:\n    for st in [1, 2]:\n        y = torch.randn(1, 1, 3, 4)\n        o = F.unfold(y, k, stride=st)\n        o[0, 0, 0] = 99\n        print(o.shape, o.stride(), (y == 99).any().item())",
    # circular padding checks the first padded dim first
    "F.pad(torch.randn(2, 4, 2, 1), (1, 3, -1, -2), mode='circular')",
    "F.pad(torch.randn(2, 4, 1, 2), (-1, -2, 1, 3), mode='circular')",
    # a right pad longer than what is kept: torch copies in order, repeating the kept
    # values (its gradient a plain copy's); contiguous blocks are refused
    "for shape, pad in [([1, 4, 3, 3], (-2, 3, 0, 2)), ([2, 3], (-2, 3)), ([2, 1, 3], (-2, 3)), ([2, 3, 2], (0, 0, -1, 2))]:\n    x = torch.arange(float(np.prod(shape))).view(shape).requires_grad_()\n    out = F.pad(x, pad, mode='circular')\n    print(out.tolist())\n    out.backward(torch.arange(float(out.numel())).view(out.shape))\n    print(x.grad.tolist())",
    "F.pad(torch.randn(1, 1, 3), (-2, 3), mode='circular')",
    # instance_norm without input statistics needs both running statistics
    "F.instance_norm(torch.randn(2, 4, 3, dtype=torch.float64), use_input_stats=False)",
    "F.instance_norm(torch.randn(2, 4, 3), torch.zeros(4), None, use_input_stats=False)",
    # group_norm's Python wrapper checks the batch before the group count
    "F.group_norm(torch.randn(2, 3, dtype=torch.float64), 4)",
    "F.group_norm(torch.randn(1, 3), 3, torch.ones(3), 'b')",
    # the norms are clamped without being recorded: gradients flow as if unclamped
    "x = torch.randn([2, 4], dtype=torch.float64, requires_grad=True)\ny = torch.randn([2, 4], dtype=torch.float64, requires_grad=True)\nout = F.cosine_similarity(x, y, dim=0, eps=1.0)\nshow(out)\nbackward(out, x, y)\nprint(out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[1][0].name())",
    "x = torch.randn([1, 3], requires_grad=True)\ny = torch.randn([1, 3], requires_grad=True)\nout = F.cosine_similarity(x, y, dim=0, eps=0.5)\nprint(torch.round(out, decimals=4))\nbackward(out, x, y)",
    # a p=0 norm has no gradient at all
    "x = torch.randn(2, 3, requires_grad=True)\nout = F.pairwise_distance(x, x * 2, p=0)\nshow(out)\nout.sum().backward()\nprint(x.grad)",
    "x = torch.randn(3, requires_grad=True)\nx.norm(0).backward()\nprint(x.grad)",
    # embedding_bag: 2-D input of empty bags; max mode's last bag runs to the end
    "w = torch.randn(6, 3, requires_grad=True)\nF.embedding_bag(torch.randint(0, 6, (3, 0)), w, mode='mean', padding_idx=0)",
    "w = torch.randn(4, 2)\nF.embedding_bag(torch.zeros(2, 0, dtype=torch.long), w, mode='max')",
    "w = torch.arange(10.).view(5, 2).requires_grad_()\nidx = torch.tensor([0, 1, 2, 3, 4])\nout = F.embedding_bag(idx, w, torch.tensor([0, 2, 3]), mode='max', include_last_offset=True)\nout.sum().backward()\nprint(out, w.grad)",
    "w = torch.arange(10.).view(5, 2).requires_grad_()\nidx = torch.tensor([0, 1, 2, 3, 4])\nout = F.embedding_bag(idx, w, torch.tensor([0, 2, 3]), mode='max', include_last_offset=True, padding_idx=4)\nout.sum().backward()\nprint(out, w.grad)",
    # nearest: the 1-d and 3-d kernels follow a scale that disagrees with the sizes, the 2-d
    # kernel and every backward take the size's shortcut; nearest-exact always follows it
    "x = torch.arange(6.).view(1, 3, 2).requires_grad_()\nout = F.interpolate(x, scale_factor=2.3)\nprint(out)\nout.backward(torch.ones_like(out))\nprint(x.grad)",
    "x = torch.arange(6.).view(1, 3, 2)\nprint(F.interpolate(x, scale_factor=1.4))\nprint(F.interpolate(x, scale_factor=1.4, mode='nearest-exact'))",
    "x = torch.arange(3.).view(1, 1, 3)\nprint(F.interpolate(x, scale_factor=2.3, mode='nearest-exact'))\nprint(F.interpolate(x, scale_factor=2.3))",
    "x = torch.arange(4.).view(1, 1, 2, 2).requires_grad_()\nout = F.interpolate(x, scale_factor=(1.4, 2.3))\nprint(out)\nout.backward(torch.ones_like(out))\nprint(x.grad)",
    "x = torch.arange(8.).view(1, 1, 2, 2, 2).requires_grad_()\nout = F.interpolate(x, scale_factor=2.3)\nprint(out[0, 0, 0])\nout.backward(torch.ones_like(out))\nprint(x.grad)",
    "x = torch.arange(8.).view(1, 1, 2, 2, 2)\nprint(F.interpolate(x, scale_factor=1.4)[0, 0, 1])",
    "x = torch.arange(4.).view(1, 1, 4).requires_grad_()\nout = F.interpolate(x, scale_factor=2)\nprint(out)\nout.backward(torch.ones_like(out))\nprint(x.grad)",
    # adaptive pooling to size 0 works, its backward refuses
    "x = torch.randn([1, 2, 4, 4, 2], requires_grad=True)\nout = F.adaptive_max_pool3d(x, 0)\nprint(out.shape)\nout.sum().backward()",
    "x = torch.randn([2, 1, 1], requires_grad=True)\nout = F.adaptive_max_pool1d(x, 0)\nprint(out.shape)\nout.sum().backward()",
    "x = torch.randn([3, 6, 7], dtype=torch.float64, requires_grad=True)\nout = F.adaptive_avg_pool2d(x, 0)\nprint(out.shape)\nout.sum().backward()",
    "x = torch.randn([3, 5], requires_grad=True)\nout = F.adaptive_avg_pool1d(x, 0)\nout.sum().backward()",
    "x = torch.randn([1, 1, 2, 2], dtype=torch.float64, requires_grad=True)\nout, i = F.adaptive_max_pool2d(x, (2, 0), return_indices=True)\nprint(out.shape, i.shape)\nout.sum().backward()",
    "x = torch.randn([1, 2, 1, 5, 5], dtype=torch.float64, requires_grad=True)\nout = F.interpolate(x, scale_factor=0.7, mode='area')\nprint(out.shape)\nout.sum().backward()",
    "x = torch.randn([2, 2, 1], requires_grad=True)\nout = F.interpolate(x, scale_factor=0.5, mode='area')\nout.sum().backward()",
    # avg_pool3d computes the output sizes (refusing a pad above half the kernel) first
    "F.avg_pool3d(torch.randn(2, 4, 3, 1), (1, 1, 3), stride=1, padding=(2, 2, 1), count_include_pad=False)",
    "F.avg_pool3d(torch.randn(1, 1, 1, 1, 1), (2, 2, 3), padding=(1, 1, 2))",
    "F.avg_pool3d(torch.randn(1, 1, 1, 4, 4), (2, 2, 2), padding=(0, 1, 1))",
    "F.avg_pool3d(torch.randn(0, 0, 2, 5, 2), 3, ceil_mode=True)",
    # unbatched in-place channel dropout unsqueezes and squeezes the input itself
    "x = torch.randn([1, 3], requires_grad=True) * 1\nout = F.dropout1d(x, p=1.0, training=True, inplace=True)\nprint(out is x, out.grad_fn.name(), out)",
    "x = torch.randn([1, 2], requires_grad=True) * 1\nout = F.dropout1d(x, p=0.0, training=False, inplace=True)\nprint(out is x, out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())",
    "x = torch.randn([3, 2, 2], requires_grad=True) * 1\nout = F.dropout3d(x, p=0.0, training=True, inplace=True)\nprint(out.shape, out.grad_fn.name())",
    "x = torch.randn([2, 3, 2, 2], requires_grad=True) * 1\nout = F.dropout3d(x, p=1.0, inplace=True)\nprint(out.shape, out.grad_fn.name(), out.sum())",
    "x = torch.randn([2, 3])\nout = F.dropout1d(x, p=1.0, inplace=True)\nprint(out is x, x)",
    # what is not channels-last comes out row-major, whatever layout a kernel kept
    "x = torch.randn([1, 3, 2, 2, 4], dtype=torch.float64).transpose(-1, -2).contiguous().transpose(-1, -2)\nprint(F.avg_pool3d(x, 1, divisor_override=3).stride(), F.max_pool3d(x, 1).stride())\nprint(F.pad(x, (1, 1, 0, 0, 0, 0), mode='replicate').stride(), F.interpolate(x, scale_factor=1.0).stride())",
    "z = torch.randn(2, 3, 4, 5).transpose(0, 1)\nprint(F.avg_pool2d(z, 1).stride(), F.max_pool2d(z, 1).stride(), F.pad(z, (1, 1)).stride())\ny = torch.randn(2, 3, 4, 5).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)\nprint(F.avg_pool2d(y, 1).stride(), F.max_pool2d(y, 2).stride())",
    # torch's CPU avg_pool3d and adaptive 3-d pools have no channels-last form, nor its own
    # 3-d convolution kernels (oneDNN's results follow the input)
    "for shape in [(2, 3, 4, 4, 4), (1, 2, 3, 2, 3)]:\n    x = torch.randn(shape).contiguous(memory_format=torch.channels_last_3d)\n    print(F.avg_pool3d(x, 2).stride(), F.max_pool3d(x, 2).stride(), F.adaptive_avg_pool3d(x, 2).stride(), F.adaptive_max_pool3d(x, 2).stride())\n    print(F.conv3d(x, torch.randn(2, shape[1], 2, 1, 2)).stride(), F.conv3d(x.double(), torch.randn(2, shape[1], 2, 2, 2, dtype=torch.float64), padding=1).stride())\n    print(F.conv_transpose3d(x, torch.randn(shape[1], 2, 2, 2, 2), stride=2).stride(), F.interpolate(x, scale_factor=2).stride())",
    "x = torch.randn(1, 2, 3, 2, 3).contiguous(memory_format=torch.channels_last_3d).requires_grad_()\nout = F.avg_pool3d(x, 2)\nout.sum().backward()\nprint(out.stride(), x.grad.stride())",
    # normalizations of a permuted input that is not channels-last are row-major
    "for shape, perm in [((2, 3, 4), (0, 2, 1)), ((2, 3, 1, 5), (3, 2, 1, 0)), ((2, 3), (1, 0)), ((2, 3, 4, 5), (0, 2, 3, 1))]:\n    inv = [perm.index(i) for i in range(len(perm))]\n    x = torch.randn(shape).permute(perm).contiguous().permute(inv).requires_grad_()\n    c = x.shape[1]\n    out = F.batch_norm(x, None, None, training=True)\n    out.sum().backward()\n    print(out.stride(), F.batch_norm(x, torch.zeros(c), torch.ones(c)).stride(), F.group_norm(x, 1).stride(), x.grad.stride())",
    # torch's flash kernel returns its (B, L, H, E) gradients transposed, a copy unless H or
    # L is 1
    "for shape in [(2, 2, 3, 4), (1, 1, 4, 3), (2, 2, 1, 4), (2, 1, 1, 3)]:\n    q, k, v = (torch.randn(shape, requires_grad=True) for _ in range(3))\n    out = F.scaled_dot_product_attention(q, k, v)\n    out.sum().backward()\n    print(shape, out.stride(), q.grad.stride(), k.grad.stride(), v.grad.stride())",
    "q = torch.randn([1, 4, 2, 3], dtype=torch.float64, requires_grad=True)\nk = torch.randn([1, 2, 3, 3], dtype=torch.float64, requires_grad=True)\nv = torch.randn([1, 2, 3, 2], dtype=torch.float64, requires_grad=True)\nout = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)\nbackward(out, q, k, v)",
    "q = torch.randn([1, 1, 2, 3], requires_grad=True)\nk = torch.randn([1, 1, 2, 3], requires_grad=True)\nv = torch.randn([1, 1, 2, 3], requires_grad=True)\nout = F.scaled_dot_product_attention(q, k, v)\ng, = torch.autograd.grad(out.sum(), q, create_graph=True)\nprint(g.stride(), g.grad_fn is not None)",
    # lp_pool1d multiplies by kernel_size itself: only an int passes
    "F.lp_pool1d(torch.rand(1, 2, 3), 2, [2], stride=3)",
    "F.lp_pool1d(torch.rand(1, 2, 3), 2, (2,))",
    "print(F.lp_pool1d(torch.rand(1, 2, 4), 2, 2))",
    # convolutions check the weight's dims and the groups before anything; 'same' has its
    # own texts; an empty input other than an empty batch or no channels reaches no kernel
    "F.conv1d(torch.randn(1, 3, 4), torch.randn(1, 3), padding='same')",
    "F.conv2d(torch.randn(1, 3, 4), torch.randn(3), stride=(1, 2, 3))",
    "F.conv_transpose1d(torch.randn(1, 3, 4), torch.randn(3, 2), groups=0)",
    "F.conv2d(torch.randn(1, 4, 4), torch.randn(1, 1, 1, 1), groups=0, stride=(1, 2, 3))",
    "F.conv1d(torch.randn(1, 3, 4), torch.randn(2, 1, 1, 3), padding='same')",
    "F.conv1d(torch.randn(1, 3, 4), torch.randn(2, 1, 1, 3), padding='valid')",
    "F.conv2d(torch.randn(3, 4, 5), torch.randn(2, 3, 1, 1, 3), padding='same')",
    "F.conv2d(torch.randn(1, 3, 4, 5), torch.randn(2, 3, 1, 3), padding='same', stride=(1, 1, 1))",
    "F.conv2d(torch.randn(1, 3, 4, 5), torch.randn(2, 3, 1, 3), padding='same', groups=0)",
    "F.conv2d(torch.randn(1, 2, 0, 3), torch.randn(1, 2, 1, 1))",
    "F.conv2d(torch.randn(1, 2, 0, 3), torch.randn(1, 2, 1, 1), padding=1)",
    "F.conv2d(torch.randn(1, 2, 0, 3), torch.randn(1, 2, 1, 1), padding=1, dilation=0)",
    "F.conv_transpose2d(torch.randn(1, 2, 2, 0), torch.randn(2, 2, 3, 1), dilation=0)",
    "F.conv_transpose2d(torch.randn(1, 2, 2, 0), torch.randn(2, 2, 3, 1), output_padding=3)",
    "F.conv1d(torch.randn(3, 0, 1), torch.randn(3, 2, 3), dilation=0)",
    "x = torch.randn(0, 2, 3, 3, requires_grad=True)\nout = F.conv2d(x, torch.randn(1, 2, 2, 2), dilation=0)\nprint(out.shape)",
    # pooling: torch's C division lets a negative kernel past the padding check to the
    # kernel-size check; avg_pool2d checks the kernel before the dims
    "F.avg_pool2d(torch.randn(1, 2, 4, 4), -1)",
    "F.avg_pool2d(torch.randn(1, 2, 4, 4), -2)",
    "F.max_pool2d(torch.randn(1, 2, 4, 4), -1)",
    "F.avg_pool3d(torch.randn(1, 2, 4, 4, 4), -1)",
    "F.avg_pool1d(torch.randn(2, 4), -1)",
    "F.lp_pool2d(torch.randn(2, 2, 4, 3, 1), 2, -1)",
    "F.avg_pool2d(torch.randn(2, 2, 4, 3, 1), 2)",
    # lp_pool2d/3d unpack kernel_size first
    "F.lp_pool2d(torch.randn(1, 2, 4, 4), 2, [])",
    "F.lp_pool2d(torch.randn(1, 2, 4, 4), 2, (1, 2, 3))",
    "F.lp_pool3d(torch.randn(1, 2, 4, 4, 4), 2, [2])",
    # adaptive pools: the Python wrappers' ValueError for too few dims; the 1-d kernels check
    # the dims before the output size's length
    "F.adaptive_avg_pool2d(torch.randn(3), (2, 2))",
    "F.adaptive_avg_pool3d(torch.randn(2, 3, 3), (2, None, 2))",
    "F.adaptive_max_pool2d(torch.randn(2, 3), (2, None))",
    "F.adaptive_max_pool1d(torch.randn(2, 1, 0, 4), [])",
    "F.adaptive_avg_pool1d(torch.randn(2, 1, 0, 4), (1, 2))",
    "F.adaptive_avg_pool1d(torch.randn(2, 3, 4), (1, 2))",
    # pixel_unshuffle of an empty input is a copy, its shape unchanged (pixel_shuffle is not)
    "x = torch.randn(0, 1, 4, 2, requires_grad=True)\nout = F.pixel_unshuffle(x, 2)\nprint(out.shape, out.stride(), out.grad_fn.name())\nprint(F.pixel_shuffle(torch.randn(0, 4, 1, 2), 2).shape)",
    # batch_norm below two dims counts no channels; its kernel then indexes dim 1
    "F.batch_norm(torch.randn(3), torch.zeros(3), torch.ones(3))",
    "F.batch_norm(torch.randn(3), None, None, training=True)",
    "F.batch_norm(torch.randn(2), None, None)",
    "F.batch_norm(torch.randn([]), torch.zeros(1), torch.ones(1))",
    "F.batch_norm(torch.randn(3), None, None, torch.ones(2), training=True)",
    # grid_sample reads both sizes(0) first; unfold reads size(2) only past a non-empty dim 1
    "F.grid_sample(torch.randn([]), torch.rand(1, 2, 2, 2), align_corners=False)",
    "F.grid_sample(torch.randn(1, 2, 3, 3), torch.rand([]), align_corners=False)",
    "F.unfold(torch.randn(1, 0), 2, padding=1)",
    "F.unfold(torch.randn(2, 1), 2)",
    # an empty head dim: the default scale is inf, not an error
    "print(F.scaled_dot_product_attention(torch.randn(2, 3, 0), torch.randn(2, 3, 0), torch.randn(2, 3, 4)))",
    "F.scaled_dot_product_attention(torch.randn([0, 1, 0]), torch.randn(2, 3, 4), torch.randn(2, 3, 4))",
    # max_unpool into an empty output writes nothing (no index check); its gradient reads
    "x = torch.randn([2, 2, 2, 2])\no, i = F.max_pool2d(x, 2, stride=(2, 3), padding=1, return_indices=True)\no.requires_grad_()\nout = F.max_unpool2d(o, i, 2, stride=(2, 3), padding=1)\nprint(out.shape)\nout.sum().backward()",
]

# configurations the fuzzer drew that already printed as torch's: a net for later changes
NET = [
    "x = torch.randn([2, 2, 5], requires_grad=True)\nw = torch.randn([4, 1, 3], requires_grad=True)\nout = F.conv1d(x, w, None, stride=2, padding='valid', dilation=2, groups=2)\nshow(out)\nbackward(out, x, w)",
    "x = torch.randn([1, 3, 4, 5], dtype=torch.float64, requires_grad=True)\nw = torch.randn([3, 1, 2, 3], dtype=torch.float64, requires_grad=True)\nb = torch.randn(3, dtype=torch.float64, requires_grad=True)\nout = F.conv2d(x, w, b, padding='same', dilation=(2, 1), groups=3)\nshow(out)\nbackward(out, x, w, b)",
    "x = torch.randn([2, 4, 3, 2])\nw = torch.randn([2, 4, 2, 3, 1])\nshow(F.conv3d(x, w, stride=(1, 2, 1), padding=(1, 1, 0)))",
    "x = torch.randn([2, 2, 3, 4]).transpose(-1, -2)\nw = torch.randn([2, 2, 2, 2])\nshow(F.conv2d(x, w, stride=2, padding=1))",
    "F.conv2d(torch.randn(1, 2, 4, 4), torch.randn(2, 2, 3, 3), stride=2, padding='same')",
    "F.conv1d(torch.randn(1, 2, 2), torch.randn(2, 2, 3))",
    "x = torch.randn([2, 2, 3, 3], requires_grad=True)\nw = torch.randn([2, 1, 2, 2], requires_grad=True)\nout = F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1, groups=2)\nshow(out)\nbackward(out, x, w)",
    "x = torch.randn([1, 2, 2, 2, 2], dtype=torch.float64, requires_grad=True)\nw = torch.randn([2, 3, 2, 1, 2], dtype=torch.float64, requires_grad=True)\nout = F.conv_transpose3d(x, w, stride=(2, 1, 2), dilation=(1, 2, 1), output_padding=(1, 0, 1))\nshow(out)\nbackward(out, x, w)",
    "F.conv_transpose2d(torch.randn(1, 1, 3, 3), torch.randn(1, 1, 2, 2), stride=2, output_padding=2)",
    "m = torch.nn.Conv2d(2, 2, 3, padding=2, padding_mode='reflect')\nx = torch.randn(1, 2, 4, 3, requires_grad=True)\nout = m(x)\nshow(out)\nbackward(out, x, m.weight)",
    "m = torch.nn.Conv1d(1, 2, 2, stride=2, padding=1, padding_mode='circular', bias=False)\nprint(m)\nx = torch.randn(2, 1, 5, requires_grad=True)\nout = m(x)\nshow(out)\nbackward(out, x, m.weight)",
    "m = torch.nn.Conv3d(1, 1, (1, 2, 2), padding=(0, 1, 1), padding_mode='replicate')\nx = torch.randn(1, 2, 3, 3, requires_grad=True)\nout = m(x)\nshow(out)\nbackward(out, x)",
    "m = torch.nn.Conv2d(2, 2, 3, padding='same', padding_mode='circular', groups=2)\nx = torch.randn(2, 2, 4, 4)\nshow(m(x))",
    "x = torch.randn([2, 3, 7], requires_grad=True)\nout, i = F.max_pool1d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True, return_indices=True)\nshow(out)\nprint(i)\nbackward(out, x)",
    "x = torch.randn([1, 2, 5, 5], dtype=torch.float64, requires_grad=True)\nout = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([2, 1, 4, 3, 4], requires_grad=True)\nout = F.avg_pool3d(x, 2, stride=(1, 2, 2), padding=1, divisor_override=3)\nshow(out)\nbackward(out, x)",
    "F.max_pool2d(torch.randn(1, 1, 3, 3), 2, padding=2)",
    "F.max_pool1d(torch.randn(1, 1, 4), 2, padding=2)",
    "F.avg_pool1d(torch.randn(1, 1, 4), 3, stride=4, ceil_mode=True)",
    "x = torch.randn([2, 3, 5, 4], requires_grad=True)\nout = F.adaptive_avg_pool2d(x, (None, 3))\nshow(out)\nbackward(out, x)",
    "x = torch.randn([3, 5, 4, 2], requires_grad=True)\nout, i = F.adaptive_max_pool3d(x, (2, None, 1), return_indices=True)\nshow(out)\nprint(i)\nbackward(out, x)",
    "x = torch.rand([1, 2, 5, 4], requires_grad=True)\nout = F.lp_pool2d(x, 3, (2, 3), stride=1, ceil_mode=True)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([1, 2, 6])\no, i = F.max_pool1d(x, 2, return_indices=True)\nshow(F.max_unpool1d(o, i, 2, output_size=[7]))",
    "x = torch.randn([2, 2, 5, 3], requires_grad=True)\nout = F.interpolate(x, size=(7, 4), mode='bicubic', align_corners=True)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([1, 2, 3, 2, 2], dtype=torch.float64, requires_grad=True)\nout = F.interpolate(x, scale_factor=(1.5, 2, 0.5), mode='trilinear', recompute_scale_factor=True)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([2, 2, 5, 4], requires_grad=True)\nout = F.interpolate(x, scale_factor=0.6, mode='bilinear', antialias=True)\nshow(out)",
    "F.interpolate(torch.randn(1, 2, 3), size=4, mode='bilinear')",
    "F.interpolate(torch.randn(1, 2, 3, 3), size=[4, 4, 4])",
    "x = torch.randn([2, 3, 4], requires_grad=True)\nout = F.pad(x, (-1, 2, 1, -1), mode='replicate')\nshow(out)\nbackward(out, x)",
    "x = torch.randn([1, 2, 3, 3], dtype=torch.float64, requires_grad=True)\nout = F.pad(x, (2, 1, 1, 2), mode='reflect')\nshow(out)\nbackward(out, x)",
    "F.pad(torch.randn(1, 2, 3), (3, 0), mode='reflect')",
    "x = torch.randn([2, 3, 4], requires_grad=True)\nout = F.pad(x, (1, 2, -1, 0), mode='circular')\nshow(out)\nbackward(out, x)",
    "x = torch.randn([2, 8, 2, 3], requires_grad=True)\nout = F.pixel_shuffle(x, 2)\nshow(out)\nx2 = torch.randn(1, 3, 4, 6)\nshow(F.pixel_unshuffle(x2, 2))\nshow(F.channel_shuffle(torch.randn(2, 6, 1, 2), 3))",
    "F.pixel_shuffle(torch.randn(1, 5, 2, 2), 2)",
    "x = torch.randn([3, 4, 2], dtype=torch.float64, requires_grad=True)\nrm = torch.randn(4, dtype=torch.float64); rv = torch.rand(4, dtype=torch.float64) + 0.5\nwt = torch.randn(4, dtype=torch.float64, requires_grad=True)\nout = F.batch_norm(x, rm, rv, wt, None, training=True, momentum=0.5, eps=0.1)\nshow(out)\nshow(rm, 'rm'); show(rv, 'rv')\nbackward(out, x, wt)",
    "x = torch.randn([2, 3, 4], requires_grad=True)\nrm = torch.zeros(3); rv = torch.ones(3)\nout = F.instance_norm(x, rm, rv, use_input_stats=True, momentum=0.3)\nshow(out)\nshow(rm, 'rm'); show(rv, 'rv')\nbackward(out, x)",
    "x = torch.randn([2, 3, 4], requires_grad=True)\nwt = torch.randn(3, 4, requires_grad=True)\nout = F.layer_norm(x, [3, 4], wt, None, eps=0.1)\nshow(out)\nbackward(out, x, wt)",
    "x = torch.randn([2, 4, 3], dtype=torch.float64, requires_grad=True)\nout = F.group_norm(x, 2, torch.ones(4, dtype=torch.float64), None)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([2, 5, 3], requires_grad=True)\nout = F.local_response_norm(x, 3, alpha=0.5, beta=1.0, k=2.0)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([2, 3, 4], requires_grad=True)\nwt = torch.randn(4, requires_grad=True)\nout = F.rms_norm(x, [4], wt)\nshow(out)\nbackward(out, x, wt)",
    "w = torch.randn(5, 3)\nwd = w.clone()\nout = F.embedding(torch.tensor([[0, 2], [2, 4]]), wd, max_norm=1.0, norm_type=1.0)\nshow(out)\nshow(wd, 'wd')",
    "w = torch.randn(5, 2, requires_grad=True)\nout = F.embedding(torch.tensor([1, 1, 3, 0]), w, padding_idx=0, scale_grad_by_freq=True)\nbackward(out, w)",
    "w = torch.randn(6, 3, requires_grad=True)\nidx = torch.tensor([0, 2, 4, 5, 1])\nout = F.embedding_bag(idx, w, torch.tensor([0, 2, 2]), mode='sum', per_sample_weights=torch.rand(5))\nshow(out)\nbackward(out, w)",
    "print(F.one_hot(torch.tensor([[0, 3], [1, 2]])))\nprint(F.one_hot(torch.tensor([], dtype=torch.long), 4).shape)",
    "F.one_hot(torch.tensor([], dtype=torch.long))",
    "x = torch.randn([2, 3], requires_grad=True)\nout = F.normalize(x, p=float('inf'), dim=0, eps=0.5)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([3, 2], dtype=torch.float64, requires_grad=True)\nout = F.pdist(x, p=0.5)\nshow(out)\nbackward(out, x)",
    "x = torch.randn([2, 3, 2], requires_grad=True)\ny = torch.randn([2, 4, 2], requires_grad=True)\nout = torch.cdist(x, y, p=3.0)\nshow(out)\nbackward(out, x, y)",
    "x = torch.randn([2, 3], requires_grad=True)\ny = torch.randn([2, 3], requires_grad=True)\nout = F.pairwise_distance(x, y, p=1.0, eps=0.1, keepdim=True)\nshow(out)\nbackward(out, x, y)",
    "x = torch.randn([1, 2, 3, 4], requires_grad=True)\ngrid = (torch.rand([1, 2, 3, 2]) * 2.6 - 1.3).requires_grad_()\nout = F.grid_sample(x, grid, mode='bilinear', padding_mode='reflection', align_corners=False)\nshow(out)\nbackward(out, x, grid)",
    "x = torch.randn([1, 2, 2, 3, 2], dtype=torch.float64, requires_grad=True)\ngrid = (torch.rand([1, 2, 1, 2, 3], dtype=torch.float64) * 2.6 - 1.3)\nout = F.grid_sample(x, grid, mode='nearest', padding_mode='border', align_corners=True)\nshow(out)\nbackward(out, x)",
    "theta = torch.randn(2, 2, 3, requires_grad=True)\nout = F.affine_grid(theta, [2, 2, 3, 2], align_corners=False)\nshow(out)\nbackward(out, theta)",
    "q = torch.randn([2, 3, 4], requires_grad=True)\nk = torch.randn([2, 5, 4], requires_grad=True)\nv = torch.randn([2, 5, 3], requires_grad=True)\nmask = torch.rand(3, 5) > 0.3\nout = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.5)\nshow(out)",
    "q = torch.randn([1, 4, 2, 3], dtype=torch.float64)\nk = torch.randn([1, 2, 3, 3], dtype=torch.float64)\nv = torch.randn([1, 2, 3, 2], dtype=torch.float64)\nshow(F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True))",
    "x = torch.randn([2, 3, 2], requires_grad=True)\nout = F.dropout2d(x, p=1.0)\nshow(out)\nbackward(out, x)",
    "F.dropout(torch.randn(2), p=1.5)",
    "x = torch.randn([2, 3], requires_grad=True)\nout = F.alpha_dropout(x, p=0.0, training=True)\nshow(out)",
    # (a one-row sum over the last dim: fresh strides, seen through cosine_similarity)
    "x = torch.randn([1, 4], dtype=torch.float64)\ny = torch.randn([1, 4], dtype=torch.float64)\nprint(F.cosine_similarity(x, y, dim=1).stride(), x.sum(1).stride())",
]

SNIPPETS = [SHOW + s for s in FIXED + NET]

BUGS = [
    ("torch's math attention kernel (3-D inputs) gives the key a gradient transposed from "
     "the product's, which keeps its strides where a dim has size 1; ember's is row-major",
     SHOW + "q = torch.randn([1, 2, 1], requires_grad=True)\nk = torch.randn([1, 4, 1], requires_grad=True)\nv = torch.randn([1, 4, 4], requires_grad=True)\nout = F.scaled_dot_product_attention(q, k, v)\nout.sum().backward()\nprint(k.grad.stride(), v.grad.stride())"),
    ("torch.cdist's matrix-product path for p=2 (forced, or past 25 rows) returns a view "
     "(ViewBackward0); ember computes exact differences in every mode (CdistBackward0)",
     SHOW + "x = torch.randn([2, 3], requires_grad=True)\ny = torch.randn([3, 3], requires_grad=True)\nout = torch.cdist(x, y, compute_mode='use_mm_for_euclid_dist')\nprint(out.grad_fn.name())"),
    ("torch's CPU antialiased bilinear/bicubic resize with an output width of 1 repeats the "
     "first output row down the height; ember interpolates each row",
     SHOW + "x = torch.randn([1, 1, 2, 1], dtype=torch.float64)\nshow(F.interpolate(x, size=[5, 1], mode='bilinear', antialias=True))"),
    ("torch's convolution of an empty batch views a broadcast product, whose size-1 dims "
     "have stride 0; ember's empty result is row-major",
     SHOW + "x = torch.randn([0, 1, 3])\nw = torch.randn([1, 1, 1])\nprint(F.conv_transpose1d(x, w, stride=2, padding=1).stride())"),
]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, BUGS, at_least=180)
