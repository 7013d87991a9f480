"""Messages shared by every section."""
MESSAGES = {
    'common.seconds': '{value:.3f} s',
}
