"""Entry point of the PyInstaller bundle (packaging/benchlens.spec): the same `benchlens` command
as the pip-installed console script.

BENCHLENS_REPORT_CORE=1 prints which tokenizer core the bundle loaded (compiled importers._scan
or the pure-Python twin) on stderr first; packaging/smoke_test.sh uses it to check both.
"""

from __future__ import annotations

import os
import sys

from benchlens.app.cli import main

if __name__ == "__main__":
    if os.environ.get("BENCHLENS_REPORT_CORE") == "1":
        from benchlens.importers import _tokens

        core = "compiled" if _tokens.HAS_COMPILED_CORE else "pure Python"
        print(f"benchlens bundle: tokenizer core: {core}", file=sys.stderr)
    sys.exit(main())
