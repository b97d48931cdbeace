"""The package's release, and the engine's version apart from it.

Every stored ruling keeps the version of the engine that gave it (and the event's hash covers it),
so ``verify`` can tell a ruling this engine gives differently from an edited one. Raise it when the
engine rules any event differently (as the log format's version 1.1 corrections do), not with every
release of the package.
"""

ENGINE_VERSION = "1.2.0"  # log format 1.2: the officials' reviews, video and confirmations; the clock in choosing
PACKAGE_VERSION = "0.2.0"  # the release: CHANGELOG.md has a section for each (matchstate.__version__ is this)
