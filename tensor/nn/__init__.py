"""``tensor.nn``: layers, losses, initializations and saving, with PyTorch's names.

    from tensor import Tensor, nn, optim
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss = model(x).cross_entropy(y)
    opt.zero_grad(); loss.backward(); opt.step()
    nn.safe_save(model.state_dict(), "model.safetensors")

Modules (:mod:`tensor.nn.module`), layers and loss modules (:mod:`tensor.nn.layers`),
``nn.init`` and ``nn.functional`` as in PyTorch; ``state_dict`` / ``load_state_dict`` and the
safetensors reader and writer in :mod:`tensor.nn.state`.
"""
from tensor.nn import functional, init
from tensor.nn.layers import (AvgPool2d, BatchNorm1d, BatchNorm2d, BCELoss, BCEWithLogitsLoss, Conv2d,
                              CrossEntropyLoss, Dropout, Embedding, L1Loss, LayerNorm, Linear, MaxPool2d,
                              MSELoss, NLLLoss)
from tensor.nn.module import (GELU, Flatten, Identity, LeakyReLU, LogSoftmax, Module, ModuleList, Parameter,
                              ReLU, Sequential, SiLU, Sigmoid, Softmax, Tanh)
from tensor.nn.state import (IncompatibleKeys, SafetensorsError, load_state_dict, safe_load, safe_load_metadata,
                             safe_save, state_dict)

__all__ = ["functional", "init", "Module", "Parameter", "Sequential", "ModuleList", "Identity", "Flatten",
           "ReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "Softmax", "LogSoftmax", "Linear", "Conv2d",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm", "Embedding", "Dropout", "MaxPool2d", "AvgPool2d",
           "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss", "state_dict",
           "load_state_dict", "safe_save", "safe_load", "safe_load_metadata", "SafetensorsError",
           "IncompatibleKeys"]
