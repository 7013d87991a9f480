# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 13.3.1 Parallel Computation on Devices
#
# *Dive into Deep Learning*, §13.3 "Automatic Parallelism" (§12.3 in the Chinese edition).
#
# Two independent jobs on two devices should take as long as the slower one, not the sum. Here you run the book's
# cells on this machine's two **lanes** (places where work can run at the same time), predict each time, build the
# runner yourself, and test a second lane against the fair baseline: one device doing both jobs.

# %% [markdown] lang="zh"
# # 12.3.1 基于GPU的并行计算
#
# 《动手学深度学习》§12.3“自动并行”中的12.3.1节（英文版为§13.3.1）。
#
# 两个设备上的两项相互独立的工作，耗时应当等于较慢的那一项，而不是两者之和。这里你将在这台机器的两条**执行路**
# （可以与其他工作同时运行的一条执行线路：一个 GPU、整个 CPU，或 CPU 的一部分核心）上运行书中的代码，预测每次的用时，自己写出让执行路同时运行的函数，并用公平的基线
# ——一个设备做两份工作——来检验第二条执行路。

# %% tags=["nbval-ignore-output"]
# %matplotlib inline
import d2l_ext
from d2l_ext.display.parallel import machine_text

d2l_ext.set_language('en')
print(machine_text())

# %% [markdown]
# ## The book's cells, on this machine's lanes
#
# The book's `devices = d2l.try_all_gpus()` needs two GPUs (`devices[1]` raises `IndexError` with fewer, as on Colab),
# so we take this machine's two lanes: two GPUs, a GPU and the CPU, or two CPU lanes with half of the cores each.

# %% [markdown] lang="zh"
# ## 书中的代码，运行在这台机器的执行路上
#
# 书中的 `devices = d2l.try_all_gpus()` 需要两个GPU（GPU不足两个时，例如在Colab上，`devices[1]` 会引发
# `IndexError`），所以我们改用这台机器的两条执行路：两个GPU，一个GPU加CPU，或者各占一半CPU核心的两条CPU执行路。

# %% tags=["nbval-ignore-output"]
import torch

lanes = d2l_ext.find_lanes('torch')  # instead of devices = d2l.try_all_gpus()
devices = [lane.device() for lane in lanes]
print(d2l_ext.describe_lanes(lanes))

# %% [markdown]
# The book's `run` computes 50 products of a 4000 × 4000 matrix on each GPU. Where a lane is the CPU, both lanes use
# one smaller size; beside a GPU, the counts aim at equal times from measured rates. `refs` holds each product in
# float64 to check every timed answer.

# %% [markdown] lang="zh"
# 书中的 `run` 在每个GPU上计算一个4000 × 4000矩阵的50次乘法。有一条执行路是CPU时，两条执行路都用同一个较小的大小；
# 与GPU并列时，乘积个数按实测的速度选定，目标是单独运行的耗时相同。`refs` 保存用float64计算的乘积，用来核对每个计时得到的结果。

# %% tags=["nbval-ignore-output"]
from d2l_ext.workloads import BOOK_ITERS, BOOK_SIZE, resolve_workload


def run(x, k=50):
    return [x.mm(x) for _ in range(k)]


work = resolve_workload(lanes, lesson=True)  # the book's sizes on two GPUs, else smaller: printed below
N, K = work.size, work.iters  # K: products per lane
x_0 = torch.rand(size=(N, N), device=devices[0])
x_1 = torch.rand(size=(N, N), device=devices[1])
refs = [x.double().mm(x.double()) for x in (x_0, x_1)]
if lanes[-1].kind == 'cpu':
    torch.set_num_threads(lanes[-1].threads)  # a CPU lane's share of the cores, as a GPU is one device
print(d2l_ext.t('parallel.workload', size=N, iters=K, book_size=BOOK_SIZE, book_iters=BOOK_ITERS))

# %% [markdown]
# Warm up both lanes, then the book's three timings. `d2l_ext.Benchmark` keeps the book's idiom but waits for every
# device of the given lanes before starting and stopping the clock.

