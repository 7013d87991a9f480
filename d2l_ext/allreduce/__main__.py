"""`python -m d2l_ext.allreduce [options]`: 13.3.4 from a terminal, or as one rank under torchrun."""
import sys

from .cli import main

if __name__ == '__main__':
    sys.exit(main())
