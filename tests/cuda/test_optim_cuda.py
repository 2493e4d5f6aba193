"""Every optimizer on the GPU (the real one where there is one, else the fake CuPy): a few
steps of a small float64 model on 'cuda' end with the parameters and optimizer state the same
steps give on the CPU, and the state lives on the parameters' device (torch's cross-device
check of its optimizers)."""
import numpy as np
import pytest

import ember
from ember import nn, optim

CASES = {
    "SGD": lambda p: optim.SGD(p, lr=0.1),
    "SGD-nesterov": lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True,
                                        weight_decay=0.01),
    "Adam": lambda p: optim.Adam(p, lr=0.01),
    "Adam-amsgrad": lambda p: optim.Adam(p, lr=0.01, amsgrad=True, weight_decay=0.1),
    "AdamW": lambda p: optim.AdamW(p, lr=0.01),
    "RMSprop-centered": lambda p: optim.RMSprop(p, lr=0.01, centered=True, momentum=0.5),
    "Adagrad": lambda p: optim.Adagrad(p, lr=0.1),
    "Adadelta": lambda p: optim.Adadelta(p),
    "Adamax": lambda p: optim.Adamax(p, lr=0.01),
    "NAdam": lambda p: optim.NAdam(p, lr=0.01),
    "RAdam": lambda p: optim.RAdam(p, lr=0.01),
    "ASGD": lambda p: optim.ASGD(p, lr=0.01),
    "Rprop": lambda p: optim.Rprop(p, lr=0.01),
    "Adafactor": lambda p: optim.Adafactor(p, lr=0.01),
    "LBFGS": lambda p: optim.LBFGS(p, lr=0.5, max_iter=4),
    "LBFGS-wolfe": lambda p: optim.LBFGS(p, max_iter=4, line_search_fn="strong_wolfe"),
}


def _train(make, device):
    ember.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)).double().to(device)
    x = ember.linspace(-1, 1, 24, dtype=ember.float64).reshape(6, 4).to(device)
    y = ember.tensor([0, 1, 2, 0, 1, 2]).to(device)
    opt = make(model.parameters())

    def closure():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        return loss
    for _ in range(4):
        opt.step(closure)
    for state in opt.state.values():
        for value in state.values():
            if isinstance(value, ember.Tensor) and value.numel() > 1:
                assert value.device.type == device, f"state on {value.device}"
    return ([p.detach().cpu().numpy() for p in model.parameters()],
            closure().item())


@pytest.mark.parametrize("name", list(CASES))
def test_optimizer_steps_agree_with_cpu(gpu, name):
    want, want_loss = _train(CASES[name], "cpu")
    got, got_loss = _train(CASES[name], "cuda")
    tol = 1e-12 if gpu.__name__.endswith("fake_cupy") else 1e-9
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)
    assert abs(got_loss - want_loss) <= tol * max(1.0, abs(want_loss))
    fresh = _train(lambda p: optim.SGD(p, lr=0.0), "cpu")[1]
    assert got_loss != fresh             # the steps moved the model
