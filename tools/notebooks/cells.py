"""The two cell kinds the notebook sources use; the builder adds the Chinese prose by key."""


def md(en, key):
    """A Markdown cell: English text, and the key of its Chinese text in zh_<section>.py."""
    return ('md', {'en': en, 'key': key})


def code(src):
    """A code cell: the same in every language."""
    return ('code', src)
