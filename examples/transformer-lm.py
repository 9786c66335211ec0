#!/usr/bin/python3
# transformer-lm.py: a tiny Transformer word-level language model, written
# the way PyTorch's examples/word_language_model writes its Transformer
# variant (Embedding scaled by sqrt(d_model), a sinusoidal positional
# encoding buffer, nn.TransformerEncoder with the causal mask, a Linear
# decoder whose weight may be tied to the embedding's, log_softmax +
# NLLLoss, clip_grad_norm_, SGD), ported by its import lines only:
#
#   import gnn as torch                 # instead of `import torch`
#   import gnn.nn as nn                 # instead of `import torch.nn as nn`
#   import gnn.nn.functional as F       # instead of `import torch.nn.functional as F`
#
# It trains on a small generated corpus and exits non-zero unless the loss
# decreases. When torch is installed it also builds the same model in torch
# with Gnn's initial weights and checks that the first step's loss (and the
# loss after one SGD step) agree within 1e-4. Run with Debian's
# /usr/bin/python3; uninstalled:
#   GI_TYPELIB_PATH=build/gir LD_LIBRARY_PATH=build/lib \
#   PYTHONPATH=build/gir/python /usr/bin/python3 examples/transformer-lm.py
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import math
import sys

import gnn as torch
import gnn.nn as nn                 # noqa: F401 (the spelling a port keeps)
import gnn.nn.functional as F       # noqa: F401


def model_classes(torch):
    """The model written against @torch: Gnn here, torch for the check."""
    nn = torch.nn
    F = torch.nn.functional

    class PositionalEncoding(nn.Module):
        def __init__(self, d_model, max_len=512):
            super().__init__()
            position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
            div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
            pe = torch.zeros(max_len, d_model)
            pe[:, 0::2] = torch.sin(position * div_term)
            pe[:, 1::2] = torch.cos(position * div_term)
            self.register_buffer('pe', pe.unsqueeze(0).transpose(0, 1))

        def forward(self, x):
            return x + self.pe[:x.size(0), :]

    class TransformerModel(nn.Module):
        def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.0, tie_weights=False):
            super().__init__()
            self.pos_encoder = PositionalEncoding(ninp)
            layer = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
            self.transformer_encoder = nn.TransformerEncoder(layer, nlayers)
            self.encoder = nn.Embedding(ntoken, ninp)
            self.decoder = nn.Linear(ninp, ntoken)
            if tie_weights:
                self.decoder.weight = self.encoder.weight
            self.ninp = ninp
            self.src_mask = None
            initrange = 0.1
            nn.init.uniform_(self.encoder.weight, -initrange, initrange)
            nn.init.zeros_(self.decoder.bias)
            if not tie_weights:
                nn.init.uniform_(self.decoder.weight, -initrange, initrange)

        def forward(self, src):
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
            src = self.encoder(src) * math.sqrt(self.ninp)
            output = self.transformer_encoder(self.pos_encoder(src), self.src_mask)
            return F.log_softmax(self.decoder(output), dim=-1)

    return TransformerModel


def corpus(torch, n_sentences):
    """Word ids of a generated text and the vocabulary size."""
    subjects = ['the cat', 'a dog', 'my friend', 'the old man', 'she', 'he']
    verbs = ['sees', 'likes', 'follows', 'finds', 'calls']
    objects = ['the ball', 'a bird', 'the river', 'her book', 'the moon']
    word2idx = {}
    ids = []
    for i in range(n_sentences):
        sentence = '%s %s %s <eos>' % (subjects[i * 7 % 6], verbs[i * 3 % 5], objects[i * 11 % 5])
        ids += [word2idx.setdefault(word, len(word2idx)) for word in sentence.split()]
    return torch.tensor(ids, dtype=torch.long), len(word2idx)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data.narrow(0, 0, nbatch * bsz).view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def train_step(torch, model, optimizer, data, targets, ntokens, clip):
    optimizer.zero_grad()
    loss = torch.nn.NLLLoss()(model(data).view(-1, ntokens), targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    return loss.item()


def check_against_torch(args, model, ids, ntokens):
    """The first two steps' losses of the same model (Gnn's initial weights)
    in torch 1.13; None when torch is not installed."""
    try:
        import torch as real
    except ImportError:
        return None
    twin = model_classes(real)(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers,
                               tie_weights=args.tied)
    state = {key: real.from_numpy(value.numpy().copy()) for key, value in model.state_dict().items()}
    twin.load_state_dict(state)
    data = batchify(real.from_numpy(ids.numpy().copy()), args.batch_size)
    optimizer = real.optim.SGD(twin.parameters(), lr=args.lr)
    losses = []
    for i in (0, args.bptt):
        x, y = get_batch(data, i, args.bptt)
        losses.append(train_step(real, twin, optimizer, x, y, ntokens, args.clip))
    return losses


def main():
    parser = argparse.ArgumentParser(description='A tiny Transformer language model on Gnn')
    parser.add_argument('--emsize', type=int, default=32)
    parser.add_argument('--nhid', type=int, default=64)
    parser.add_argument('--nlayers', type=int, default=2)
    parser.add_argument('--nhead', type=int, default=2)
    parser.add_argument('--lr', type=float, default=1.0)
    parser.add_argument('--clip', type=float, default=0.25)
    parser.add_argument('--epochs', type=int, default=6)
    parser.add_argument('--batch-size', type=int, default=8)
    parser.add_argument('--bptt', type=int, default=12)
    parser.add_argument('--sentences', type=int, default=80)
    parser.add_argument('--tied', action='store_true', help='tie the decoder to the embedding')
    args = parser.parse_args()

    torch.manual_seed(1111)
    ids, ntokens = corpus(torch, args.sentences)
    train_data = batchify(ids, args.batch_size)
    model = model_classes(torch)(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers,
                                 tie_weights=args.tied)
    expected = check_against_torch(args, model, ids, ntokens)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

    epoch_losses = []
    step_losses = []
    for epoch in range(1, args.epochs + 1):
        model.train()
        total = []
        for i in range(0, train_data.size(0) - 1, args.bptt):
            data, targets = get_batch(train_data, i, args.bptt)
            total.append(train_step(torch, model, optimizer, data, targets, ntokens, args.clip))
        step_losses += total
        epoch_losses.append(sum(total) / len(total))
        print('| epoch {:3d} | train loss {:5.2f} | ppl {:8.2f}'.format(
            epoch, epoch_losses[-1], math.exp(epoch_losses[-1])))

    failures = []
    if expected is not None:
        for step, (got, want) in enumerate(zip(step_losses, expected)):
            print('step %d loss: Gnn %.6f, torch %.6f' % (step, got, want))
            if abs(got - want) > 1e-4 * max(1.0, abs(want)):
                failures.append('step %d loss %.6f differs from torch\'s %.6f' % (step, got, want))
    else:
        print('torch is not installed: the comparison with torch is skipped')
    if not epoch_losses[-1] < 0.8 * epoch_losses[0]:
        failures.append('the loss did not decrease: %s' % epoch_losses)
    for failure in failures:
        print('FAIL:', failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
