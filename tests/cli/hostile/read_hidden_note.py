# class: reading secrets
# exercise: fault05
# The hidden tiers hold a note (the test plants one): find any text in memory that is not this
# file's own and put it in a visible failure message, where the student would read it.
import gc


def _strings():
    seen = []
    for obj in gc.get_objects():
        if isinstance(obj, dict):
            for value in obj.values():
                if isinstance(value, str) and "NOTE" in value and "NOTE" not in __doc__:
                    seen.append(value)
    return seen


__doc__ = "no marker in here"


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    raise ValueError("found: " + " | ".join(_strings())[:2000])
