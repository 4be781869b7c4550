"""Settings for the demo service."""
import os

DEBUG = True
PORT = int(os.environ.get("PORT", "8000"))
