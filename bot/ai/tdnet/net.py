"""A small network: one hidden layer of sigmoid units, five sigmoid outputs.

The outputs are the chances of the player on roll, as GNU Backgammon's and
bgsage's networks give them: he wins; he wins a gammon (or better); he wins a
backgammon; he loses a gammon (or worse); he loses a backgammon.  Inference is
numpy alone.  Learning (used by :mod:`bot.ai.tdnet.train`) is a gradient step
on the cross-entropy between the outputs and their targets (the sigmoid's
gradient then simplifies to ``output - target`` at the output units).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bot.ai.tdnet.encode import INPUTS, Matrix

OUTPUTS = 5
WIN, GAMMON_WIN, BACKGAMMON_WIN, GAMMON_LOSS, BACKGAMMON_LOSS = range(OUTPUTS)


def _sigmoid(x: Matrix) -> Matrix:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0))), dtype=np.float64)


def mirror(chances: Matrix) -> Matrix:
    """The same chances from the other player's side (rows of five)."""
    out = np.empty_like(chances)
    out[:, WIN] = 1.0 - chances[:, WIN]
    out[:, GAMMON_WIN] = chances[:, GAMMON_LOSS]
    out[:, BACKGAMMON_WIN] = chances[:, BACKGAMMON_LOSS]
    out[:, GAMMON_LOSS] = chances[:, GAMMON_WIN]
    out[:, BACKGAMMON_LOSS] = chances[:, BACKGAMMON_WIN]
    return out


def consistent(chances: Matrix) -> Matrix:
    """Chances that nest: a backgammon is a gammon is a win (or a loss)."""
    out = np.clip(chances, 0.0, 1.0)
    out[:, GAMMON_WIN] = np.minimum(out[:, GAMMON_WIN], out[:, WIN])
    out[:, BACKGAMMON_WIN] = np.minimum(out[:, BACKGAMMON_WIN], out[:, GAMMON_WIN])
    out[:, GAMMON_LOSS] = np.minimum(out[:, GAMMON_LOSS], 1.0 - out[:, WIN])
    out[:, BACKGAMMON_LOSS] = np.minimum(out[:, BACKGAMMON_LOSS], out[:, GAMMON_LOSS])
    return out


def equity(chances: Matrix, gammons: bool = True) -> npt.NDArray[np.float64]:
    """Cubeless money equity of each row (points per unit of the cube)."""
    e = 2.0 * chances[:, WIN] - 1.0
    if gammons:
        e = e + chances[:, GAMMON_WIN] - chances[:, GAMMON_LOSS] \
            + chances[:, BACKGAMMON_WIN] - chances[:, BACKGAMMON_LOSS]
    return np.asarray(e, dtype=np.float64)


@dataclass(slots=True)
class Net:
    """Weights of the network (mutable: training updates them in place)."""

    w1: Matrix  # hidden x inputs
    b1: Matrix  # hidden
    w2: Matrix  # outputs x hidden
    b2: Matrix  # outputs
    games: int = 0
    """How many self-play games trained these weights."""

    @classmethod
    def fresh(cls, hidden: int, rng: np.random.Generator) -> Net:
        """Small random weights (Glorot-like), biases at zero."""
        w1 = rng.normal(0.0, 1.0 / np.sqrt(INPUTS), (hidden, INPUTS))
        w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), (OUTPUTS, hidden))
        return cls(w1, np.zeros(hidden), w2, np.zeros(OUTPUTS))

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[0])

    def forward(self, x: Matrix) -> tuple[Matrix, Matrix]:
        """Hidden activations and outputs for input rows ``x``."""
        h = _sigmoid(x @ self.w1.T + self.b1)
        return h, _sigmoid(h @ self.w2.T + self.b2)

    def chances(self, x: Matrix) -> Matrix:
        """The on-roll player's five chances for each input row, nested."""
        return consistent(self.forward(x)[1])

    def learn(self, x: Matrix, target: Matrix, rate: float) -> float:
        """A gradient step towards ``target`` (``rate`` per row, the rows' steps added up);
        returns the mean squared error before it."""
        h, out = self.forward(x)
        d_out = out - target
        d_hidden = (d_out @ self.w2) * h * (1.0 - h)
        self.w2 -= rate * (d_out.T @ h)
        self.b2 -= rate * d_out.sum(axis=0)
        self.w1 -= rate * (d_hidden.T @ x)
        self.b1 -= rate * d_hidden.sum(axis=0)
        return float(np.mean((out - target) ** 2))

    def save(self, path: Path) -> None:
        """Weights as float32 in a compressed ``.npz`` (small, reproducible)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(f, w1=self.w1.astype(np.float32), b1=self.b1.astype(np.float32),
                                w2=self.w2.astype(np.float32), b2=self.b2.astype(np.float32),
                                games=np.array(self.games))

    @classmethod
    def load(cls, path: Path) -> Net:
        with np.load(path) as data:
            def f64(name: str) -> Matrix:
                return np.asarray(data[name], dtype=np.float64)
            net = cls(f64("w1"), f64("b1"), f64("w2"), f64("b2"), int(data["games"]))
        if net.w1.shape[1] != INPUTS or net.w2.shape[0] != OUTPUTS:
            raise ValueError(f"{path.name}: weights for {net.w1.shape[1]} inputs and "
                             f"{net.w2.shape[0]} outputs, expected {INPUTS} and {OUTPUTS}")
        return net
