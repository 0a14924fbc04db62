"""``python -m engine``: see :mod:`engine.cli`."""

from engine.cli import main

raise SystemExit(main())
