"""Printing: record sheets, stat cards and fleet books from jinja2 templates, via WeasyPrint.

This is the only layer that touches WeasyPrint, and only inside a worker process
(``shipyard.render.worker``); the core never imports it. Templates receive plain data
(reports dumped to dicts), never live objects, and run in jinja2's immutable sandbox.
"""
