"""How a verifier worker is started: interpreter, Keras version, limits."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

GIB = 1024**3

# Measured on TF 2.21 (2 cores): importing TensorFlow reserves ~1.4 GiB of address space, a
# small fit plus a .keras save/load and a SavedModel export peak at ~2.6 GiB (VmPeak; resident
# memory stays near 600 MB).  Six GiB leaves room for the examples while still stopping a
# runaway allocation long before it can hurt the editor or the machine.
DEFAULT_MEMORY_LIMIT = 6 * GIB
DEFAULT_TIMEOUT = 60.0
# Cold start = interpreter + `import tensorflow` (6-10 s with a cold page cache) + handshake.
DEFAULT_START_TIMEOUT = 120.0

KERAS_CHOICES = ("3", "2")


@dataclass(frozen=True)
class WorkerConfig:
    """Settings of one worker process.  One worker runs one Keras version.

    ``memory_limit`` is an address-space limit (RLIMIT_AS) in bytes applied in the worker
    before TensorFlow is imported; 0 disables it.  ``timeout`` is the default per-request
    limit in seconds: a request that exceeds it gets the worker killed and restarted.
    ``restart`` is ``"lazy"`` (start a new worker on the next request) or ``"eager"`` (start
    it in the background right after a crash or kill, which a language server prefers).
    """

    keras: str = "3"
    python: str = field(default_factory=lambda: sys.executable)
    timeout: float = DEFAULT_TIMEOUT
    start_timeout: float = DEFAULT_START_TIMEOUT
    memory_limit: int = DEFAULT_MEMORY_LIMIT
    restart: str = "lazy"
    env: Mapping[str, str] = field(default_factory=dict)
    # Keep a spare "fresh process" ready for save/load probes (costs one more TF import).
    prewarm_loader: bool = False

    def __post_init__(self) -> None:
        if self.keras not in KERAS_CHOICES:
            raise ValueError(f"keras must be one of {KERAS_CHOICES}, not {self.keras!r}")
        if self.restart not in ("lazy", "eager"):
            raise ValueError("restart must be 'lazy' or 'eager'")
        if self.timeout <= 0 or self.start_timeout <= 0:
            raise ValueError("timeouts must be positive")
        if self.memory_limit < 0:
            raise ValueError("memory_limit must be >= 0 (0 disables the limit)")

    def environment(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        """The worker's environment: Keras selection must happen before TF is imported."""
        env = dict(os.environ if base is None else base)
        env.update(self.env)
        if self.keras == "2":
            env["TF_USE_LEGACY_KERAS"] = "1"
        else:
            env.pop("TF_USE_LEGACY_KERAS", None)
        # Informational C++ logs (cuda stubs, CPU feature notes) are noise in captured stderr;
        # warnings and errors stay visible.
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        # Each glibc malloc arena reserves 64 MiB of address space; on a many-core machine the
        # arena count alone could exceed the RLIMIT_AS budget.
        env.setdefault("MALLOC_ARENA_MAX", "4")
        env.setdefault("PYTHONUNBUFFERED", "1")
        env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
        # A source checkout is not on the worker's path (it starts in a scratch directory).  An
        # installed tflsp already is, and exporting its site-packages would leak this
        # environment's packages into another interpreter.
        root = Path(__file__).resolve().parents[2]
        if root.name not in ("site-packages", "dist-packages"):
            paths = [str(root), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
            env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
        return env

    def command(self) -> list[str]:
        return [
            self.python,
            "-m",
            "tflsp.verify.worker",
            "--keras",
            self.keras,
            "--memory-limit",
            str(self.memory_limit),
        ]


def parse_size(text: str) -> int:
    """``"6G"``, ``"512M"``, ``"0"`` (no limit) or plain bytes."""
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    units = {"K": 1024, "M": 1024**2, "G": GIB, "T": 1024**4}
    if value and value[-1] in units:
        return int(float(value[:-1]) * units[value[-1]])
    return int(value)
