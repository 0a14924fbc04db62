"""List the licences of the installed runtime dependencies of bgbot; fail on GPL or AGPL.

The runtime closure is what ``pip install bgbot`` brings: the project's requirements without
its extras (not ``test``, not ``postgres``), then theirs, recursively, with environment markers
evaluated here.  A distribution's licence is read from its metadata: ``License-Expression``
(PEP 639), the ``License ::`` classifiers, then the ``License`` field.  Any GPL or AGPL
licence (not LGPL) fails the check: such code may only be a test dependency (gnubg-nn is
one, and must stay one).  Run by .ci/check: ``python .ci/licences.py``.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PROJECT = "bgbot"
COPYLEFT = re.compile(r"\bA?GPL|\bGNU (Affero )?General Public Licen[cs]e", re.IGNORECASE)
"""GPL and AGPL in any spelling (an SPDX id, a classifier, free text)."""
KNOWN = {"gnubg-nn": "GPL-3.0-or-later (GNU Backgammon's code; its metadata names none)"}
"""Licences of distributions whose metadata says nothing, from their sources."""
LESSER = re.compile(r"\bLGPL|Lesser General Public|Library General Public|Library or Lesser",
                    re.IGNORECASE)


def runtime_closure(project: str = PROJECT) -> dict[str, metadata.Distribution]:
    """Every distribution ``project`` needs at run time (itself excluded)."""
    found: dict[str, metadata.Distribution] = {}
    todo = [project]
    while todo:
        name = todo.pop()
        dist = metadata.distribution(name)
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue  # an extra's (test, postgres) or another platform's
            key = canonicalize_name(req.name)
            if key in found or key == canonicalize_name(project):
                continue
            try:
                found[key] = metadata.distribution(req.name)
            except metadata.PackageNotFoundError:
                raise SystemExit(f"licences: {req.name} (needed by {name}) is not "
                                 "installed") from None
            todo.append(req.name)
    return found


def licence(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    known = KNOWN.get(canonicalize_name(meta["Name"]))
    if known:
        return known
    expression = meta.get("License-Expression")
    if expression:
        return str(expression)
    classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::")]
    if classifiers:
        return "; ".join(classifiers)
    text = (meta.get("License") or "").strip()
    return text.splitlines()[0][:80] if text else "unknown"


def copyleft(text: str) -> bool:
    """Whether ``text`` names the GPL or the AGPL (the LGPL is not counted)."""
    return bool(COPYLEFT.search(LESSER.sub("", text)))


def main() -> int:
    closure = runtime_closure()
    bad = []
    print(f"licences of bgbot's {len(closure)} runtime dependencies:")
    for key in sorted(closure):
        dist = closure[key]
        text = licence(dist)
        flag = copyleft(text) or text == "unknown"
        bad += [key] if flag else []
        print(f"  {dist.metadata['Name']:<22} {dist.version:<16} {text}"
              + ("   <-- not allowed at run time" if flag else ""))
    if bad:
        print(f"licences: FAILED: {', '.join(bad)}: a GPL/AGPL licence would ship with the "
              "bot (keep such packages test-only), or the licence is unknown (read it, and "
              "add it to KNOWN in .ci/licences.py)")
        return 1
    print("licences: no GPL or AGPL at run time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
