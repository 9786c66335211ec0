#!/usr/bin/env python3
"""PyTorch's DDP tutorial script with the imports changed, under mpirun.

    import torch.distributed as dist                        -> Gnn.distributed
    from torch.nn.parallel import DistributedDataParallel   -> Gnn.nn.parallel

Each rank also runs the same model in torch's DistributedDataParallel (gloo
backend, the only one Debian's torch 1.13 has) with identical weights and
data, and the averaged gradients are compared side by side.
"""
import os
import socket
import sys

import numpy as np
import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

dist = Gnn.distributed
DDP = Gnn.nn.parallel.DistributedDataParallel


def tensor(array):
    """A float32 tensor holding a copy of `array` (from_numpy shares memory)."""
    return Gnn.Tensor.from_numpy(np.array(array, dtype=np.float32))


def check(condition, what):
    if not condition:
        print('rank %d: FAIL: %s' % (dist.get_rank(), what), flush=True)
        sys.exit(1)


def collectives(rank, world):
    t = tensor([rank + 1.0, -rank])
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    check(np.array_equal(t.numpy(), [world * (world + 1) / 2, -sum(range(world))]), 'all_reduce')
    # AVG of a tensor that requires grad (averaging parameters): no autograd
    # involved, as in torch
    p = tensor([rank + 1.0, 3.0])
    p.set_requires_grad(True)
    dist.all_reduce(p, op=dist.ReduceOp.AVG)
    check(np.allclose(p.numpy(), [(world + 1) / 2, 3.0]), 'all_reduce AVG of a leaf that requires grad')
    t = tensor([rank * 2.0])
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    check(t.numpy()[0] == 2.0 * (world - 1), 'all_reduce MAX')
    b = tensor([42.0 if rank == 0 else 0.0])
    dist.broadcast(b, src=0)
    check(b.numpy()[0] == 42.0, 'broadcast')
    outs = [tensor([0.0]) for _ in range(world)]
    dist.all_gather(outs, tensor([float(rank)]))
    check([o.numpy()[0] for o in outs] == list(range(world)), 'all_gather')
    ds = Gnn.TensorDataset(tensor([float(i) for i in range(10)]))
    sampler = Gnn.DistributedSampler(ds)   # rank and world size from the group, as torch's
    check((sampler.props.num_replicas, sampler.props.rank) == (world, rank),
          'DistributedSampler defaults from the process group')
    work = dist.all_reduce(tensor([1.0]), async_op=True)
    check(work.wait() is True and work.is_completed(), 'async work')
    dist.barrier()
    try:
        dist.init_process_group('mpi')
        check(False, 'a second init_process_group must fail')
    except ValueError as exc:
        check('twice' in str(exc), 'second init message')


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def torch_ddp(state, rank, world):
    """torch's DDP (gloo) on the same weights; the port comes from rank 0."""
    import torch
    import torch.distributed as tdist
    from torch.nn.parallel import DistributedDataParallel as TDDP

    port = tensor([free_port() if rank == 0 else 0])
    dist.broadcast(port, src=0)
    os.environ['MASTER_ADDR'] = '127.0.0.1'
    os.environ['MASTER_PORT'] = str(int(port.numpy()[0]))
    tdist.init_process_group('gloo', rank=rank, world_size=world)
    model = torch.nn.Sequential(torch.nn.Linear(10, 10), torch.nn.ReLU(), torch.nn.Linear(10, 5))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    return tdist, TDDP(model), torch


