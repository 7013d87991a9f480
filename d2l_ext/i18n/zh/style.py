"""各节共用的绘图用语：坐标轴、图例、角色、缺少中文字体的提示。"""
MESSAGES = {
    'style.no_cjk_font': ('未安装中文字体，图中标签改用英文；请安装一个中文字体'
                          '（Debian/Ubuntu：apt-get install fonts-noto-cjk）后重启内核。'),
    'style.time_axis': '时间（{unit}）',
    'style.start_axis': '开始时间（{unit}）',
    'style.predicted_total': '预测：{value}',
    'style.predicted': '预测',
    'style.measured': '每次重复',
    'style.median': '中位数',
    'style.critical_path': '关键路径',
    'style.role.lane': '执行路 {number}',
    'style.role.gpu': 'GPU',
    'style.role.cpu': 'CPU',
    'style.role.compute': '计算流',
    'style.role.copy': '复制流',
    'style.role.link': '设备间传输',
    'style.role.backward': '反向传播',
    'style.role.allreduce': '全归约',
    'style.role.optimizer': '优化器更新',
    'style.role.idle': '空闲',
}
