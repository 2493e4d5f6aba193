"""`python -m ember.utils.bottleneck script.py [args]` (see `__init__.py`)."""
import sys

from . import main

sys.exit(main())
