"""torch.utils.benchmark.utils: the modules behind ember.utils.benchmark (`common`: TaskSpec
and Measurement; `timer`: Timer; `compare`: Compare), where torch keeps them."""
