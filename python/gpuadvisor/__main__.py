"""``python -m gpuadvisor ARGS``: the gpuadvisor command line, run in this process."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
