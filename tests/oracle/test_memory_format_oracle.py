"""Strides and aliasing of layout changes against real torch: channels-last with dims of size
1, `.to(memory_format=...)` aliasing, layout-following convolutions, `dim_order`. Skipped when
torch is not installed."""
import pytest

torch = pytest.importorskip("torch")
import ember  # noqa: E402

pytestmark = pytest.mark.oracle

CL = "m.channels_last"
STRIDES = [
    f"m.ones(2,1,4,5).to(memory_format={CL})", f"m.ones(2,3,1,1).to(memory_format={CL})",
    f"m.ones(2,3,1,1).contiguous(memory_format={CL})", f"m.empty(2,1,4,5, memory_format={CL})",
    f"m.ones(2,1,4,5).contiguous(memory_format={CL})", f"m.ones(2,3,4,5).to(memory_format={CL})",
    f"m.ones(2,1,4,5).clone(memory_format={CL})",
    f"m.empty_like(m.ones(2,1,4,5), memory_format={CL})",
    "m.ones(2,1,1,4,5).to(memory_format=m.channels_last_3d)",
    f"m.nn.Conv2d(1,2,3)(m.ones(2,1,4,5).to(memory_format={CL}))",
    f"m.nn.Conv2d(1,1,3).to(memory_format={CL}).weight",
    f"m.nn.Conv2d(3,1,3)(m.ones(2,3,4,5).to(memory_format={CL}))",
    f"m.nn.Conv2d(3,4,3)(m.ones(2,3,4,5).to(memory_format={CL}))",
    "m.ones(2,3).t().to(memory_format=m.contiguous_format)",
    f"m.ones(2,3,4,5).to(memory_format={CL}).to(memory_format=m.contiguous_format)",
    "m.ones(2,3,4,5).permute(0,2,3,1).to(memory_format=m.contiguous_format)",
    f"m.ones(2,3,4,5).to(memory_format={CL})[:, :, ::2].to(memory_format={CL})",
    f"m.ones(4,1,1,1).to(memory_format={CL})", f"m.ones(2,3,4,1).to(memory_format={CL})",
    f"m.ones(2,3,4,5).to(m.float64, memory_format={CL})",
    f"m.ones(2,3,4,5).to(memory_format={CL}) + 1",
    f"m.nn.BatchNorm2d(3)(m.ones(2,3,4,4).to(memory_format={CL}))",
]
DIM_ORDER = [
    "m.ones(2,3)", "m.ones(2,3).t()", "m.ones(2,3,4,5).permute(0,2,3,1)", "m.ones(2,1,3)",
    "m.ones(2,3).expand(4,2,3)", "m.ones(3,1).t()", f"m.ones(2,3,4,5).to(memory_format={CL})",
    f"m.ones(2,1,4,5).to(memory_format={CL})", f"m.ones(2,3,1,1).to(memory_format={CL})",
    "m.ones(4,6)[:, ::2]", "m.ones(3,4,5).permute(2,0,1)", "m.ones(2,2,2,2).permute(3,2,1,0)",
    "m.ones(3,3).expand(2,3,3).permute(1,0,2)", "m.ones(2,3,4,5,6).permute(0,2,3,4,1)",
]


@pytest.mark.parametrize("case", STRIDES)
def test_strides_match_torch(case):
    assert eval(case, {"m": ember}).stride() == eval(case, {"m": torch}).stride()


@pytest.mark.parametrize("case", DIM_ORDER)
def test_dim_order_matches_torch(case):
    assert eval(case, {"m": ember}).dim_order() == eval(case, {"m": torch}).dim_order()


@pytest.mark.parametrize("source", ["m.ones(2,3,4,5)", f"m.ones(2,3,4,5).to(memory_format={CL})",
                                    "m.ones(2,3).t()", "m.ones(2,1,4,5)"])
@pytest.mark.parametrize("fmt", ["m.channels_last", "m.contiguous_format", "m.preserve_format"])
def test_to_aliases_as_torch(source, fmt):
    def aliases(m):
        x = eval(source, {"m": m})
        if x.ndim != 4 and "channels" in fmt:
            return "rank"
        return x.to(memory_format=eval(fmt, {"m": m})) is x
    assert aliases(ember) == aliases(torch)


X = f"m.randn(2,3,6,6).to(memory_format={CL})"
FN = "m.nn.functional"
RESULTS = [
    f"{FN}.max_pool2d({X}, 2)", f"{FN}.max_pool2d({X}, 3, stride=2, padding=1)",
    f"{FN}.max_pool2d({X}, 2, return_indices=True)[1]", f"{FN}.avg_pool2d({X}, 2)",
    f"{FN}.adaptive_avg_pool2d({X}, 1)", f"{FN}.adaptive_avg_pool2d({X}, 3)",
    f"{FN}.adaptive_max_pool2d({X}, 3)", f"{FN}.interpolate({X}, scale_factor=2)",
    f"{FN}.interpolate({X}, scale_factor=2, mode='bilinear')",
    f"{FN}.interpolate({X}, size=(3,3), mode='bicubic')", f"{FN}.pad({X}, (1,1,1,1))",
    f"{FN}.pad({X}, (1,1,1,1), mode='reflect')", f"{FN}.pad({X}, (1,1,1,1), mode='replicate')",
    f"{FN}.pad({X}, (1,1,1,1), mode='circular')", f"{FN}.lp_pool2d({X}, 2, 2)",
    f"{FN}.pixel_shuffle(m.randn(2,4,3,3).to(memory_format={CL}), 2)",
    f"{FN}.channel_shuffle(m.randn(2,4,3,3).to(memory_format={CL}), 2)",
    f"{FN}.relu({X})", f"{FN}.dropout({X}, 0.0)", f"{FN}.group_norm({X}, 1)",
    f"{FN}.layer_norm({X}, (6,))", f"{FN}.instance_norm({X})", f"{X}.sum(2, keepdim=True)",
    f"{X}.sum(2)", f"{X}.mean((2,3), keepdim=True)", f"{X}.amax(1, keepdim=True)",
    f"{X}.max(1, keepdim=True)[0]", f"{X}.argmax(1, keepdim=True)", f"{X}.cumsum(1)",
    f"{X}.cummax(1)[0]", f"{FN}.softmax({X}, 1)", f"{FN}.log_softmax({X}, -1)",
    "m.softmax(m.randn(3,4).t(), 1)", "m.randn(3,4,5).permute(2,0,1).sum(1, keepdim=True)",
    f"m.nn.MaxPool2d(2)({X})", f"m.nn.Upsample(scale_factor=2)({X})",
]


@pytest.mark.parametrize("case", RESULTS)
def test_result_layouts_match_torch(case):
    assert eval(case, {"m": ember}).stride() == eval(case, {"m": torch}).stride()