# %% [markdown] lang="zh"
# 先预热两条执行路，再做书中的三次计时。`d2l_ext.Benchmark` 保留了书中的写法，但在开始计时和停止计时之前，
# 都会等待所给执行路的每个设备。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import book_text, runner_text

run(x_0, K[0]), run(x_1, K[1])  # warm-up
d2l_ext.wait_for_lanes(lanes)

with d2l_ext.Benchmark(lanes[0].label, lanes[:1]) as alone_0:
    run(x_0, K[0])

with d2l_ext.Benchmark(lanes[1].label, lanes[1:]) as alone_1:
    run(x_1, K[1])

# %% tags=["nbval-ignore-output"]
with d2l_ext.Benchmark(d2l_ext.t('parallel.book.both'), lanes) as both:
    run(x_0, K[0])
    run(x_1, K[1])
print(book_text([alone_0.elapsed, alone_1.elapsed], both.elapsed))

# %% [markdown]
# ### What the clock waits for
#
# The book's "both" cell ends with `torch.cuda.synchronize()`, which waits for the *current* device only. No wait at
# all is worse: on a GPU the clock stops once the work is *queued*. With a GPU, only GPU lanes are timed. CPU lanes
# compute before each call returns, so their rows should be close.

# %% [markdown] lang="zh"
# ### 计时在等什么
#
# 书中 `d2l.Benchmark('GPU1 & GPU2')` 那个代码单元以 `torch.cuda.synchronize()` 结束，它只等待*当前*设备。完全不等待更糟：在GPU上，
# 工作一*排入队列*，计时就停止了。有GPU时只为GPU执行路计时。CPU执行路在每次调用返回前就已算完，
# 所以它们的各行应当相近。

# %% tags=["nbval-ignore-output"]
import time

from d2l_ext.display.parallel import no_wait_text

waits = {'no_wait': lambda: None, 'every_device': lambda: d2l_ext.wait_for_lanes(lanes)}
if torch.cuda.is_available():
    waits['book_synchronize'] = torch.cuda.synchronize  # the book's: the current device only
timed = [i for i, lane in enumerate(lanes) if lane.kind == 'gpu'] or [0, 1]  # a CPU lane would hide a GPU's queue
times = {name: [] for name in waits}
for _ in range(5):
    for name, wait in waits.items():  # interleaved, so a drifting machine slows every variant alike
        d2l_ext.wait_for_lanes(lanes)
        start = time.perf_counter()
        ys = [run((x_0, x_1)[i], K[i]) for i in timed]
        wait()
        times[name].append(time.perf_counter() - start)
d2l_ext.wait_for_lanes(lanes)
[d2l_ext.check_close(y, refs[i], lanes[i].label) for y, i in zip(ys, timed)]
print(no_wait_text(times))

# %% [markdown]
# In the GPU recording below, compare "no wait at all" with "synchronize every device used".

# %% [markdown] lang="zh"
# 在下面的GPU录制结果中，比较“完全不等待”那一行与“同步用到的每个设备”那一行。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_recorded import plot_recorded_sync, recorded_sync_text
from d2l_ext.recorded import newest

rec = newest()  # the newest GPU recording shipped with the package (13.3.0 draws it too)
print(rec.label() if rec else d2l_ext.t('panels.no_gpu_recordings'))
print(recorded_sync_text(rec) if rec else '')
plot_recorded_sync(rec) if rec else None

# %% [markdown]
# ## Two lanes at the same time
#
# On a CPU lane PyTorch finishes each operation before the call returns, so in the book's cell the next `run` waits
# for a CPU lane's `run`; on a GPU lane `run` only *queues* kernels and returns, so one thread can feed several GPUs.
# Hence the recipe: each CPU lane gets its own Python thread, which calls `torch.set_num_threads(lane.threads)` (per
# thread; `mm` releases Python's GIL); start the CPU threads, queue the GPU work, then wait for every lane.

