"""`python -m d2l_ext`: see cli.py."""
import sys

from .cli import main

if __name__ == '__main__':
    sys.exit(main())