def main():
    dist.init_process_group('mpi')
    rank, world = dist.get_rank(), dist.get_world_size()
    check(world >= 2, 'run me with mpirun -np 2')
    collectives(rank, world)

    # the tutorial: a toy model, DDP, one SGD step
    model = Gnn.Sequential(Gnn.Linear.new(10, 10, True, None), Gnn.ReLU.new(False),
                           Gnn.Linear.new(10, 5, True, None))
    ddp_model = DDP(model)
    check('module' not in ddp_model.__dict__, '.module must not be in __dict__')
    check(ddp_model.module == model and ddp_model.props.module == model, 'ddp.module')
    loss_fn = Gnn.MSELoss.new(Gnn.Reduction.MEAN)
    params = [p for _, p in ddp_model.named_parameters()]
    optimizer = Gnn.SGD.new(params, 0.001, 0.0, 0.0, 0.0, False)

    rng = np.random.default_rng(1234 + rank)
    x, y = rng.standard_normal((20, 10)), rng.standard_normal((20, 5))
    state = {k: v.numpy().copy() for k, v in model.state_dict().items()}

    optimizer.zero_grad(True)
    loss_fn(ddp_model(tensor(x)), tensor(y)).backward()
    grads = {n: p.grad.numpy().copy() for n, p in model.named_parameters()}

    # torch's gradient_as_bucket_view=True: the same averages, left in the bucket
    model_v = Gnn.Sequential(Gnn.Linear.new(10, 10, True, None), Gnn.ReLU.new(False),
                             Gnn.Linear.new(10, 5, True, None))
    model_v.load_state_dict(model.state_dict())
    ddp_v = DDP(model_v, gradient_as_bucket_view=True)
    check(ddp_v.props.gradient_as_bucket_view, 'gradient_as_bucket_view property')
    loss_fn(ddp_v(tensor(x)), tensor(y)).backward()
    for n, p in model_v.named_parameters():
        check(np.array_equal(p.grad.numpy(), grads[n]), 'bucket-view gradient of %s differs' % n)
    del ddp_v, model_v

    # torch side by side
    tdist, tddp, torch = torch_ddp(state, rank, world)
    torch.nn.functional.mse_loss(tddp(torch.from_numpy(x).float()),
                                 torch.from_numpy(y).float()).backward()
    for n, p in tddp.module.named_parameters():
        check(np.allclose(grads[n], p.grad.numpy(), rtol=1e-5, atol=1e-6),
              'gradient of %s differs from torch DDP' % n)
    check(list(tddp.state_dict().keys()) == list(ddp_model.state_dict().keys()),
          'state_dict keys differ from torch: %s' % list(ddp_model.state_dict().keys()))
    tdist.destroy_process_group()

    optimizer.step()
    # replicas stay identical
    for n, p in model.named_parameters():
        outs = [tensor(np.zeros(p.numpy().shape)) for _ in range(world)]
        dist.all_gather(outs, tensor(p.numpy()))
        check(all(np.array_equal(o.numpy(), outs[0].numpy()) for o in outs), '%s differs across ranks' % n)

    # no_sync: local accumulation, then one synchronized backward
    optimizer.zero_grad(True)
    with ddp_model.no_sync():
        loss_fn(ddp_model(tensor(x)), tensor(y)).backward()
    local = list(model.named_parameters())[-1][1].grad.numpy().copy()
    lo, hi = tensor(local), tensor(local)
    dist.all_reduce(lo, op=dist.ReduceOp.MIN)
    dist.all_reduce(hi, op=dist.ReduceOp.MAX)
    check(not np.array_equal(lo.numpy(), hi.numpy()), 'no_sync gradients must stay local')
    loss_fn(ddp_model(tensor(x)), tensor(y)).backward()
    g = tensor(list(model.named_parameters())[-1][1].grad.numpy())
    g0 = tensor(g.numpy())
    dist.broadcast(g0, src=0)
    check(np.array_equal(g.numpy(), g0.numpy()), 'gradients after no_sync + sync differ')

    # state_dict: module. prefix, loadable into the bare model after stripping it
    sd = ddp_model.state_dict()
    check(all(k.startswith('module.') for k in sd.keys()), 'state_dict prefix')
    sd.consume_prefix('module.')
    bare = Gnn.Sequential(Gnn.Linear.new(10, 10, True, None), Gnn.ReLU.new(False),
                          Gnn.Linear.new(10, 5, True, None))
    bare.load_state_dict(sd)
    check(np.array_equal(bare.state_dict()['2.bias'].numpy(), model.state_dict()['2.bias'].numpy()),
          'reloaded state')

    dist.destroy_process_group()
    check(not dist.is_initialized(), 'destroy_process_group')
    print('rank %d/%d: python DDP ok' % (rank, world), flush=True)


if __name__ == '__main__':
    main()