# %% [markdown] lang="zh"
# ## 两条执行路同时运行
#
# 在CPU执行路上，PyTorch在调用它的线程里把每个操作执行完毕，所以在书中的代码单元里，CPU执行路上的 `run` 结束后，
# 下一个 `run` 才开始。在GPU执行路上，`run` 只是把CUDA内核*排入队列*就返回，下一个 `run` 立即开始，所以一个线程
# 就能喂饱多个GPU。因此做法是：每条CPU执行路有自己的Python线程，由它调用 `torch.set_num_threads(lane.threads)`
# （这个设置属于该线程；`mm` 会释放Python的全局解释器锁（GIL））；先启动CPU线程，再把GPU的工作排入队列，
# 然后等待每条执行路。

# %% [markdown]
# ### Build it: `run_together`
#
# Write `run_together(lanes, works)`: run `works[i]()` on `lanes[i]` so that the lanes run at the same time; return the
# results in order, safe to read the moment it returns. A lane has `.kind` (`'cpu'` or `'gpu'`), `.threads` and
# `.index`; `ThreadPoolExecutor`, `threading` and `torch` are at hand. A separate process checks that it runs,
# matches float64, leaves every lane finished at return, and overlaps the lanes.

# %% [markdown] lang="zh"
# ### 动手实现：`run_together`
#
# 编写 `run_together(lanes, works)`：在 `lanes[i]` 上运行 `works[i]()`，让各条执行路同时运行；按顺序返回结果，
# 且一返回就可以安全读取。执行路有 `.kind`（`'cpu'` 或 `'gpu'`）、`.threads` 和 `.index` 属性；可以直接使用
# `ThreadPoolExecutor`、`threading` 和 `torch`。检查在单独的进程中进行：能否运行，
# 结果是否与float64相符，返回时每条执行路是否都已完成，各执行路是否重叠。

# %% tags=["nbval-ignore-output"]
def run_together(lanes, works):
    """Run works[i] on lanes[i], all at the same time; return their results in order."""
    # TODO: a thread per CPU lane (with its own torch.set_num_threads), then queue GPU work, then wait for all
    raise NotImplementedError


d2l_ext.check('13.3.1-lanes', run_together)

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
# Worked solution (the grader's own reference: it passes, and typical mistakes fail).
from concurrent.futures import ThreadPoolExecutor


def run_together(lanes, works):
    """Run works[i] on lanes[i], all at the same time; return their results in order."""
    def on_cpu(lane, work):
        torch.set_num_threads(lane.threads)  # this thread's share of the cores (a per-thread setting)
        return work()
    with ThreadPoolExecutor(len(lanes)) as pool:  # CPU lanes start first, each on its own thread ...
        cpu = {i: pool.submit(on_cpu, lane, works[i]) for i, lane in enumerate(lanes) if lane.kind == 'cpu'}
        gpu = {i: works[i]() for i, lane in enumerate(lanes) if lane.kind == 'gpu'}  # ... then GPU work is queued
        results = [cpu[i].result() if i in cpu else gpu[i] for i in range(len(lanes))]
    for lane in lanes:
        if lane.kind == 'gpu':
            torch.cuda.synchronize(lane.index)  # every GPU used, not only the current one
    return results


d2l_ext.check('13.3.1-lanes', run_together)

# %% [markdown]
# The package's `run_on_lanes` does the same, keeping each lane's thread between calls (the caller waits); the cells
# below use it, whatever your cell holds.

# %% [markdown] lang="zh"
# 包里的 `run_on_lanes` 做的是同样的事，只是每条执行路的线程在两次调用之间保留（由调用者等待）。
# 下面的代码单元用的是它，所以无论你的单元格里写的是什么，它们都能运行。

# %% tags=["nbval-ignore-output"]
from d2l_ext.backends.torch_backend import run_on_lanes


def on_lanes(lanes, jobs):  # the package's runner, then a wait for every lane: safe to read, as run_together's
    out = run_on_lanes(lanes, jobs)
    d2l_ext.wait_for_lanes(lanes)
    return out


