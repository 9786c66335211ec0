# layer_parity.py: side-by-side checks of a Gnn layer against its torch 1.13
# twin, shared by the test_nn_*_vs_torch.py files of the layer families:
# state dicts exchanged both ways, outputs and every gradient (input,
# parameters) within a relative tolerance, repr and error messages.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import GLib, Gnn  # noqa: E402

RTOL = 1e-5


def to_gnn(t, requires_grad=False):
    g = Gnn.Tensor.from_numpy(np.array(t.detach().numpy(), order="C"))
    if requires_grad:
        g.set_requires_grad(True)
    return g


def assert_close(test, got, want, what, rtol=RTOL):
    """Equal shapes, and |got - want| <= rtol * max(|want|, 1) elementwise
    (relative to the tensor's scale, so values near 0 do not fail on
    rounding)."""
    got = got.numpy() if hasattr(got, 'numpy') and not isinstance(got, np.ndarray) else got
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else want
    test.assertEqual(tuple(got.shape), tuple(want.shape), what)
    if want.size == 0:
        return
    scale = max(float(np.abs(want).max()), 1.0)
    err = float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max())
    test.assertLessEqual(err, rtol * scale, '%s: max error %g (scale %g)' % (what, err, scale))


def backward_both(test, gout, tout, gx, tx, what):
    """The same random output gradient through both graphs: the same input
    gradient."""
    grad = torch.randn_like(tout)
    tout.backward(grad)
    gout.backward(to_gnn(grad), False)
    assert_close(test, gx.grad, tx.grad, what + ' gradient')


def load_torch_into_gnn(gmod, tmod):
    """torch's state dict into the Gnn layer (strict: same keys)."""
    gmod.load_state_dict({k: to_gnn(v) for k, v in tmod.state_dict().items()})


def load_gnn_into_torch(tmod, gmod):
    tmod.load_state_dict({k: torch.from_numpy(np.array(v.numpy()))
                          for k, v in gmod.state_dict().items()})


def check_state_dict_keys(test, gmod, tmod):
    test.assertEqual(list(gmod.state_dict().get_keys()), list(tmod.state_dict().keys()))
    for k, v in tmod.state_dict().items():
        test.assertEqual(list(gmod.state_dict()[k].shape), list(v.shape), k)


def check_forward_backward(test, gmod, tmod, x, rtol=RTOL, grad_input=True):
    """Same output and gradients (input and every parameter) for input x
    and a random output gradient; torch's module keeps its own state."""
    x = x.detach().clone().requires_grad_(grad_input and x.is_floating_point())
    for p in tmod.parameters():
        p.grad = None
    ty = tmod(x)
    gx = to_gnn(x, requires_grad=x.requires_grad)
    gy = gmod(gx)
    assert_close(test, gy, ty, 'output', rtol)
    if not ty.requires_grad:
        return gy
    grad = torch.randn_like(ty)
    ty.backward(grad)
    gy.backward(to_gnn(grad), False)
    if x.requires_grad:
        assert_close(test, gx.grad, x.grad, 'input gradient', rtol)
    gparams = dict(gmod.named_parameters())
    for name, p in tmod.named_parameters():
        g = gparams[name].grad
        if p.grad is None:
            test.assertIsNone(g, name)
        else:
            test.assertIsNotNone(g, name + ' has no gradient')
            assert_close(test, g, p.grad, name + ' gradient', rtol)
        gparams[name].grad = None
    return gy


def check_layer(test, gmod, tmod, inputs, rtol=RTOL, grad_input=True):
    """The whole parity check of one layer on each input in `inputs`:
    repr, state dict keys, torch's state loaded into Gnn (outputs and
    gradients equal), then Gnn's state loaded into a fresh torch copy."""
    test.assertEqual(repr(gmod), repr(tmod))
    check_state_dict_keys(test, gmod, tmod)
    load_torch_into_gnn(gmod, tmod)
    for x in inputs:
        check_forward_backward(test, gmod, tmod, x, rtol, grad_input)
    if list(tmod.state_dict()):
        # Gnn's (now torch's) values back into torch, after perturbing Gnn's
        for k, v in gmod.state_dict().items():
            if v.dtype in (Gnn.DType.F32, Gnn.DType.F64):
                v.copy_(Gnn.Tensor.from_numpy(v.numpy() * 0.5 + 0.25))
        load_gnn_into_torch(tmod, gmod)
        for x in inputs[:1]:
            check_forward_backward(test, gmod, tmod, x, rtol, grad_input)


def torch_error(func):
    try:
        func()
    except Exception as e:   # noqa: BLE001 - any torch exception is the reference
        return str(e).split('\n')[0]
    return None


def check_same_error(test, gnn_call, torch_call, contains=None):
    """Both fail, Gnn with torch's message (or one containing `contains`)."""
    want = torch_error(torch_call)
    test.assertIsNotNone(want, 'torch accepted it')
    with test.assertRaises((GLib.Error, ValueError, TypeError, RuntimeError,
                            NotImplementedError)) as cm:
        gnn_call()
    got = cm.exception.message if isinstance(cm.exception, GLib.Error) else str(cm.exception)
    if contains is not None:
        test.assertIn(contains, got)
        test.assertIn(contains, want)
    else:
        test.assertEqual(got, want)
