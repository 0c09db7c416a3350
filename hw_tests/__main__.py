import sys

from hw_tests.cli import main

sys.exit(main())