jobs = [lambda: run(x_0, K[0]), lambda: run(x_1, K[1])]
on_lanes(lanes, jobs)  # warm-up, as for the book's cells: the first call also starts each CPU lane's thread
with d2l_ext.Benchmark(d2l_ext.t('parallel.variant.threads'), lanes) as threaded:
    ys = on_lanes(lanes, jobs)
[d2l_ext.check_close(y, ref, lane.label) for y, ref, lane in zip(ys, refs, lanes)]
print(runner_text([alone_0.elapsed, alone_1.elapsed], both.elapsed, threaded.elapsed))  # one timing each

# %% [markdown]
# ## Predict, then measure
#
# Measure each lane's speed and that of the first lane's whole device. Predict each lane alone, one after
# the other, together, and the **baseline**: that whole device doing both jobs. On separate hardware together takes
# max(t1, t2). CPU lanes are predicted from each lane's speed measured while both run.

# %% [markdown] lang="zh"
# ## 先预测，再测量
#
# 测出每条执行路的速度，以及第一条执行路所在的整个设备的速度。预测：每条执行路单独运行、先后运行、
# 同时运行，以及**基线**——这整个设备做两份工作。在相互独立的硬件上，同时运行用时为max(t1, t2)。
# CPU执行路则按两条同时运行时测得的各自速度来预测。

# %% tags=["nbval-ignore-output"]
import dataclasses

from d2l_ext import parallel
from d2l_ext.parallel.sharing import as_printed, product_seconds

cores = d2l_ext.cpu_cores()
whole = (dataclasses.replace(lanes[0], name='cpu', threads=cores, cores=cores,
                             label_key='core.lane_cpu_all_label')
         if lanes[0].kind == 'cpu' else lanes[0])  # the first lane's device with all its cores
rate = {}  # FLOP per second: the median of 5 repeats of 10 products in a row (one alone would time the wait on a GPU)
for lane, x in dict.fromkeys([(lanes[0], x_0), (lanes[1], x_1), (whole, x_0)]):
    m = d2l_ext.measure(lambda lane=lane, x=x: on_lanes([lane], [lambda: run(x, 10)]), lanes=[lane], repeats=5)
    rate[lane] = 2 * N**3 / as_printed(m.median / 10)  # from the time per product as printed below
    print(d2l_ext.t('parallel.rate', lane=lane.label, size=N, ms=m.median / 10 * 1e3, gflops=rate[lane] / 1e9,
                    repeats=len(m.times), products=10, low=m.min / 10 * 1e3, high=m.max / 10 * 1e3))
rate_both = {}  # CPU lanes splitting the cores: each lane's speed while the other runs too, from each product's interval
if all(lane.kind == 'cpu' for lane in lanes):
    pair = parallel.Together(lanes, [x_0, x_1], [10, 10])  # both lanes at once, keeping each product's interval
    m = d2l_ext.measure(pair, lanes=lanes, repeats=3)
    seconds = product_seconds(pair.timeline(m.times))  # in the repeat timed as the median, as for the rates above
    rate_both = {lane: 2 * N**3 / as_printed(s) for lane, s in zip(lanes, seconds)} if all(seconds) else {}
for lane, r in rate_both.items():
    print(d2l_ext.t('parallel.rate_both', lane=lane.label, size=N, ms=2 * N**3 / r * 1e3, gflops=r / 1e9))
if rate_both:
    print(d2l_ext.t('parallel.rate_sum', both=sum(rate_both.values()) / 1e9, cores=cores, whole=rate[whole] / 1e9))

# %% [markdown]
# Predict the five (a product of two n × n matrices is 2n³ floating-point operations). Write your number for
# "together" into `my_guess`; the worked answer below computes all five.

# %% [markdown] lang="zh"
# 预测这五种情况（两个n × n矩阵相乘需要2n³次浮点运算）。把你对“同时运行”的预测写进 `my_guess`；下面的参考答案
# 会算出全部五个预测。

