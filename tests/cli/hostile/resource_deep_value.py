# class: resource limits
# exercise: fault05
# A value nested a million deep (and one that contains itself), handed to the grader.
def _deep():
    value = []
    for _ in range(10**6):
        value = [value]
    return value


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
    loop = []
    loop.append(loop)
    return [_deep(), loop]
