"""Course models: small, honest models of things the lessons need that are not Ray's semantics,
and that run without miniray (formulas, tables, the fleet controller's own clock).

Each module holds plain functions and result dataclasses; the widgets, the lessons' number
modules and the tests share them. What runs miniray lives in `faultlines.stories`. Where a model
stands on the fleet controller or a scenario that may move, the caller passes it in (a class or
a function), so this package never imports a path that is about to change.
"""
