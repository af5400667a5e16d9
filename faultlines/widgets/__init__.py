"""Notebook widgets for the lessons.

Every widget draws its plot as inline SVG inside an ipywidgets ``HTML`` widget (see svgplot.py)
rather than with matplotlib or a Vega renderer: it needs no network (matplotlib in Pyodide comes
from a CDN), no JupyterLab extension (so it works the same in the site's lab, in a local Jupyter
and in VS Code), and it follows the notebook's light or dark theme through CSS variables. Each
widget also shows its numbers as text or a table, so it says something without colour.
"""
