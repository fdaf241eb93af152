"""An Estimator MNIST-style classifier built from tf.layers classes in a tf.keras.Model, with the
multi-GPU path of its time: tf.contrib.estimator.TowerOptimizer around the optimizer and
tf.contrib.estimator.replicate_model_fn(model_fn, loss_reduction=tf.losses.Reduction.MEAN)."""

import argparse
import sys

import tensorflow as tf

LEARNING_RATE = 1e-4


class Model(tf.keras.Model):
    def __init__(self, data_format):
        super(Model, self).__init__()
        self._input_shape = [-1, 28, 28, 1]
        self.conv1 = tf.layers.Conv2D(4, 5, padding="same", data_format=data_format, activation=tf.nn.relu)
        self.fc1 = tf.layers.Dense(16, activation=tf.nn.relu)
        self.fc2 = tf.layers.Dense(10)
        self.dropout = tf.layers.Dropout(0.4)
        self.max_pool2d = tf.layers.MaxPooling2D((2, 2), (2, 2), padding="same", data_format=data_format)

    def __call__(self, inputs, training):
        y = tf.reshape(inputs, self._input_shape)
        y = self.max_pool2d(self.conv1(y))
        y = tf.layers.flatten(y)
        y = self.dropout(self.fc1(y), training=training)
        return self.fc2(y)


def model_fn(features, labels, mode, params):
    model = Model(params["data_format"])
    image = features["image"] if isinstance(features, dict) else features
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.AdamOptimizer(learning_rate=LEARNING_RATE)
        if params.get("multi_gpu"):
            optimizer = tf.contrib.estimator.TowerOptimizer(optimizer)
        logits = model(image, training=True)
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        accuracy = tf.metrics.accuracy(labels=labels, predictions=tf.argmax(logits, axis=1))
        tf.identity(loss, "cross_entropy")
        tf.summary.scalar("train_accuracy", accuracy[1])
        return tf.estimator.EstimatorSpec(
            mode=tf.estimator.ModeKeys.TRAIN,
            loss=loss,
            train_op=optimizer.minimize(loss, tf.train.get_or_create_global_step()),
        )
    logits = model(image, training=False)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    return tf.estimator.EstimatorSpec(
        mode=tf.estimator.ModeKeys.EVAL,
        loss=loss,
        eval_metric_ops={"accuracy": tf.metrics.accuracy(labels=labels, predictions=tf.argmax(logits, axis=1))},
    )


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", default="/tmp/mnist_model")
    parser.add_argument("--multi_gpu", action="store_true")
    parser.add_argument("--train_steps", type=int, default=3)
    flags = parser.parse_args(args=argv[1:])
    model_function = model_fn
    if flags.multi_gpu:
        model_function = tf.contrib.estimator.replicate_model_fn(model_fn, loss_reduction=tf.losses.Reduction.MEAN)
    classifier = tf.estimator.Estimator(
        model_fn=model_function,
        model_dir=flags.model_dir,
        params={"data_format": "channels_last", "multi_gpu": flags.multi_gpu},
    )

    def train_input_fn():
        images = tf.random_uniform([8, 784], seed=1)
        labels = tf.zeros([8], dtype=tf.int32)
        return tf.data.Dataset.from_tensors((images, labels)).repeat()

    classifier.train(input_fn=train_input_fn, steps=flags.train_steps)


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    main(argv=sys.argv)
