"""`python -m d2l_ext.allreduce [options]`: 13.3.4 from a terminal, or as one rank under torchrun."""
import os
import sys

from .cli import main

if __name__ == '__main__':
    rc = main()
    if 'TORCHELASTIC_RUN_ID' in os.environ or 'RANK' in os.environ:
        # a rank's interpreter shutdown can abort in native teardown (1 run in 5): leave once all is printed
        sys.stdout.flush(), sys.stderr.flush()
        os._exit(rc or 0)
    sys.exit(rc)
