"""How many products PyTorch can queue on a GPU before queuing blocks (13.3.1, GPU + CPU lanes).

Prints, for growing counts K of 2000 x 2000 products, how long the Python call that queues them
took and how long the GPU took to finish them. While the queue has room, queuing takes a few
microseconds a product; past its depth, the call waits for the GPU. Needs a GPU.
"""
import sys
import time

import torch


def main(n: int = 2000) -> int:
    if not torch.cuda.is_available():
        print('no GPU: nothing to measure')
        return 0
    x = torch.rand(n, n, device='cuda:0')
    [x.mm(x) for _ in range(20)]
    torch.cuda.synchronize(0)
    print(f'{torch.cuda.get_device_name(0)}, torch {torch.__version__}, products of {n} x {n}')
    print(f"{'K':>6} {'queuing (ms)':>13} {'GPU done (ms)':>14} {'queued per product (us)':>24}")
    for k in (64, 256, 512, 768, 1024, 1280, 1536, 2048):
        ys = None
        torch.cuda.synchronize(0)
        t = time.perf_counter()
        ys = [x.mm(x) for _ in range(k)]
        q = time.perf_counter() - t
        torch.cuda.synchronize(0)
        d = time.perf_counter() - t
        print(f'{k:>6} {q * 1e3:>13.1f} {d * 1e3:>14.1f} {q / k * 1e6:>24.1f}', flush=True)
        del ys
    return 0


if __name__ == '__main__':
    sys.exit(main())
