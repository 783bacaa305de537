"""How does ``tflsp verify`` do on real code?  Out of the box, false alarms, seeded bugs.

Real classes and functions from ``../shared/corpus`` and pinned PyPI wheels (see
``tests/verify/realcode/targets.py``) are cut out with what they need, verified with the plain
command (``tflsp verify FILE::NAME``, nothing else given), and scored against the truth checked
with TensorFlow.  Not a test (``tests/verify/test_real_targets.py`` is); this prints every
target's line and the totals, and can measure another checkout's ``tflsp`` (``--tflsp``).

Usage: ``python benchmarks/verify_real_targets.py [--set own|audit|all] [--seeds]
[--tflsp PATH] [--only KEY,...] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.verify.realcode.plan import build_cases  # noqa: E402
from tests.verify.realcode.run import Summary, run_cli, summarise  # noqa: E402
from tests.verify.realcode.targets import AUDIT, OWN  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=["own", "audit", "all"], default="all")
    parser.add_argument("--seeds", action="store_true", help="also verify the seeded bugs")
    parser.add_argument("--only", help="comma-separated target keys")
    parser.add_argument("--tflsp", type=Path, help="checkout whose tflsp to run (default: this)")
    parser.add_argument("--keep", type=Path, help="write the modules here and keep them")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--extra", default="", help="more arguments for tflsp verify")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tflsp-real-") as scratch:
        folder = args.keep or Path(scratch)
        cases, skipped = build_cases(
            args.corpus,
            folder,
            which=args.set,
            seeds=args.seeds,
            only=set(args.only.split(",")) if args.only else None,
        )
        for key, reason in skipped:
            print(f"skipped {key}: {reason}")
        seconds = run_cli(cases, tflsp_root=args.tflsp, extra=args.extra.split())
        summary = summarise(cases, seconds)
        for item in summary.scores:
            print(item.line())
        print()
        print(summary.text(f"{args.set} ({args.tflsp or ROOT})"))
        for name, keys in (("own", {t.key for t in OWN}), ("audit", {t.key for t in AUDIT})):
            part = [s for s in summary.scores if s.case.target.key in keys]
            if part and len(part) < len(summary.scores):
                print(Summary(part, seconds).text(f"  of which {name}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
