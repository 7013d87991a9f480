"""`python -m d2l_ext`: see cli.py."""
from .cliparse import guard_interrupts, leave, run_program


def _main() -> int:
    from .cli import main  # inside run_program: a Ctrl-C while it imports gives the same one line
    return main()


if __name__ == '__main__':
    guard_interrupts()  # first: a Ctrl-C at any moment gives one line, and no child process sees it
    leave(run_program('python -m d2l_ext', _main))
