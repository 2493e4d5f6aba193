"""`ember.utils.model_zoo`: the old name of `ember.hub.load_state_dict_from_url` (as `load_url`),
and the progress bar class torchvision takes from here."""
from ..hub import load_state_dict_from_url as load_url, tqdm

__all__ = ["load_url", "tqdm"]
