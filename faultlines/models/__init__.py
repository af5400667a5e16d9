"""Course models: small, honest models of things the lessons need that are not Ray's semantics.

Each module holds plain functions and result dataclasses; the widgets, the lessons' number
modules and the tests share them. Where a model stands on the fleet controller or a miniray
scenario that may move, the caller passes it in (a class or a function), so this package never
imports a path that is about to change.
"""
