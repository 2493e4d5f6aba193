"""Which module sequences `fuse_modules` can join, and how: a Conv with its BatchNorm folds
into one Conv (in eval mode; for QAT they stay side by side in a ConvBn module), and a
Conv or Linear (and BatchNorm) with its ReLU become a fused intrinsic module."""
from ...nn.modules.activation import ReLU
from ...nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from ...nn.modules.conv import Conv1d, Conv2d, Conv3d
from ...nn.modules.linear import Linear
from ...nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval
from ..nn import intrinsic as nni

__all__ = ["fuse_conv_bn", "fuse_conv_bn_relu", "fuse_linear_bn", "get_fuser_method"]


def fuse_conv_bn(is_qat, conv, bn):
    """conv then bn: one Conv with bn folded in (eval), or a ConvBnNd (QAT)."""
    if conv.training != bn.training:
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    fused_class = {Conv1d: nni.ConvBn1d, Conv2d: nni.ConvBn2d, Conv3d: nni.ConvBn3d}
    if is_qat:
        if bn.num_features != conv.out_channels:
            raise AssertionError("Output channel of Conv2d must match num_features of "
                                 "BatchNorm2d.")
        if not bn.affine:
            raise AssertionError("Only support fusing BatchNorm2d with affine set to True")
        if not bn.track_running_stats:
            raise AssertionError("Only support fusing BatchNorm2d with tracking_running_stats "
                                 "set to True")
        return fused_class[type(conv)](conv, bn)
    return fuse_conv_bn_eval(conv, bn)


def fuse_conv_bn_relu(is_qat, conv, bn, relu):
    """conv, bn, relu: ConvReLUNd of the folded Conv (eval), or ConvBnReLUNd (QAT)."""
    if not conv.training == bn.training == relu.training:
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    if is_qat:
        fused_class = {Conv1d: nni.ConvBnReLU1d, Conv2d: nni.ConvBnReLU2d,
                       Conv3d: nni.ConvBnReLU3d}
        if bn.num_features != conv.out_channels:
            raise AssertionError("Output channel of Conv must match num_features of "
                                 "BatchNorm")
        return fused_class[type(conv)](conv, bn, relu)
    fused_class = {Conv1d: nni.ConvReLU1d, Conv2d: nni.ConvReLU2d, Conv3d: nni.ConvReLU3d}
    return fused_class[type(conv)](fuse_conv_bn_eval(conv, bn), relu)


def fuse_linear_bn(is_qat, linear, bn):
    """linear then bn: one Linear with bn folded in (eval), or a LinearBn1d (QAT)."""
    if linear.training != bn.training:
        raise AssertionError("Linear and BN both must be in the same mode (train or eval).")
    if is_qat:
        if bn.num_features != linear.out_features:
            raise AssertionError("Output features of Linear must match num_features of "
                                 "BatchNorm1d")
        return nni.LinearBn1d(linear, bn)
    return fuse_linear_bn_eval(linear, bn)


def _sequential(fused_class):
    def fuse(is_qat, *modules):
        return fused_class(*modules)
    fuse.__name__ = f"fuse_to_{fused_class.__name__}"
    return fuse


_DEFAULT_OP_LIST_TO_FUSER_METHOD = {
    (Conv1d, BatchNorm1d): fuse_conv_bn,
    (Conv1d, BatchNorm1d, ReLU): fuse_conv_bn_relu,
    (Conv2d, BatchNorm2d): fuse_conv_bn,
    (Conv2d, BatchNorm2d, ReLU): fuse_conv_bn_relu,
    (Conv3d, BatchNorm3d): fuse_conv_bn,
    (Conv3d, BatchNorm3d, ReLU): fuse_conv_bn_relu,
    (Conv1d, ReLU): _sequential(nni.ConvReLU1d),
    (Conv2d, ReLU): _sequential(nni.ConvReLU2d),
    (Conv3d, ReLU): _sequential(nni.ConvReLU3d),
    (Linear, BatchNorm1d): fuse_linear_bn,
    (BatchNorm2d, ReLU): _sequential(nni.BNReLU2d),
    (BatchNorm3d, ReLU): _sequential(nni.BNReLU3d),
    (Linear, ReLU): _sequential(nni.LinearReLU),
}


def get_fuser_method(op_list, additional_fuser_method_mapping=None):
    """The function that fuses modules of the classes `op_list` (a tuple), if any."""
    mapping = dict(_DEFAULT_OP_LIST_TO_FUSER_METHOD)
    mapping.update(additional_fuser_method_mapping or {})
    fuser_method = mapping.get(op_list, None)
    if fuser_method is None:
        raise AssertionError(f"did not find fuser method for: {op_list} ")
    return fuser_method


