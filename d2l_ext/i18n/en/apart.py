"""The one wording of results.told_apart (every lesson): both parts of the test, in order, with the numbers."""
MESSAGES = {
    'apart.unit.s': '{value} s',
    'apart.unit.ms': '{value} ms',
    'apart.unit.x': '{value}x',
    'apart.medians': 'the medians ({ma} and {mb})',
    'apart.medians_plain': 'the medians',
    'apart.named': '{name} {range}',
    'apart.yes': ('{medians} differ by {diff}, more than the larger interquartile range ({gap}), '
                  'and the middle halves of the repeats ({a} and {b}) do not overlap'),
    'apart.close': ('{medians} differ by {diff}, no more than the larger interquartile range '
                    '({gap}): not told apart (middle halves of the repeats: {a} and {b})'),
    'apart.overlap': ('{medians} differ by {diff}, more than the larger interquartile range '
                      '({gap}), but the middle halves of the repeats overlap ({a} and {b}): not told apart'),
    'apart.single': ('one median each ({ma} and {mb}, {diff} apart), no repeats kept, so no spread to compare'),
}
