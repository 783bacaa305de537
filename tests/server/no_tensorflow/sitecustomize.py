"""Loaded by Python at start-up when this folder is on PYTHONPATH (see test_no_tensorflow.py).

It makes TensorFlow and Keras unimportable, records every attempt, and writes the attempts and
the final ``sys.modules`` to the file named by ``TFLSP_MODULES_REPORT`` when the process exits.
"""

import atexit
import json
import os
import sys

BLOCKED = ("tensorflow", "tf_keras", "keras")
attempts = []


class _Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            attempts.append(name)
            raise ImportError(f"{name} is blocked: the language server must not import it")
        return None


sys.meta_path.insert(0, _Blocker())


def _report():
    target = os.environ.get("TFLSP_MODULES_REPORT")
    if target:
        with open(target, "w", encoding="utf-8") as handle:
            json.dump({"attempts": attempts, "modules": sorted(sys.modules)}, handle)


atexit.register(_report)
