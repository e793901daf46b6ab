import sys

from armada_vision.cli import main

sys.exit(main())
