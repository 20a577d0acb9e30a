#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parse reST files with docutils and fail on any warning or error.

Sphinx roles the kernel uses (:ref:, :doc:) are registered as no-ops, so
what is checked is the structure make htmldocs would build from.
"""
import sys

from docutils import nodes, utils
from docutils.core import publish_doctree
from docutils.parsers.rst import roles


def passthrough(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []


for role in ("ref", "doc", "c:func", "c:type"):
    roles.register_local_role(role, passthrough)

status = 0
for path in sys.argv[1:]:
    report = []

    class Stream:
        def write(self, text):
            report.append(text)

    publish_doctree(open(path).read(), source_path=path,
                    settings_overrides={"report_level": 2, "halt_level": 5,
                                        "warning_stream": Stream()})
    if report:
        status = 1
        sys.stdout.write("".join(report))
    print("%s: %s" % (path, "warnings" if report else "clean"))
sys.exit(status)
