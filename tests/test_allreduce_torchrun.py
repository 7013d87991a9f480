"""13.3.4 beyond one machine: the same code as two torchrun agents (2 nodes x 1 process) on 127.0.0.1."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from d2l_ext.allreduce.plan import free_port


@pytest.mark.slow
def test_two_torchrun_agents_give_correct_results():
    port = free_port()
    torchrun = [sys.executable, '-m', 'torch.distributed.run', '--nnodes', '2', '--nproc-per-node', '1',
                '--rdzv-backend', 'c10d', '--rdzv-endpoint', f'127.0.0.1:{port}',
                '-m', 'd2l_ext.allreduce', '--layers', '2', '--width', '32', '--batch', '4', '--repeats', '1', '--json']
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, 'PYTHONPATH': str(root)}
    agents = [subprocess.Popen(torchrun, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root, env=env)
              for _ in range(2)]
    try:
        outs = [a.communicate(timeout=180) for a in agents]
    finally:
        for a in agents:
            a.kill()
    assert [a.returncode for a in agents] == [0, 0], [err[-2000:] for _, err in outs]
    printed = [json.loads(out) for out, _ in outs if out.strip()]  # only global rank 0 prints
    assert len(printed) == 1
    result = printed[0]
    assert result['processes'] == 2
    assert {v['id'] for v in result['versions']} == {'backward', 'allreduce', 'serial', 'flat', 'hooks', 'buckets',
                                                   'ddp-1'}
    assert all(v['relative_error'] <= result['tolerance'] for v in result['versions'])
    assert all(row['measured'] is None or 0 <= row['measured'] <= 1 for row in result['overlap'].values())
