# word_language_model.py: PyTorch's word-level language model example
# (examples/word_language_model, the Transformer variant) on a small
# generated corpus: a vocabulary built from the text, batchify/get_batch,
# an Embedding, a sinusoidal PositionalEncoding buffer (its table
# computed in numpy), nn.TransformerEncoder
# of nn.TransformerEncoderLayer with the causal mask from
# nn.Transformer.generate_square_subsequent_mask, a Linear decoder,
# log_softmax + NLLLoss, clip_grad_norm_ and SGD, then an evaluation pass.
#
# runner-args: --epochs 2 --bptt 8 --batch-size 4 --emsize 16 --nhid 32 --nlayers 2 --dropout 0.0
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Corpus(object):
    """Words of a generated text, numbered in order of appearance."""

    def __init__(self, n_sentences):
        subjects = ['the cat', 'a dog', 'my friend', 'the old man', 'she', 'he']
        verbs = ['sees', 'likes', 'follows', 'finds', 'calls']
        objects = ['the ball', 'a bird', 'the river', 'her book', 'the moon']
        self.word2idx = {}
        ids = []
        for i in range(n_sentences):
            sentence = '%s %s %s <eos>' % (subjects[i * 7 % 6], verbs[i * 3 % 5], objects[i * 11 % 5])
            for word in sentence.split():
                ids.append(self.word2idx.setdefault(word, len(self.word2idx)))
        self.ids = torch.tensor(ids, dtype=torch.long)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        # the table in numpy (Gnn has no torch.sin/cos yet: issue 26's ops)
        position = np.arange(max_len, dtype=np.float32)[:, None]
        div_term = np.exp(np.arange(0, d_model, 2, dtype=np.float32) * (-math.log(10000.0) / d_model))
        pe = np.zeros((max_len, d_model), dtype=np.float32)
        pe[:, 0::2] = np.sin(position * div_term)
        pe[:, 1::2] = np.cos(position * div_term)
        pe = torch.from_numpy(pe).unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__()
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        encoder_layers = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        else:
            self.src_mask = None
        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


def main():
    parser = argparse.ArgumentParser(description='Transformer language model')
    parser.add_argument('--emsize', type=int, default=200)
    parser.add_argument('--nhid', type=int, default=200)
    parser.add_argument('--nlayers', type=int, default=2)
    parser.add_argument('--nhead', type=int, default=2)
    parser.add_argument('--lr', type=float, default=5.0)
    parser.add_argument('--clip', type=float, default=0.25)
    parser.add_argument('--epochs', type=int, default=40)
    parser.add_argument('--batch-size', type=int, default=20)
    parser.add_argument('--bptt', type=int, default=35)
    parser.add_argument('--dropout', type=float, default=0.2)
    parser.add_argument('--sentences', type=int, default=60)
    args = parser.parse_args()

    torch.manual_seed(1111)
    corpus = Corpus(args.sentences)
    train_data = batchify(corpus.ids, args.batch_size)
    ntokens = len(corpus.word2idx)
    model = TransformerModel(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers, args.dropout)
    criterion = nn.NLLLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        total_loss = 0.0
        for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
            data, targets = get_batch(train_data, i, args.bptt)
            optimizer.zero_grad()
            output = model(data)
            loss = criterion(output.view(-1, ntokens), targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            optimizer.step()
            total_loss += loss.item()
        model.eval()
        with torch.no_grad():
            eval_loss = 0.0
            for i in range(0, train_data.size(0) - 1, args.bptt):
                data, targets = get_batch(train_data, i, args.bptt)
                output = model(data)
                eval_loss += len(data) * criterion(output.view(-1, ntokens), targets).item()
            eval_loss /= len(train_data) - 1
        print('| epoch {:3d} | train loss {:5.2f} | valid loss {:5.2f} | valid ppl {:8.2f}'.format(
            epoch, total_loss / (batch + 1), eval_loss, math.exp(eval_loss)))


if __name__ == '__main__':
    main()
