"""torch.nn.functional given arguments of the wrong type, run under real torch and under ember
(`import ember as torch`): the exception's type and first line must be torch's.

A number where a tensor is taken, a float where an int or a tuple of ints is taken, a float
size for interpolate, keyword-only arguments given by position: torch's argument parser
refuses these with a TypeError that names the C function the Python function reaches
(nll_loss_nd, grid_sampler, im2col, upsample_nearest2d), before any shape check. Valid calls
next to them check that nothing else changed.
"""
import pytest

pytest.importorskip("torch")

from differential import one_torch_thread, snippet_tests  # noqa: E402,F401

pytestmark = [pytest.mark.oracle, pytest.mark.usefixtures("one_torch_thread")]

SETUP = ("F = torch.nn.functional; g = torch.Generator().manual_seed(0)\n"
         "x4 = torch.rand(2, 3, 4, 4, generator=g) - 0.5; x3 = torch.rand(2, 3, 6, generator=g)\n"
         "x2 = torch.rand(3, 5, generator=g) - 0.5; x1 = torch.rand(5, generator=g) - 0.5\n"
         "x5 = torch.rand(1, 2, 3, 4, 4, generator=g); i2 = torch.tensor([[0, 1], [2, 0]])\n")

# calls whose first line of output (a value, or an exception's type and text) must be torch's
CALLS = [
    # convolutions: conv1d/2d/3d have two overloads (numeric or string padding)
    "F.conv2d(x4, 1)", "F.conv2d(x4, 0.5)", "F.conv2d(x4, 1, 1)", "F.conv2d(x2, 1)",
    "F.conv1d(x3, 1)", "F.conv1d(x4, 1)", "F.conv1d(x4, 0.5)", "F.conv3d(x5, 1)",
    "F.conv3d(x2, 1)", "F.conv2d(1, torch.ones(1, 3, 1, 1))",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), 1)", "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, 0.5)",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, 1, 0.5)",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, 1, 0, 1, 1.0)",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, (1.5, 1))",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, 1, 'same').shape",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, 2, 1).shape",
    "F.conv1d(x3, torch.ones(2, 3, 2), torch.ones(2), 1, 'valid').shape",
    "F.conv2d(x4, torch.ones(1, 3, 1, 1), None, 1, 'bad')",
    "F.conv2d(x2, torch.ones(1, 3, 1, 1), None, 0.5)",
    "F.conv_transpose1d(x3, 1)", "F.conv_transpose1d(x4, 1)", "F.conv_transpose1d(x2, 0.5)",
    "F.conv_transpose2d(x4, 1)", "F.conv_transpose2d(x2, 1)", "F.conv_transpose2d(x4, 0.5)",
    "F.conv_transpose3d(x5, 1)", "F.conv_transpose3d(x2, 0.5)",
    "F.conv_transpose2d(x4, torch.ones(3, 1, 1, 1), 1)",
    "F.conv_transpose2d(x4, torch.ones(3, 1, 1, 1)).shape",
    # normalization
    "F.batch_norm(x4, 1, 1)", "F.batch_norm(x2, 1, 1)", "F.batch_norm(x1, 1, 1)",
    "F.batch_norm(x4, torch.zeros(3), 1)", "F.batch_norm(x4, torch.zeros(3), torch.ones(3), 1)",
    "F.batch_norm(x4, torch.zeros(3), torch.ones(3)).shape",
    "F.instance_norm(x4, 1)", "F.instance_norm(x4, 0.5)", "F.instance_norm(x4, 1, 1)",
    "F.instance_norm(x4, None, None, 1)", "F.instance_norm(x4).shape",
    "F.group_norm(x4, 1, 1)", "F.group_norm(x4, 3, None, 1)", "F.group_norm(x4, 3).shape",
    "F.group_norm(x4, 1, 1, 1)",
    "F.local_response_norm(x4, 0.5)", "F.local_response_norm(x3, 0.5)",
    "F.local_response_norm(x4, 2).shape",
    # linear maps, distances
    "F.bilinear(x2, 1, 1)", "F.bilinear(x4, 1, 1)", "F.bilinear(x2, x2, 1)",
    "F.cosine_similarity(x4, 1)", "F.cosine_similarity(x4, 0.5)", "F.cosine_similarity(x2, 1, dim=-1)",
    "F.cosine_similarity(x1, 2)", "F.cosine_similarity(1, x4)", "F.cosine_similarity(x2, x2)",
    "F.pairwise_distance(x4, 1)", "F.pairwise_distance(x2, 0.5)", "F.pairwise_distance(x1, 2)",
    "F.pairwise_distance(1, x2)", "F.pairwise_distance(x2, x2)",
    "F.embedding(x4, 1)", "F.embedding(i2, 0.5)", "F.embedding(i2, 1)", "F.embedding(x2, 2)",
    "F.embedding(i2, torch.ones(3, 2))",
    # losses
    "F.kl_div(x4, 1)", "F.kl_div(x2, 0.5)", "F.kl_div(x1, 2, reduction='sum')",
    "F.kl_div(x2, x2, reduction='sum')",
    "F.nll_loss(x4, 1)", "F.nll_loss(x2, 0.5)", "F.nll_loss(x1, 2)", "F.nll_loss(x3, 1)",
    "F.nll_loss(x2, torch.tensor([0, 1, 2]))",
    "F.soft_margin_loss(x4, 1)", "F.soft_margin_loss(x2, 0.5)", "F.soft_margin_loss(x1, 1)",
    "F.soft_margin_loss(x2, x2)",
    "F.triplet_margin_loss(x4, 1, 1)", "F.triplet_margin_loss(x2, 1, 1)",
    "F.triplet_margin_loss(x2, x2, 1)", "F.triplet_margin_loss(x2, x2, x2)",
    "F.cosine_embedding_loss(x4, 1, 1)", "F.cosine_embedding_loss(x2, 1, 1)",
    "F.cosine_embedding_loss(x2, x2, 1)", "F.cosine_embedding_loss(x2, x2, torch.ones(3))",
    "F.multi_margin_loss(x4, 1)", "F.multi_margin_loss(x2, 1)", "F.multi_margin_loss(x2, 0.5)",
    "F.multi_margin_loss(x1, 1)",
    "F.multilabel_margin_loss(x4, 1)", "F.multilabel_margin_loss(x2, 1)",
    "F.multilabel_margin_loss(x2, 0.5)", "F.multilabel_margin_loss(x1, 2)",
    "F.poisson_nll_loss(x4, 1)", "F.poisson_nll_loss(x2, 2)", "F.poisson_nll_loss(x1, 0.5)",
    "F.poisson_nll_loss(x2, 1, False)", "F.poisson_nll_loss(x2, x2)",
    "F.gaussian_nll_loss(x4, 1, 1)", "F.gaussian_nll_loss(x2, 1, 1)",
    "F.gaussian_nll_loss(x1, 1, 1)", "F.gaussian_nll_loss(x2, x2, 1)",
    "F.gaussian_nll_loss(x2, x2, x2.abs())",
    "F.mse_loss(x2, 1)", "F.l1_loss(x2, 0.5)",
    # pooling
    "F.max_pool1d(x4, 0.5)", "F.max_pool1d(x1, 0.5)", "F.max_pool1d(x3, 0.5)",
    "F.max_pool1d(x3, 2).shape", "F.max_pool1d(x3, 2, 1.5)",
    "F.max_pool1d_with_indices(x4, 0.5)", "F.max_pool1d_with_indices(x1, 0.5)",
    "F.max_pool1d_with_indices(x3, 0.5)", "F.avg_pool1d(x4, 0.5)", "F.avg_pool1d(x1, 0.5)",
    "F.avg_pool1d(x3, 0.5)", "F.avg_pool1d(x3, 2).shape",
    "F.max_pool2d(x4, 0.5)", "F.max_pool2d(x4, 2).shape", "F.avg_pool2d(x4, 0.5)",
    "F.max_unpool1d(x3, 1, 1)", "F.max_unpool2d(x4, 1, 1)",
    "F.max_unpool2d(x3, 1, 1)", "F.max_unpool3d(x4, 1, 1)",
    "F.max_unpool3d(x5, 1, 1)",
    "F.adaptive_avg_pool3d(x1, 1)", "F.adaptive_avg_pool3d(x2, 1)",
    "F.adaptive_avg_pool2d(x1, 1)", "F.adaptive_max_pool3d(x1, 1)",
    "F.adaptive_avg_pool3d(x4, 1).shape",
    # vision
    "F.grid_sample(x4, 1)", "F.grid_sample(x4, 0.5)", "F.grid_sample(x2, 1)",
    "F.grid_sample(x4, 1, align_corners=False)",
    "F.pixel_shuffle(x2, 0.5)", "F.pixel_shuffle(x1, 0.5)", "F.pixel_shuffle(x4, 0.5)",
    "F.pixel_shuffle(x4, 1).shape",
    "F.pixel_unshuffle(x2, 0.5)", "F.pixel_unshuffle(x4, 0.5)", "F.pixel_unshuffle(x4, 2).shape",
    "F.channel_shuffle(x2, 0.5)", "F.channel_shuffle(x1, 0.5)", "F.channel_shuffle(x4, 0.5)",
    "F.channel_shuffle(x4, 3).shape",
    "F.native_channel_shuffle(x2, 0.5)", "F.native_channel_shuffle(x4, 0.5)",
    "F.one_hot(x4, 0.5)", "F.one_hot(i2, 0.5)", "F.one_hot(i2, 3).shape", "F.one_hot(x2, 3)",
    "F.unfold(x4, 0.5)", "F.unfold(x4, 2).shape", "F.unfold(x4, 2, 0.5)", "F.unfold(x4, (2, 1.5))",
    "F.fold(x3, 2, 0.5)",
    "F.interpolate(x4, 0.5)", "F.interpolate(x3, 0.5)", "F.interpolate(x4, 2).shape",
    "F.interpolate(x4, 2.0)", "F.interpolate(x4, (2, 1.5))", "F.interpolate(x5, 0.5)",
    "F.interpolate(x4, 0.5, mode='bilinear')", "F.interpolate(x3, 0.5, mode='linear')",
    "F.interpolate(x4, scale_factor=0.5).shape", "F.interpolate(x4, 3, mode='bicubic').shape",
    "F.upsample(x4, 0.5)", "F.upsample(x3, 0.5)", "F.upsample_nearest(x4, 0.5)",
    "F.upsample_nearest(x3, 0.5)", "F.upsample_bilinear(x4, 0.5)",
    "F.scaled_dot_product_attention(x4, 1, 1)", "F.scaled_dot_product_attention(x2, 1, 1)",
    "F.scaled_dot_product_attention(x4, x4, 1)",
    "F.scaled_dot_product_attention(x4, x4, x4).shape",
    # activations
    "F.gelu(x2, 1)", "F.gelu(x4, 'tanh')", "F.gelu(x2, approximate='tanh').shape",
    "F.gelu(x2, approximate='bad')",
    "F.elu_(x2.clone(), 1, 1)", "F.elu_(x1.clone(), 2, 1)", "F.elu_(x1.clone(), 2, 3)",
    "F.elu_(x1.clone(), 1, 1, 1, 1)",
    "F.hardtanh_(x2.clone(), 2)", "F.hardtanh_(x1.clone(), 2)", "F.hardtanh_(x1.clone(), 1, 0)",
    "F.hardtanh(x1, 2)", "F.hardtanh(x1, 1, 0)",
    # more of the same
    "F.kl_div(1, x2)", "F.soft_margin_loss(1, x2)", "F.nll_loss(x2, None)",
    "F.batch_norm(x4, None, None, training=True).shape", "F.batch_norm(x4, None, 0.5, training=True)",
    "F.instance_norm(x4, torch.zeros(3), 0.5)", "F.group_norm(x4, 3, torch.ones(3), 0.5)",
    "F.conv_transpose2d(x4, torch.ones(3, 1, 1, 1), None, 0.5)",
    "F.conv_transpose1d(x3, torch.ones(3, 1, 1), None, 1, 0, 1.5)",
    "F.conv_transpose2d(x4, torch.ones(3, 1, 1, 1), None, 1, 0, 0, 1.0)",
    "F.conv3d(x5, torch.ones(1, 2, 1, 1, 1), None, 1, 1, 0.5)",
    "F.max_pool1d(x3, (2,), 0.5)", "F.max_pool2d(x4, (2, 0.5))", "F.max_pool2d(x4, 2, 1, 0.5)",
    "F.max_pool2d(x4, 2, return_indices=True)[1].shape", "F.avg_pool2d(x4, 2, 0.5)",
    "F.one_hot(i2, True)", "F.pixel_shuffle(x4, torch.tensor(1)).shape",
    "F.gaussian_nll_loss(x2, x2, 1.0)", "F.gaussian_nll_loss(x2, x2, None)",
    "F.interpolate(x4, (2, 2)).shape", "F.interpolate(x4, 0.5, mode='nearest-exact')",
    "F.interpolate(x4, 0.5, mode='bicubic')", "F.interpolate(x5, 1.5, mode='trilinear')",
    "F.cosine_similarity(x2, x2, 0.5)", "F.scaled_dot_product_attention(1, x4, x4)",
    "F.grid_sample(1, x4)",
    # where torch's own Python code reads an attribute of the number first, its
    # AttributeError is what torch raises
    "F.binary_cross_entropy(x4, 1)", "F.binary_cross_entropy_with_logits(x2, 0.5)",
    "F.margin_ranking_loss(x2, 1, 1)", "F.margin_ranking_loss(x2, x2, 1)",
    "F.huber_loss(x2, 1, 1)", "F.huber_loss(x2, 0.5)", "F.linear_cross_entropy(x2, 1, 1)",
    "F.embedding(i2, 1, 1)", "F.embedding(i2, 1, 0)", "F.embedding_bag(i2, 1)",
    "F.embedding_bag(x2, 0.5)", "F.max_unpool2d(x1, 1, 1)", "F.max_unpool3d(x2, 1, 1)",
    "F.embedding(i2, torch.ones(3, 2), padding_idx=1.5)",
    "F.embedding(i2, torch.ones(3, 2), padding_idx=1).shape",
    "F.batch_norm(x4, torch.zeros(3), torch.ones(3), None, 1)",
    "F.batch_norm(x4, torch.zeros(3), torch.ones(3), torch.ones(3), torch.zeros(3)).shape",
]

SNIPPETS = [SETUP + f"print({c})" for c in CALLS]

test_snippet_prints_like_torch, test_there_are_many_snippets = snippet_tests(
    SNIPPETS, at_least=200)
