"""Train a two-layer perceptron on the 8x8 digits: 64 -> 128 -> ReLU -> 10.

SGD with Nesterov momentum and weight decay, a cosine learning-rate schedule, cross-entropy
loss; a fixed split (1,437 training, 360 test images) and seed.  One line per epoch: loss,
train and test accuracy, seconds (wall and CPU), kernels per training step.

A training step (forward, loss, backward, the optimizer's updates) is 20 kernels:
  forward   2  one per Linear layer (matmul and bias; the ReLU is computed where it is read)
  loss      5  logsumexp's max and sum of exponentials, the targets' logits, the mean, and
               the count of targets not ignored
  backward  5  the gradient through the second layer and the ReLU, the four parameters'
  update    8  momentum buffer and parameter, for each of the four parameters
The test suite checks the number.
"""
import sys

from tensor import nn, optim
from tensor.examples import common

HIDDEN = 128
STEP_KERNELS = 20
DEFAULTS = {"epochs": 20, "batch_size": 32, "lr": 0.05}


def make_model(input_shape, device=None):
    features = 1
    for s in input_shape:
        features *= s
    return nn.Sequential(nn.Flatten(), nn.Linear(features, HIDDEN, device=device), nn.ReLU(),
                         nn.Linear(HIDDEN, 10, device=device))


def make_optimizer(args, model):
    opt = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=1e-4)
    return opt, optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)


def loss(logits, y):
    return logits.cross_entropy(y)


def build(args, input_shape, device=None):
    """(model, optimizer, schedule, loss function), as the example trains them."""
    model = make_model(input_shape, device)
    return (model, *make_optimizer(args, model), loss)


def describe(model):
    return (f"MLP {model[1].in_features}-{HIDDEN}-10, SGD (Nesterov momentum 0.9, weight decay 1e-4), "
            "cosine schedule")


def main(argv=None):
    return common.main(sys.modules[__name__], argv)


if __name__ == "__main__":
    sys.exit(main())
