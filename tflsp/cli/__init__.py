"""The ``tflsp`` command line: check, rule, rules, serve, verify, docs."""
