"""各节共用的消息。"""
MESSAGES = {
    'common.seconds': '{value:.3f} 秒',
}
