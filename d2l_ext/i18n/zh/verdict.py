"""判断用词与数值单位（display/verdict.py）：一条规则、一套说法，各节通用。"""
MESSAGES = {
    'verdict.faster': '更快',
    'verdict.slower': '更慢',
    'verdict.faster_by': '用时少 {pct}',
    'verdict.slower_by': '用时多 {pct}',
    'verdict.faster_x': '速度为其 {ratio} 倍',
    'verdict.slower_x': '用时为其 {ratio} 倍',
    'verdict.same': '没有明显差别',
    'verdict.line': '{a} {ma}，{b} {mb}：{word}',
    'verdict.guess': '你的猜测 {guess} · 预测 {predicted} · 实测 {measured}',
    'verdict.no_guess': '预测 {predicted} · 实测 {measured}（请先把你的猜测写进 {name}）',
    'verdict.details': '详细数据：全部统计量',
    'verdict.unit.s': '{value} 秒',
    'verdict.unit.ms': '{value} 毫秒',
    'verdict.unit.x': '{value} 倍',
    'verdict.unit.%': '{value}%',
}
