"""`python -m d2l_ext`: see cli.py."""
import signal
import sys

from .cli import main

if __name__ == '__main__':
    code = main()
    # Python's exit restores the default Ctrl-C action, which would end a slow exit with no message
    # (and status -2); by now the one line has been printed and no worker is left: ignore further ones
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)