# %%
my_guess = None  # seconds: both lanes together

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
# Worked answer: seconds = products x 2n^3 FLOP / FLOP per second; "together" from the speeds measured side by side
# where the lanes are CPU lanes, else from the hardware's rule.
from d2l_ext.display.gaps import source_label
from d2l_ext.display.parallel import expectation_text

alone = [K[i] * 2 * N**3 / rate[lane] for i, lane in enumerate(lanes)]
expected = parallel.expectation(lanes, alone)
together = max(K[i] * 2 * N**3 / rate_both[lane] for i, lane in enumerate(lanes)) if rate_both else expected.seconds
names = [lanes[0].label, lanes[1].label, d2l_ext.t('parallel.variant.one_after_other'),
         d2l_ext.t('parallel.variant.together'), d2l_ext.t('parallel.variant.both_jobs', lane=whole.label)]
predicted = dict(zip(names, [*alone, sum(alone), together, sum(K) * 2 * N**3 / rate[whole]]))
made_from = dict.fromkeys(names, 'rates') | {names[3]: 'rates_both' if rate_both else 'rates'}  # what each is made from
for name, seconds in predicted.items():
    print(d2l_ext.t('parallel.predict.line', variant=name, seconds=seconds, source=source_label(made_from[name])))
print(expectation_text(expected))
if rate_both:
    print(d2l_ext.t('parallel.predict.shared', seconds=together, rule=expected.seconds))

# %% [markdown]
# Now all five, interleaved so that drift hits them alike, every answer checked, each beside its prediction.

# %% [markdown] lang="zh"
# 现在交替测量这五种情况，使漂移对它们的影响相同，核对每个结果，并把每个实测值与它的预测并列。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display import style
from d2l_ext.display.gaps import prediction_text
from d2l_ext.display.parallel import balance_text, book_check_text, guess_text, verdict_text
from d2l_ext.display.repeats import plot_repeats
from d2l_ext.workloads import is_mixed

together_run = parallel.Together(lanes, [x_0, x_1], K)  # as on_lanes(lanes, jobs), keeping each product's interval
variants = dict(zip(names, [
    lambda: on_lanes(lanes[:1], jobs[:1]),
    lambda: on_lanes(lanes[1:], jobs[1:]),
    lambda: on_lanes(lanes[:1], jobs[:1]) + on_lanes(lanes[1:], jobs[1:]),
    together_run,  # every repeat of "together" keeps when each product ran: the median one is drawn below
    lambda: on_lanes([whole], [lambda: run(x_0, K[0] + K[1])]),
]))
answers = dict(zip(names, [refs[:1], refs[1:], refs, refs, refs[:1]]))
cmp = d2l_ext.compare(variants, lanes=lanes, repeats=5,
                      check=lambda name, out: [d2l_ext.check_close(y, r, name) for y, r in zip(out, answers[name])])
med = cmp.medians()
print(verdict_text([cmp[names[0]], cmp[names[1]]], med[names[2]], cmp[names[3]], cmp[names[4]]))
print(balance_text(names[:2], [med[names[0]], med[names[1]]], aimed=is_mixed(lanes)))  # counts chosen from rates?
print(book_check_text(both.elapsed, med[names[2]], med[names[3]]))  # the book's "both" cell, timed once
print(guess_text(my_guess, together, med[names[3]], prediction=made_from[names[3]]))
print(prediction_text(predicted, {name: cmp[name].times for name in names}, sources=made_from))
plot_repeats(cmp, predicted=predicted, title=style.plot_text(
    'parallel.plot_title_rates', framework='PyTorch', speedup=med[names[2]] / med[names[3]],
    expected=sum(alone) / together))

# %% [markdown]
# Where did each product run? The timeline is the median repeat of "together"; dashed marks are each lane's
# predicted end. The overlap is the fraction of the shorter lane's busy time during which the other lane was busy too.
# Guess it (0 to 1) in `my_overlap`, then compare it with the time saved.

