"""How many products PyTorch can queue on a GPU before queuing blocks (13.3.1, GPU + CPU lanes).

Prints, for growing counts K of 2000 x 2000 products, how long the Python call that queues them
took and how long the GPU took to finish them. While the queue has room, queuing takes a few
microseconds a product; past its depth, the call waits for the GPU. Needs a GPU.
"""
import sys

from d2l_ext.backends import backend
from d2l_ext.checking import check_close
from d2l_ext.lanes import find_lanes
from d2l_ext.timing import clock


def main(n: int = 2000) -> int:
    lane = find_lanes('torch')[0]
    if lane.kind != 'gpu':
        print('no GPU: nothing to measure')
        return 0
    work = backend('torch')
    x = work.random_matrix(lane, n)
    ref = work.reference_product(x)
    work.run(x, 20)  # warm-up: kernels chosen, memory pooled
    work.wait([lane])
    print(f'{lane.label}, products of {n} x {n}')
    print(f"{'K':>6} {'queuing (ms)':>13} {'GPU done (ms)':>14} {'queued per product (us)':>24}")
    for k in (64, 256, 512, 768, 1024, 1280, 1536, 2048):
        work.wait([lane])
        # two timestamps in one run (queuing returned, GPU done), so the clock itself rather than measure()
        start = clock()
        ys = work.run(x, k)
        queued = clock() - start
        work.wait([lane])
        done = clock() - start
        check_close(ys[-1:], ref, f'{k} products')  # after the timing: every product is the same x @ x
        print(f'{k:>6} {queued * 1e3:>13.1f} {done * 1e3:>14.1f} {queued / k * 1e6:>24.1f}', flush=True)
        del ys
    return 0


if __name__ == '__main__':
    sys.exit(main())
