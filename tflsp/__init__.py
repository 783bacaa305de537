"""tflsp: finds, explains and verifies TensorFlow/Keras pitfalls.

The pattern catalog (:mod:`tflsp.catalog`) is the single source of truth; the analyzer
(:mod:`tflsp.analysis`), the command line (:mod:`tflsp.cli`), the language server
(:mod:`tflsp.server`), the verifier (:mod:`tflsp.verify`) and the Sphinx extension
(:mod:`tflsp.sphinxext`) all read it.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
