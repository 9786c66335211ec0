# _distributed.py: torch.distributed names and DistributedDataParallel for
# Gnn (private; the override exposes them as Gnn.distributed,
# Gnn.nn.parallel.DistributedDataParallel and Gnn.DistributedDataParallel).
#
# Everything runs in the C library (lib/distributed): this module only maps
# torch's signatures onto it and GLib errors onto torch's exception types.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import contextlib
import datetime
import types

from gi.repository import GLib

__all__ = ['make_distributed', 'ddp_methods']


def _raise_runtime(exc):
    """torch.distributed reports failures as RuntimeError."""
    raise RuntimeError(exc.message) from None


def _timeout_ms(timeout):
    if timeout is None:
        return -1
    if isinstance(timeout, datetime.timedelta):
        return max(1, int(timeout.total_seconds() * 1000))
    return max(1, int(float(timeout) * 1000))


class _Work(object):
    """torch's Work handle: wait() and is_completed()."""

    __slots__ = ('_work',)

    def __init__(self, work):
        self._work = work

    def wait(self, timeout=None):
        try:
            return self._work.wait(_timeout_ms(timeout))
        except GLib.Error as exc:
            _raise_runtime(exc)

    def is_completed(self):
        return self._work.is_completed()


def make_distributed(Gnn):
    """The Gnn.distributed namespace (torch.distributed's functions)."""

    class ReduceOp(object):
        SUM = Gnn.ReduceOp.SUM
        AVG = Gnn.ReduceOp.AVG
        PRODUCT = Gnn.ReduceOp.PRODUCT
        MIN = Gnn.ReduceOp.MIN
        MAX = Gnn.ReduceOp.MAX

    def _group(group):
        g = group if group is not None else Gnn.get_default_process_group()
        if g is None:
            raise RuntimeError('Default process group has not been initialized, please make '
                               'sure to call init_process_group.')
        return g

    def _run(start, async_op):
        try:
            work = start()
        except GLib.Error as exc:
            _raise_runtime(exc)
        handle = _Work(work)
        if async_op:
            return handle
        handle.wait()
        return None

    def init_process_group(backend='mpi', init_method=None, timeout=None, world_size=-1,
                           rank=-1, store=None, group_name='', pg_options=None):
        try:
            group = Gnn.init_process_group(backend)
        except GLib.Error as exc:
            if 'twice' in exc.message:
                raise ValueError(exc.message) from None
            _raise_runtime(exc)
        if timeout is not None:
            group.set_timeout(_timeout_ms(timeout))
        # With MPI the launcher decides rank and size: explicit values must agree.
        for name, given, actual in (('world_size', world_size, group.get_world_size()),
                                    ('rank', rank, group.get_rank())):
            if given not in (-1, None) and given != actual:
                Gnn.destroy_process_group()
                raise ValueError('%s=%d does not match mpirun\'s %s %d' % (name, given, name, actual))

    def get_rank(group=None):
        if group is None and Gnn.get_default_process_group() is None:
            return -1
        return _group(group).get_rank()

    def get_world_size(group=None):
        if group is None and Gnn.get_default_process_group() is None:
            return -1
        return _group(group).get_world_size()

    def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
        return _run(lambda: _group(group).all_reduce(tensor, op), async_op)

    def broadcast(tensor, src, group=None, async_op=False):
        return _run(lambda: _group(group).broadcast(tensor, src), async_op)

    def all_gather(tensor_list, tensor, group=None, async_op=False):
        return _run(lambda: _group(group).all_gather(list(tensor_list), tensor), async_op)

    def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
        return _run(lambda: _group(group).reduce_scatter(output, list(input_list), op), async_op)

    def barrier(group=None, async_op=False, device_ids=None):
        return _run(lambda: _group(group).barrier(), async_op)

    def get_backend(group=None):
        return _group(group).get_backend()

    return types.SimpleNamespace(
        ReduceOp=ReduceOp,
        init_process_group=init_process_group,
        destroy_process_group=lambda group=None: Gnn.destroy_process_group(),
        is_initialized=Gnn.distributed_is_initialized,
        is_available=lambda: True,
        is_mpi_available=Gnn.ProcessGroup.is_available,
        is_gloo_available=lambda: False,
        is_nccl_available=lambda: False,
        get_rank=get_rank,
        get_world_size=get_world_size,
        get_backend=get_backend,
        all_reduce=all_reduce,
        broadcast=broadcast,
        all_gather=all_gather,
        reduce_scatter=reduce_scatter,
        barrier=barrier,
    )


def ddp_methods(c_class):
    """__init__ (torch's signature) and no_sync() for the override of
    Gnn.DistributedDataParallel; @c_class is the introspected class."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0,
                 broadcast_buffers=True, process_group=None, bucket_cap_mb=25,
                 find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False):
        if device_ids not in (None, []) or output_device is not None:
            raise ValueError('device_ids and output_device select GPUs; Gnn runs on the CPU: '
                             'leave them unset')
        c_class.__init__(self, module=module, process_group=process_group,
                         bucket_cap_mb=float(bucket_cap_mb),
                         broadcast_buffers=bool(broadcast_buffers),
                         find_unused_parameters=bool(find_unused_parameters),
                         gradient_as_bucket_view=bool(gradient_as_bucket_view))
        try:
            self.init(None)   # GInitable: the collective part of construction
        except GLib.Error as exc:
            _raise_runtime(exc)

    @contextlib.contextmanager
    def no_sync(self):
        """Backward passes after forwards inside the block only accumulate
        gradients locally; the next synchronized backward averages the sums."""
        old = self.props.require_backward_grad_sync
        self.props.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.props.require_backward_grad_sync = old

    return {'__init__': __init__, 'no_sync': no_sync}


# --- registration with the override ------------------------------------------
# Gnn.distributed, Gnn.DistributedDataParallel and Gnn.nn.parallel (imported by
# the override after the core modules, so Gnn.nn exists).

from ._gi import EXPORTS, OVERRIDE_MODULE, Gnn, export, override  # noqa: E402

export(make_distributed(Gnn), 'distributed')
_ddp_namespace = ddp_methods(Gnn.DistributedDataParallel)
_ddp_namespace['__module__'] = OVERRIDE_MODULE   # override, not a new GType
DistributedDataParallel = override(type('DistributedDataParallel',
                                        (Gnn.DistributedDataParallel,), _ddp_namespace))
_parallel = types.ModuleType('Gnn.nn.parallel', "torch.nn.parallel's spellings.")
_parallel.DistributedDataParallel = DistributedDataParallel
EXPORTS['nn'].parallel = _parallel


class ProcessGroup(Gnn.ProcessGroup):
    """Gnn.ProcessGroup(backend=...): joining the group happens in
    GInitable.init, which PyGObject alone never runs (a group that failed to
    join would otherwise look like rank 0 of a world of 0)."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, **kwargs):
        from ._signature import initable_init
        Gnn.ProcessGroup.__init__(self, **kwargs)
        initable_init(self)


ProcessGroup = override(ProcessGroup)
