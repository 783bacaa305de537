"""Code that runs inside the verifier worker process (and its fresh loader children).

Only these modules may import TensorFlow, and only lazily: importing this package is free.
Nothing outside :mod:`tflsp.verify.worker` and :mod:`tflsp.verify.agent.loader` should import
the submodules that touch TensorFlow.
"""
