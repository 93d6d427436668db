# interpreter: blind
# shape: a PyTorch training loop: Dataset with per-item decode cost, DataLoader(num_workers=2,
# persistent_workers, prefetch), an MLP trained with Adam, a validation pass each epoch and a torch.save checkpoint
import os
import sys
import tempfile
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Synth(Dataset):
    def __init__(self, n: int, slow_every: int) -> None:
        self.n = n
        self.slow_every = slow_every

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        rng = np.random.default_rng(i)
        x = rng.standard_normal(256).astype(np.float32)
        if self.slow_every and i % self.slow_every == 0:
            time.sleep(0.4)  # a sample read from network storage
        y = np.float32(x[:8].sum() > 0)
        return torch.from_numpy(x), torch.tensor(y)


def main() -> int:
    torch.set_num_threads(2)
    print("ready", flush=True)
    d = tempfile.mkdtemp(prefix="bh-torch-")
    train = DataLoader(Synth(2048, 64), batch_size=64, shuffle=True, num_workers=2, persistent_workers=True, prefetch_factor=2)
    val = DataLoader(Synth(1024, 0), batch_size=256, num_workers=2)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lossf = nn.BCEWithLogitsLoss()
    deadline = time.monotonic() + 28
    ep = 0
    while time.monotonic() < deadline:
        model.train()
        for x, y in train:
            opt.zero_grad()
            loss = lossf(model(x).squeeze(1), y)
            loss.backward()
            opt.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val:
                correct += int(((model(x).squeeze(1) > 0).float() == y).sum())
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep}, os.path.join(d, "last.pt"))
        print(f"epoch {ep} loss {loss.item():.3f} val_acc {correct / 1024:.3f}", flush=True)
        ep += 1
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
