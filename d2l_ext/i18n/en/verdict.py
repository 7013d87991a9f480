"""The verdict words and number units (display/verdict.py): one rule, one vocabulary, every lesson."""
MESSAGES = {
    'verdict.faster': 'faster',
    'verdict.slower': 'slower',
    'verdict.faster_by': 'faster ({pct} less time)',
    'verdict.slower_by': 'slower ({pct} more time)',
    'verdict.faster_x': '{ratio}x as fast',
    'verdict.slower_x': '{ratio}x as long',
    'verdict.same': 'no clear difference',
    'verdict.line': '{a} {ma} vs {b} {mb}: {word}',
    'verdict.guess': 'your guess {guess} · predicted {predicted} · measured {measured}',
    'verdict.no_guess': 'predicted {predicted} · measured {measured} (write your guess into {name} first)',
    'verdict.details': 'Details: every statistic',
    'verdict.unit.s': '{value} s',
    'verdict.unit.ms': '{value} ms',
    'verdict.unit.x': '{value}x',
    'verdict.unit.%': '{value}%',
}
