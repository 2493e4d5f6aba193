"""AdaptiveLogSoftmaxWithLoss: the adaptive softmax of Grave et al. (frequent classes in a head,
rarer ones in clusters behind smaller projections), with torch's parameter names and shapes so
state_dicts load either way, and torch's errors."""
import itertools
from collections import namedtuple

from ..._ops.registry import FUNCTIONS as _FUNCTIONS
from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """Efficient softmax approximation for many classes, sorted by frequency (0 = most frequent).

    Classes below cutoffs[0] sit in the head with one logit per cluster; cluster i holds classes
    cutoffs[i - 1]..cutoffs[i] - 1 behind a projection to in_features // div_value ** i
    features. forward(input, target) returns `_ASMoutput(output, loss)`: each row's target
    log-probability and their negated mean. `log_prob(input)` gives every class's
    log-probability, `predict(input)` the most likely class.

        >>> asm = nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[4, 10])
        >>> asm(torch.randn(3, 8), torch.tensor([1, 5, 15])).output.shape
        torch.Size([3])
    """

    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
                 device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted "
                             "in an increasing order, where each value is between 1 and "
                             "n_classes-1")
        factory = {"device": device, "dtype": dtype}
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        # NOTE: created in torch's order (head, then each cluster's two maps), so the same seed
        # gives the same initial weights.
        self.head = Linear(in_features, self.head_size, bias=head_bias, **factory)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(in_features, hidden, bias=False, **factory),
                                        Linear(hidden, size, bias=False, **factory)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for projection, output in self.tail:
            projection.reset_parameters()
            output.reset_parameters()

    def forward(self, input_, target_):
        _check_shapes(input_, target_)
        batched = target_.dim() > 0
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        batch = target.size(0)
        output = input.new_zeros(batch)
        # For each row: its target (head classes) or its cluster's logit in the head.
        head_index = target.new_empty(batch)
        bounds = [0] + self.cutoffs
        used = 0
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            mask = (target >= low) & (target < high)
            rows = mask.nonzero().view(-1)
            if rows.numel() == 0:
                continue
            if i == 0:
                head_index.index_copy_(0, rows, target[mask])
            else:
                cluster_logprob = F.log_softmax(self.tail[i - 1](input.index_select(0, rows)),
                                                dim=1)
                local = cluster_logprob.gather(1, (target[mask] - low).unsqueeze(1))
                head_index.index_fill_(0, rows, self.shortlist_size + i - 1)
                output.index_copy_(0, rows, local.squeeze(1))
            used += rows.numel()
        if used != batch:
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values "
                               f"in range [{target.min().item()}, {target.max().item()}] were "
                               f"found. ")
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output += head_logprob.gather(1, head_index.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input, head_output):
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = F.log_softmax(head_output, dim=1)
        out[:, :self.shortlist_size] = head_logprob[:, :self.shortlist_size]
        for i, (start, stop) in enumerate(itertools.pairwise(self.cutoffs)):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            out[:, start:stop] = cluster_logprob + head_logprob[:, self.shortlist_size + i
                                                                ].unsqueeze(1)
        return out

    def log_prob(self, input):
        """log-probabilities of all n_classes classes: (N, in_features) -> (N, n_classes)."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most likely class of each row, as log_prob(input).argmax(1), computing the
        clusters only for rows whose head prefers a cluster."""
        head_output = self.head(input)
        output = _FUNCTIONS["argmax"](head_output, dim=1)
        outside = output >= self.shortlist_size
        if not outside.any():
            return output
        if outside.all():
            return _FUNCTIONS["argmax"](self._full_log_prob(input, head_output), dim=1)
        log_prob = self._full_log_prob(input[outside], head_output[outside])
        output[outside] = _FUNCTIONS["argmax"](log_prob, dim=1)
        return output


def _check_shapes(input, target):
    if target.dim() == 1:
        if input.size(0) != target.size(0):
            raise RuntimeError("Input and target should have the same size in the batch "
                               "dimension.")
        if input.dim() != 2:
            raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs "
                               f"with size {input.size()}")
    elif target.dim() == 0:
        if input.dim() != 1:
            raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs "
                               f"with size {input.size()}")
    else:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
