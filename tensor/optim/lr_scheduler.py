"""Learning-rate schedules, PyTorch's way: build one after the optimizer, call ``step()``
once per epoch (after that epoch's optimizer steps).  The rate at epoch ``e`` comes from a
closed form of the base rate (the optimizer's rate when the schedule was built) and is written
into the optimizer's ``lr`` tensor, so jitted training steps use it at once."""
import math


class LRScheduler:
    def __init__(self, optimizer, last_epoch=-1):
        if not hasattr(optimizer, "set_lr"):
            raise TypeError(f"{type(self).__name__}: needs an optimizer, got {type(optimizer).__name__}")
        self.optimizer = optimizer
        self.base_lr = optimizer.get_lr()
        self.last_epoch = last_epoch
        self.step()

    def lr_at(self, epoch):
        raise TypeError(f"{type(self).__name__} does not define lr_at")

    def step(self):
        self.last_epoch += 1
        self._last_lr = self.lr_at(self.last_epoch)
        self.optimizer.set_lr(self._last_lr)

    def get_last_lr(self):
        return [self._last_lr]

    def state_dict(self):
        return {"base_lr": self.base_lr, "last_epoch": self.last_epoch}

    def load_state_dict(self, state):
        self.base_lr, self.last_epoch = state["base_lr"], state["last_epoch"]
        self._last_lr = self.lr_at(self.last_epoch)
        self.optimizer.set_lr(self._last_lr)


class StepLR(LRScheduler):
    """lr = base_lr * gamma ** (epoch // step_size)."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if step_size < 1:
            raise ValueError(f"StepLR: step_size must be at least 1, got {step_size}")
        self.step_size, self.gamma = int(step_size), gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.base_lr * self.gamma ** (epoch // self.step_size)


class CosineAnnealingLR(LRScheduler):
    """lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2: from the base
    rate at epoch 0 down to eta_min at epoch T_max (Loshchilov & Hutter, SGDR, 2017)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        if T_max < 1:
            raise ValueError(f"CosineAnnealingLR: T_max must be at least 1, got {T_max}")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def lr_at(self, epoch):
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * epoch / self.T_max)) / 2
