"""The list of backends torch names in its error for an operator with no sparse kernel
(`not_implemented` in _coo.py). It depends on which kernels the operator has; most
element-wise and reduction operators have the first list."""

_DEVICES = ("CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, MTIA, MAIA, PrivateUse1, PrivateUse2, "
            "PrivateUse3, Meta, FPGA, Vulkan, Metal")
_QUANTIZED = ", ".join(f"Quantized{d}" for d in (
    "CPU", "CUDA", "HIP", "MPS", "IPU", "XPU", "HPU", "VE", "MTIA", "MAIA", "PrivateUse1",
    "PrivateUse2", "PrivateUse3", "Meta"))
_CSR = ", ".join(f"SparseCsr{d}" for d in (
    "CPU", "CUDA", "HIP", "MPS", "IPU", "XPU", "HPU", "VE", "MTIA", "MAIA", "PrivateUse1",
    "PrivateUse2", "PrivateUse3", "Meta"))
_NESTED = "NestedTensorCPU, NestedTensorHPU"
_TAIL = ("BackendSelect, Python, FuncTorchDynamicLayerBackMode, Functionalize, Conjugate, "
         "Negative, ZeroTensor, ADInplaceOrView, AutogradOther, AutogradCPU, AutogradCUDA, "
         "AutogradHIP, AutogradXLA, AutogradMPS, AutogradIPU, AutogradXPU, AutogradHPU, "
         "AutogradVE, AutogradLazy, AutogradMTIA, AutogradMAIA, AutogradPrivateUse1, "
         "AutogradPrivateUse2, AutogradPrivateUse3, AutogradMeta, AutogradNestedTensor, "
         "Tracer, AutocastCPU, AutocastMTIA, AutocastMAIA, AutocastXPU, AutocastMPS, "
         "AutocastCUDA, FuncTorchBatched, BatchedNestedTensor, FuncTorchVmapMode, Batched, "
         "VmapMode, FuncTorchGradWrapper, PythonTLSSnapshot, FuncTorchDynamicLayerFrontMode, "
         "PreDispatch, PythonDispatcher")

_STRUCTURED = f"{_DEVICES}, {_QUANTIZED}, CustomRNGKeyId, MkldnnCPU, {_CSR}"
_LISTS = {
    "structured": f"{_STRUCTURED}, {_TAIL}",
    "nested": f"{_STRUCTURED}, {_NESTED}, {_TAIL}",         # ops with nested-tensor kernels
    "cpu_quantized": f"CPU, Meta, QuantizedCPU, {_TAIL}",
    "cpu": f"CPU, Meta, {_TAIL}",
    "view": f"CPU, Meta, QuantizedCPU, MkldnnCPU, {_NESTED}, {_TAIL}",
    "fill": f"CPU, Meta, QuantizedCPU, SparseCsrCPU, SparseCsrMeta, {_NESTED}, {_TAIL}",
    "sparse_only": f"Meta, SparseCPU, SparseMeta, SparseCsrCPU, SparseCsrMeta, {_TAIL}",
    "coo_only": f"Meta, SparseCPU, SparseMeta, {_TAIL}",
    "coo_cpu": f"Meta, SparseCPU, {_TAIL}",
    "mask": f"Meta, SparseCPU, SparseCsrCPU, SparseCsrMeta, {_TAIL}",
    "cpu_csr": f"CPU, Meta, SparseCsrCPU, SparseCsrMeta, {_TAIL}",
    "csr_cpu": f"Meta, SparseCsrCPU, {_TAIL}",
}
_KIND = {"max": "cpu_quantized", "min": "cpu_quantized", "flip": "cpu_quantized",
         "std.correction": "cpu_quantized",
         "prod": "cpu", "nonzero": "cpu", "view": "view", "fill_.Scalar": "fill",
         "_softmax": "nested", "_log_softmax": "nested", "_nnz": "sparse_only",
         "sparse_mask": "mask", "sparse_resize_": "coo_only", "_values": "coo_only",
         "sparse_resize_and_clear_": "coo_only", "resize_as_sparse_": "coo_only",
         "hspmm": "coo_cpu", "as_strided": "cpu_quantized", "_indices": "coo_only",
         "unfold": "cpu_quantized", "roll": "cpu", "trace": "cpu", "median": "cpu",
         "kthvalue.values": "cpu", "var.correction": "cpu", "angle": "cpu_csr",
         "sparse_sampled_addmm": "csr_cpu", "_sparse_mm_reduce_impl": "csr_cpu"}


def backends_text(name):
    base = name.split(".")[0]
    if name in _KIND:
        return _LISTS[_KIND[name]]
    if base in ("eq", "ne", "gt", "lt", "ge", "le"):
        return _LISTS["nested"]
    return _LISTS["structured"]
