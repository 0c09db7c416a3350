import sys

from hw_tests.cli import main

try:
    sys.exit(main())
except BrokenPipeError:                  # `python -m hw_tests --list | head`: the reader left quietly
    sys.stderr.close()
    sys.exit(0)
