# class: escaping (processes that outlive the grade)
# exercise: fault05
# Fork five children at import, each sleeping 30 s. They share the jail's pipes to the judge: their
# messages land in the middle of the parent's, and how the judge ended a jail whose children
# keep running was racy (graded alone 0.4 s; once, in a run of the whole corpus, no verdict in 60 s).
import os
import time

for _ in range(5):
    if os.fork() == 0:
        try:
            time.sleep(30)
        finally:
            os._exit(0)


def process_order(api, order_id, amount):
    api.mark_paid(order_id, api.charge(order_id, amount))
