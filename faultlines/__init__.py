"""The Fault Lines course's own Python: the grader, the notebook widgets and the course models.

It stands on miniray and is never imported by it: miniray holds Ray's semantics only, and
everything that exists to teach (exercises, widgets, the fleet model) lives here.
"""
