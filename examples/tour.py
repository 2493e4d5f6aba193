"""A tour of ember's foundation: tensors, their memory, views, dtypes and autograd.

Run it with `python examples/tour.py`. Every line is ordinary PyTorch code: ember is imported
as `torch`, and what it prints is what PyTorch prints.
"""
import numpy as np

import ember as torch


def show(title):
    print(f"\n== {title} " + "=" * (74 - len(title)))


def step(code, env):
    """Print a line of code, run it, and print its value if it is an expression."""
    print(f">>> {code}")
    try:
        value = eval(code, env)
    except SyntaxError:
        exec(code, env)
        return
    except Exception as exc:       # the tour shows errors too
        print(f"{type(exc).__name__}: {exc}")
        return
    if value is not None:
        print(value)


def tour(title, lines, env):
    show(title)
    for line in lines:
        step(line, env)


def main():
    env = {"torch": torch, "np": np}
    tour("Tensors have a shape, a dtype and a device", [
        "a = torch.tensor([[1, 2, 3], [4, 5, 6]])",
        "a", "a.shape", "a.dtype", "a.device",
        "torch.tensor([1., 2.]).dtype",
        "torch.zeros(2, 3, dtype=torch.float64)",
        "torch.cuda.is_available()",
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')",
        "a.to(device).device",
    ], env)
    tour("One flat storage; shape, stride and offset are a window onto it", [
        "x = torch.arange(12.).reshape(3, 4)",
        "x.stride(), x.storage_offset(), x.is_contiguous()",
        "row = x[1]",
        "row.stride(), row.storage_offset()",
        "col = x[:, 2]",
        "col.stride(), col.storage_offset()",
        "x.untyped_storage().data_ptr() == col.untyped_storage().data_ptr()",
        "col[0] = 100.",
        "x",
    ], env)
    tour("Views share memory; reshape copies only when it must", [
        "t = x.t()",
        "t.stride(), t.is_contiguous()",
        "t.view(12)",
        "flat = t.reshape(12)",
        "flat.data_ptr() == x.data_ptr()",
        "c = t.contiguous()",
        "c.stride(), c.is_contiguous()",
        "x.unsqueeze(0).shape, x.unsqueeze(0).stride()",
        "x.expand(2, 3, 4).stride()",
        "x.permute(1, 0).shape",
    ], env)
    tour("Element-wise math broadcasts and promotes like torch", [
        "i = torch.tensor([1, 2, 3])",
        "i / 2",
        "i + 2.5",
        "i.to(torch.int8) * 200",
        "torch.ones(2, 3) + torch.tensor([10., 20., 30.])",
        "torch.ones(2, 3) + torch.ones(4)",
        "i.add_(1)",
        "i",
        "i.add_(0.5)",
    ], env)
    tour("NumPy shares memory with CPU tensors", [
        "n = np.zeros(3)",
        "t = torch.from_numpy(n)",
        "t.add_(1)",
        "n",
        "t.numpy()[0] = 7",
        "t",
    ], env)
    tour("Autograd records the graph as the code runs", [
        "w = torch.tensor([[1., 2.], [3., 2.]], requires_grad=True)",
        "y = w ** 3",
        "y",
        "z = (y + 3).mean()",
        "z",
        "z.grad_fn.next_functions",
        "y.retain_grad()",
        "z.backward()",
        "w.grad",
        "y.grad",
        "z.backward()",
    ], env)
    tour("no_grad and detach step outside the graph", [
        "with torch.no_grad():\n    print((w * 2).requires_grad)",
        "w.detach().requires_grad",
        "(w * 2).sum().backward()",
        "w.grad",
    ], env)


if __name__ == "__main__":
    main()