# %% [markdown] lang="zh"
# 每个乘积在哪里运行？时间线就是“同时运行”各次重复中用时为中位数的那一次。
# 虚线是每条执行路预测的结束时间。重叠是较短的执行路忙碌期间，另一条执行路也在忙碌的时间占比。先在 `my_overlap` 里猜一猜（0到1），
# 再与节省的时间比较。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.lane_timeline import lane_overlap, overlap_text, plot_timeline, timeline_caption

my_overlap = None  # your guess: a fraction from 0 to 1
repeats = cmp[names[3]].times  # every repeat of "together"
tl = together_run.timeline(repeats)  # the repeat timed as the median: its own intervals
print(guess_text(my_overlap, 1.0, lane_overlap(tl), unit='%', name='my_overlap', prediction='start_together'))
lane_alone = [med[names[i]] / K[i] for i in range(2)]  # seconds per product, each lane alone in this comparison
print(overlap_text(tl, med[names[2]], med[names[3]], together, lane_alone,
                   labels=[lane.label for lane in lanes], repeats=repeats, expected_serial=sum(alone),
                   median_repeat=together_run.median_index(repeats), source=made_from[names[3]], serial_source='rates'))
ends = [K[i] * 2 * N**3 / rate_both[lane] for i, lane in enumerate(lanes)] if rate_both else alone
print(timeline_caption(tl))  # what each lane's bars are, from the data
plot_timeline(tl, predicted=ends, max_bars=200)  # predicted ends in lane order; over 200 products: busy stretches

# %% [markdown]
# ## MXNet: the same experiment through its dependency engine
#
# MXNet hands every operation to its dependency engine, which runs whatever is ready on worker threads. Its
# `ThreadedEnginePerDevice` gives `cpu(0)` and `cpu(1)` each a worker pool on the *same* cores, and one lane already
# spreads its independent products over every core. What does a second lane gain? Measured below.

# %% [markdown] lang="zh"
# ## MXNet：通过依赖引擎做同样的实验
#
# MXNet把每个操作交给它的依赖引擎，由引擎在工作线程上运行所有已就绪的操作。它的 `ThreadedEnginePerDevice`
# 为两个CPU上下文（两条MXNet执行路）各配一个工作线程池，但它们在*同一些*核心上，而单条执行路已经把相互独立的乘法
# 分散到了所有核心上。第二条MXNet执行路能带来多少收益？下面的单元格测量它。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel import plot_parallel, summary_text

frameworks = d2l_ext.available_frameworks()
mx = parallel.parallel('mxnet', lesson=True) if 'mxnet' in frameworks else None
print(summary_text(mx) if mx else d2l_ext.t('parallel.mxnet_missing'))
plot_parallel(mx) if mx else None

# %% [markdown]
# The engine picks each product's worker, so its timeline has a row per engine worker (the line above says which run):

# %% [markdown] lang="zh"
# 由引擎决定哪个工作线程运行哪个乘积，所以它的时间线每个引擎工作线程占一行；时间线上方的一行说明它是哪一次运行、
# 编号数的是什么：

# %% tags=["nbval-ignore-output"]
mx_tl = parallel.timeline('mxnet', lesson=True) if mx else None  # a run of its own, after a warm-up
print(timeline_caption(mx_tl) if mx else '')
plot_timeline(mx_tl) if mx else None

# %% [markdown]
# ## Smaller products
#
# The lines below measure whether a small product takes only its share of the FLOP: each size's time per product
# (first lane alone) beside the time at the largest size's FLOP rate, then each speedup beside its prediction.

# %% [markdown] lang="zh"
# ## 更小的乘积
#
# 下面几行测量小乘积的用时是否只与它的浮点运算量成比例：先把每种大小下每个乘积的用时（第一条执行路单独运行）
# 与按最大尺寸的FLOP速度算出的用时并列，再把每个加速比与它的预测并列。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.gaps import per_product_text
from d2l_ext.display.scaling import plot_scaling, scaling_text

