"""``python -m tflsp`` runs the command line."""

from tflsp.cli.main import main

raise SystemExit(main())
