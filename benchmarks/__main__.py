"""Run the benchmarks: ``python -m benchmarks`` (all) or ``python -m benchmarks engine replay``.

``python -m benchmarks soak [N]`` plays N soak games through the widgets instead (default
300; see benchmarks/soak.py) and exits 1 on any leak, junk accepted or exception escaped.
"""

from __future__ import annotations

import importlib
import sys

NAMES = ("engine", "replay", "bots", "widget", "expert", "coach", "page", "tables", "log")


def main(argv: list[str]) -> int:
    if argv[:1] == ["soak"]:
        from benchmarks import soak

        return soak.main(argv[1:])
    names = argv or list(NAMES)
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        print(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(NAMES)}",
              file=sys.stderr)
        return 2
    for name in names:
        try:
            module = importlib.import_module(f"benchmarks.bench_{name}")
        except ModuleNotFoundError as err:
            print(f"== {name}: not available ({err})")
            continue
        print(f"== {name}")
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
