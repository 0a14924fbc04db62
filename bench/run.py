"""Run every benchmark in bench/ and print its figures.

Usage (from the repository root, inside the project's virtual environment)::

    python bench/run.py            # every benchmark
    python bench/run.py movegen    # only bench_movegen.py
    python bench/run.py tournament # only bench_tournament.py (Swiss pairing, bracket PNG)
    python bench/run.py --quick    # smaller corpora, for a smoke run

Each ``bench/bench_*.py`` module defines ``run(quick: bool) -> list[str]``
returning report lines.  Benchmarks report *ratios against a reference
measured in the same run* (another engine, a baseline operation), so the
figures mean the same on any machine.  Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="small corpora for a smoke run")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE.parent))
    files = sorted(HERE.glob("bench_*.py"))
    if args.names:
        files = [f for f in files if f.stem.removeprefix("bench_") in args.names]
    if not files:
        print("no benchmark matched", file=sys.stderr)
        return 2
    for path in files:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        started = time.perf_counter()
        print(f"## {path.stem.removeprefix('bench_')}")
        for line in module.run(args.quick):
            print(line, flush=True)
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