on_cpu = lanes[0].kind == 'cpu'
sizes = (64, 128, 256, 512) if on_cpu else (1000, 2000, 4000)
curves = [parallel.scaling(fw, sizes=sizes, iters=10 if on_cpu else None, repeats=3, lesson=True) for fw in frameworks]
print(per_product_text(curves))
print(scaling_text(curves))
plot_scaling(curves)

# %% [markdown]
# ## Recorded on a GPU
#
# This recording used a GPU and the CPU: separate hardware, so the prediction is max(t1, t2).

# %% [markdown] lang="zh"
# ## 在GPU上录制的结果
#
# 这份录制用一块GPU和CPU：硬件相互独立，所以预测为max(t1, t2)。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_recorded import recorded_figure, recorded_overlap_text

print(rec.label() if rec else d2l_ext.t('panels.no_gpu_recordings'))
print(recorded_overlap_text(rec, baseline=True) if rec else '')
recorded_figure(rec) if rec else None

# %% [markdown]
# ## Try it yourself
#
# Choose a matrix size and the products per lane, then press **Run**; each run is added to the table.

# %% [markdown] lang="zh"
# ## 自己动手试试
#
# 选择矩阵大小和每条执行路的乘积个数，然后点击**运行**；每次运行都会追加到表格中。

# %% tags=["nbval-ignore-output"]
from d2l_ext.display.panels import ParallelPanel

panel = ParallelPanel(size=400 if on_cpu else 4000, iters=10).show()

# %% [markdown]
# ## Exercises
#
# **1.** The products inside one `run` are independent. Does the framework run them at the same time by itself? Predict
# for PyTorch and MXNet, then compare issuing all before one wait with one at a time. MXNet's `NaiveEngine` (each
# operation at once, in order) is the control.
#
# <details><summary>Worked answer</summary>
#
# PyTorch runs eagerly: on a CPU lane nothing overlaps (the output below says if told apart); on a GPU
# lane "one at a time" also waits after each product, so a ratio above 1 measures the skipped waits. MXNet's engine
# hands independent products to different workers, so with idle cores the ratio can rise above 1; `NaiveEngine`
# overlaps nothing, giving the gap without concurrency. Concurrency shows only if issued together also beats the
# control's one at a time (a slower one at a time raises the ratio too). The recording lacks this exercise.
# </details>

# %% [markdown] lang="zh"
# ## 练习
#
# **1.** 一次 `run` 里的各次乘法互不依赖。框架会自行让它们同时运行吗？分别对PyTorch和MXNet做出预测，再比较
# “全部发出后只等待一次”与“逐个执行”。MXNet的 `NaiveEngine`（按顺序立即执行每个操作）用作对照。
#
# <details><summary>参考答案</summary>
#
# PyTorch是即时执行的，所以在CPU执行路上一起发出没有可以重叠的东西（下面的输出说明这次运行是否仍区分出了两者）；
# 在GPU执行路上，“逐个执行”在每次乘法之后还要等待，所以大于1的比值
# 测到的是省掉的等待。MXNet的引擎把互不依赖的乘积交给不同的工作线程，所以有空闲的核心时比值可能大于1；换成
# `NaiveEngine` 后什么也不能重叠，所以它的比值显示的是没有并发时两种方式相差多少。只有当一起发出也快于对照的
# 逐个执行时，乘积才是同时运行的（逐个执行本身变慢也会抬高比值）。GPU上的录制结果不包含这个练习。
# </details>

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_exercises import independence_lines, plot_independence

runs = [parallel.independence('torch', size=N, iters=10)]
if 'mxnet' in frameworks:
    runs += [parallel.independence('mxnet', size=800, iters=10, engine=e) for e in (None, 'NaiveEngine')]
print(independence_lines(runs))
plot_independence(runs)

