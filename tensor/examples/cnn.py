"""Train a small convolutional network on the 8x8 digits:

    Conv2d(1, 16, 3, padding=1) -> BatchNorm2d -> ReLU -> MaxPool2d(2)
    Conv2d(16, 32, 3, padding=1) -> BatchNorm2d -> ReLU -> MaxPool2d(2)
    Flatten -> Dropout(0.2) -> Linear(32 * 2 * 2, 10)

AdamW, a step learning-rate schedule, cross-entropy with label smoothing 0.1; a fixed split
(1,437 training, 360 test images) and seed.  One line per epoch: loss, train and test accuracy
(in eval mode: BatchNorm's running statistics, no dropout), seconds (wall and CPU), kernels
per training step.  Each convolution is one kernel (a multiply and a sum over a sliding-window
view of its input, no im2col copy).
"""
import sys

from tensor import nn, optim
from tensor.examples import common

DEFAULTS = {"epochs": 15, "batch_size": 32, "lr": 3e-3}


class AddChannel(nn.Module):
    """(N, H, W) images -> (N, 1, H, W)."""

    def forward(self, x):
        return x.unsqueeze(1)


def make_model(input_shape, device=None):
    h, w = input_shape
    return nn.Sequential(
        AddChannel(),
        nn.Conv2d(1, 16, 3, padding=1, device=device), nn.BatchNorm2d(16, device=device), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1, device=device), nn.BatchNorm2d(32, device=device), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(32 * (h // 4) * (w // 4), 10, device=device))


def make_optimizer(args, model):
    opt = optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    return opt, optim.lr_scheduler.StepLR(opt, step_size=max(1, args.epochs // 3), gamma=0.3)


def loss(logits, y):
    return logits.cross_entropy(y, label_smoothing=0.1)


def build(args, input_shape, device=None):
    """(model, optimizer, schedule, loss function), as the example trains them."""
    model = make_model(input_shape, device)
    return (model, *make_optimizer(args, model), loss)


def describe(model):
    return "CNN conv16-conv32-linear with BatchNorm, AdamW, step schedule"


def main(argv=None):
    return common.main(sys.modules[__name__], argv)


if __name__ == "__main__":
    sys.exit(main())
