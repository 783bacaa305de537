"""Programs in one warm worker must not see each other's process-wide changes."""

from __future__ import annotations

import pytest

from tflsp.verify import VerifierClient

pytestmark = pytest.mark.tf

POLLUTER = """
import logging, os, sys, warnings
import numpy as np
import tensorflow as tf
keras = tf.keras

tf.config.run_functions_eagerly(True)
tf.random.set_seed(1)
keras.backend.set_floatx("float64")
np.set_printoptions(precision=2)
warnings.simplefilter("ignore")
logging.basicConfig(level=logging.DEBUG)
sys.path.append("/polluted")
os.chdir("/")

@keras.utils.register_keras_serializable(package="polluter")
class Leaky(keras.layers.Layer):
    pass

for _ in range(3):
    keras.layers.Dense(1)
print("polluted")
"""

CHECKER = """
import logging, os, sys, warnings
import numpy as np
import tensorflow as tf
keras = tf.keras

print("eager functions:", tf.config.functions_run_eagerly())
print("floatx:", keras.backend.floatx())
print("printoptions precision:", np.get_printoptions()["precision"])
print("root handlers:", len(logging.getLogger().handlers))
print("polluted path:", "/polluted" in sys.path)
print("cwd is scratch:", os.getcwd() != "/")
print("leaky registered:", "polluter>Leaky" in keras.utils.get_custom_objects())
print("first dense name:", keras.layers.Dense(1).name)
warnings.warn("checker warning")
"""

EXPECTED = [
    "eager functions: False",
    "floatx: float32",
    "printoptions precision: 8",
    "root handlers: 0",
    "polluted path: False",
    "cwd is scratch: True",
    "leaky registered: False",
    "first dense name: dense",
]


@pytest.mark.parametrize("client_name", ["keras3", "keras2"])
def test_state_does_not_leak_between_programs(
    client_name: str, request: pytest.FixtureRequest
) -> None:
    client: VerifierClient = request.getfixturevalue(client_name)
    assert client.run_program("polluter.py", POLLUTER)["stdout"] == "polluted\n"
    first = client.run_program("checker.py", CHECKER)
    assert first["stdout"].splitlines() == EXPECTED
    # A warning shown once per location is shown again in the next program, as in a fresh
    # interpreter, and is recorded with the user's path.
    second = client.run_program("checker.py", CHECKER)
    for run in (first, second):
        assert "UserWarning: checker warning" in run["stderr"]
        assert [(w["category"], w["filename"]) for w in run["warnings"]] == [
            ("UserWarning", "checker.py")
        ]


def test_once_per_process_tensorflow_warnings_repeat_per_program(keras3: VerifierClient) -> None:
    source = "import tensorflow as tf\ntf.config.experimental_run_functions_eagerly(False)\n"
    for _ in range(2):
        run = keras3.run_program("deprecated.py", source)
        assert (
            "experimental_run_functions_eagerly" in run["stderr"]
            and "is deprecated" in run["stderr"]
        )


def test_exceptions_are_reported_with_the_users_path_and_line(keras3: VerifierClient) -> None:
    source = "import tensorflow as tf\n\n@tf.function\ndef f(x):\n    return x.numpy()\n\nf(tf.constant(1.0))\n"
    run = keras3.run_program("examples/bad.py", source)
    exception = run["exception"]
    assert exception["type"] == "AttributeError"
    assert "'SymbolicTensor' object has no attribute 'numpy'" in exception["message"]
    assert exception["line"] == 7
    assert (
        "examples/bad.py" in exception["traceback"] and "tflsp-run-" not in exception["traceback"]
    )
