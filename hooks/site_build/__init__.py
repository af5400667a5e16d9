"""The course site's build: lessons and exercises into pages and notebooks, figures and numbers
onto the pages, and the offline JupyterLite lab with its Pyodide kernel. pipeline.py holds the
steps in order; hooks/fault_lines_site.py hands MkDocs' events to it. serve.py is the static
server for the built site; browser.py the Chromium the site's tests and benchmark drive.
"""
