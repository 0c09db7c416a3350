"""Train a two-layer perceptron on the 8x8 digits: 64 -> 128 -> ReLU -> 10.

SGD with Nesterov momentum and weight decay, a cosine learning-rate schedule, cross-entropy
loss; a fixed split (1,437 training, 360 test images) and seed.  One line per epoch: loss,
train and test accuracy, seconds (wall and CPU), kernels per training step.

A training step (forward, loss, backward, the optimizer's updates) is 20 kernels: the two
Linear layers (1 each: matmul, bias and the ReLU that follows fuse), the loss (5: the max and
the sum of exponentials of logsumexp, the targets' logits, the mean, the count of targets not
ignored), the backward pass (5: the gradient through the second layer and the ReLU, then the
four parameters' gradients), and the updates (2 per parameter: momentum buffer, parameter).
The test suite checks the number.
"""
import sys

from tensor import nn, optim
from tensor.examples.common import main as run_main

HIDDEN = 128
STEP_KERNELS = 20


def build(args, input_shape):
    features = 1
    for s in input_shape:
        features *= s
    model = nn.Sequential(nn.Flatten(), nn.Linear(features, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 10))
    opt = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=1e-4)
    sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    return model, opt, sched, lambda logits, y: logits.cross_entropy(y)


def describe(model):
    return f"MLP {model[1].in_features}-{HIDDEN}-10, SGD (Nesterov momentum 0.9, weight decay 1e-4), cosine schedule"


def main(argv=None):
    return run_main("python -m tensor.examples.mlp", __doc__, argv, build, describe,
                    epochs=20, batch_size=32, lr=0.05)


if __name__ == "__main__":
    sys.exit(main())
