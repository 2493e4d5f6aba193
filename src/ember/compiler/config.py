"""ember.compiler.config: torch.compiler.config's settings, kept so that code setting them runs.
ember has no compiler, so none of them changes what a program computes. Reading or setting
a name torch does not have raises torch's AttributeError."""
import sys
import types

# torch's settings of torch.compiler.config, with their defaults.
_DEFAULTS = {
    "job_id": None, "pgo_extra_read_key": None, "pgo_extra_write_key": None,
    "cache_key_tag": "", "force_disable_caches": False, "dynamic_sources": "",
    "dynamic_values": "", "unbacked_sources": "", "force_cudagraph_gc": False,
    # settings torch keeps in torch._dynamo.config, under their names there
    "dynamic_shapes": True, "assume_static_by_default": True,
    "automatic_dynamic_shapes": True, "recompile_limit": 8,
    "accumulated_recompile_limit": 256, "verbose": False, "capture_scalar_outputs": False,
    "capture_dynamic_output_shape_ops": False, "log_file_name": None,
    "fail_on_recompile_limit_hit": False, "allow_unspec_int_on_nn_module": False,
    "skip_tensor_guards_with_matching_dict_tags": True,
    "enable_cpp_symbolic_shape_guards": False, "wrap_top_frame": False,
    "reorderable_logging_functions": set(),
}


class _ConfigModule(types.ModuleType):
    """This module's type: only torch's setting names can be read or set."""

    def __getattr__(self, name):        # (reached only for names not set)
        raise AttributeError(f"torch.compiler.config.{name} does not exist")

    def __setattr__(self, name, value):
        if name not in _DEFAULTS and not name.startswith("__"):
            raise AttributeError(f"torch.compiler.config.{name} does not exist")
        super().__setattr__(name, value)


globals().update({k: (set(v) if isinstance(v, set) else v) for k, v in _DEFAULTS.items()})
sys.modules[__name__].__class__ = _ConfigModule
