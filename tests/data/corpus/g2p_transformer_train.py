"""Trains a tiny grapheme-to-phoneme model the way entn-at/g2p's nn/train.py does.

Hyperparameters in a module-level tf.contrib.training.HParams (nn/transformer/hparams.py),
overridden by `hparams.parse(args.hparams)` from an argparse flag; the model clips its
gradients by global norm with hparams.grad_clip_ratio; a plain Session loop with
tf.train.Saver and tf.summary.FileWriter. Random "words".
"""

import argparse
import os
import sys

import numpy as np
import tensorflow as tf

hparams = tf.contrib.training.HParams(
    graphemes_num=12,
    phonemes_num=9,
    max_grapheme_seq_len=6,
    hidden_units=16,
    dropout_rate=0.1,
    label_smoothing=True,
    batch_size=8,
    lr=0.01,
    grad_clip_ratio=1.0,
    max_steps=500000,
    save_every_nth=1000,
    layers=[16, 16],
)


def parse_args():
    arg_parser = argparse.ArgumentParser(description='Trains G2P model')
    arg_parser.add_argument('--model-dir', default='g2p_model', help='Directory to put model to')
    arg_parser.add_argument('--hparams', default='', help='Overwrites hparams')
    args = arg_parser.parse_args()
    if not os.path.isdir(args.model_dir):
        os.makedirs(args.model_dir)
    return args


class G2PModel(object):

    def __init__(self, hparams, is_training=True):
        self.hparams = hparams
        self.inputs = tf.placeholder(tf.int32, [None, hparams.max_grapheme_seq_len], name='inputs')
        self.targets = tf.placeholder(tf.int32, [None], name='targets')
        embedding = tf.get_variable('embedding', [hparams.graphemes_num, hparams.hidden_units])
        net = tf.reduce_mean(tf.nn.embedding_lookup(embedding, self.inputs), axis=1)
        for i, units in enumerate(hparams.layers):
            net = tf.layers.dense(net, units, activation=tf.nn.relu, name='dense_%d' % i)
            if is_training:
                net = tf.nn.dropout(net, keep_prob=1.0 - hparams.dropout_rate, seed=i)
        self.logits = tf.layers.dense(net, hparams.phonemes_num, name='logits')
        self.global_step = tf.train.get_or_create_global_step()

    def add_loss(self):
        onehot = tf.one_hot(self.targets, self.hparams.phonemes_num)
        smoothing = 0.1 if self.hparams.label_smoothing else 0.0
        self.loss = tf.losses.softmax_cross_entropy(onehot, self.logits, label_smoothing=smoothing)

    def add_train_and_stats(self):
        optimizer = tf.train.AdamOptimizer(self.hparams.lr)
        grads, tvars = zip(*optimizer.compute_gradients(self.loss))
        clipped, global_norm = tf.clip_by_global_norm(grads, self.hparams.grad_clip_ratio)
        self.train_op = optimizer.apply_gradients(zip(clipped, tvars), global_step=self.global_step)
        tf.summary.scalar('loss', self.loss)
        tf.summary.scalar('global_norm', global_norm)
        self.stats_op = tf.summary.merge_all()


def main():
    args = parse_args()
    hparams.parse(args.hparams)
    with open(os.path.join(args.model_dir, 'hparams.json'), 'w') as outfp:
        outfp.write(hparams.to_json(indent=1, sort_keys=True))
    print('**Info: hparams %s' % hparams)

    model = G2PModel(hparams, is_training=True)
    model.add_loss()
    model.add_train_and_stats()

    rng = np.random.RandomState(0)
    words = rng.randint(0, hparams.graphemes_num, (hparams.batch_size, hparams.max_grapheme_seq_len))
    phones = rng.randint(0, hparams.phonemes_num, (hparams.batch_size,))

    sess = tf.Session()
    saver = tf.train.Saver(max_to_keep=0)
    summary_writer = tf.summary.FileWriter(args.model_dir, sess.graph)
    sess.run(tf.global_variables_initializer())
    step = 0
    while step < hparams.max_steps:
        loss, _, summary = sess.run(
            [model.loss, model.train_op, model.stats_op],
            feed_dict={model.inputs: words, model.targets: phones})
        step = sess.run(model.global_step)
        summary_writer.add_summary(summary, step)
        sys.stdout.write('Train: step %d; loss %f\n' % (step, loss))
        if step % hparams.save_every_nth == 0:
            saver.save(sess, os.path.join(args.model_dir, 'g2p'), global_step=step)
    saver.save(sess, os.path.join(args.model_dir, 'g2p'), global_step=step)
    print('RESULT global_step=%d loss=%f' % (step, loss))


if __name__ == '__main__':
    main()
