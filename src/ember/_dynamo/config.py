"""ember._dynamo.config: torch._dynamo.config's settings, kept so that code setting them runs.
ember has no compiler, so none of them changes what a program computes. The settings that
torch.compiler.config also holds are the same values (`cache_size_limit` is torch's older name
for `recompile_limit`); reading or setting a name torch does not have raises torch's
AttributeError."""
import sys
import types

from ..compiler import config as _compiler_config

# torch 2.13's defaults of the settings programs set most (the rest of torch's many settings
# are left out: setting one raises AttributeError, as a misspelt name does in torch).
_DEFAULTS = {
    "suppress_errors": False, "optimize_ddp": True, "specialize_int": False,
    "specialize_float": False, "error_on_recompile": False, "guard_nn_modules": True,
    "force_parameter_static_shapes": True, "replay_record_enabled": False,
    "inline_inbuilt_nn_modules": True,
}
# names of torch._dynamo.config that are torch.compiler.config's settings
_ALIASES = {"cache_size_limit": "recompile_limit",
            "accumulated_cache_size_limit": "accumulated_recompile_limit"}
_SHARED = {"recompile_limit", "accumulated_recompile_limit", "verbose", "dynamic_shapes",
           "assume_static_by_default", "automatic_dynamic_shapes", "capture_scalar_outputs",
           "capture_dynamic_output_shape_ops", "allow_unspec_int_on_nn_module"}


class _ConfigModule(types.ModuleType):
    """This module's type: torch's setting names only; shared ones live in compiler.config."""

    def __getattr__(self, name):        # (reached only for names not set here)
        shared = _ALIASES.get(name, name)
        if shared in _SHARED:
            return getattr(_compiler_config, shared)
        raise AttributeError(f"torch._dynamo.config.{name} does not exist")

    def __setattr__(self, name, value):
        shared = _ALIASES.get(name, name)
        if shared in _SHARED:
            setattr(_compiler_config, shared, value)
        elif name in _DEFAULTS or name.startswith("__"):
            super().__setattr__(name, value)
        else:
            raise AttributeError(f"torch._dynamo.config.{name} does not exist")


globals().update(_DEFAULTS)
sys.modules[__name__].__class__ = _ConfigModule
