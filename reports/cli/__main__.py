import sys

from reports.cli import console_main

sys.exit(console_main())
