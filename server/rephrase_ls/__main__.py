"""Allow ``python -m rephrase_ls``."""

from rephrase_ls.cli import main

raise SystemExit(main())
