"""Sound effects made at start-up from a few lines of arithmetic (no sound files): a move, a fight, a blast,
the end of a game. Where there is no audio device the window is simply silent.

Samples are 16-bit integers built with the standard library (``math``, ``array``, a seeded ``random`` for
noise), in the mixer's own rate and channel count, and handed to ``pygame.mixer.Sound(buffer=...)``.
"""

from __future__ import annotations

import math
import random
from array import array
from functools import lru_cache

import pygame

RATE = 22050


def _envelope(i: int, n: int, attack: float = 0.005, rate: int = RATE) -> float:
    """A quick rise and an exponential fall over ``n`` samples."""
    a = max(1, int(attack * rate))
    if i < a:
        return i / a
    return math.exp(-5.0 * (i - a) / max(1, n - a))


def _tone(freqs, seconds: float, rate: int, noise: float = 0.0, seed: int = 1, bend: float = 0.0) -> list[float]:
    """Sines at ``freqs`` (Hz; ``bend`` lowers them over the sound) mixed with seeded noise, enveloped."""
    rng = random.Random(seed)
    n = int(seconds * rate)
    out = []
    for i in range(n):
        t = i / rate
        s = sum(math.sin(2 * math.pi * f * (1 - bend * i / n) * t) for f in freqs) / max(1, len(freqs))
        if noise:
            s = (1 - noise) * s + noise * (2 * rng.random() - 1)
        out.append(s * _envelope(i, n, rate=rate))
    return out


@lru_cache(maxsize=4)
def synthesize(rate: int = RATE) -> dict[str, tuple[float, ...]]:
    """The effects as samples in -1..1: ``move``, ``fight``, ``blast``, ``win`` (made once per process)."""
    win = []
    for k, f in enumerate((523.25, 659.25, 783.99, 1046.5)):  # C E G C
        win += _tone((f, 2 * f), 0.16 if k < 3 else 0.45, rate)
    sounds = {
        "move": _tone((180.0,), 0.07, rate, noise=0.35, seed=2),
        "fight": _tone((330.0, 415.0, 1240.0), 0.28, rate, noise=0.45, seed=3),
        "blast": _tone((55.0, 82.0), 0.7, rate, noise=0.75, seed=4, bend=0.4),
        "win": win,
    }
    return {name: tuple(samples) for name, samples in sounds.items()}


class Sounds:
    """The effects, ready to play; silent (``available`` False) when the mixer cannot start."""

    def __init__(self, settings):
        self.settings = settings
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.played: list[str] = []  # names played so far (tests, and a quiet record of what was heard)
        self.available = False
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(RATE, -16, 1, 512)
            rate, _size, channels = pygame.mixer.get_init()
        except (pygame.error, TypeError):  # no audio device: a silent window
            return
        for name, samples in synthesize(rate).items():
            data = array("h", (int(32000 * s) for s in samples for _ in range(channels)))
            self.sounds[name] = pygame.mixer.Sound(buffer=data.tobytes())
        self.available = True

    def play(self, name: str) -> bool:
        """Play an effect at the chosen volume (nothing when muted or silent); True when it was played."""
        sound = self.sounds.get(name)
        if sound is None or not self.settings.sound or self.settings.volume <= 0:
            return False
        sound.set_volume(self.settings.volume / 100)
        sound.play()
        self.played.append(name)
        return True
