"""The layers of ember.nn, one file per family as in torch.nn.modules."""
from .module import Module
from .container import (Container, ModuleDict, ModuleList, ParameterDict, ParameterList,
                        Sequential)
from .linear import Bilinear, Identity, LazyLinear, Linear
from .flatten import Flatten, Unflatten
from .dropout import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d,
                      FeatureAlphaDropout)
from .distance import CosineSimilarity, PairwiseDistance
from .activation import (CELU, ELU, GELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh,
                         LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, RReLU,
                         SELU, SiLU, Sigmoid, Softmax, Softmax2d, Softmin, Softplus, Softshrink,
                         Softsign, Tanh, Tanhshrink, Threshold)
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss,
                   GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss,
                   MarginRankingLoss, MSELoss, MultiLabelSoftMarginLoss, NLLLoss,
                   PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss, TripletMarginLoss)
from .loss import CTCLoss, MultiLabelMarginLoss, MultiMarginLoss
from .loss import NLLLoss2d, TripletMarginWithDistanceLoss
from .loss import LinearCrossEntropyLoss, LinearCrossEntropyOptions
from .conv import *  # noqa: F401,F403,E402
from .pooling import *  # noqa: F401,F403,E402
from .normalization import *  # noqa: F401,F403,E402
from .batchnorm import *  # noqa: F401,F403,E402
from .instancenorm import *  # noqa: F401,F403,E402
from .sparse import *  # noqa: F401,F403,E402
from .rnn import *  # noqa: F401,F403,E402
from .attention import *  # noqa: F401,F403,E402
from .transformer import *  # noqa: F401,F403,E402
from .vision import *  # noqa: F401,F403,E402
from .padding import *  # noqa: F401,F403,E402
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401,E402
