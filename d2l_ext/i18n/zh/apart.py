"""results.told_apart 的唯一措辞（每一节）：检验的两部分，按顺序，带数字。"""
MESSAGES = {
    'apart.unit.s': '{value} 秒',
    'apart.unit.ms': '{value} 毫秒',
    'apart.unit.x': '{value} 倍',
    'apart.medians': '中位数（{ma}与{mb}）',
    'apart.medians_plain': '中位数',
    'apart.named': '{name} {range}',
    'apart.yes': ('{medians}相差 {diff}，超过较大的四分位距（{gap}），且各次重复的中间一半（{a}与{b}）'
                  '互不重叠'),
    'apart.close': '{medians}相差 {diff}，不超过较大的四分位距（{gap}）：区分不出（各次重复的中间一半：{a}与{b}）',
    'apart.overlap': ('{medians}相差 {diff}，超过较大的四分位距（{gap}），但各次重复的中间一半相互重叠'
                      '（{a}与{b}）：区分不出'),
    'apart.single': '每种方式只有一个中位数（{ma}与{mb}，相差 {diff}），没有保留各次重复，所以没有波动范围可比',
}
