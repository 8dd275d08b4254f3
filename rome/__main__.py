import sys

from rome.cli import main

sys.exit(main())
