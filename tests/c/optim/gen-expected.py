import torch, math
torch.set_printoptions(precision=17)
P0 = [0.5, -1.0, 2.0, 0.25]
NSTEPS = 5
G = [[round(math.sin(0.7*(k+1) + 0.3*j)*(1+0.5*j), 3) for j in range(4)] for k in range(NSTEPS)]
def run(cls, dtype, kw, steps=NSTEPS):
    p = torch.nn.Parameter(torch.tensor(P0, dtype=dtype).reshape(2,2))
    opt = cls([p], **kw)
    for k in range(steps):
        p.grad = torch.tensor(G[k], dtype=dtype).reshape(2,2)
        opt.step()
    return p.detach().reshape(-1).tolist()
def carr(name, vals):
    return "static const double %s[] = { %s };" % (name, ", ".join(repr(float(v)) for v in vals))
print(carr("GRADS", sum(G, [])))
cases = [
 ("SGD_PLAIN_F32", torch.optim.SGD, torch.float32, dict(lr=0.1)),
 ("SGD_MOMENTUM_WD_F32", torch.optim.SGD, torch.float32, dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01)),
 ("SGD_NESTEROV_F64", torch.optim.SGD, torch.float64, dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1)),
 ("SGD_MAXIMIZE_F64", torch.optim.SGD, torch.float64, dict(lr=0.05, momentum=0.5, maximize=True)),
 ("ADAM_F32", torch.optim.Adam, torch.float32, dict(lr=0.01)),
 ("ADAM_AMSGRAD_WD_F64", torch.optim.Adam, torch.float64, dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.05, amsgrad=True)),
 ("ADAMW_F32", torch.optim.AdamW, torch.float32, dict(lr=0.01)),
 ("ADAMW_AMSGRAD_F64", torch.optim.AdamW, torch.float64, dict(lr=0.03, weight_decay=0.1, amsgrad=True)),
]
for name, cls, dt, kw in cases:
    print(carr(name, run(cls, dt, kw)))
# schedulers
def lrs(sched_fn, n):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1)
    s = sched_fn(opt)
    out = [s.get_last_lr()[0]]
    for i in range(n):
        opt.step(); s.step(); out.append(s.get_last_lr()[0])
    return out
import warnings; warnings.simplefilter("ignore")
print(carr("STEP_LR", lrs(lambda o: torch.optim.lr_scheduler.StepLR(o, 3, 0.5), 10)))
print(carr("COSINE_LR", lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 4, 0.001), 24)))
