"""PyTorch's ``torch.nn.functional`` names over the Tensor methods (``import tensor.nn.functional as F``)."""


def linear(x, weight, bias=None):
    return x.linear(weight, bias)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return x.conv2d(weight, bias, stride, padding, dilation, groups)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1):
    return x.max_pool2d(kernel_size, stride, padding, dilation)


def avg_pool2d(x, kernel_size, stride=None, padding=0, count_include_pad=True):
    return x.avg_pool2d(kernel_size, stride, padding, count_include_pad)


def dropout(x, p=0.5, training=True):
    return x.dropout(p, training=training)


def relu(x):
    return x.relu()


def gelu(x, approximate="none"):
    return x.gelu(approximate)


def silu(x):
    return x.silu()


def leaky_relu(x, negative_slope=0.01):
    return x.leaky_relu(negative_slope)


def softmax(x, dim=-1):
    return x.softmax(dim)


def log_softmax(x, dim=-1):
    return x.log_softmax(dim)


def one_hot(x, num_classes=-1):
    return x.one_hot(num_classes)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    return input.cross_entropy(target, weight, ignore_index, reduction, label_smoothing)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    return input.nll_loss(target, weight, ignore_index, reduction)


def mse_loss(input, target, reduction="mean"):
    return input.mse_loss(target, reduction)


def l1_loss(input, target, reduction="mean"):
    return input.l1_loss(target, reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    return input.binary_cross_entropy(target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    return input.binary_cross_entropy_with_logits(target, weight, pos_weight, reduction)