# %% [markdown]
# **2.** When each operation is small, can parallelism help even on *one* device? Predict for 800 products of
# 64 × 64: on a CPU, one thread with all the cores, two with half each, or one `torch.bmm`; on a GPU, two CUDA
# streams, `torch.bmm`, or a CUDA Graph (one launch). Hint: compare launching one product with computing its
# 2 × 64³ FLOP. No GPU? In the recorded sync figure above, the "no wait at all" row is the time to queue 50
# products; the text above the recorded timeline gives the GPU's time per 2000 × 2000 product.
#
# <details><summary>Worked answer</summary>
#
# If launching one product from Python takes longer than the GPU takes to compute it, the work is *launch-bound*: a
# second stream has nothing to overlap, while `torch.bmm` and a CUDA Graph launch once; the output says which of them
# measured faster here. On a CPU, `torch.bmm` makes one call; the rows say whether two threads beat one.
# </details>

# %% [markdown] lang="zh"
# **2.** 当每个操作都很小时，即使在*同一个*设备上，并行也有帮助吗？对800个64 × 64的乘法做出预测：在CPU上，
# 是一个用上全部核心的线程、两个各用一半核心的线程，还是一次 `torch.bmm`；在GPU上，是两个CUDA流、`torch.bmm`，
# 还是CUDA Graph（只启动一次）。提示：比较启动一次乘法与完成它的2 × 64³次浮点运算各需多少时间。没有GPU？
# 在上面录制的同步图中，“完全不等待”那一行是把50个乘积排入队列的用时；录制的时间线上方的文字给出GPU上
# 每个2000 × 2000乘积的用时。
#
# <details><summary>参考答案</summary>
#
# 如果从Python启动一次乘法比GPU完成它还慢，这项工作就*受启动开销限制*：第二个流没有可以重叠的东西，而
# `torch.bmm` 和CUDA Graph只需启动一次；输出会说明这里哪一种实测更快。在CPU上，`torch.bmm` 只需一次调用；
# 两个线程能否胜过一个用上全部核心的线程，由下面各行的数字回答。
# </details>

# %% jupyter={"source_hidden": true, "outputs_hidden": true} tags=["nbval-ignore-output"]
from d2l_ext.display.parallel_exercises import plot_small_ops, small_ops_lines

small = parallel.small_ops(size=64, iters=400)
print(small_ops_lines(small))
plot_small_ops(small)

# %% [markdown]
# The book's exercises 3 and 4 are in 13.3.2, exercise 5 in the dependency graph notebook.
#
# ## Remember
#
# * Independent work on lanes of **separate hardware** takes about max(t1, t2); lanes on one CPU only **split** its
#   cores: compare with one lane that uses all of them.
# * A GPU only queues work, so one thread can feed several GPUs; eager CPU work needs a thread per lane.
# * Predict from measured FLOP/s; compare with an honest baseline; look at every repeat.
#
# ## Pitfalls
#
# * **No wait**, or **`torch.cuda.synchronize()` with no argument** (the current device only): wait for every device.
# * **Lanes on the same hardware**: two CPU lanes split one CPU's cores; two MXNet contexts share them.
# * **Launch-bound small work**: streams add queues, not a second GPU; exercise 2 compares the ways of running many
#   small products.

# %% [markdown] lang="zh"
# 书中的练习3和练习4见12.3.2，练习5见扩展一节“依赖图”。
#
# ## 记住
#
# * 位于**相互独立的硬件**上的执行路，独立工作的用时约为max(t1, t2)；同一个CPU上的执行路只是把它的核心**分开用**：
#   要与一条用上全部核心的执行路比较。
# * GPU只是把工作排入队列，所以一个线程就能喂饱多个GPU；即时执行的CPU工作则需要每条执行路一个线程。
# * 用这台机器实测的FLOP/s做预测；与公平的基线比较；看每一次重复。
#
# ## 易错点
#
# * **不等待**，或**不带参数的 `torch.cuda.synchronize()`**（只等待当前设备）：应等待用到的每个设备。
# * **在同一硬件上的执行路**：两条CPU执行路把一个CPU的核心分开用；两个MXNet上下文共用同一些核心。
# * **受启动开销限制的小工作**：流增加的是队列，而不是第二个GPU；练习2比较了运行许多小乘积的几种方式。
