"""MkDocs hooks of the site build (named in mkdocs.yml).

The navigation file ``SUMMARY.md`` is generated with the pages, read by the literate-nav plugin, and
then taken out of the build: it is the site's menu, not a page of its own, and an orphan
``/SUMMARY/`` page would turn up in the sitemap and in search engines.
"""

from __future__ import annotations

from mkdocs.plugins import event_priority

NAV_FILE = "SUMMARY.md"


@event_priority(-200)            # after literate-nav (priority -100) has built the navigation from the file
def on_files(files, config):
    """Remove the navigation file from the files to build."""
    nav = files.get_file_from_path(NAV_FILE)
    if nav is not None:
        files.remove(nav)
    return files
